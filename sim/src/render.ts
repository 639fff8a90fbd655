/**
 * The simulated world in each book's real wire format, so the simulator exercises the same
 * adapters production does. PrizePicks: the newer JSON:API shape with game objects, plus
 * goblin/demon alternates and combo entries. Underdog: over/under lines with american_price
 * on most lines, payout multipliers only on some, one-sided lines, and live stat values.
 */
import { type SportId, teamAbbreviation } from '@propsfeed/contract';
import type { SimSport } from './sports';
import {
  FINAL_KEEP_MS,
  SIM_SPORTS,
  type SimGame,
  type SimLive,
  type SimPlayer,
  type SimProp,
  type SimWorld,
} from './world';

/** PrizePicks' league ids, as its projections' `league_id` query names them. */
export const PRIZEPICKS_LEAGUES: Record<SportId, number> = {
  nba: 7,
  wnba: 3,
  mlb: 2,
  nfl: 9,
  nhl: 8,
  ncaab: 20,
  ncaaf: 15,
  soccer: 82,
  lol: 121,
};

const PP_STAT_NAMES: Record<string, string> = {
  points: 'Points',
  rebounds: 'Rebounds',
  assists: 'Assists',
  threes: '3-PT Made',
  pra: 'Pts+Rebs+Asts',
  pts_rebs: 'Pts+Rebs',
  pts_asts: 'Pts+Asts',
  rebs_asts: 'Rebs+Asts',
  steals: 'Steals',
  blocks: 'Blocked Shots',
  blks_stls: 'Blks+Stls',
  turnovers: 'Turnovers',
  strikeouts: 'Pitcher Strikeouts',
  pitching_outs: 'Pitching Outs',
  hits_allowed: 'Hits Allowed',
  earned_runs_allowed: 'Earned Runs Allowed',
  pitches_thrown: 'Pitches Thrown',
  hits: 'Hits',
  total_bases: 'Total Bases',
  hits_runs_rbis: 'Hits+Runs+RBIS',
  hitter_strikeouts: 'Hitter Strikeouts',
  rbis: 'RBIs',
  runs: 'Runs',
  singles: 'Singles',
  walks: 'Walks',
  walks_allowed: 'Walks Allowed',
  passing_yards: 'Pass Yards',
  passing_tds: 'Pass TDs',
  completions: 'Pass Completions',
  pass_attempts: 'Pass Attempts',
  interceptions: 'INT',
  pass_rush_yards: 'Pass+Rush Yds',
  rushing_yards: 'Rush Yards',
  rush_attempts: 'Rush Attempts',
  rush_rec_yards: 'Rush+Rec Yds',
  receptions: 'Receptions',
  receiving_yards: 'Receiving Yards',
  rush_rec_tds: 'Rush+Rec TDs',
  field_goals_made: 'FG Made',
  kicking_points: 'Kicking Points',
  tackles_assists: 'Tackles+Ast',
  sacks: 'Sacks',
  shots_on_goal: 'Shots On Goal',
  goals: 'Goals',
  blocked_shots: 'Blocked Shots',
  saves: 'Goalie Saves',
  goals_allowed: 'Goals Allowed',
  shots: 'Shots',
  shots_on_target: 'Shots On Target',
  goals_assists: 'Goal + Assist',
  passes: 'Passes Attempted',
  tackles: 'Tackles',
  clearances: 'Clearances',
  kills_on_game_1: 'MAP 1 Kills',
  kills_on_games_1_2: 'MAPS 1-2 Kills',
  assists_on_games_1_2: 'MAPS 1-2 Assists',
  deaths_on_games_1_2: 'MAPS 1-2 Deaths',
};

const UD_SPORT: Record<SportId, string> = {
  nba: 'NBA',
  wnba: 'WNBA',
  ncaab: 'CBB',
  mlb: 'MLB',
  nfl: 'NFL',
  ncaaf: 'CFB',
  nhl: 'NHL',
  soccer: 'SOCCER',
  lol: 'ESPORTS',
};

function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** How each book spells a team: abbreviations in the US leagues, full names elsewhere. */
function teamLabel(sport: SportId, team: string): string {
  return teamAbbreviation(sport, team) ?? team;
}

