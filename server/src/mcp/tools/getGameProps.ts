import { PropsResultSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { odds, table, utcMinute } from '../render';
import { eventIdField, statField } from './context';
import { defineTool } from './tool';

export const getGamePropsTool = defineTool({
  name: 'get_game_props',
  title: 'Props of one game',
  description:
    'Every player prop posted for one game, merged across PrizePicks and Underdog: player, stat, consensus line, ' +
    'best over/under American odds, and how many books post it (plus the live stat count and clock during a live game). ' +
    "Use it after list_games or find_game with the game id (either book's id works); filter with stats to keep the answer short. " +
    'Tiers without live in-game lines get an error for a game in progress; a sport outside the tier answers an error naming the tier needed.',
  input: z.object({
    eventId: eventIdField,
    stats: z
      .array(statField)
      .min(1)
      .max(50)
      .optional()
      .describe('Only these stat keys, e.g. ["points","pra"]; every stat when absent'),
  }),
  output: PropsResultSchema,
  call: (api, { eventId, stats }) => api.gameProps(eventId, { stats }),
  render: (res) => {
    const head =
      `${res.awayTeam} @ ${res.homeTeam} (${res.eventId}, ${res.sport}), starts ${utcMinute(res.startTime)}; ` +
      `${res.props.length} props from ${res.sources.join(' + ')}, snapshot ${utcMinute(new Date(res.fetchedAt).toISOString())}` +
      (res.delayed ? ' (delayed)' : '');
    const live = res.props.some((p) => p.liveValue !== undefined || p.gameClock !== undefined);
    const headers = ['player', 'stat', 'line', 'over', 'under', 'books', ...(live ? ['now', 'clock'] : [])];
    const rows = res.props.map((p) => [
      p.player,
      p.stat,
      p.line,
      odds(p.overOdds),
      odds(p.underOdds),
      p.bookCount,
      ...(live ? [p.liveValue, p.gameClock] : []),
    ]);
    return `${head}\n${table(headers, rows, { narrowHint: 'narrow with stats' })}`;
  },
});
