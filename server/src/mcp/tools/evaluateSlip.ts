import { BookSchema, MAX_SLIP_LEGS, MIN_ENTRY_PICKS, PropSideSchema, SlipEvaluationSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { percent, table } from '../render';
import { eventIdField, playerNameField, statField } from './context';
import { defineTool } from './tool';

export const evaluateSlipTool = defineTool({
  name: 'evaluate_slip',
  title: 'Evaluate a pick slip',
  description:
    `Prices a pick'em slip of ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs (pro tier and above). For each entry type of ` +
    'the book with that many picks: the chance the entry pays more than its stake, the expected return per unit ' +
    '(above 1 beats the payout on these estimates), and the chance of each number of legs won. Each leg is a player, ' +
    'a stat and a side; give eventId when the player plays twice today, and book when it matters (all legs one book). ' +
    'Legs are treated as independent: legs from the same game are flagged as correlated, and then the numbers may be off. ' +
    'The chances are estimates, not promises.',
  input: z.object({
    legs: z
      .array(
        z.object({
          player: playerNameField,
          stat: statField,
          side: PropSideSchema,
          eventId: eventIdField.optional(),
          book: BookSchema.optional(),
        }),
      )
      .min(MIN_ENTRY_PICKS)
      .max(MAX_SLIP_LEGS)
      .describe(`${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs`),
  }),
  output: SlipEvaluationSchema,
  call: (api, { legs }) => api.evaluateSlip(legs),
  render: (res) => {
    const legRows = res.legs.map((l, i) => [
      i + 1,
      l.player,
      l.stat,
      `${l.side} ${l.line}`,
      percent(l.probability),
      l.correlatedWith.map((j) => j + 1).join(' '),
    ]);
    const entryRows = res.entries.map((e) => [
      e.name,
      percent(e.winProbability),
      e.expectedReturn,
      percent(e.breakeven),
      e.hits.map((h) => `${h.hits}:${percent(h.probability)}`).join(' '),
    ]);
    return [
      `Slip at ${res.book}:`,
      table(['#', 'player', 'stat', 'pick', 'prob', 'same game as'], legRows),
      res.entries.length
        ? table(['entry', 'pays more than stake', 'expected return', 'breakeven', 'hits'], entryRows)
        : `${res.book} has no entry type with ${res.legs.length} picks.`,
      res.assumption,
    ].join('\n');
  },
});