const isoMemo = new Map<number, string>();
function iso(ms: number): string {
  let text = isoMemo.get(ms);
  if (text === undefined) {
    if (isoMemo.size > 10_000) isoMemo.clear();
    text = new Date(ms).toISOString();
    isoMemo.set(ms, text);
  }
  return text;
}

const ppPlayerIds = new WeakMap<SimPlayer, number>();
function ppPlayerId(p: SimPlayer): number {
  let id = ppPlayerIds.get(p);
  if (id === undefined) {
    const [, team, slot] = p.id.split('-').map(Number) as [number, number, number];
    id = 200_000 + SIM_SPORTS.findIndex((s) => p.id.startsWith(`${s.id}-`)) * 10_000 + team * 20 + slot;
    ppPlayerIds.set(p, id);
  }
  return id;
}

/** One game's part of a PrizePicks payload: its game object, players and projections. */
interface PpChunk {
  game: object;
  players: [number, object][];
  data: object[];
}

/** One game's part of an Underdog payload. */
interface UdChunk {
  game: object;
  players: [string, object][];
  appearances: [string, object][];
  lines: object[];
}

/**
 * Rendered chunks of games whose props are settled (pre-game between checkpoints, final):
 * the world hands back the same props array, so the same chunk serves every poll until then.
 */
const ppChunks = new WeakMap<SimProp[], PpChunk>();
const udChunks = new WeakMap<SimProp[], UdChunk>();

function cached<C>(cache: WeakMap<SimProp[], C>, props: SimProp[], settled: boolean, make: () => C): C {
  if (!settled) return make();
  let chunk = cache.get(props);
  if (!chunk) {
    chunk = make();
    cache.set(props, chunk);
  }
  return chunk;
}

/** PrizePicks `GET /projections?league_id=N` at time t. */
export function renderPrizePicks(world: SimWorld, sportId: SportId, t: number): object {
  const sport = world.sport(sportId);
  const league = String(PRIZEPICKS_LEAGUES[sportId]);
  const data: object[] = [];
  const players = new Map<number, object>();
  const games: object[] = [];
  for (const game of world.gamesAt(sport, t, 0)) {
    const live = world.live(game, t);
    if (live.state === 'final') continue;
    const props = world.props(game, t);
    const chunk = cached(ppChunks, props, live.state === 'pre', () =>
      ppChunk(sportId, league, game, live, props, world.linesUpdatedAt(game, t)),
    );
    games.push(chunk.game);
    for (const [pid, player] of chunk.players) if (!players.has(pid)) players.set(pid, player);
    for (const d of chunk.data) data.push(d);
  }
  return {
    data,
    included: [
      ...players.values(),
      ...games,
      { type: 'league', id: league, attributes: { name: sportId.toUpperCase() } },
    ],
  };
}

