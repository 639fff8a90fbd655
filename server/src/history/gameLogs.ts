/** Player game logs in the `game_logs` table: recorded finals and imported history. */
import type { SportId } from '@propsfeed/contract';
import { sql } from 'kysely';
import type { Db, Engine } from '../store/db';
import { type GameLogsTable, historyDb, insertNew } from './schema';
import type { GameLog, GameLogQuery, GameLogStore } from './types';

function toRow(log: GameLog): GameLogsTable {
  return {
    sport: log.sport,
    player: log.player,
    player_key: log.playerKey,
    team: log.team,
    opponent: log.opponent,
    home: log.home ? 1 : 0,
    date: log.date,
    stat: log.stat,
    value: log.value,
    source: log.source,
  };
}

function fromRow(row: GameLogsTable): GameLog {
  return {
    sport: row.sport as SportId,
    player: row.player,
    playerKey: row.player_key,
    team: row.team,
    opponent: row.opponent,
    home: Number(row.home) === 1,
    date: row.date,
    stat: row.stat,
    value: Number(row.value),
    source: row.source === 'import' ? 'import' : 'recorded',
  };
}

/** One (sport, player, stat) group of logs, as `all` reads it: the logs as a JSON array of PackedLog, newest first. */
interface PackedGroup {
  sport: string;
  player_key: string;
  stat: string;
  logs: string;
}
type PackedLog = [
  player: string,
  team: string,
  opponent: string,
  home: number,
  date: string,
  value: number,
  source: string,
];

/**
 * Every log as one row per (sport, player, stat), its logs packed in one JSON array: the
 * driver makes a value per column of each row it returns, and for the whole table (about
 * 300,000 logs after the simulator's backfill) that is most of the read's time; JSON.parse
 * makes the same values several times faster. Both engines print a double in JSON so that it
 * parses back to the same number.
 */
function packedGroups(engine: Engine) {
  const log = sql`player, team, opponent, home, date, value, source`;
  // Games of the same date: the later stored first, the order a query per sport and stat
  // returns them in on SQLite (its index on the date, read backwards), so projections stay as
  // they were; ctid is PostgreSQL's nearest (game logs are never updated).
  const newestFirst = sql`order by date desc, ${engine === 'sqlite' ? sql`rowid` : sql`ctid`} desc`;
  return engine === 'sqlite'
    ? sql<PackedGroup>`select sport, player_key, stat, json_group_array(json_array(${log}) ${newestFirst}) as logs
        from game_logs group by sport, player_key, stat`
    : sql<PackedGroup>`select sport, player_key, stat, json_agg(json_build_array(${log}) ${newestFirst})::text as logs
        from game_logs group by sport, player_key, stat`;
}

function unpack(group: PackedGroup): GameLog[] {
  const sport = group.sport as SportId;
  return (JSON.parse(group.logs) as PackedLog[]).map(([player, team, opponent, home, date, value, source]) => ({
    sport,
    player,
    playerKey: group.player_key,
    team,
    opponent,
    home: Number(home) === 1,
    date,
    stat: group.stat,
    value: Number(value),
    source: source === 'import' ? 'import' : 'recorded',
  }));
}

export function createGameLogStore(store: Db): GameLogStore {
  const db = historyDb(store);
  const { kysely, engine } = db;
  return {
    append: (logs) => insertNew(db, 'game_logs', logs.map(toRow)),
    async forPlayer(q: GameLogQuery) {
      let query = kysely
        .selectFrom('game_logs')
        .selectAll()
        .where('sport', '=', q.sport)
        .where('player_key', '=', q.playerKey);
      if (q.stat) query = query.where('stat', '=', q.stat);
      const rows = (await query.orderBy('date', 'desc').orderBy('stat').execute()).map(fromRow);
      if (q.limit === undefined) return rows;
      const perStat = new Map<string, number>();
      return rows.filter((r) => {
        const n = (perStat.get(r.stat) ?? 0) + 1;
        perStat.set(r.stat, n);
        return n <= (q.limit as number);
      });
    },
    async all() {
      const { rows } = await packedGroups(engine).execute(kysely);
      return rows.flatMap(unpack);
    },
    async forStat(sport, stat, opts) {
      let query = kysely.selectFrom('game_logs').selectAll().where('sport', '=', sport).where('stat', '=', stat);
      if (opts?.sinceDate) query = query.where('date', '>=', opts.sinceDate);
      return (await query.orderBy('date', 'desc').orderBy('player_key').execute()).map(fromRow);
    },
    async before(sport, playerKeys, beforeDate) {
      if (playerKeys.length === 0) return [];
      const rows = await kysely
        .selectFrom('game_logs')
        .selectAll()
        .where('sport', '=', sport)
        .where('player_key', 'in', [...playerKeys])
        .where('date', '<', beforeDate)
        .orderBy('date', 'desc')
        .orderBy('player_key')
        .execute();
      return rows.map(fromRow);
    },
  };
}
