/** How the page writes numbers, odds, chances and times (text only: nothing here makes HTML). */
import type { GameState } from '@propsfeed/sdk';

export { BOOK_NAMES, BOOKS } from '@propsfeed/sdk';

/** −120 / +105, with a real minus sign; '—' when absent. */
export function odds(value: number | undefined): string {
  if (value === undefined) return '—';
  return value > 0 ? `+${value}` : `−${Math.abs(value)}`;
}

/** " (−120 / +100)" after a line; nothing for a book that posts no prices (PrizePicks). */
export function prices(over: number | undefined, under: number | undefined): string {
  return over === undefined && under === undefined ? '' : ` (${odds(over)} / ${odds(under)})`;
}

/** 0.5812 → "58.1 %". */
export function pct(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined) return '—';
  return `${(value * 100).toFixed(digits)} %`;
}

/** An edge (a probability difference) in percentage points: 0.039 → "+3.9 pts". */
export function points(value: number): string {
  const p = value * 100;
  return `${p >= 0 ? '+' : '−'}${Math.abs(p).toFixed(1)} pts`;
}

/** A line or stat value: 24.5, 25, 3.25 (no trailing zeros). */
export function num(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return String(Math.round(value * 100) / 100);
}

/** 19:05 UTC, the time of day of an ISO time or epoch ms. */
export function clockTime(at: string | number): string {
  const d = new Date(at);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`;
}

/** "Bulls" from "Chicago Bulls" (the last word; enough to tell tonight's games apart). */
export const shortTeam = (team: string) => team.split(' ').at(-1) ?? team;

export function stateText(game: { state: GameState; clock?: string; startTime: string }): string {
  if (game.state === 'live') return game.clock ? `live, ${game.clock}` : 'live';
  if (game.state === 'final') return 'final';
  return `starts ${clockTime(game.startTime)}`;
}

export const statName = (stat: string) => stat.replaceAll('_', ' ');

/** The count of something with its noun: 1 line, 4 lines. */
export const count = (n: number, noun: string, plural = `${noun}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
