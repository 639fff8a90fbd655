import { DEFAULT_SPORT, EdgesResponseSchema, MAX_SCAN_LIMIT } from '@propsfeed/contract';
import { z } from 'zod';
import { percent, plural, table } from '../render';
import { sportField, statField } from './context';
import { defineTool } from './tool';

const DEFAULT_EDGES_LIMIT = 25;

export const findEdgesTool = defineTool({
  name: 'find_edges',
  title: 'Find edges',
  description:
    "Today's props sorted by edge, best first (pro tier and above). For each prop: the better side at one book, " +
    'propsfeed\'s estimated chance that side wins ("prob", given no push), the per-leg breakeven of a pick\'em entry ' +
    'type ("needs": the chance every leg must have for the entry to return its stake on average) and edge = prob − needs. ' +
    'By default each book is judged against its entry type with the lowest breakeven; entry picks one (ids like ' +
    'prizepicks_power_2). The chances are estimates from de-vigged prices and game logs, not promises: a positive edge ' +
    'means the estimate beats the breakeven, not that the pick will win. Say so when you pass them on. Under the table, ' +
    "each row's workings in one sentence: the market read, the season and form with their weights and the mean they " +
    'give, the chance and the breakeven; and which bases have their edges withheld, and why.',
  input: z.object({
    sport: sportField.default(DEFAULT_SPORT).describe(`${sportField.description} (default nba)`),
    stat: statField.optional().describe('Only this stat key; every stat when absent'),
    entry: z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/)
      .optional()
      .describe("Entry type id, e.g. prizepicks_power_2 or underdog_standard_3; default each book's cheapest"),
    minEdge: z.number().min(-1).max(1).optional().describe('Only edges of at least this, e.g. 0.02 (2 points)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SCAN_LIMIT)
      .default(DEFAULT_EDGES_LIMIT)
      .describe(`Most rows (default ${DEFAULT_EDGES_LIMIT}), further capped by the tier`),
  }),
  output: EdgesResponseSchema,
  call: (api, { sport, stat, entry, minEdge, limit }) => api.edges({ sport, stat, entry, minEdge, limit }),
  render: (res) => {
    const against = res.entry ? `against ${res.entry}` : "against each book's cheapest entry type";
    const head = `${res.rows.length} of ${plural(res.total ?? res.count, `${res.sport} prop`)} with an edge, ${against}; estimates, not promises`;
    if (res.rows.length === 0) return head;
    const rows = res.rows.map((r) => [
      r.player,
      r.stat,
      r.edge?.source,
      r.edge ? `${r.edge.side} ${r.edge.line}` : undefined,
      r.edge ? percent(r.edge.probability) : undefined,
      r.edge ? percent(r.edge.breakeven) : undefined,
      r.edge ? `${r.edge.edge > 0 ? '+' : ''}${Math.round(r.edge.edge * 1000) / 10}` : undefined,
      r.edge?.entry,
      r.eventId,
    ]);
    const body = table(['player', 'stat', 'book', 'pick', 'prob', 'needs', 'edge (pts)', 'entry', 'game id'], rows, {
      narrowHint: 'narrow with stat/limit/minEdge',
    });
    const withheld = Object.entries(res.withheld ?? {}).map(([basis, why]) => `${basis} edges withheld: ${why}`);
    const workings = res.rows.flatMap((r) =>
      r.edge ? [`- ${r.player} ${r.stat} ${r.edge.side} ${r.edge.line}: ${r.edge.workings}`] : [],
    );
    return [head, body, ...withheld, 'workings:', ...workings].join('\n');
  },
});
