/** `props game-props <eventId>`: every prop of one game, merged across books. */
import type { PropsResult, SportId } from '@propsfeed/contract';
import { Argument, Option } from 'commander';
import type { CommandContext } from '../context';
import { parseStatList, sportOption, watchOption } from '../options';
import { createColors } from '../output/color';
import { formatLocalTime, formatStart, matchup } from '../output/format';
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
import { requestCommand } from '../requestCommand';

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

export const { run: runGameProps, register } = requestCommand({
  name: 'game-props',
  description: 'every prop of one game (an id from `props games`)',
  arguments: [new Argument('<eventId>', 'event id, e.g. pp_8812345 or ud_112233')],
  options: [
    new Option('--stats <keys>', 'only these stat keys, comma-separated, e.g. points,pra').argParser(parseStatList),
    sportOption(),
    watchOption(),
  ],
  request: (ctx: CommandContext, eventId: string, opts: GamePropsOptions) =>
    ctx.client.gameProps(eventId, { stats: opts.stats, sport: opts.sport }),
  render: renderGameProps,
  watch: (eventId, opts) => {
    if (!opts.watch) return undefined;
    const stats = opts.stats?.split(',');
    return {
      stream: { eventId, ...(opts.stats ? { stats: opts.stats } : {}) },
      answer: (board) => board.gameProps(eventId, stats),
      waiting: `${eventId} is not on the board (yet); waiting for it.`,
    };
  },
  hint: (opts) => ({ sport: opts.sport ?? 'nba', notFound: "Run `props games` to list today's games." }),
});
