/** The input fields several tools share, built on the contract's schemas. */
import { EventIdSchema, PlayerNameQuery, SportIdSchema, StatKeySchema } from '@propsfeed/contract';

export const sportField = SportIdSchema.describe(
  'Sport id, e.g. nba, wnba or mlb (list_sports gives every id and which ones this API key may use)',
);
export const statField = StatKeySchema.describe(
  'Stat key in lowercase snake case, e.g. points, rebounds, assists, threes, pra (NBA, WNBA), strikeouts (MLB)',
);
export const eventIdField = EventIdSchema.describe(
  'Game id from list_games or find_game, e.g. pp_8812345 or ud_112233',
);
export const playerNameField = PlayerNameQuery.describe(
  'Player name, e.g. "LeBron James"; forgiving of case, accents and small typos',
);
