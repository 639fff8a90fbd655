/**
 * One MLB evening posted by both books, in their real wire formats: PrizePicks in the older
 * format (no game objects: the player's team and the opponent in `description`, so not who is
 * home) and Underdog with "AWAY @ HOME" titles. Built to catch every way one real game could
 * become two on the board:
 * - NYY @ BOS: PrizePicks' derived orientation is the reverse of Underdog's;
 * - CHC @ MIL: the same orientation as Underdog's;
 * - HOU @ TEX: PrizePicks posts the game at two start times (00:05 and 00:30), two game keys;
 * - DET @ CLE: a real doubleheader (17:10 and 22:40), which must stay two games.
 */
import { league, option, type Payload, player, projection, udLine } from './fixtures';

interface Pick {
  player: string;
  /** Team abbreviation, as both books write it in MLB. */
  team: string;
  opponent: string;
  start: string;
  /** [PrizePicks stat name, Underdog stat name, line]. */
  stats: [string, string, number][];
}

export interface UdGame {
  id: number;
  away: string;
  home: string;
  start: string;
}

const HITS: [string, string, number] = ['Hits', 'hits', 0.5];
const TOTAL_BASES: [string, string, number] = ['Total Bases', 'total_bases', 1.5];
const BOTH = [HITS, TOTAL_BASES];

export const PICKS: Pick[] = [
  { player: 'Rafael Devers', team: 'BOS', opponent: 'NYY', start: '2026-11-21T23:10:00Z', stats: BOTH },
  { player: 'Aaron Judge', team: 'NYY', opponent: 'BOS', start: '2026-11-21T23:10:00Z', stats: BOTH },
  { player: 'Seiya Suzuki', team: 'CHC', opponent: 'MIL', start: '2026-11-22T00:10:00Z', stats: BOTH },
  { player: 'Christian Yelich', team: 'MIL', opponent: 'CHC', start: '2026-11-22T00:10:00Z', stats: BOTH },
  { player: 'Jose Altuve', team: 'HOU', opponent: 'TEX', start: '2026-11-22T00:05:00Z', stats: BOTH },
  // The same game again, 25 minutes later: PrizePicks keys it apart (its start is part of the key).
  { player: 'Corey Seager', team: 'TEX', opponent: 'HOU', start: '2026-11-22T00:30:00Z', stats: BOTH },
  { player: 'Jose Ramirez', team: 'CLE', opponent: 'DET', start: '2026-11-21T17:10:00Z', stats: [HITS] },
  { player: 'Riley Greene', team: 'DET', opponent: 'CLE', start: '2026-11-21T17:10:00Z', stats: [HITS] },
  { player: 'Jose Ramirez', team: 'CLE', opponent: 'DET', start: '2026-11-21T22:40:00Z', stats: [TOTAL_BASES] },
  { player: 'Riley Greene', team: 'DET', opponent: 'CLE', start: '2026-11-21T22:40:00Z', stats: [TOTAL_BASES] },
];

export const UD_GAMES: UdGame[] = [
  { id: 301, away: 'NYY', home: 'BOS', start: '2026-11-21T23:10:00Z' },
  { id: 302, away: 'CHC', home: 'MIL', start: '2026-11-22T00:10:00Z' },
  { id: 303, away: 'HOU', home: 'TEX', start: '2026-11-22T00:05:00Z' },
  { id: 304, away: 'DET', home: 'CLE', start: '2026-11-21T17:10:00Z' },
  { id: 305, away: 'DET', home: 'CLE', start: '2026-11-21T22:40:00Z' },
];

const playerIds = [...new Set(PICKS.map((p) => p.player))];
const playerId = (name: string) => String(700 + playerIds.indexOf(name));

/** PrizePicks league 2 (MLB), older format: no odds_type, no game_id, no game objects. */
export function prizePicksMlbEvening(): Payload {
  const data = PICKS.flatMap((p, i) =>
    p.stats.map(([stat, , line], j) =>
      projection(
        `${i}${j}`,
        { stat_type: stat, line_score: line, start_time: p.start, description: p.opponent },
        { new_player: player(playerId(p.player)), league: league('2') },
      ),
    ),
  );
  const included = playerIds.map((name) => ({
    type: 'new_player',
    id: playerId(name),
    attributes: { name, team: (PICKS.find((p) => p.player === name) as Pick).team, league: 'MLB', league_id: 2 },
  }));
  return { data, included };
}

/** Underdog's lines for the same evening: each (player, stat) above, at the same line. */
export function underdogMlbEvening(games: readonly UdGame[] = UD_GAMES): Payload {
  const gameOf = (p: Pick) =>
    games.find(
      (g) =>
        [g.away, g.home].includes(p.team) &&
        [g.away, g.home].includes(p.opponent) &&
        Math.abs(Date.parse(g.start) - Date.parse(p.start)) <= 30 * 60_000,
    ) as UdGame;
  const appearances = new Map<string, { id: string; player_id: string; match_id: number; team_id: string }>();
  const lines = PICKS.flatMap((p) => {
    const game = gameOf(p);
    const appearance = `app-${game.id}-${playerId(p.player)}`;
    appearances.set(appearance, {
      id: appearance,
      player_id: `p-${playerId(p.player)}`,
      match_id: game.id,
      team_id: `team-${p.team}`,
    });
    return p.stats.map(([, stat, line]) =>
      udLine(`${appearance}-${stat}`, appearance, stat, line.toFixed(1), [
        option('higher', '-115'),
        option('lower', '-105'),
      ]),
    );
  });
  const players = playerIds.map((name) => {
    const [first, ...last] = name.split(' ');
    const team = (PICKS.find((p) => p.player === name) as Pick).team;
    return {
      id: `p-${playerId(name)}`,
      first_name: first,
      last_name: last.join(' '),
      sport_id: 'MLB',
      team_id: `team-${team}`,
    };
  });
  return {
    over_under_lines: lines,
    appearances: [...appearances.values()],
    players,
    games: games.map((g) => ({
      id: g.id,
      title: `${g.away} @ ${g.home}`,
      sport_id: 'MLB',
      scheduled_at: g.start,
      status: 'scheduled',
      home_team_id: `team-${g.home}`,
      away_team_id: `team-${g.away}`,
      period: 0,
    })),
    solo_games: [],
  };
}
