/** `props scan`: every prop of today's games as rows, to sort and filter. */
import { BOOKS, MAX_SCAN_LIMIT, SCAN_SORTS, type ScanResponse, type ScanSort, type SportId } from '@propsfeed/contract';
import { Option } from 'commander';
import type { CommandContext } from '../context';
import { intParser, limitOption, sportOption, statOption, watchOption } from '../options';
import {
  EDGE_COLUMN,
  EDGE_LEGEND,
  edgeCell,
  LINE_COLUMNS,
  lineCells,
  numberCell,
  PIPED_PROP_COLUMNS,
  pipedPropCells,
  rowWhen,
  shortMatchup,
  showing,
  sportName,
  startCell,
  teamCell,
  WHY_COLUMN,
  whyCell,
  whyDetails,
} from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface ScanOptions {
  sport?: SportId;
  stat?: string;
  limit?: number;
  sort?: ScanSort;
  minBooks?: number;
  watch?: boolean;
  /** Under each row with an edge, the workings of its estimate. */
  why?: boolean;
}

/** The columns each --sort orders by (without one: live first, then by start): they stay on any terminal. */
const SORTED_BY: Record<ScanSort, readonly string[]> = {
  line: ['line'],
  odds: ['over', 'under'],
  edge: ['edge'],
  books: ['books'],
  player: ['player'],
};

/** How each --sort orders the rows, for the heading. */
const SORT_WORDS: Record<ScanSort, string> = {
  line: 'sorted by line, highest first',
  odds: 'sorted by odds, best price first',
  edge: 'sorted by edge, best first',
  books: 'sorted by books, most first',
  player: 'sorted by player',
};

/** On a terminal too narrow for every column, these go first to last (never the sort column). */
const DROP_ORDER = ['books', 'start', 'team', 'proj', 'game', 'edge'] as const;
const UNSORTED = ['start'];

export function renderScan(
  data: ScanResponse,
  ctx: CommandContext,
  opts: Pick<ScanOptions, 'sort' | 'why'> = {},
): string {
  const { out, clock } = ctx;
  const { rows } = data;
  const hasProjection = rows.some((r) => r.propsfeedProjection);
  const hasEdge = rows.some((r) => r.edge);
  const hasTeam = rows.some((r) => r.team !== undefined);
  const why = opts.why === true && hasEdge;
  const columns: Column[] = [
    { header: 'player', min: 10 },
    ...(hasTeam ? [{ header: 'team', min: 8, only: 'terminal' } as const] : []),
    ...LINE_COLUMNS,
    ...(hasEdge ? [EDGE_COLUMN] : []),
    { header: 'game', min: 9, only: 'terminal' },
    { header: 'event', only: 'piped' },
    { header: 'away', only: 'piped' },
    { header: 'home', only: 'piped' },
    { header: 'start' },
    ...(hasProjection || !out.terminal ? [{ header: 'proj', align: 'right' } as const] : []),
    ...PIPED_PROP_COLUMNS,
    ...(why ? [WHY_COLUMN] : []),
  ];
  const cells = rows.map((r) => [
    cell(r.player),
    ...(hasTeam ? [teamCell(r.sport, r.team)] : []),
    ...lineCells(r, out),
    ...(hasEdge ? [edgeCell(r.edge, out)] : []),
    cell(shortMatchup(r)),
    cell(r.eventId),
    cell(r.awayTeam),
    cell(r.homeTeam),
    startCell(rowWhen(r), clock, out),
    ...(hasProjection || !out.terminal ? [numberCell(r.propsfeedProjection?.value, out)] : []),
    ...pipedPropCells(r),
    ...(why ? [whyCell(r)] : []),
  ]);
  const total = data.total ?? data.count;
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  const sorted = opts.sort ? SORTED_BY[opts.sort] : UNSORTED;
  const heading = out.heading(
    `${sportName(data.sport)} props${data.stat ? ` · ${data.stat}` : ''} · ${opts.sort ? SORT_WORDS[opts.sort] : 'live first, then by start'}`,
  );
  if (rows.length === 0) return heading + out.note(`No props match.${delayed}`);
  const details = why ? whyDetails(rows) : undefined;
  return (
    heading +
    out.table(columns, cells, {
      drop: DROP_ORDER.filter((h) => !sorted.includes(h)),
      ...(details ? { details } : {}),
    }) +
    out.note(showing(rows.length, total, 'props') + delayed) +
    (hasEdge ? out.note(EDGE_LEGEND) : '') +
    (opts.why && !hasEdge ? out.note('--why: no row has an edge to explain (edges are for pro and above).') : '')
  );
}

export const { run: runScan, register } = requestCommand({
  name: 'scan',
  description: "every prop of today's games as rows, live first",
  options: [
    sportOption(),
    statOption('only this stat key, e.g. points'),
    limitOption(MAX_SCAN_LIMIT, `at most N rows (1 to ${MAX_SCAN_LIMIT}; your tier's scan limit applies)`),
    new Option(
      '--sort <by>',
      'order the whole board before --limit: line (highest first), odds (best price first), edge (best first, pro), books (most first), player',
    ).choices(SCAN_SORTS),
    new Option('--min-books <n>', `only props posted by at least N books (1 to ${BOOKS.length})`).argParser(
      intParser(1, BOOKS.length),
    ),
    new Option('--why', 'under each row with an edge, the workings of its estimate (pro; piped: a last field)'),
    watchOption(),
  ],
  helpAfter:
    '\n--sort and --min-books are applied by the server to the whole board, so --limit N shows its true top N.',
  request: (ctx: CommandContext, { sport, stat, limit, sort, minBooks }: ScanOptions) =>
    ctx.client.scan({ sport, stat, limit, sort, minBooks }),
  render: renderScan,
  watch: (opts) => {
    if (!opts.watch) return undefined;
    const sport = opts.sport ?? 'nba';
    const shape = { sort: opts.sort, minBooks: opts.minBooks };
    return {
      stream: { sport, ...(opts.stat ? { stats: opts.stat } : {}) },
      answer: (board) => board.scan(sport, opts.stat, opts.limit, shape),
    };
  },
  hint: (opts) => ({ sport: opts.sport ?? 'nba' }),
});
