/**
 * Prompts: the intended uses, written out for a client to offer (a slash command, a menu
 * entry). Each fills in its arguments and tells the model which tools to call, in what order,
 * and how to word the answer (chances are estimates, not promises). Their arguments complete.
 */
import { completable, type McpServer } from '@modelcontextprotocol/server';
import { BOOKS, DEFAULT_SPORT, MAX_SLIP_LEGS, MIN_ENTRY_PICKS, SPORT_IDS, SportIdSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { mcpSchema } from './schema';
import { playerNameField, statField } from './tools/context';

const PICKS = Array.from({ length: MAX_SLIP_LEGS - MIN_ENTRY_PICKS + 1 }, (_, i) => String(MIN_ENTRY_PICKS + i)) as [
  string,
  ...string[],
];

/** Suggestions for a typed prefix, from a fixed list. */
const startingWith =
  <T extends string>(values: readonly T[]) =>
  (typed: unknown): T[] =>
    values.filter((v) => v.startsWith(String(typed ?? '').toLowerCase()));

const sportArg = SportIdSchema.default(DEFAULT_SPORT).describe('Sport id, e.g. nba (default nba)');
const picksArg = z
  .enum(PICKS)
  .default('2')
  .describe(`Legs in the entry, ${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} (default 2)`);
const bookArg = z.enum(BOOKS).optional().describe('prizepicks or underdog; both when absent');

const bestEntryArgs = z.object({ sport: sportArg, picks: picksArg, book: bookArg });
const checkPlayerArgs = z.object({
  player: playerNameField,
  stat: statField.optional().describe('A stat key, e.g. points; every stat of the player when absent'),
});

const user = (text: string) => ({ role: 'user' as const, content: { type: 'text' as const, text } });

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'best_entry',
    {
      title: "Best pick'em entry tonight",
      description:
        "Builds the best N-pick PrizePicks or Underdog entry from tonight's props of one sport, e.g. the best 2-pick entry " +
        "for NBA: the legs whose estimated chance beats the entry's breakeven, priced together. Needs a pro key (find_edges, evaluate_slip).",
      argsSchema: mcpSchema(bestEntryArgs, {
        shape: {
          sport: completable(mcpSchema(sportArg), startingWith(SPORT_IDS)),
          picks: completable(mcpSchema(picksArg), startingWith(PICKS)),
          book: completable(mcpSchema(bookArg), startingWith(BOOKS)),
        },
      }),
    },
    ({ sport, picks, book }) => {
      const where = book ?? 'PrizePicks or Underdog';
      return {
        description: `The best ${picks}-pick ${where} entry for ${sport} tonight`,
        messages: [
          user(
            `Find the best ${picks}-pick ${where} entry from tonight's ${sport} props, using the propsfeed tools.\n` +
              `1. Call find_edges with sport "${sport}"${book ? ` (its rows for ${book})` : ''}: props whose estimated chance ` +
              "beats a pick'em entry's per-leg breakeven, best edge first. The resource propsfeed://entries lists the entry types.\n" +
              `2. Choose ${picks} legs, from different games where you can: legs in one game move together.\n` +
              `3. Call evaluate_slip with those legs${book ? ` and book "${book}"` : ''} and compare the entry types it prices: ` +
              'the chance to be paid more than the stake, and the expected return per unit staked.\n' +
              '4. Answer with the legs (player, stat, side, line, estimated chance), the entry type you would play and why. Say ' +
              'plainly that the chances are estimates from de-vigged prices and game logs, not promises; get_track_record shows ' +
              'how they have done.\n' +
              "If find_edges answers that the key's tier lacks it, say which tier it needs, and fall back to scan_props and get_player_context.",
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    'check_player',
    {
      title: "Judge a player's line",
      description:
        "Weighs one player's lines today against his recent games, averages and propsfeed's projection, and (pro) how the line has moved.",
      argsSchema: mcpSchema(checkPlayerArgs),
    },
    ({ player, stat }) => {
      const what = stat ? `${player}'s ${stat} line` : `${player}'s lines`;
      return {
        description: `Is ${what} worth playing today?`,
        messages: [
          user(
            `Is ${what} worth playing today? Use the propsfeed tools.\n` +
              `1. find_player_props with name "${player}": today's lines, best odds and the projection (proj).\n` +
              `2. get_player_context with name "${player}"${stat ? ` and stat "${stat}"` : ''}: season, last 10 and last 5 ` +
              "averages, home and away, the recent games against today's line, and the hit rate.\n" +
              '3. get_prop_history for the line (pro tier) to see how it moved since it opened.\n' +
              "Answer with the over or under you lean to and the numbers behind it, or say that the numbers don't lean. " +
              'These are estimates from past games, not promises.',
          ),
        ],
      };
    },
  );
}
