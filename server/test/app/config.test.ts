/** Configuration rules that span variables are checked where the environment is parsed. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('config', () => {
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
