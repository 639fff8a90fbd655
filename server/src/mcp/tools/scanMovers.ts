import { contract, DEFAULT_SPORT, IsoTimeSchema, MAX_MOVERS_LIMIT, MovementResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { plural, signed, table, utcMinute } from '../render';
import { sportField, statField } from './context';
import { defineTool } from './tool';

export const scanMoversTool = defineTool({
  name: 'scan_movers',
  title: 'Biggest line movers',
  description:
    'The player props whose lines moved most, board-wide for one sport: opening line, current line, change and ' +
    'direction (merged and per book), biggest absolute change first. Use it to spot steam or news-driven moves. ' +
    `Needs the ${contract.movement.metadata.tier} tier or higher; a lower tier gets an error naming the tier.`,
  input: z.object({
    sport: sportField.default(DEFAULT_SPORT).describe(`${sportField.description} (default nba)`),
    stat: statField.optional().describe('Only this stat key; every stat when absent'),
    since: IsoTimeSchema.optional().describe(
      'ISO 8601 time, e.g. 2026-11-22T18:00:00Z: movement since then; since each line opened when absent',
    ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_MOVERS_LIMIT)
      .default(20)
      .describe(`Most movers to return (1 to ${MAX_MOVERS_LIMIT}, default 20)`),
  }),
  output: MovementResponseSchema,
  call: (api, { sport, stat, since, limit }) => api.movement({ sport, stat, since, limit }),
  render: (res) => {
    const window = res.since ? `since ${utcMinute(res.since)}` : 'since open';
    const head = `${plural(res.count, `${res.sport}${res.stat ? ` ${res.stat}` : ''} mover`)} ${window}${res.delayed ? ' (delayed data)' : ''}`;
    if (res.movers.length === 0) return head;
    const rows = res.movers.map((m) => [
      m.player,
      m.stat,
      m.openLine,
      m.currentLine,
      signed(m.change),
      m.direction,
      m.oddsChange,
      `${m.awayTeam} @ ${m.homeTeam}`,
      m.eventId,
    ]);
    const headers = ['player', 'stat', 'open', 'now', 'change', 'dir', 'odds move', 'game', 'game id'];
    return `${head}\n${table(headers, rows, { narrowHint: 'narrow with stat/limit' })}`;
  },
});
