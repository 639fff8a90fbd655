/** `props edges`: the board sorted by edge against an entry type's breakeven (pro). */
import { type EdgesResponse, MAX_SCAN_LIMIT, type SportId } from '@propsfeed/contract';
import { type Command, InvalidArgumentError } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { intParser, parseMinEdge, parseSport, parseStat } from '../options';
import { toJson } from '../output/output';
import { rowWhen, shortMatchup, showing, startCell, teamCell } from '../output/rows';
import { type Column, cell } from '../output/table';

export interface EdgesOptions {
  sport?: SportId;
  stat?: string;
  entry?: string;
  minEdge?: number;
  limit?: number;
}

const percent = (p: number) => `${(p * 100).toFixed(1)}%`;

function parseEntry(value: string): string {
  const id = value.trim().toLowerCase();
  if (!/^[a-z0-9_]{1,64}$/.test(id))
    throw new InvalidArgumentError('an entry type id, e.g. prizepicks_power_2 (see `props entries`)');
  return id;
}

export function renderEdges(data: EdgesResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const hasTeam = data.rows.some((r) => r.team !== undefined);
  const columns: Column[] = [
    { header: 'player', min: 12 },
    ...(hasTeam ? [{ header: 'team', min: 8, only: 'terminal', optional: true } as const] : []),
    { header: 'stat' },
    { header: 'book' },
    { header: 'pick' },
    { header: 'prob', align: 'right' },
    { header: 'needs', align: 'right' },
    { header: 'edge', align: 'right' },
    { header: 'entry', only: 'piped' },
    { header: 'game', min: 12, only: 'terminal', optional: true },
    { header: 'event', only: 'piped' },
    { header: 'start', optional: true },
    { header: 'team', only: 'piped' },
  ];
  const rows = data.rows.flatMap((r) => {
    const e = r.edge;
    if (!e) return [];
    const signed = `${e.edge > 0 ? '+' : ''}${(e.edge * 100).toFixed(1)}`;
    return [
      [
        cell(r.player),
        ...(hasTeam ? [teamCell(r.sport, r.team)] : []),
        cell(r.stat),
        cell(e.source),
        cell(`${e.side} ${e.line}`),
        cell(percent(e.probability), String(e.probability)),
        cell(percent(e.breakeven), String(e.breakeven)),
        cell(e.edge > 0 ? out.c.green(signed) : out.c.dim(signed), String(e.edge)),
        cell(e.entry),
        cell(shortMatchup(r)),
        cell(r.eventId),
        startCell(rowWhen(r), clock, out),
        cell(r.team ?? ''),
      ],
    ];
  });
  const against = data.entry ? `against ${data.entry}` : "against each book's entry type with the lowest breakeven";
  const heading = out.heading(`Edges ${against} (prob: estimated chance given no push; needs: breakeven)`);
  if (rows.length === 0) return heading + out.note('No props with an edge match.');
  const floor = data.minEdge === null ? '' : ` · edge ≥ ${data.minEdge}`;
  return (
    heading +
    out.table(columns, rows) +
    out.note(`${showing(rows.length, data.total ?? data.count, 'props')}${floor} · estimates, not promises`)
  );
}

export async function runEdges(ctx: CommandContext, opts: EdgesOptions): Promise<void> {
  await ctx.present(async () => {
    const data = await ctx.load(() => ctx.client.edges(opts));
    return ctx.json ? toJson(data) : renderEdges(data, ctx);
  });
}

export function register(program: Command, app: CliApp): void {
  program
    .command('edges')
    .description('props sorted by edge: estimated chance minus the entry breakeven (pro tier and above)')
    .option('-s, --sport <id>', 'sport id (default nba)', parseSport)
    .option('--stat <key>', 'only this stat key', parseStat)
    .option('-e, --entry <id>', "judge against this entry type (default: each book's cheapest)", parseEntry)
    .option('--min-edge <x>', 'only edges of at least x, e.g. 0.02', parseMinEdge)
    .option('-l, --limit <n>', `at most N rows (1 to ${MAX_SCAN_LIMIT})`, intParser(1, MAX_SCAN_LIMIT))
    .action((opts: EdgesOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runEdges(ctx, opts), { sport: opts.sport ?? 'nba', feature: 'edges' }),
    );
}
