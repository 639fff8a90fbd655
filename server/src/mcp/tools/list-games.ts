import { DEFAULT_SPORT, GamesResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { matchup, plural, table, utcMinute } from '../render';
import { sportField } from './context';
import { defineTool } from './tool';

export const listGamesTool = defineTool({
  name: 'list_games',
  title: 'List games',
  description:
    "Lists today's games that have player props posted, for one sport, merged across PrizePicks and Underdog: " +
    'game id, teams, start time, whether it is live, and the book whose id the game carries. Live games come first. ' +
    'Use the game id with get_game_props. To look up one team, find_game is quicker. ' +
    'Lower tiers see fewer sports and data on a delay (delayed: true).',
  input: z.object({ sport: sportField.default(DEFAULT_SPORT).describe(`${sportField.description} (default nba)`) }),
  output: GamesResponseSchema,
  call: (api, { sport }) => api.games({ sport }),
  render: (res) => {
    const head = `${plural(res.count, `${res.sport} game`)} today${res.delayed ? ' (delayed data)' : ''}`;
    if (res.games.length === 0) return head;
    const rows = res.games.map((g) => [g.id, matchup(g), utcMinute(g.startTime), g.live ? 'LIVE' : '', g.source]);
    return `${head}\n${table(['game', 'matchup', 'start', 'live', 'source'], rows, { narrowHint: 'use find_game to look up one team' })}`;
  },
});
