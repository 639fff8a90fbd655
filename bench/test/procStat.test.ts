import { describe, expect, it } from 'vitest';
import {
  describeOtherThreads,
  parseProcStat,
  type ThreadCpu,
  threadShares,
  threadsOf,
  UNNAMED_THREADS,
} from '../process';

/** A stat line as Linux writes it: pid (comm) state, then ppid … utime (14th) stime (15th) …. */
function statLine(comm: string, utime: number, stime: number): string {
  return `4242 (${comm}) S 1 2 3 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 12 0 123456 1000000 2000\n`;
}

describe('parseProcStat', () => {
  it('reads the command name and utime + stime in seconds (100 ticks a second)', () => {
    expect(parseProcStat(statLine('node', 250, 50))).toEqual({ comm: 'node', cpuSeconds: 3 });
  });

  it('counts fields from the last parenthesis, so a name holding spaces and parentheses does not shift them', () => {
    expect(parseProcStat(statLine('a) (b c) 9 9', 7, 3))).toEqual({ comm: 'a) (b c) 9 9', cpuSeconds: 0.1 });
    expect(parseProcStat(statLine(') ', 1, 1))).toEqual({ comm: ') ', cpuSeconds: 0.02 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('4242 node S 1 2')).toThrow(/not a \/proc stat line/);
    expect(() => parseProcStat('4242 (node) S 1 2 3')).toThrow(/not a \/proc stat line/);
    expect(() => parseProcStat(statLine('node', Number.NaN, 1))).toThrow(/not a \/proc stat line/);
  });

  it.runIf(process.platform === 'linux')('reads this process: its own main thread among its threads', () => {
    const threads = threadsOf(process.pid);
    const main = threads.find((t) => t.tid === process.pid);
    expect(main?.cpuSeconds).toBeGreaterThan(0);
    expect(threads.length).toBeGreaterThan(1);
  });
});

const thread = (tid: number, comm: string, cpuSeconds: number): ThreadCpu => ({ tid, comm, cpuSeconds });

describe('threadShares', () => {
  it('unnamed threads (the process name, as on Node 20) are one group; the busiest are listed one by one', () => {
    const before = [thread(10, 'node', 1), thread(11, 'node', 5), thread(12, 'node', 2), thread(13, 'node', 0)];
    const after = [thread(10, 'node', 1.5), thread(11, 'node', 7), thread(12, 'node', 2.25), thread(13, 'node', 0)];
    const shares = threadShares(before, after, 10, 10);
    expect(shares.main).toBeCloseTo(0.05);
    expect(shares.groups).toEqual([{ name: UNNAMED_THREADS, threads: 3, share: expect.closeTo(0.225) }]);
    expect(shares.busiest).toEqual([
      { tid: 11, name: 'node', share: expect.closeTo(0.2) },
      { tid: 12, name: 'node', share: expect.closeTo(0.025) },
    ]);
  });

  it('named threads (Node 24) are grouped by name, busiest group first; a thread started meanwhile counts from zero', () => {
    const before = [thread(10, 'MainThread', 0), thread(11, 'V8Worker', 1), thread(12, 'V8Worker', 1)];
    const after = [
      thread(10, 'MainThread', 0.1),
      thread(11, 'V8Worker', 1.1),
      thread(12, 'V8Worker', 1.2),
      thread(14, 'ingest', 0.8),
    ];
    const shares = threadShares(before, after, 2, 10);
    expect(shares.main).toBeCloseTo(0.05);
    expect(shares.groups.map((g) => [g.name, g.threads, Number(g.share.toFixed(3))])).toEqual([
      ['ingest', 1, 0.4],
      ['V8Worker', 2, 0.15],
    ]);
    expect(shares.busiest[0]).toEqual({ tid: 14, name: 'ingest', share: expect.closeTo(0.4) });
    expect(describeOtherThreads(shares)).toBe(
      '55.0 % [ingest 40.0 %, V8Worker ×2 15.0 %]; busiest: tid 14 (ingest) 40.0 %, tid 12 (V8Worker) 10.0 %',
    );
  });

  it('says how many quiet names it leaves out', () => {
    const before = [thread(1, 'MainThread', 0), thread(2, 'SignalInspector', 0), thread(3, 'DelayedTaskSche', 0)];
    const after = [thread(1, 'MainThread', 0), thread(2, 'SignalInspector', 0), thread(3, 'DelayedTaskSche', 0)];
    expect(describeOtherThreads(threadShares(before, after, 1, 1, 1))).toBe(
      '0.0 % [2 more names at 0.0 %]; busiest: tid 2 (SignalInspector) 0.0 %',
    );
  });
});
