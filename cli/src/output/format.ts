/** How values read on a terminal and in piped output. One place per kind of value. */
import type { GameState } from '@propsfeed/contract';
import type { Colors } from './color';
import { printable } from './printable';

/** American odds with their sign; plus money stands out on a terminal. Absent (PrizePicks): a dash. */
export function formatOdds(odds: number | undefined, c: Colors): string {
  if (odds === undefined) return c.dim('–');
  return odds > 0 ? c.green(`+${odds}`) : String(odds);
}

/** Odds in piped output: signed number or empty. */
export function plainOdds(odds: number | undefined): string {
  if (odds === undefined) return '';
  return odds > 0 ? `+${odds}` : String(odds);
}

/** A chance (0–1) as a percentage to one decimal: 0.552 → 55.2%. */
export function formatPercent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A duration in words a glance can take in: 45s, 35m, 2h 15m, 3d 4h. */
export function formatDuration(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (Math.abs(ms) < 60_000) return `${Math.max(1, Math.round(Math.abs(ms) / 1000))}s`;
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d ${hours % 24}h`;
}

export interface Clock {
  now: () => Date;
  /** IANA zone for local times; the machine's own when undefined. */
  timeZone?: string;
}

function localParts(at: Date, clock: Clock) {
  const options = { timeZone: clock.timeZone, hour12: false } as const;
  const day = new Intl.DateTimeFormat('en-US', { ...options, weekday: 'short' }).format(at);
  const date = new Intl.DateTimeFormat('en-CA', { ...options, year: 'numeric', month: '2-digit', day: '2-digit' });
  const time = new Intl.DateTimeFormat('en-GB', { ...options, hour: '2-digit', minute: '2-digit' }).format(at);
  return { day, date: date.format(at), time };
}

/** Local clock time, with the weekday when it is not today: "19:30", "Mon 19:30". */
export function formatLocalTime(iso: string, clock: Clock): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const then = localParts(at, clock);
  const today = localParts(clock.now(), clock);
  return then.date === today.date ? then.time : `${then.day} ${then.time}`;
}

/** Local wall-clock time with seconds, e.g. for "updated 19:30:05". */
export function formatClockTime(at: Date, clock: Clock): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: clock.timeZone,
    hour12: false,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(at);
}

/** A game's state as a table shows it: a Game's own fields, or a row's gameState and gameClock. */
export interface GameWhen {
  startTime: string;
  /** Absent: not known to have started (pre-game). */
  state?: GameState | undefined;
  /** '<period> <m:ss>' while live, in the sport's periods. */
  clock?: string | undefined;
}

/**
 * Where a game stands, for a terminal: "LIVE Q3 4:12" while live, "FINAL" once over, before
 * the start its local time and how far off: "19:30 (in 2h)", "18:00 (started 20m ago)".
 */
export function formatStart(game: GameWhen, clock: Clock, c: Colors): string {
  if (game.state === 'live') return c.bold(c.red(game.clock ? `LIVE ${printable(game.clock)}` : 'LIVE'));
  if (game.state === 'final') return c.bold('FINAL');
  const at = new Date(game.startTime);
  if (Number.isNaN(at.getTime())) return printable(game.startTime);
  const delta = at.getTime() - clock.now().getTime();
  const relative = delta >= 0 ? `in ${formatDuration(delta)}` : `started ${formatDuration(delta)} ago`;
  return `${formatLocalTime(game.startTime, clock)} ${c.dim(`(${relative})`)}`;
}

export function matchup(game: { awayTeam: string; homeTeam: string }): string {
  return `${game.awayTeam} @ ${game.homeTeam}`;
}

/** A line or average: as posted, without float noise; a dash when there is none. */
export function formatNumber(value: number | null | undefined, c: Colors): string {
  if (value === null || value === undefined) return c.dim('–');
  return String(Math.round(value * 100) / 100);
}

export function plainNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(Math.round(value * 100) / 100);
}
