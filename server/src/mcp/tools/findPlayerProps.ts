import { PlayerPropsResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { plural, table } from '../render';
import { playerNameField, sportField } from './context';
import { SCAN_ROW_HEADERS, scanRowCells } from './scanProps';
import { defineTool } from './tool';

export const findPlayerPropsTool = defineTool({
  name: 'find_player_props',
  title: "A player's props",
  description:
    "Every active prop of one player across today's games: stat, consensus line, best American odds, number of books, " +
    "propsfeed's projection (proj) when there is one, and the game. The name is matched forgivingly; an ambiguous " +
    'name answers an error listing the players it could mean. Searches every sport the API key may use unless sport is given. ' +
    'Available on every tier.',
  input: z.object({
    name: playerNameField,
    sport: sportField.optional().describe('Only this sport; every sport the tier allows when absent'),
  }),
  output: PlayerPropsResponseSchema,
  call: (api, { name, sport }) => api.playerProps({ name, sport }),
  render: (res) => {
    if (res.player === null) return `No player with props today matches "${res.query}".`;
    const head = `${res.player}: ${plural(res.count, 'prop')}${res.delayed ? ' (delayed data)' : ''}`;
    if (res.rows.length === 0) return head;
    return `${head}\n${table(SCAN_ROW_HEADERS, res.rows.map(scanRowCells), { total: res.count, narrowHint: 'narrow with sport' })}`;
  },
});
