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
});
