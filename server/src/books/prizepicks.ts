/**
 * PrizePicks: `GET {base}/projections?league_id=N&per_page=…&single_stat=true&in_game=true`,
 * JSON:API, as the web app asks: the board before and during games. `data[]` are projections;
 * `included[]` carries new_player, league and (newer payloads) game, team and, for live
 * projections, score objects (prizepicksLive.ts). Older payloads have no game objects, no
 * game_id and no odds_type: their games are keyed on league, the two teams and the start time.
 * A suspended projection is not on offer. PrizePicks posts no odds.
 */
import type { GameState, SportId } from '@propsfeed/contract';
import { formatClock } from './clock';
import { isComboName, playerKey } from './names';
import { liveValueOf, scoreOf } from './prizepicksLive';
import { SlateAccumulator } from './slateAccumulator';
import { isComboStat } from './stats';
import { teamName } from './teams';
import type { ParseResult, SlateGame } from './types';
import { arr, imageUrl, num, type Obj, obj, PayloadError, shortHash, str, timeMs } from './wire';

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
const SPORT_BY_LEAGUE = new Map(Object.entries(PRIZEPICKS_LEAGUES).map(([s, id]) => [String(id), s as SportId]));

export function prizePicksUrl(base: string, sport: SportId): string {
  const url = new URL('projections', base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('league_id', String(PRIZEPICKS_LEAGUES[sport]));
  url.searchParams.set('per_page', '10000');
  url.searchParams.set('single_stat', 'true');
  url.searchParams.set('in_game', 'true');
  return url.toString();
}

function relId(item: Obj, name: string): string | undefined {
  return str(obj(obj(obj(item.relationships)?.[name])?.data)?.id);
}

function gameState(isLive: unknown, status: string | undefined): GameState {
  const s = (status ?? '').toLowerCase().replace(/[-\s]/g, '_');
  if (s === 'final' || s === 'complete' || s === 'completed' || s === 'ended' || s === 'closed') return 'final';
  if (isLive === true || s === 'in_progress' || s === 'live' || s === 'started') return 'live';
  return 'pre';
}

/** Parses one projections payload; throws PayloadError only when the payload as a whole is unusable. */
export function parsePrizePicks(payload: unknown): ParseResult {
  const root = obj(payload);
  const data = arr(root?.data);
  if (!root || !data) throw new PayloadError('PrizePicks payload has no data[] array');
  const included = new Map<string, Obj>();
  for (const inc of arr(root.included) ?? []) {
    const o = obj(inc);
    const type = str(o?.type);
    const id = str(o?.id);
    if (o && type && id) included.set(`${type}:${id}`, o);
  }

  const slate = new SlateAccumulator();
  for (const item of data) {
    const p = obj(item);
    const a = obj(p?.attributes);
    if (!p || !a || str(p.type) !== 'projection') {
      slate.skipped++;
      continue;
    }
    const sport = SPORT_BY_LEAGUE.get(relId(p, 'league') ?? '');
    if (!sport) continue; // a league outside the catalog: not ours to carry
    const oddsType = str(a.odds_type) ?? 'standard';
    if (oddsType !== 'standard') continue; // goblin/demon alternates are never the main line
    if (str(a.status) === 'suspended') continue; // paused in-game: back on the board when it resumes
    const bookStat = str(a.stat_type);
    const player = included.get(`new_player:${relId(p, 'new_player') ?? ''}`);
    const pa = obj(player?.attributes);
    const name = str(pa?.display_name) ?? str(pa?.name);
    const line = num(a.line_score);
    const startMs = timeMs(a.start_time);
    if (!bookStat || !pa || !name || line === undefined || startMs === undefined) {
      slate.skipped++;
      continue;
    }
    if (pa.combo === true || isComboName(name) || isComboStat(bookStat) || str(a.event_type) === 'combo') continue;
    const stat = slate.statKey(sport, bookStat);
    if (!stat) continue;
    const abbr = str(pa.team);
    const team = abbr ? teamName(sport, abbr) : undefined;
    const game = gameOf(p, a, sport, startMs, team, included);
    if (!game) {
      slate.skipped++;
      continue;
    }
    const out = slate.addLine(game, name, playerKey(name, team), stat, line);
    if (!out) continue;
    const playerId = str(player?.id);
    if (playerId) out.playerId = `pp_${playerId}`;
    const photo = imageUrl(pa.image_url);
    if (photo && !photo.includes('placeholder')) out.photoUrl = photo;
    if (team) out.team = team;
    if (game.state !== 'pre') {
      const liveValue = liveValueOf(sport, stat, included.get(`score:${relId(p, 'score') ?? ''}`));
      if (liveValue !== undefined) out.liveValue = liveValue;
    }
  }
  return slate.result('prizepicks');
}

function gameOf(
  p: Obj,
  a: Obj,
  sport: SportId,
  startMs: number,
  team: string | undefined,
  included: Map<string, Obj>,
): SlateGame | undefined {
  const gameObj = included.get(`game:${relId(p, 'game') ?? ''}`);
  const ga = obj(gameObj?.attributes);
  if (gameObj && ga) {
    const info = obj(obj(ga.metadata)?.game_info);
    const teams = obj(info?.teams);
    const home = str(obj(teams?.home)?.abbreviation) ?? str(obj(teams?.home)?.name);
    const away = str(obj(teams?.away)?.abbreviation) ?? str(obj(teams?.away)?.name);
    if (!home || !away) return undefined;
    const state = gameState(ga.is_live, str(ga.status) ?? str(info?.status));
    const game: SlateGame = {
      id: `pp_${str(gameObj.id)}`,
      sport,
      homeTeam: teamName(sport, home),
      awayTeam: teamName(sport, away),
      homeKnown: true,
      startMs: timeMs(ga.start_time) ?? startMs,
      state,
    };
    if (state === 'live') {
      const clock = formatClock(sport, num(info?.period), str(info?.clock));
      if (clock) game.clock = clock;
    }
    if (state !== 'pre') {
      const score = scoreOf(info);
      if (score) game.score = score;
    }
    return game;
  }
  // Older payloads: the opponent is the projection's description; which side is home is unknown.
  const opponent = str(a.description);
  if (!team || !opponent) return undefined;
  const [first, second] = [team, teamName(sport, opponent)].sort() as [string, string];
  return {
    id: `pp_${shortHash(`${sport}|${first}|${second}|${str(a.start_time)}`)}`,
    sport,
    homeTeam: second,
    awayTeam: first,
    homeKnown: false,
    startMs,
    state: gameState(a.is_live, str(a.status)),
  };
}
