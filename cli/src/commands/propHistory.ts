/** `props prop-history <eventId> <player> <stat>`: every line change of one prop since it opened (pro). */
import type { Book, PropHistoryResponse } from '@propsfeed/contract';
import { type Command, Option } from 'commander';
import { type CliApp, type CommandContext, show } from '../context';
import { parseStat } from '../options';
import { numberCell, oddsCell, timeCell } from '../output/rows';
import { type Column, cell } from '../output/table';

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

export async function runPropHistory(
  ctx: CommandContext,
  args: { eventId: string; player: string; stat: string },
  opts: PropHistoryOptions,
): Promise<void> {
  await show(
    ctx,
    () => ctx.client.propHistory({ ...args, source: opts.source }),
    (data) => renderPropHistory(data, ctx),
  );
}

export function register(program: Command, app: CliApp): void {
  program
    .command('prop-history')
    .description('every line and odds change of one prop since it opened (pro tier and above)')
    .argument('<eventId>', 'event id, e.g. pp_8812345')
    .argument('<player>', 'player name')
    .argument('<stat>', 'stat key, e.g. points', parseStat)
    .addOption(new Option('--source <book>', 'one book only').choices(['prizepicks', 'underdog']))
    .action((eventId: string, player: string, stat: string, opts: PropHistoryOptions, cmd: Command) =>
      app.run(cmd, (ctx) => runPropHistory(ctx, { eventId, player, stat }, opts), {
        feature: 'line history',
        notFound: 'Check the event id (`props games`) and the player and stat (`props game-props <eventId>`).',
      }),
    );
}