function ppChunk(
  sportId: SportId,
  league: string,
  game: SimGame,
  live: SimLive,
  props: SimProp[],
  updatedAt: number,
): PpChunk {
  const chunk: PpChunk = {
    game: {
      type: 'game',
      id: String(game.ppId),
      attributes: {
        external_game_id: `${sportId.toUpperCase()}_game_${game.ppId}`,
        is_live: live.state === 'live',
        start_time: iso(game.startMs),
        status: live.state === 'live' ? 'in_progress' : 'scheduled',
        metadata: {
          game_info: {
            teams: {
              home: { abbreviation: teamLabel(sportId, game.home) },
              away: { abbreviation: teamLabel(sportId, game.away) },
            },
            ...(live.period !== undefined ? { period: live.period } : {}),
            ...(live.clock !== undefined ? { clock: live.clock } : {}),
          },
        },
      },
    },
    players: [],
    data: [],
  };
  const seen = new Set<number>();
  for (const prop of props) {
    if (prop.ppLine === undefined) continue;
    const pid = ppPlayerId(prop.player);
    if (!seen.has(pid)) {
      seen.add(pid);
      chunk.players.push([pid, ppPlayer(sportId, league, pid, prop.player)]);
    }
    const opponent = prop.player.team === game.home ? game.away : game.home;
    const base = {
      game,
      league,
      pid,
      stat: prop.stat,
      opponent: teamLabel(sportId, opponent),
      live: live.state === 'live',
    };
    chunk.data.push(projection(base, prop.ppLine, 'standard', updatedAt));
    if (prop.ppAlternates) {
      chunk.data.push(projection(base, prop.ppAlternates.goblin, 'goblin', updatedAt));
      chunk.data.push(projection(base, prop.ppAlternates.demon, 'demon', updatedAt));
    }
  }
  // A combo entry per basketball game, as PrizePicks posts them: skipped by the adapter.
  const first = props[0];
  const last = props[props.length - 1];
  if ((sportId === 'nba' || sportId === 'ncaab') && first && last) {
    const a = first.player;
    const b = last.player;
    const pid = 900_000 + game.ppId;
    chunk.players.push([
      pid,
      {
        type: 'new_player',
        id: String(pid),
        attributes: {
          combo: true,
          name: `${ascii(a.name)} + ${ascii(b.name)}`,
          display_name: `${ascii(a.name)} + ${ascii(b.name)}`,
          league: sportId.toUpperCase(),
          team: `${teamLabel(sportId, game.away)}/${teamLabel(sportId, game.home)}`,
        },
      },
    ]);
    chunk.data.push(
      projection({ game, league, pid, stat: 'points', opponent: '', live: false }, 40.5, 'standard', updatedAt),
    );
  }
  return chunk;
}

function ppPlayer(sportId: SportId, league: string, pid: number, p: SimPlayer): object {
  // PrizePicks spells names without accents.
  const name = ascii(p.name);
  return {
    type: 'new_player',
    id: String(pid),
    attributes: {
      combo: false,
      name,
      display_name: name,
      team: teamLabel(sportId, p.team),
      team_name: p.team,
      position: p.slot.position,
      league: sportId.toUpperCase(),
      league_id: Number(league),
      // Simulated players have no photo: a URL on the book's image host would send an app that
      // shows it to a third party, for a player who does not exist.
      image_url: null,
    },
    relationships: { league: { data: { type: 'league', id: league } } },
  };
}

function projection(
  base: { game: SimGame; league: string; pid: number; stat: string; opponent: string; live: boolean },
  line: number,
  oddsType: string,
  updatedAt: number,
): object {
  const id = `${base.game.ppId}${String(base.pid).slice(-4)}${Object.keys(PP_STAT_NAMES).indexOf(base.stat)}${oddsType[0]}`;
  return {
    type: 'projection',
    id,
    attributes: {
      line_score: line,
      stat_type: PP_STAT_NAMES[base.stat] ?? base.stat,
      start_time: iso(base.game.startMs),
      status: base.live ? 'in_progress' : 'pre_game',
      odds_type: oddsType,
      is_promo: false,
      is_live: base.live,
      description: base.opponent,
      game_id: String(base.game.ppId),
      updated_at: iso(updatedAt),
    },
    relationships: {
      new_player: { data: { type: 'new_player', id: String(base.pid) } },
      league: { data: { type: 'league', id: base.league } },
      game: { data: { type: 'game', id: String(base.game.ppId) } },
      duration: { data: null },
    },
  };
}

/** Underdog `GET /v1/over_under_lines` at time t: every sport in one payload. */
export function renderUnderdog(world: SimWorld, t: number): object {
  const lines: object[] = [];
  const appearances = new Map<string, object>();
  const players = new Map<string, object>();
  const games: object[] = [];
  for (const sport of SIM_SPORTS) {
    for (const game of world.gamesAt(sport, t, FINAL_KEEP_MS)) {
      const live = world.live(game, t);
      const props = world.props(game, t);
      const chunk = cached(udChunks, props, live.state !== 'live', () => udChunk(world, sport, game, live, props));
      games.push(chunk.game);
      for (const [id, p] of chunk.players) if (!players.has(id)) players.set(id, p);
      for (const [id, a] of chunk.appearances) if (!appearances.has(id)) appearances.set(id, a);
      for (const l of chunk.lines) lines.push(l);
    }
  }
  return {
    over_under_lines: lines,
    appearances: [...appearances.values()],
    players: [...players.values()],
    games,
    solo_games: [],
  };
}

