import { BookSchema, contract, PropHistoryResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { odds, plural, table, utcMinute } from '../render';
import { eventIdField, playerNameField, statField } from './context';
import { defineTool } from './tool';

export const getPropHistoryTool = defineTool({
  name: 'get_prop_history',
  title: 'Line history of one prop',
  description:
    'Every line and odds change of one player prop since it opened, per book (PrizePicks, Underdog), oldest first, ' +
    'with the opening and current line. Use it to see how a line moved, e.g. after news. ' +
    `Needs the ${contract.propHistory.metadata.tier} tier or higher; a lower tier gets an error naming the tier.`,
  input: z.object({
    eventId: eventIdField,
    player: playerNameField,
    stat: statField,
    source: BookSchema.optional().describe('Only this book (prizepicks or underdog); both when absent'),
  }),
  output: PropHistoryResponseSchema,
  call: (api, { eventId, player, stat, source }) => api.propHistory({ eventId, player, stat, source }),
  render: (res) => {
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
});
