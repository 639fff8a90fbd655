import {
  BOOKS,
  DEFAULT_SPORT,
  MAX_SCAN_LIMIT,
  SCAN_SORTS,
  ScanResponseSchema,
  type ScanRow,
} from '@propsfeed/contract';
import { z } from 'zod';
import { odds, plural, roundTenth, table } from '../render';
import { sportField, statField } from './context';
import { defineTool } from './tool';

/** Rows a model gets unless it asks for more: enough to compare, small enough to read. */
const DEFAULT_SCAN_LIMIT = 50;

/** The scan-row columns shared by scan_props and find_player_props. */
export function scanRowCells(row: ScanRow): (string | number | undefined)[] {
  return [
    row.player,
    row.stat,
    row.line,
    odds(row.overOdds),
    odds(row.underOdds),
    row.bookCount,
    roundTenth(row.propsfeedProjection?.value),
    `${row.awayTeam} @ ${row.homeTeam}${row.gameState === 'live' ? ' LIVE' : row.gameState === 'final' ? ' FINAL' : ''}`,
    row.eventId,
  ];
}
export const SCAN_ROW_HEADERS = ['player', 'stat', 'line', 'over', 'under', 'books', 'proj', 'game', 'game id'];

export const scanPropsTool = defineTool({
  name: 'scan_props',
  title: 'Scan props',
  description:
    "Every player prop of today's games for one sport, flattened to one row per player and stat with its game " +
    '(consensus line, best American odds, number of books, and propsfeed\'s projection "proj" when the player has ' +
    'at least 5 recorded games). Live props come first; finished games are left out. Use it to compare lines across a slate, e.g. every points line in the NBA. ' +
    `Returns ${DEFAULT_SCAN_LIMIT} rows unless limit asks for more; the tier caps rows (scanLimit) and tiers without live lines get no live rows.`,
  input: z.object({
    sport: sportField.default(DEFAULT_SPORT).describe(`${sportField.description} (default nba)`),
    stat: statField.optional().describe('Only this stat key, e.g. points; every stat when absent'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SCAN_LIMIT)
      .default(DEFAULT_SCAN_LIMIT)
      .describe(
        `Most rows to return (1 to ${MAX_SCAN_LIMIT}, default ${DEFAULT_SCAN_LIMIT}), further capped by the tier`,
      ),
    sort: z
      .enum(SCAN_SORTS)
      .optional()
      .describe(
        'Order the whole slate before the limit: line (highest first), odds (best price first), edge (best first; pro and above), books (most first), player (A to Z); live first, then by start, when absent',
      ),
    minBooks: z
      .number()
      .int()
      .min(1)
      .max(BOOKS.length)
      .optional()
      .describe(`Only props posted by at least this many books (1 to ${BOOKS.length}), applied before the limit`),
  }),
  output: ScanResponseSchema,
  call: (api, { sport, stat, limit, sort, minBooks }) => api.scan({ sport, stat, limit, sort, minBooks }),
  render: (res) => {
    const total = Math.max(res.total ?? res.count, res.rows.length);
    const what = `${res.sport}${res.stat ? ` ${res.stat}` : ''} prop`;
    const delayed = res.delayed ? ' (delayed data)' : '';
    const head =
      total > res.rows.length
        ? `${res.rows.length} of ${plural(total, what)}${delayed}; limit and the tier's scanLimit cap the rows, stat narrows them`
        : `${plural(res.rows.length, what)}${delayed}`;
    if (res.rows.length === 0) return head;
    const body = table(SCAN_ROW_HEADERS, res.rows.map(scanRowCells), { narrowHint: 'narrow with stat/limit' });
    return `${head}\n${body}`;
  },
});
