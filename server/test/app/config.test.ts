/** Configuration rules that span variables are checked where the environment is parsed. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('config', () => {
  it('reads PROPS_SIM_CLOCK as a UTC instant and refuses anything else, and beside the real books or Redis', () => {
    expect(loadConfig({}).PROPS_SIM_CLOCK).toBeUndefined();
    expect(loadConfig({ PROPS_SIM_CLOCK: '2026-11-27T01:30:00Z' }).PROPS_SIM_CLOCK).toBe(
      Date.parse('2026-11-27T01:30:00Z'),
    );
    expect(loadConfig({ PROPS_SIM_CLOCK: '2026-11-27T01:30Z' }).PROPS_SIM_CLOCK).toBe(Date.parse('2026-11-27T01:30Z'));
    expect(loadConfig({ PROPS_SIM_CLOCK: '2026-11-27T01:30:00.25Z' }).PROPS_SIM_CLOCK).toBe(
      Date.parse('2026-11-27T01:30:00.250Z'),
    );
    for (const bad of [
      '1',
      'now',
      '2026-11-27',
      '2026-11-27T01:30:00',
      '2026-11-27T01:30:00+02:00',
      '2026-02-30T00:00:00Z',
      '2026-11-27T24:00:00Z',
      '1969-11-27T01:30:00Z',
    ]) {
      expect(() => loadConfig({ PROPS_SIM_CLOCK: bad }), bad).toThrow(
        /PROPS_SIM_CLOCK: must be an ISO 8601 UTC instant/,
      );
    }
    expect(() => loadConfig({ PROPS_SIM_CLOCK: '2026-11-27T01:30:00Z', PROPS_BOOKS: 'prizepicks' })).toThrow(
      /PROPS_SIM_CLOCK: sets the simulated books' clock/,
    );
    expect(() =>
      loadConfig({
        PROPS_SIM_CLOCK: '2026-11-27T01:30:00Z',
        PROPS_REDIS_URL: 'redis://127.0.0.1:6379',
        PROPS_DATABASE_URL: 'postgres://127.0.0.1/test',
      }),
    ).toThrow(/PROPS_SIM_CLOCK: is for one server/);
  });

  it('refuses Redis without a database URL, naming the variable', () => {
    expect(() => loadConfig({ PROPS_REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROPS_REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /PROPS_REDIS_URL: needs PROPS_DATABASE_URL too/,
    );
    expect(
      loadConfig({ PROPS_REDIS_URL: 'redis://127.0.0.1:6379', PROPS_DATABASE_URL: 'postgres://127.0.0.1/test' })
        .PROPS_REDIS_URL,
    ).toBe('redis://127.0.0.1:6379');
  });

  it('reads PROPS_ALLOWED_HOSTS as host names and PROPS_ALLOWED_ORIGINS as origins, refusing anything else', () => {
    expect(loadConfig({}).PROPS_ALLOWED_HOSTS).toEqual([]);
    expect(loadConfig({}).PROPS_ALLOWED_ORIGINS).toEqual([]);
    expect(loadConfig({ PROPS_ALLOWED_HOSTS: 'API.example.com, 10.0.0.5,[::2]' }).PROPS_ALLOWED_HOSTS).toEqual([
      'api.example.com',
      '10.0.0.5',
      '[::2]',
    ]);
    for (const bad of ['api.example.com:8787', 'https://api.example.com', 'api.example.com/mcp', 'user@host', '::2']) {
      expect(() => loadConfig({ PROPS_ALLOWED_HOSTS: bad }), bad).toThrow(/PROPS_ALLOWED_HOSTS: .*is not a host name/);
    }
    expect(
      loadConfig({ PROPS_ALLOWED_ORIGINS: 'https://agent.example, http://localhost:5173' }).PROPS_ALLOWED_ORIGINS,
    ).toEqual(['https://agent.example', 'http://localhost:5173']);
    for (const bad of ['*', 'agent.example', 'https://agent.example/app']) {
      expect(() => loadConfig({ PROPS_ALLOWED_ORIGINS: bad }), bad).toThrow(
        /PROPS_ALLOWED_ORIGINS: .*is not an origin/,
      );
    }
  });

  it('reads PROPS_TRUST_PROXY as a hop count or proxy addresses and CIDRs, and refuses anything else', () => {
    expect(loadConfig({}).PROPS_TRUST_PROXY).toBe(false);
    expect(loadConfig({ PROPS_TRUST_PROXY: '0' }).PROPS_TRUST_PROXY).toBe(false);
    expect(loadConfig({ PROPS_TRUST_PROXY: '2' }).PROPS_TRUST_PROXY).toBe(2);
    expect(loadConfig({ PROPS_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).PROPS_TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'lb.internal', '10.0.0.0/8,', '99']) {
      expect(() => loadConfig({ PROPS_TRUST_PROXY: bad }), bad).toThrow(/PROPS_TRUST_PROXY: /);
    }
    expect(loadConfig({}).PROPS_SIGNUP_PER_MINUTE).toBe(60);
    expect(loadConfig({}).PROPS_SIGNUP_PER_DAY).toBe(2000);
    expect(() => loadConfig({ PROPS_SIGNUP_PER_DAY: '-1' })).toThrow(/PROPS_SIGNUP_PER_DAY/);
  });
});
