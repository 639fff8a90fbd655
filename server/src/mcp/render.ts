/** Compact text renderings a model can read: small aligned tables, capped, saying what was left out. */
import type { Game } from '@propsfeed/contract';

/** Most rows a tool's text shows; the structured content carries the full answer. */
export const TEXT_ROW_CAP = 50;

export type Cell = string | number | boolean | null | undefined;

export interface TableOptions {
  /** Rows that exist in all, when more than were passed (e.g. before the API's own limit). */
  total?: number;
  /** How to get a smaller answer, said when rows are left out, e.g. "narrow with stat/limit". */
  narrowHint?: string;
}

function cellText(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return String(cell);
}

/** Upper-case headers, columns padded to the widest cell, at most TEXT_ROW_CAP rows. */
export function table(headers: string[], rows: Cell[][], opts: TableOptions = {}): string {
  const shown = rows.slice(0, TEXT_ROW_CAP).map((row) => row.map(cellText));
  const head = headers.map((h) => h.toUpperCase());
  const widths = head.map((h, i) => Math.max(h.length, ...shown.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const lines = [line(head), ...shown.map(line)];
  const total = Math.max(opts.total ?? rows.length, rows.length);
  if (shown.length < total) {
    lines.push(`showing ${shown.length} of ${total}${opts.narrowHint ? `; ${opts.narrowHint}` : ''}`);
  }
  return lines.join('\n');
}

/** American odds with their sign: +120, -110. */
export function odds(value: number | undefined): string {
  if (value === undefined) return '-';
  return value > 0 ? `+${value}` : String(value);
}

export function matchup(game: { awayTeam: string; homeTeam: string }): string {
  return `${game.awayTeam} @ ${game.homeTeam}`;
}

/** ISO time to minutes in UTC, e.g. 2026-11-22 19:30Z: short, and unambiguous for a model. */
export function utcMinute(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

/** A chance (0–1) as a percentage to one decimal: 0.552 → 55.2%; empty when unknown. */
export function percent(p: number | null): string {
  return p === null ? '' : `${Math.round(p * 1000) / 10}%`;
}

export function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** Averages and projections to one decimal: enough to compare with a line like 25.5. */
export function roundTenth(value: number | null | undefined): number | undefined {
  return value === null || value === undefined ? undefined : Math.round(value * 10) / 10;
}

/** "1 mover", "3 movers". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A game's state as the table reads: LIVE with the clock, FINAL with the score (away-home) where known, blank before it starts. */
export function gameStateText(g: Pick<Game, 'state' | 'clock' | 'score'>): string {
  if (g.state === 'live') return g.clock ? `LIVE ${g.clock}` : 'LIVE';
  if (g.state === 'final') return g.score ? `FINAL ${g.score.away}-${g.score.home}` : 'FINAL';
  return '';
}
