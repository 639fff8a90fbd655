/** The game clock as the API shows it: '<period> <m:ss>' (e.g. "Q3 5:32", "P2 11:04", "2H 67:10"). */
import type { SportId } from '@propsfeed/contract';

const quarters = (n: number): string => (n <= 4 ? `Q${n}` : `OT${n - 4}`);

const PERIOD_LABEL: Record<SportId, ((n: number) => string) | null> = {
  nba: quarters,
  wnba: quarters,
  ncaab: (n) => (n <= 2 ? `H${n}` : `OT${n - 2}`),
  nfl: (n) => (n <= 4 ? `Q${n}` : 'OT'),
  ncaaf: quarters,
  nhl: (n) => (n <= 3 ? `P${n}` : 'OT'),
  soccer: (n) => `${n}H`,
  lol: (n) => `G${n}`,
  // Baseball has innings, not a clock.
  mlb: null,
};

/** Undefined when the sport has no clock or the parts are missing or malformed. */
export function formatClock(sport: SportId, period: number | undefined, clock: string | undefined): string | undefined {
  const label = PERIOD_LABEL[sport];
  if (!label || period === undefined || period < 1 || !clock) return undefined;
  const m = /^(\d{1,3}):(\d{2})$/.exec(clock.trim());
  if (!m) return undefined;
  return `${label(Math.floor(period))} ${Number(m[1])}:${m[2]}`;
}
