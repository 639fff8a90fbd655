import { PlayerContextResponseSchema, type StatContext } from '@propsfeed/contract';
import { z } from 'zod';
import { roundTenth, table } from '../render';
import { playerNameField, sportField, statField } from './context';
import { defineTool } from './tool';

/** Recent games shown per stat in the text; the structured content has them all. */
const RECENT_SHOWN = 5;

function recentLine(s: StatContext): string {
  const games = s.recentForm
    .slice(0, RECENT_SHOWN)
    .map((g) => `${g.value}${g.hit === null ? '' : g.hit ? ' O' : ' U'} ${g.home ? 'vs' : '@'} ${g.opponent}`);
  return `${s.stat} last ${games.length}: ${games.join(', ') || 'no recorded games'}`;
}

export const getPlayerContextTool = defineTool({
  name: 'get_player_context',
  title: 'Player context',
  description:
    "Context for judging one player's lines, per stat: today's line, averages (season, last 10, last 5, home, away), " +
    "recent games against today's line (O = over, U = under), hit rate over the line, sample size and propsfeed's projection. " +
    'Use it after find_player_props to judge whether a line is high or low. Available on every tier.',
  input: z.object({
    name: playerNameField,
    sport: sportField.optional().describe("The player's sport; every sport the tier allows when absent"),
    stat: statField.optional().describe('Only this stat key; every stat of the player when absent'),
  }),
  output: PlayerContextResponseSchema,
  call: (api, { name, sport, stat }) => api.playerContext({ name, sport, stat }),
  render: (res) => {
    const head = `${res.player} (${res.sport}${res.team ? `, ${res.team}` : ''})`;
    if (res.stats.length === 0) return `${head}: no recorded games.`;
    const rows = res.stats.map((s) => [
      s.stat,
      s.line,
      roundTenth(s.averages.season),
      roundTenth(s.averages.last10),
      roundTenth(s.averages.last5),
      roundTenth(s.averages.home),
      roundTenth(s.averages.away),
      s.hitRate === null ? null : `${Math.round(s.hitRate * 100)}%`,
      s.sampleN,
      roundTenth(s.propsfeedProjection?.value),
    ]);
    const headers = ['stat', 'line', 'season', 'last10', 'last5', 'home', 'away', 'hit', 'n', 'proj'];
    return [head, table(headers, rows), ...res.stats.slice(0, 10).map(recentLine)].join('\n');
  },
});
