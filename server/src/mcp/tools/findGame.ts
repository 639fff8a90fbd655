import { type Game, GameSchema, type PropsApi, type SportId, SportIdSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { gameScore, MATCH_THRESHOLD } from '../../queries/teamMatch';
import { gameStateText, matchup, table, utcMinute } from '../render';
import { sportField } from './context';
import { defineTool } from './tool';

const FindGameResultSchema = z.object({
  query: z.string(),
  sports: z.array(SportIdSchema).describe('The sports searched'),
  count: z.number().int().min(0),
  games: z.array(GameSchema).describe('Best match first'),
  teams: z.array(z.string()).optional().describe('When nothing matched: the teams playing today, to retry with'),
});
type FindGameResult = z.infer<typeof FindGameResultSchema>;

/** Today's games across the sports asked (or every sport the tier allows), best match first. */
async function findGame(api: PropsApi, query: string, sport: SportId | undefined): Promise<FindGameResult> {
  const sports = sport ? [sport] : (await api.sports()).sports.filter((s) => s.enabled).map((s) => s.id);
  const slates = await Promise.all(sports.map((s) => api.games({ sport: s })));
  const all: Game[] = slates.flatMap((slate) => slate.games);
  const games = all
    .map((game, order) => ({ game, order, score: gameScore(query, game) }))
    .filter((m) => m.score >= MATCH_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((m) => m.game);
  const result: FindGameResult = { query, sports, count: games.length, games };
  if (games.length === 0) result.teams = [...new Set(all.flatMap((g) => [g.awayTeam, g.homeTeam]))].sort();
  return result;
}

export const findGameTool = defineTool({
  name: 'find_game',
  title: 'Find a game by team',
  description:
    "Finds today's games (those with props posted) by team: a full name, a nickname, a city or an abbreviation, " +
    'forgiving of typos ("Lakers", "LAL", "golden state", "celtcs"), or both teams ("Lakers vs Celtics"). ' +
    'Searches every sport this API key may use unless sport is given. Returns the games best match first, with the ' +
    'game id and sport to pass to get_game_props; when nothing matches, the teams playing today.',
  input: z.object({
    team: z
      .string()
      .trim()
      .min(2)
      .max(100)
      .describe('Team name, nickname, city or abbreviation, or two teams joined by "vs" or "@"'),
    sport: sportField.optional().describe('Search only this sport; every sport the tier allows when absent'),
  }),
  output: FindGameResultSchema,
  call: (api, { team, sport }) => findGame(api, team, sport),
  render: (res) => {
    if (res.games.length === 0) {
      const teams = res.teams?.length ? ` Teams playing today: ${res.teams.join(', ')}.` : ' No games today.';
      return `No game today matches "${res.query}" (searched ${res.sports.join(', ')}).${teams}`;
    }
    const rows = res.games.map((g) => [g.id, g.sport, matchup(g), utcMinute(g.startTime), gameStateText(g)]);
    return table(['game', 'sport', 'matchup', 'start', 'state'], rows);
  },
});
