/** `pnpm backtest --real DIR`: the format it reads, its scores on a hand-built set, and one sentence on bad input. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runRealBacktest } from '../backtest/real';

const LOGS = [
  'date,sport,player,team,opponent,home_away,stat,value',
  ...[20, 22, 24, 26, 28].map((v, i) => `2024-01-0${i + 1},nba,Ann Lee,DEN,LAL,home,pra,${v}`),
  '2024-01-06,nba,Ann Lee,DEN,LAL,home,pra,30',
  '2024-01-06,nba,Bo Kim,LAL,DEN,away,pra,8',
].join('\n');
const HEADER = 'date,sport,player,team,opponent,stat,line,book,over_odds,under_odds,taken_at,start_time';
const PROPS = [
  HEADER,
  // Ann Lee 24.5: -110/-110 (0.5) and -120/+100 (0.54545 / 1.04545 = 0.52174): consensus 0.51087; she scores 30.
  '2024-01-06,nba,Ann Lee,DEN,LAL,pra,24.5,book1,-110,-110,2024-01-06T23:00:00Z,',
  '2024-01-06,nba,Ann Lee,DEN,LAL,pra,24.5,book2,-120,+100,2024-01-06T23:00:00Z,',
  // Bo Kim 10.5: +110/-130, 0.47619 / (0.47619 + 0.56522) = 0.45726; he scores 8. No earlier logs: ours is the market's.
  '2024-01-06,nba,Bo Kim,LAL,DEN,pra,10.5,book1,+110,-130,,',
].join('\n');

let dir: string;
let out: string[];
let err: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-real-'));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const run = (props: string, logs = LOGS, extra: string[] = []) => {
  writeFileSync(join(dir, 'props.csv'), props);
  writeFileSync(join(dir, 'logs.csv'), logs);
  return runRealBacktest(['node', 'backtest', '--real', dir, ...extra]);
};

describe('pnpm backtest --real', () => {
  it('names the set, then scores ours, the consensus and a coin at every line, and the bets at the best prices', () => {
    expect(run(PROPS)).toBe(0);
    expect(out[0]).toBe(
      `backtest --real: ${dir}: props.csv 3 rows (2 player-dates, 2 books, 2024-01-06..2024-01-06), logs.csv 7 rows`,
    );
    const text = out.join('\n');
    // Brier of the consensus: ((1 − 0.51087)² + 0.45726²) / 2 = (0.23925 + 0.20908) / 2 = 0.22417.
    expect(text).toMatch(/ {2}market \(consensus\) +n +2 {2}Brier 0\.2242 /);
    expect(text).toMatch(/ {2}coin +n +2 {2}Brier 0\.2500 /);
    expect(text).toMatch(/ {2}ours +n +2 {2}Brier 0\.2\d{3} /);
    // The coin bets Ann's under at +100 (0.5 − 0.5 = 0) and Bo's over at +110 (0.5 − 0.4762 = 0.024): both lose.
    expect(text).toContain('  coin                   ≥0.00  picks      2  hit 0.0 ±0.0  ROI -100.0 ±0.0 %');
    expect(text).toContain('  coin                   ≥0.02  picks      1  hit 0.0 ±0.0  ROI -100.0 ±- %');
    expect(text).toContain('  coin                   ≥0.05  picks      0');
  });

  it('fits on the props before --fit-until and prints the coefficients to paste', () => {
    const later = PROPS.replaceAll('2024-01-06', '2024-01-07').split('\n').slice(1);
    const logs = `${LOGS}\n2024-01-07,nba,Ann Lee,DEN,LAL,home,pra,25\n2024-01-07,nba,Bo Kim,LAL,DEN,away,pra,12`;
    expect(run([PROPS, ...later].join('\n'), logs, ['--fit-until', '2024-01-07'])).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('2024-01-06..2024-01-06, 2 finals; scored from 2024-01-07');
    expect(text).toContain('REAL_COEFFICIENTS (paste into server/src/odds/coefficients.ts):');
    expect(text).toContain('"kind": "real"');
  });

  it('refuses bad input in one sentence with a non-zero exit', () => {
    const cases: [string, string, RegExp][] = [
      [
        PROPS.replace('-120,+100', '-50,+100'),
        LOGS,
        /^backtest --real: props\.csv line 3: over_odds '-50' is not American odds/,
      ],
      [PROPS.replace('24.5,book1', 'x,book1'), LOGS, /^backtest --real: props\.csv line 2: line 'x' is not a number/],
      [PROPS.replace(',book,', ',bookie,'), LOGS, /^backtest --real: props\.csv line 1: missing column book /],
      [
        PROPS,
        LOGS.replace(',pra,8', ',pra,eight'),
        /^backtest --real: logs\.csv line 8: value 'eight' is not a number/,
      ],
    ];
    for (const [props, logs, message] of cases) {
      err = [];
      expect(run(props, logs)).toBe(1);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(message);
      expect(err[0]).toMatch(/\.$/);
    }
    rmSync(join(dir, 'logs.csv'));
    err = [];
    expect(runRealBacktest(['node', 'backtest', '--real', dir])).toBe(1);
    expect(err[0]).toBe(
      `backtest --real: ${join(dir, 'logs.csv')} cannot be read (no such file); DIR must hold props.csv and logs.csv (docs/edges.md).`,
    );
  });
});