function udChunk(world: SimWorld, sport: SimSport, game: SimGame, live: SimLive, props: SimProp[]): UdChunk {
  const sportId = sport.id;
  const teamId = (team: string) => `ud-team-${sportId}-${sport.teams.indexOf(team)}`;
  const label = (team: string) => teamLabel(sportId, team);
  const chunk: UdChunk = {
    game: {
      id: game.udId,
      sport_id: UD_SPORT[sportId],
      title: sportId === 'lol' ? `LoL: ${game.home} vs. ${game.away}` : `${label(game.away)} @ ${label(game.home)}`,
      scheduled_at: iso(game.startMs),
      status: live.state === 'pre' ? 'scheduled' : live.state === 'live' ? 'in_progress' : 'final',
      home_team_id: teamId(game.home),
      away_team_id: teamId(game.away),
      period: live.period ?? 0,
      match_progress: live.clock ?? null,
      type: 'Game',
    },
    players: [],
    appearances: [],
    lines: [],
  };
  const seen = new Set<SimPlayer>();
  const appear = (p: SimPlayer) => {
    const id = `ud-app-${game.udId}-${p.id}`;
    if (seen.has(p)) return id;
    seen.add(p);
    chunk.appearances.push([
      id,
      { id, player_id: `ud-player-${p.id}`, match_id: game.udId, team_id: teamId(p.team), match_type: 'Game' },
    ]);
    // Underdog keeps accents, drops the dot of "Jr.", and prefixes esports handles with the title.
    const parts = p.name.replace(/\.$/, '').split(' ');
    const [first, last] = sportId === 'lol' ? ['LoL:', p.name] : [parts[0], parts.slice(1).join(' ')];
    chunk.players.push([
      `ud-player-${p.id}`,
      {
        id: `ud-player-${p.id}`,
        first_name: first,
        last_name: last,
        sport_id: UD_SPORT[sportId],
        team_id: teamId(p.team),
        image_url: null,
      },
    ]);
    return id;
  };
  for (const prop of props) {
    if (prop.udLine === undefined) continue;
    const p = prop.player;
    const appearanceId = appear(p);
    const lineId = `ud-line-${game.udId}-${p.id}-${prop.stat}`;
    const option = (choice: 'higher' | 'lower', price: number | undefined) => ({
      id: `${lineId}-${choice}`,
      choice,
      choice_display: choice === 'higher' ? 'Higher' : 'Lower',
      over_under_line_id: lineId,
      payout_multiplier: price === undefined ? '1.0' : (price > 0 ? 1 + price / 100 : 1 + 100 / -price).toFixed(2),
      ...(price !== undefined
        ? {
            american_price: String(price),
            decimal_price: (price > 0 ? 1 + price / 100 : 1 + 100 / -price).toFixed(2),
          }
        : {}),
    });
    const options = [option('higher', prop.udOver)];
    if (!prop.udOneSided) options.push(option('lower', prop.udUnder));
    chunk.lines.push({
      id: lineId,
      stat_value: prop.udLine.toFixed(1),
      status: 'active',
      live_event: live.state === 'live',
      live_event_stat: prop.value !== undefined ? { value: String(prop.value) } : null,
      over_under: { appearance_stat: { appearance_id: appearanceId, stat: prop.stat, display_stat: prop.stat } },
      options,
    });
  }
  if (sportId === 'nba' && live.state === 'pre') {
    // A stat Underdog posts that the catalog has no key for: counted as unmapped.
    const p = world.roster(sport, game.home)[0] as SimPlayer;
    chunk.lines.push({
      id: `ud-line-${game.udId}-${p.id}-first-quarter`,
      stat_value: '6.5',
      status: 'active',
      over_under: {
        appearance_stat: { appearance_id: appear(p), stat: 'period_1_points', display_stat: '1Q Points' },
      },
      options: [],
    });
  }
  return chunk;
}
