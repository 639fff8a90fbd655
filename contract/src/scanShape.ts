/**
 * How a scan's rows are shaped before its limit: one definition, used by the server for
 * `GET /props?sort=&minBooks=` and by the CLI for a `--watch` board it holds itself.
 */
import type { ScanSort } from './catalog';
import type { ScanRow } from './schemas/prop';

export interface ScanShape {
  sort?: ScanSort | undefined;
  minBooks?: number | undefined;
}

/** Best price of either side; rows without odds (PrizePicks only) rank last. */
function bestOdds(row: ScanRow): number {
  return Math.max(row.overOdds ?? Number.NEGATIVE_INFINITY, row.underOdds ?? Number.NEGATIVE_INFINITY);
}

const edgeOf = (row: ScanRow) => row.edge?.edge ?? Number.NEGATIVE_INFINITY;

/** Each sort as a comparison (`|| 0`: two rows without a value compare equal, not NaN). */
export const SCAN_ORDER: Record<ScanSort, (a: ScanRow, b: ScanRow) => number> = {
  line: (a, b) => b.line - a.line,
  odds: (a, b) => bestOdds(b) - bestOdds(a) || 0,
  edge: (a, b) => edgeOf(b) - edgeOf(a) || 0,
  books: (a, b) => b.bookCount - a.bookCount,
  player: (a, b) => a.player.localeCompare(b.player, 'en'),
};

/** Whether a shape changes anything: a sort, or a book floor above 1. */
export function isShaped(shape: ScanShape | undefined): boolean {
  return shape?.sort !== undefined || (shape?.minBooks ?? 1) > 1;
}

/** The rows kept to minBooks, then sorted (stable: ties keep the board's order); a new array. */
export function shapeScanRows(rows: readonly ScanRow[], shape: ScanShape | undefined): ScanRow[] {
  const minBooks = shape?.minBooks ?? 1;
  const kept = rows.filter((row) => row.bookCount >= minBooks);
  if (shape?.sort) kept.sort(SCAN_ORDER[shape.sort]);
  return kept;
}
