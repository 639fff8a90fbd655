import { BookSchema, contract, PropHistoryResponseSchema } from '@propsfeed/contract';
import { odds, plural, table, utcMinute } from '../render';
import { answer } from '../result';
import { eventIdField, playerNameField, statField, type ToolContext } from './context';

export function registerGetPropHistory({ server, api, onUnexpected }: ToolContext): void {
  server.registerTool(
    'get_prop_history',
    {
      title: 'Line history of one prop',
      description:
        'Every line and odds change of one player prop since it opened, per book (PrizePicks, Underdog), oldest first, ' +
        'with the opening and current line. Use it to see how a line moved, e.g. after news. ' +
        `Needs the ${contract.propHistory.metadata.tier} tier or higher; a lower tier gets an error naming the tier.`,
      inputSchema: {
        eventId: eventIdField,
        player: playerNameField,
        stat: statField,
        source: BookSchema.optional().describe('Only this book (prizepicks or underdog); both when absent'),
      },
      outputSchema: PropHistoryResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ eventId, player, stat, source }) =>
      answer(
        'get_prop_history',
        () => api.propHistory({ eventId, player, stat, source }),
        (res) => {
          const head = `${res.player} ${res.stat}, ${res.eventId} (${res.sport})${res.delayed ? ' (delayed data)' : ''}`;
          const books = res.books.map((b) => {
            const summary =
              `${b.source}: opened ${b.opening.line} at ${utcMinute(b.opening.at)}, now ${b.current.line} ` +
              `(${plural(b.changes.length, 'change')}${b.truncated ? ', more not shown' : ''})`;
            if (b.changes.length === 0) return summary;
            const rows = b.changes.map((c) => [utcMinute(c.at), c.line, odds(c.overOdds), odds(c.underOdds)]);
            return `${summary}\n${table(['at', 'line', 'over', 'under'], rows)}`;
          });
          return [head, ...(books.length ? books : ['no lines recorded'])].join('\n');
        },
        onUnexpected,
      ),
  );
}
