/**
 * When each sport plays: its leagues' days and local start times, and who meets whom. A
 * slate is the games of one period of a league (a local day, or a week for leagues whose
 * teams play once a week); its matchups come from one seeded shuffle of the league's teams,
 * so no team plays twice in a period. Pure functions of (seed, sport, period).
 */
import { draw, stream } from './random';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** Local day 0 of every league: Monday 1 January 2024. */
const EPOCH_MS = Date.UTC(2024, 0, 1);
/** A slate never holds more games than this (32 teams), so k = slot * MAX + index is unique. */
const MAX_GAMES_PER_SLATE = 16;

/** Games starting at one local time: between `min` and `max` of them, drawn per period. */
export interface Window {
  /** Local start time, minutes after midnight. */
  at: number;
  min: number;
  max: number;
}

/** A league (or an esports region): teams that meet each other, on a weekly rhythm. */
export interface League {
  teams: readonly string[];
  /** Its local time, minutes east of UTC (fixed: daylight saving is left out). */
  utcOffsetMin: number;
  /** 'day': each local day pairs the teams afresh; 'week': once a week, Tuesday to Monday. */
  period: 'day' | 'week';
  /** Start windows per weekday of the local day, Sunday first (7 entries). */
  week: readonly (readonly Window[])[];
}

export interface ScheduledGame {
  /** Unique within the sport and stable: the game's slate and its place in it. */
  k: number;
  home: string;
  away: string;
  startMs: number;
}

/** "19:30" → a window of `min`–`max` games at 19:30 local. */
export function at(time: string, min: number, max = min): Window {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return { at: h * 60 + m, min, max };
}

/** The same windows on the listed weekdays (0 = Sunday), none on the others. */
export function onDays(days: readonly number[], windows: readonly Window[]): Window[][] {
  return [0, 1, 2, 3, 4, 5, 6].map((d) => (days.includes(d) ? [...windows] : []));
}

/** Per-weekday windows merged: each weekday gets the windows of every part. */
export function weekOf(...parts: readonly (readonly (readonly Window[])[])[]): Window[][] {
  return [0, 1, 2, 3, 4, 5, 6].map((d) => parts.flatMap((p) => p[d] ?? []).sort((a, b) => a.at - b.at));
}

const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
export const EVERY_DAY = (windows: readonly Window[]): Window[][] => onDays(ALL_DAYS, windows);

function shuffled(teams: readonly string[], next: () => number): string[] {
  const out = [...teams];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

export class Calendar {
  private readonly slates = new Map<string, ScheduledGame[]>();

  constructor(
    private readonly seed: number,
    private readonly sportId: string,
    private readonly leagues: readonly League[],
  ) {}

  /** The games of league `li` in period `p` (local day index, or week index), in start order. */
  slate(li: number, p: number): ScheduledGame[] {
    const key = `${li}|${p}`;
    const cached = this.slates.get(key);
    if (cached) return cached;
    const league = this.leagues[li] as League;
    const r = stream(this.seed, 'slate', this.sportId, li, p);
    const order = shuffled(league.teams, r);
    const pairs = Math.min(MAX_GAMES_PER_SLATE, Math.floor(order.length / 2));
    // A week runs Tuesday (local day 1 of the week counting from Monday) to Monday.
    const days = league.period === 'day' ? [p] : [1, 2, 3, 4, 5, 6, 7].map((d) => p * 7 + d);
    const games: ScheduledGame[] = [];
    for (const day of days) {
      const weekday = (day + 1) % 7;
      for (const w of league.week[weekday] ?? []) {
        const n = w.min + Math.floor(draw(this.seed, 'count', this.sportId, li, day, w.at) * (w.max - w.min + 1));
        for (let i = 0; i < n && games.length < pairs; i++) {
          const idx = games.length;
          games.push({
            k: (p * this.leagues.length + li) * MAX_GAMES_PER_SLATE + idx,
            home: order[2 * idx] as string,
            away: order[2 * idx + 1] as string,
            startMs: EPOCH_MS + day * DAY + (w.at - league.utcOffsetMin) * MIN,
          });
        }
      }
    }
    if (this.slates.size > 5_000) this.slates.clear();
    this.slates.set(key, games);
    return games;
  }

  /** Every league's games starting in [fromMs, toMs), in start order. */
  gamesStarting(fromMs: number, toMs: number): ScheduledGame[] {
    const out: ScheduledGame[] = [];
    this.leagues.forEach((league, li) => {
      const localDay = (ms: number) => Math.floor((ms - EPOCH_MS + league.utcOffsetMin * MIN) / DAY);
      // A local day's windows reach past its midnight in UTC by the offset: one period of margin each side.
      const span = league.period === 'day' ? 1 : 7;
      const first = Math.floor((localDay(fromMs) - (span === 7 ? 1 : 0)) / span) - 1;
      const last = Math.floor((localDay(toMs) - (span === 7 ? 1 : 0)) / span) + 1;
      for (let p = first; p <= last; p++) {
        for (const g of this.slate(li, p)) if (g.startMs >= fromMs && g.startMs < toMs) out.push(g);
      }
    });
    return out.sort((a, b) => a.startMs - b.startMs || a.k - b.k);
  }
}
