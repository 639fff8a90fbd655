import { DEFAULT_SPORT, GamesResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { gameStateText, matchup, plural, table, utcMinute } from '../render';
import { sportField } from './context';
import { defineTool } from './tool';

export const listGamesTool = defineTool({
  name: 'list_games',
  title: 'List games',
  description:
    "Lists today's games that have player props posted, for one sport, merged across PrizePicks and Underdog: " +
    'game id, teams, start time, its state (LIVE with the game clock, FINAL once over, blank before the start) and the book whose id the game carries. ' +
    'Live games come first, then pre-game games by start time, then games that ended in the last few hours. ' +
    'Use the game id with get_game_props. To look up one team, find_game is quicker. ' +
    'Lower tiers see fewer sports and data on a delay (delayed: true).',
  input: z.object({ sport: sportField.default(DEFAULT_SPORT).describe(`${sportField.description} (default nba)`) }),
  output: GamesResponseSchema,
  call: (api, { sport }) => api.games({ sport }),
  render: (res) => {
    const head = `${plural(res.count, `${res.sport} game`)} today${res.delayed ? ' (delayed data)' : ''}`;
    if (res.games.length === 0) return head;
    const rows = res.games.map((g) => [g.id, matchup(g), utcMinute(g.startTime), gameStateText(g), g.source]);
    return `${head}\n${table(['game', 'matchup', 'start', 'state', 'source'], rows, { narrowHint: 'use find_game to look up one team' })}`;
  },
});
