/** `props player-props <name>`: every active prop of one player, across the sports your tier allows. */
import type { PlayerPropsResponse, SportId } from '@propsfeed/contract';
import { Argument } from 'commander';
import type { CommandContext } from '../context';
import { CliError } from '../errors';
import { sportOption } from '../options';
import {
  EDGE_COLUMN,
  EDGE_LEGEND,
  edgeCell,
  LINE_COLUMNS,
  lineCells,
  numberCell,
  PIPED_PROP_COLUMNS,
  pipedPropCells,
  playerWithTeam,
  rowWhen,
  shortMatchup,
  showing,
  startCell,
} from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface PlayerPropsOptions {
  sport?: SportId;
}

export function renderPlayerProps(data: PlayerPropsResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  if (data.player === null) throw new CliError(`No player matches '${data.query}' among today's props.`);
  const hasEdge = data.rows.some((r) => r.edge);
  const columns: Column[] = [
    ...LINE_COLUMNS,
    ...(hasEdge ? [EDGE_COLUMN] : []),
    { header: 'game', min: 9, only: 'terminal' },
    { header: 'player', only: 'piped' },
    { header: 'event', only: 'piped' },
    { header: 'start' },
    { header: 'proj', align: 'right' },
    ...PIPED_PROP_COLUMNS,
  ];
  const rows = data.rows.map((r) => [
    ...lineCells(r, out),
    ...(hasEdge ? [edgeCell(r.edge, out)] : []),
    cell(shortMatchup(r)),
    cell(r.player),
    cell(r.eventId),
    startCell(rowWhen(r), clock, out),
    numberCell(r.propsfeedProjection?.value, out),
    ...pipedPropCells(r),
  ]);
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  if (rows.length === 0) return out.note(`${data.player} has no active props.${delayed}`);
  return (
    out.heading(playerWithTeam({ player: data.player, team: data.rows[0]?.team })) +
    out.table(columns, rows, { drop: ['books', 'proj', 'game', 'start', 'edge'] }) +
    out.note(showing(rows.length, data.count, 'props') + delayed) +
    (hasEdge ? out.note(EDGE_LEGEND) : '')
  );
}

export const { run: runPlayerProps, register } = requestCommand({
  name: 'player-props',
  description: 'every active prop of one player (the name is matched forgivingly)',
  arguments: [new Argument('<name>', 'player name, e.g. "jokic"')],
  options: [sportOption('one sport (default: every sport your tier allows)')],
  request: (ctx: CommandContext, name: string, opts: PlayerPropsOptions) =>
    ctx.client.playerProps({ name, sport: opts.sport }),
  render: renderPlayerProps,
  hint: (opts) => ({ sport: opts.sport, ambiguous: 'Narrow it with --sport or more of the name.' }),
});
