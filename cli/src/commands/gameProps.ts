/** `props game-props <eventId>`: every prop of one game, merged across books. */
import type { PropsResult, SportId } from '@propsfeed/contract';
import type { Command } from 'commander';
import { type CliApp, type CommandContext, show } from '../context';
import { parseStatList, sportOption, watchOption } from '../options';
import { createColors } from '../output/color';
import { formatLocalTime, formatStart, matchup } from '../output/format';
import { toJson } from '../output/output';
import {
  LINE_COLUMNS,
  lineCells,
  numberCell,
  PIPED_PROP_COLUMNS,
  pipedPropCells,
  showing,
  teamCell,
} from '../output/rows';
import { type Column, cell } from '../output/table';

export interface GamePropsOptions {
  stats?: string;
  sport?: SportId;
  watch?: boolean;
}

export function renderGameProps(data: PropsResult, ctx: CommandContext): string {
  const { out, clock } = ctx;
  // A game's props share its state and clock: the first one's tell them.
  const first = data.props[0];
  // Without colour: a heading is escaped as a whole, and is bold already.
  const when = formatStart(
    { startTime: data.startTime, state: first?.gameState, clock: first?.gameClock },
    clock,
    createColors(false),
  );
  const heading = out.heading(`${matchup(data)} · ${when} · ${data.sources.join(', ')}`);
  const hasTeam = data.props.some((p) => p.team !== undefined);
  const hasLiveValues = data.props.some((p) => p.liveValue !== undefined);
  const columns: Column[] = [
    { header: 'player', min: 10 },
    ...(hasTeam ? [{ header: 'team', min: 8, only: 'terminal' } as const] : []),
    ...LINE_COLUMNS,
    ...(hasLiveValues || !out.terminal ? [{ header: 'now', align: 'right' } as const] : []),
    { header: 'state', only: 'piped' },
    ...PIPED_PROP_COLUMNS,
  ];
  const rows = data.props.map((p) => [
    cell(p.player),
    ...(hasTeam ? [teamCell(data.sport, p.team)] : []),
    ...lineCells(p, out),
    ...(hasLiveValues || !out.terminal ? [numberCell(p.liveValue, out)] : []),
    cell(p.gameState ?? ''),
    ...pipedPropCells(p),
  ]);
  const asOf = `as of ${formatLocalTime(new Date(data.fetchedAt).toISOString(), clock)}`;
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  if (data.props.length === 0) return heading + out.note(`No props match. ${asOf}`);
  return (
    heading +
    out.table(columns, rows, { drop: ['books', 'team'] }) +
    out.note(`${showing(rows.length, rows.length, 'props')} · ${asOf}${delayed}`)
  );
}

export async function runGameProps(ctx: CommandContext, eventId: string, opts: GamePropsOptions): Promise<void> {
  if (opts.watch) {
    const stats = opts.stats?.split(',');
    await ctx.watch({ eventId, ...(opts.stats ? { stats: opts.stats } : {}) }, (board) => {
      const data = board.gameProps(eventId, stats);
      if (!data) return ctx.out.note(`${eventId} is not on the board (yet); waiting for it.`);
      return ctx.json ? toJson(data) : renderGameProps(data, ctx);
    });
    return;
  }
  await show(
    ctx,
    () => ctx.client.gameProps(eventId, { stats: opts.stats, sport: opts.sport }),
    (data) => renderGameProps(data, ctx),
  );
}

export function register(program: Command, app: CliApp): void {
  program
    .command('game-props')
    .description('every prop of one game (an id from `props games`)')
    .argument('<eventId>', 'event id, e.g. pp_8812345 or ud_112233')
    .option('--stats <keys>', 'only these stat keys, comma-separated, e.g. points,pra', parseStatList)
    .addOption(sportOption())
    .addOption(watchOption())
    .action((eventId: string, opts: GamePropsOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runGameProps(ctx, eventId, opts), {
        sport: opts.sport ?? 'nba',
        notFound: "Run `props games` to list today's games.",
      }),
    );
}
