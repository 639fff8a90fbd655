/** `props scan`: every prop of today's games as rows, to sort and filter. */
import { MAX_SCAN_LIMIT, type ScanResponse, type ScanRow, type SportId } from '@propsfeed/contract';
import { type Command, Option } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { intParser, parseSport, parseStat, watchOption } from '../options';
import { matchup } from '../output/format';
import { toJson } from '../output/output';
import { LINE_COLUMNS, lineCells, numberCell, rowWhen, showing, startCell } from '../output/rows';
import { type Column, cell } from '../output/table';

export const SORTS = ['line', 'odds', 'player'] as const;
export type ScanSort = (typeof SORTS)[number];

export interface ScanOptions {
  sport?: SportId;
  stat?: string;
  limit?: number;
  sort?: ScanSort;
  minBooks?: number;
  watch?: boolean;
}

/** The better of the two prices; rows without odds (PrizePicks only) sort last. */
function bestOdds(row: ScanRow): number {
  return Math.max(row.overOdds ?? Number.NEGATIVE_INFINITY, row.underOdds ?? Number.NEGATIVE_INFINITY);
}

/** Client-side --min-books and --sort, applied to the rows the API returned. */
export function selectRows(rows: ScanRow[], opts: Pick<ScanOptions, 'sort' | 'minBooks'>): ScanRow[] {
  const kept = rows.filter((r) => r.bookCount >= (opts.minBooks ?? 1));
  if (opts.sort === 'line') return kept.sort((a, b) => b.line - a.line);
  if (opts.sort === 'odds') return kept.sort((a, b) => bestOdds(b) - bestOdds(a));
  if (opts.sort === 'player') return kept.sort((a, b) => a.player.localeCompare(b.player));
  return kept;
}

export function renderScan(data: ScanResponse, opts: ScanOptions, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const rows = selectRows(data.rows, opts);
  const hasProjection = rows.some((r) => r.propsfeedProjection);
  const columns: Column[] = [
    { header: 'player', min: 12 },
    ...LINE_COLUMNS,
    { header: 'game', min: 12, only: 'terminal', optional: true },
    { header: 'event', only: 'piped' },
    { header: 'away', only: 'piped' },
    { header: 'home', only: 'piped' },
    { header: 'start' },
    ...(hasProjection || !out.terminal ? [{ header: 'proj', align: 'right', optional: true } as const] : []),
  ];
  const cells = rows.map((r) => [
    cell(r.player),
    ...lineCells(r, out),
    cell(matchup(r)),
    cell(r.eventId),
    cell(r.awayTeam),
    cell(r.homeTeam),
    startCell(rowWhen(r), clock, out),
    ...(hasProjection || !out.terminal ? [numberCell(r.propsfeedProjection?.value, out)] : []),
  ]);
  const total = data.total ?? data.count;
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  if (rows.length === 0) return out.note(`No props match.${delayed}`);
  return out.table(columns, cells) + out.note(showing(rows.length, total, 'props') + delayed);
}

export async function runScan(ctx: CommandContext, opts: ScanOptions): Promise<void> {
  if (opts.watch) {
    const sport = opts.sport ?? 'nba';
    await ctx.watch({ sport, ...(opts.stat ? { stats: opts.stat } : {}) }, (board) => {
      const data = board.scan(sport, opts.stat, opts.limit);
      return ctx.json ? toJson(data) : renderScan(data, opts, ctx);
    });
    return;
  }
  await ctx.present(async () => {
    const data = await ctx.load(() => ctx.client.scan({ sport: opts.sport, stat: opts.stat, limit: opts.limit }));
    return ctx.json ? toJson(data) : renderScan(data, opts, ctx);
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
      new Option('--sort <by>', 'sort the table: line (highest first), odds (best price first), player').choices(SORTS),
    )
    .option('--min-books <n>', 'only props posted by at least N books', intParser(1, 10))
    .addOption(watchOption())
    .addHelpText('after', '\n--sort and --min-books shape the table; --json prints the API answer as it came.')
    .action((opts: ScanOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runScan(ctx, opts), { sport: opts.sport ?? 'nba' }),
    );
}
