/**
 * A live WNBA game as both books post it in-game, written in the shapes of the real recording
 * ../shared/books/prizepicks-35eternal-wnba-live-2025-06-15.json (PrizePicks `in_game=true`:
 * a game `in-progress` with score, period and clock in `metadata.game_info`; projections
 * `in_progress` or `suspended`, each related to a `score` object with the player's running box
 * score) and of Underdog's live lines (`live_event_stat`).
 */
import { league, option, type Payload, player, projection, udLine } from './fixtures';

export const LIVE_START = '2026-06-15T18:00:00Z';

/** Each player's running box score under PrizePicks' names (absent: not recorded yet). */
export type Box = Record<string, Record<string, number>>;

export interface LiveProjection {
  id: string;
  player: string;
  stat: string;
  line: number;
  status: 'in_progress' | 'suspended';
  /** The score object's own `score`: PrizePicks' running value of this projection's stat. */
  score: number;
}

export interface LiveMoment {
  period: number;
  clock: string;
  score: { home: number; away: number };
  box: Box;
  projections: LiveProjection[];
}

/** Players of Atlanta (away) at Washington (home), as PrizePicks lists them. */
export const TEAM_OF: Record<string, 'ATL' | 'WAS'> = {
  'Allisha Gray': 'ATL',
  'Brittney Sykes': 'WAS',
  'Sonia Citron': 'WAS',
};
const players = Object.keys(TEAM_OF);
const ppPlayerId = (name: string) => String(141_600 + players.indexOf(name));

/** PrizePicks league 3 in-game board at one moment of the game. */
export function prizePicksWnbaLive(m: LiveMoment): Payload {
  const data = m.projections.flatMap((p) => [
    projection(
      p.id,
      {
        stat_type: p.stat,
        line_score: p.line,
        odds_type: 'standard',
        status: p.status,
        in_game: true,
        is_live: true,
        start_time: LIVE_START,
        description: TEAM_OF[p.player] === 'ATL' ? 'WAS' : 'ATL',
        game_id: 'WNBA_game_live1',
      },
      {
        new_player: player(ppPlayerId(p.player)),
        league: league('3'),
        game: { data: { type: 'game', id: '73172' } },
        score: { data: { type: 'score', id: `s${p.id}` } },
      },
    ),
    // A demon alternate beside each line, as on the real board: never the main line.
    projection(
      `${p.id}d`,
      { stat_type: p.stat, line_score: p.line + 4, odds_type: 'demon', status: p.status, is_live: true },
      { new_player: player(ppPlayerId(p.player)), league: league('3') },
    ),
  ]);
  const scores = m.projections.map((p) => ({
    type: 'score',
    id: `s${p.id}`,
    attributes: {
      details: m.box[p.player] ?? {},
      is_final: false,
      is_off_the_board: false,
      score: p.score,
      unders_win_dnp: false,
    },
  }));
  return {
    data,
    included: [
      ...players.map((name) => ({
        type: 'new_player',
        id: ppPlayerId(name),
        attributes: { combo: false, display_name: name, name, team: TEAM_OF[name], league: 'WNBA', league_id: 3 },
      })),
      {
        type: 'game',
        id: '73172',
        attributes: {
          is_live: true,
          status: 'in-progress',
          start_time: LIVE_START,
          metadata: {
            game_info: {
              clock: m.clock,
              period: m.period,
              score: m.score,
              teams: {
                away: { abbreviation: 'ATL', name: 'Dream' },
                home: { abbreviation: 'WAS', name: 'Mystics' },
              },
            },
            league_name: 'WNBA',
            status: 'in-progress',
          },
        },
      },
      ...scores,
      { type: 'league', id: '3', attributes: { name: 'WNBA' } },
    ],
  };
}

/** Underdog's live lines for the same game: [player, Underdog stat, line, running value]. */
export function underdogWnbaLive(lines: [string, string, number, number][]): Payload {
  return {
    over_under_lines: lines.map(([name, stat, line, value], i) =>
      udLine(`l${i}`, `a-${name}`, stat, line.toFixed(1), [option('higher', '-110'), option('lower', '-110')], {
        live_event: true,
        live_event_stat: { value: String(value) },
      }),
    ),
    appearances: players.map((name) => ({
      id: `a-${name}`,
      player_id: `p-${name}`,
      match_id: 9100,
      team_id: `t-${TEAM_OF[name]}`,
    })),
    players: players.map((name) => {
      const [first, ...last] = name.split(' ');
      return { id: `p-${name}`, first_name: first, last_name: last.join(' '), sport_id: 'WNBA' };
    }),
    games: [
      {
        id: 9100,
        title: 'ATL @ WAS',
        sport_id: 'WNBA',
        scheduled_at: LIVE_START,
        status: 'in_progress',
        home_team_id: 't-WAS',
        away_team_id: 't-ATL',
        period: 2,
        match_progress: '2nd 5:00',
      },
    ],
  };
}
