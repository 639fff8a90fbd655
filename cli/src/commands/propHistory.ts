/** `props prop-history <eventId> <player> <stat>`: every line change of one prop since it opened (pro). */
import type { Book, PropHistoryParams, PropHistoryResponse } from '@propsfeed/contract';
import { Argument, Option } from 'commander';
import type { CommandContext } from '../context';
import { parseStat } from '../options';
import { numberCell, oddsCell, timeCell } from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface PropHistoryOptions {
  source?: Book;
}

export function renderPropHistory(data: PropHistoryResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const columns: Column[] = [
    { header: 'book' },
    { header: 'time' },
    { header: 'line', align: 'right' },
    { header: 'over', align: 'right' },
    { header: 'under', align: 'right' },
  ];
  const rows = data.books.flatMap((book) =>
    book.changes.map((point) => [
      cell(book.source),
      timeCell(point.at, clock),
      numberCell(point.line, out),
      oddsCell(point.overOdds, out),
      oddsCell(point.underOdds, out),
    ]),
  );
  const moves = data.books.map((b) => {
    const change = b.current.line - b.opening.line;
    const sign = change > 0 ? '+' : '';
    return `${b.source}: opened ${b.opening.line}, now ${b.current.line} (${sign}${Math.round(change * 100) / 100})${b.truncated ? ', older changes left out' : ''}`;
  });
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  return (
    out.heading(`${data.player} · ${data.stat} · ${data.eventId}`) +
    out.table(columns, rows) +
    out.note(moves.join(' · ') + delayed)
  );
}

/** The prop: its game, player and stat. */
type Prop = Omit<PropHistoryParams, 'source'>;

export const { run: runPropHistory, register } = requestCommand({
  name: 'prop-history',
  description: 'every line and odds change of one prop since it opened (pro tier and above)',
  arguments: [
    new Argument('<eventId>', 'event id, e.g. pp_8812345'),
    new Argument('<player>', 'player name'),
    new Argument('<stat>', 'stat key, e.g. points').argParser(parseStat),
  ],
  options: [new Option('--source <book>', 'one book only').choices(['prizepicks', 'underdog'])],
  params: (eventId: string, player: string, stat: string, opts: PropHistoryOptions) =>
    [{ eventId, player, stat }, opts] as [Prop, PropHistoryOptions],
  request: (ctx: CommandContext, prop: Prop, opts: PropHistoryOptions) =>
    ctx.client.propHistory({ ...prop, source: opts.source }),
  render: renderPropHistory,
  hint: {
    feature: 'line history',
    notFound: 'Check the event id (`props games`) and the player and stat (`props game-props <eventId>`).',
  },
});
