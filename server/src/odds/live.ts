/**
 * In-game chances: the value so far plus the pre-game estimate's distribution over the share
 * of regulation the books' clock says is left. A prop whose value already beats the line is
 * decided.
 */
import type { SportId } from '@propsfeed/contract';
import { integerPmf, remainingModel, type StatModel, sidesOfPmf } from './distribution';

/** Regulation as the books' clock shows it: periods, their minutes, and whether the clock counts down. */
const REGULATION: Record<SportId, { periods: number; minutes: number; countdown: boolean } | null> = {
  nba: { periods: 4, minutes: 12, countdown: true },
  wnba: { periods: 4, minutes: 10, countdown: true },
  ncaab: { periods: 2, minutes: 20, countdown: true },
  nfl: { periods: 4, minutes: 15, countdown: true },
  ncaaf: { periods: 4, minutes: 15, countdown: true },
  nhl: { periods: 3, minutes: 20, countdown: true },
  // Soccer's and esports' clocks count up through the match.
  soccer: { periods: 2, minutes: 45, countdown: false },
  lol: { periods: 2, minutes: 40, countdown: false },
  // Innings, no clock.
  mlb: null,
};

/**
 * The share of regulation played by the clock ('<label><period> <m:ss>', as the board shows
 * it), in [0, 1]; undefined when the sport has no clock or the clock cannot be read.
 */
export function playedShare(sport: SportId, clock: string | undefined): number | undefined {
  const reg = REGULATION[sport];
  const m = clock === undefined ? null : /(\d+)\D*\s+(\d{1,3}):(\d{2})$/.exec(clock.trim());
  if (!reg || !m) return undefined;
  const period = Math.min(reg.periods, Number(m[1]));
  const seconds = Number(m[2]) * 60 + Number(m[3]);
  const total = reg.periods * reg.minutes * 60;
  const played = reg.countdown ? (period - 1) * reg.minutes * 60 + (reg.minutes * 60 - seconds) : seconds;
  return Math.min(1, Math.max(0, played / total));
}

export interface LiveChances {
  pOver: number;
  pUnder: number;
  pPush: number;
  /** The value so far already beats the line: the over has won. */
  decided: boolean;
}

/** A model's variance. */
function varianceOf(model: StatModel): number {
  if (model.kind === 'poisson') return model.mean;
  if (model.kind === 'negbin') return model.mean + model.mean ** 2 / model.r;
  return model.sd ** 2;
}

/**
 * What is left to play, given `soFar` at `played` of the game. The prior's variance is two
 * parts: the player's own game-to-game spread (variance mean + `inherent`·mean², spread over
 * the game as independent increments, as the simulator and a real box score do) and the
 * estimate's doubt about his mean, which holds for the whole game. The value so far is evidence
 * about that mean, so the mean of what is left is updated on it (a normal approximation of the
 * posterior), and only the doubt left after the update scales with the square of the share left.
 */
export function remainingGiven(prior: StatModel, soFar: number, played: number, inherent: number): StatModel {
  const p = Math.min(1, Math.max(0, played));
  const left = 1 - p;
  const mean = Math.max(prior.mean, 1e-9);
  const total = varianceOf(prior);
  // The player's own over-dispersion, never more than the prior's whole spread allows.
  const own = Math.min(inherent, Math.max(0, (total - mean) / (mean * mean)));
  const doubt = Math.max(0, total - (mean + own * mean * mean));
  // soFar ~ (mean·p, own variance·p) given the mean; the mean ~ (prior mean, doubt).
  const noise = (mean + own * mean * mean) * p;
  const gain = p > 0 && doubt > 0 ? (doubt * p) / (doubt * p * p + noise) : 0;
  const updated = Math.max(0.01, mean + gain * (soFar - mean * p));
  const doubtLeft = doubt * (1 - gain * p);
  const restMean = updated * left;
  const restVariance = left * (updated + own * updated * updated) + doubtLeft * left * left;
  if (prior.kind === 'normal')
    return { kind: 'normal', mean: restMean, sd: Math.sqrt(Math.max(restVariance, 1e-9)), integer: prior.integer };
  if (restVariance > restMean * 1.0001)
    return { kind: 'negbin', mean: restMean, r: restMean ** 2 / (restVariance - restMean) };
  return { kind: 'poisson', mean: restMean };
}

/**
 * The final is the value so far plus what is left (remainingGiven: the player's distribution
 * over the share of the game left, its mean updated on the value so far when `inherent` says
 * how much of the prior's spread is his own); then the sides at `line`.
 */
export function liveChances(
  prior: StatModel,
  soFar: number,
  played: number,
  line: number,
  inherent?: number,
): LiveChances {
  if (soFar > line) return { pOver: 1, pUnder: 0, pPush: 0, decided: true };
  const left = 1 - Math.min(1, Math.max(0, played));
  const shown = Math.max(0, Math.round(soFar));
  const rest =
    left > 0
      ? integerPmf(
          inherent === undefined ? remainingModel(prior, left) : remainingGiven(prior, soFar, played, inherent),
        )
      : [1];
  const sides = sidesOfPmf([...new Array<number>(shown).fill(0), ...rest], line);
  return { ...sides, decided: false };
}

/** A game's typical length where the books show no clock (baseball): the share played is read from the time since the start. */
const TYPICAL_MINUTES: Partial<Record<SportId, number>> = { mlb: 180 };

/** The share played by the clock, or (no clock) by the time since the start against the sport's typical length. */
export function playedShareAt(
  sport: SportId,
  clock: string | undefined,
  startMs: number,
  now: number,
): number | undefined {
  const byClock = playedShare(sport, clock);
  if (byClock !== undefined) return byClock;
  const typical = TYPICAL_MINUTES[sport];
  return typical === undefined ? undefined : Math.min(1, Math.max(0, (now - startMs) / (typical * 60_000)));
}
