/** Steps in turn: each starts once the one before has settled, failures are the caller's and stop nothing. */
import { describe, expect, it } from 'vitest';
import { serially, seriallyByKey } from '../../src/util/serially';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('serially', () => {
  it('runs each step after the one before settled, a failure included', async () => {
    const inTurn = serially();
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const a = inTurn(step('a'));
    const b = inTurn(step('b', true));
    const c = inTurn(step('c'));
    expect(await a).toBe('a');
    await expect(b).rejects.toThrow('b');
    expect(await c).toBe('c');
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('by key: one key in turn, another alongside', async () => {
    const inTurn = seriallyByKey();
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([inTurn('k', step('k1')), inTurn('k', step('k2')), inTurn('j', step('j1'))]);
    expect(log.indexOf('k2 start')).toBeGreaterThan(log.indexOf('k1 end'));
    expect(log.indexOf('j1 start')).toBeLessThan(log.indexOf('k1 end'));
  });
});
