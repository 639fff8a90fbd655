/** `props scan`: every prop of today's games as rows, to sort and filter. */
import { BOOKS, MAX_SCAN_LIMIT, SCAN_SORTS, type ScanResponse, type ScanSort, type SportId } from '@propsfeed/contract';
import { type Command, Option } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { intParser, parseSport, parseStat, watchOption } from '../options';
import { toJson } from '../output/output';
import {
  edgeCell,
  LINE_COLUMNS,
  lineCells,
  numberCell,
  PIPED_PROP_COLUMNS,
  pipedPropCells,
  rowWhen,
  shortMatchup,
  showing,
  startCell,
  teamCell,
} from '../output/rows';
import { type Column, cell } from '../output/table';

export interface ScanOptions {
  sport?: SportId;
  stat?: string;
  limit?: number;
  sort?: ScanSort;
  minBooks?: number;
  watch?: boolean;
}

export function renderScan(data: ScanResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const { rows } = data;
  const hasProjection = rows.some((r) => r.propsfeedProjection);
  const hasEdge = rows.some((r) => r.edge);
  const hasTeam = rows.some((r) => r.team !== undefined);
  const columns: Column[] = [
    { header: 'player', min: 12 },
    ...(hasTeam ? [{ header: 'team', min: 8, only: 'terminal', optional: true } as const] : []),
    ...LINE_COLUMNS,
    ...(hasEdge ? [{ header: 'edge', optional: true } as const] : []),
    { header: 'game', min: 12, only: 'terminal', optional: true },
    { header: 'event', only: 'piped' },
    { header: 'away', only: 'piped' },
    { header: 'home', only: 'piped' },
    { header: 'start' },
    ...(hasProjection || !out.terminal ? [{ header: 'proj', align: 'right', optional: true } as const] : []),
    ...PIPED_PROP_COLUMNS,
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
  ]);
  const total = data.total ?? data.count;
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  if (rows.length === 0) return out.note(`No props match.${delayed}`);
  return out.table(columns, cells) + out.note(showing(rows.length, total, 'props') + delayed);
}

export async function runScan(ctx: CommandContext, opts: ScanOptions): Promise<void> {
  if (opts.watch) {
    const sport = opts.sport ?? 'nba';
    const shape = { sort: opts.sort, minBooks: opts.minBooks };
    await ctx.watch({ sport, ...(opts.stat ? { stats: opts.stat } : {}) }, (board) => {
      const data = board.scan(sport, opts.stat, opts.limit, shape);
      return ctx.json ? toJson(data) : renderScan(data, ctx);
    });
    return;
  }
  await ctx.present(async () => {
    const { sport, stat, limit, sort, minBooks } = opts;
    const data = await ctx.load(() => ctx.client.scan({ sport, stat, limit, sort, minBooks }));
    return ctx.json ? toJson(data) : renderScan(data, ctx);
  });
}

export function register(program: Command, app: CliApp): void {
  program
    .command('scan')
    .description("every prop of today's games as rows, live first")
    .option('-s, --sport <id>', 'sport id (default nba)', parseSport)
    .option('--stat <key>', 'only this stat key, e.g. points', parseStat)
    .option(
      '-l, --limit <n>',
      `at most N rows (1 to ${MAX_SCAN_LIMIT}; your tier's scan limit applies)`,
      intParser(1, MAX_SCAN_LIMIT),
    )
    .addOption(
      new Option(
        '--sort <by>',
        'order the whole board before --limit: line (highest first), odds (best price first), edge (best first, pro), books (most first), player',
      ).choices(SCAN_SORTS),
    )
    .option(
      '--min-books <n>',
      `only props posted by at least N books (1 to ${BOOKS.length})`,
      intParser(1, BOOKS.length),
    )
    .addOption(watchOption())
    .addHelpText(
      'after',
      '\n--sort and --min-books are applied by the server to the whole board, so --limit N shows its true top N.',
    )
    .action((opts: ScanOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runScan(ctx, opts), { sport: opts.sport ?? 'nba' }),
    );
}
