/** Player game logs in the `game_logs` table: recorded finals and imported history. */
import type { SportId } from '@propsfeed/contract';
import type { Db } from '../store/db';
import { bulkInsert, type GameLogsTable, historyDb } from './schema';
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

export function createGameLogStore(store: Db): GameLogStore {
  const { kysely, engine } = historyDb(store);
  return {
    async append(logs) {
      if (logs.length === 0) return 0;
      return kysely
        .transaction()
        .execute((trx) => bulkInsert(trx, engine, 'game_logs', logs.map(toRow), { ignoreConflicts: true }));
    },
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
