/**
 * Underdog: `GET {base}/v1/over_under_lines` (older `beta/v5` payloads share the shape).
 * `over_under_lines[]` point through `appearance_stat.appearance_id` at `appearances[]`,
 * which name a player and a match (`games[]`). `stat_value` and payout multipliers are strings.
 * Odds come only from `american_price`; a missing side stays absent.
 */
import type { GameState, SportId } from '@propsfeed/contract';
import { formatClock } from './clock';
import { isComboName, playerKey } from './names';
import { SlateAccumulator } from './slateAccumulator';
import { isComboStat } from './stats';
import { teamName } from './teams';
import { type ParseResult, type SlateGame, scoreFrom } from './types';
import { arr, imageUrl, num, type Obj, obj, PayloadError, str, timeMs } from './wire';

const SPORTS: Record<string, SportId> = {
  NBA: 'nba',
  WNBA: 'wnba',
  MLB: 'mlb',
  NFL: 'nfl',
  NHL: 'nhl',
  CBB: 'ncaab',
  CFB: 'ncaaf',
  SOCCER: 'soccer',
  FIFA: 'soccer',
  LOL: 'lol',
};

/** Esports share one sport id; the game or player name starts with the title ("LoL: T1 vs. Gen.G"). */
const TITLE_PREFIX = /^([A-Za-z0-9]+):\s*/;

export function underdogUrl(base: string): string {
  return new URL('v1/over_under_lines', base.endsWith('/') ? base : `${base}/`).toString();
}

function sportOf(sportId: string | undefined, title: string): SportId | undefined {
  if (sportId === 'ESPORTS') return TITLE_PREFIX.exec(title)?.[1]?.toLowerCase() === 'lol' ? 'lol' : undefined;
  return sportId ? SPORTS[sportId] : undefined;
}

function gameState(status: string | undefined): GameState {
  const s = (status ?? '').toLowerCase();
  if (s === 'final' || s === 'closed' || s === 'complete' || s === 'completed') return 'final';
  if (s === 'in_progress' || s === 'live' || s === 'started') return 'live';
  return 'pre';
}

function americanOdds(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && Number.isInteger(n) && (n <= -100 || n >= 100) ? n : undefined;
}

interface GameEntry {
  game: SlateGame;
  teamById: Map<string, string>;
}

function readGame(g: Obj): GameEntry | undefined {
  const id = str(g.id);
  const rawTitle = str(g.title);
  const startMs = timeMs(g.scheduled_at);
  if (!id || !rawTitle || startMs === undefined) return undefined;
  const sport = sportOf(str(g.sport_id), rawTitle);
  if (!sport) return undefined;
  const title = rawTitle.replace(TITLE_PREFIX, '').trim();
  const at = title.split(' @ ');
  const vs = title.split(/\s+vs\.?\s+/i);
  const [away, home, homeKnown] =
    at.length === 2 ? [at[0], at[1], true] : vs.length === 2 ? [vs[1], vs[0], false] : [undefined, undefined, false];
  if (!away || !home) return undefined;
  const state = gameState(str(g.status));
  const game: SlateGame = {
    id: `ud_${id}`,
    sport,
    homeTeam: teamName(sport, home.trim()),
    awayTeam: teamName(sport, away.trim()),
    homeKnown,
    startMs,
    state,
  };
  if (state === 'live') {
    const clock = formatClock(sport, num(g.period), /(\d{1,3}:\d{2})/.exec(str(g.match_progress) ?? '')?.[1]);
    if (clock) game.clock = clock;
  }
  // Underdog sends 0-0 before the start: a score counts once the game is under way.
  if (state !== 'pre') {
    const score = scoreFrom(num(g.home_team_score), num(g.away_team_score));
    if (score) game.score = score;
  }
  const teamById = new Map<string, string>();
  const homeId = str(g.home_team_id);
  const awayId = str(g.away_team_id);
  if (homeId) teamById.set(homeId, game.homeTeam);
  if (awayId) teamById.set(awayId, game.awayTeam);
  return { game, teamById };
}

function index(list: unknown): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const item of arr(list) ?? []) {
    const o = obj(item);
    const id = str(o?.id);
    if (o && id) out.set(id, o);
  }
  return out;
}

/** Parses one over/under lines payload; throws PayloadError only when it is unusable as a whole. */
export function parseUnderdog(payload: unknown): ParseResult {
  const root = obj(payload);
  const rows = arr(root?.over_under_lines);
  if (!root || !rows) throw new PayloadError('Underdog payload has no over_under_lines[] array');
  const appearances = index(root.appearances);
  const players = index(root.players);
  const gameObjs = index(root.games);
  const gameEntries = new Map<string, GameEntry | null>();
  const slate = new SlateAccumulator();
  for (const row of rows) {
    const l = obj(row);
    const as = obj(obj(l?.over_under)?.appearance_stat);
    const appearance = appearances.get(str(as?.appearance_id) ?? '');
    const matchId = str(appearance?.match_id);
    const player = players.get(str(appearance?.player_id) ?? '');
    const bookStat = str(as?.stat);
    const line = num(l?.stat_value);
    if (!l || !appearance || !matchId || !player || !bookStat || line === undefined) {
      slate.skipped++;
      continue;
    }
    if (str(l.status) !== 'active') continue; // suspended lines are not on offer
    let entry = gameEntries.get(matchId);
    if (entry === undefined) {
      const g = gameObjs.get(matchId);
      entry = g ? (readGame(g) ?? null) : null;
      gameEntries.set(matchId, entry);
    }
    if (!entry) continue; // solo games (golf, tennis…) and sports outside the catalog
    const { game, teamById } = entry;
    const name = playerName(player);
    if (!name) {
      slate.skipped++;
      continue;
    }
    if (isComboName(name) || isComboStat(bookStat)) continue;
    const stat = slate.statKey(game.sport, bookStat);
    if (!stat) continue;
    const team = teamById.get(str(appearance.team_id) ?? str(player.team_id) ?? '');
    const out = slate.addLine(game, name, playerKey(name, team), stat, line);
    if (!out) continue;
    for (const option of arr(l.options) ?? []) {
      const o = obj(option);
      const odds = americanOdds(o?.american_price);
      if (odds === undefined) continue;
      if (o?.choice === 'higher') out.overOdds = odds;
      else if (o?.choice === 'lower') out.underOdds = odds;
    }
    const playerId = str(player.id);
    if (playerId) out.playerId = `ud_${playerId}`;
    const photo = imageUrl(player.image_url);
    if (photo) out.photoUrl = photo;
    if (team) out.team = team;
    const liveValue = num(obj(l.live_event_stat)?.value);
    if (liveValue !== undefined && game.state !== 'pre') out.liveValue = liveValue;
  }
  return slate.result('underdog');
}

function playerName(p: Obj): string | undefined {
  const first = (str(p.first_name) ?? '').trim();
  const last = (str(p.last_name) ?? '').trim();
  // Esports players come as first_name "LoL:" / "Val:" and the handle as last_name.
  const parts = first.endsWith(':') ? [last] : [first, last];
  const name = parts.filter((s) => s.length > 0).join(' ');
  return name.length > 0 ? name : undefined;
}
