/**
 * Settlement in the store: each prop's book lines as they stood when the game started
 * (`prop_locks`, written once by the feed), settled by the player's recorded final value of
 * the stat (`game_logs`, written when the game goes final). A prop whose game never finished
 * has no final value and is never settled. Both are read from the store, so every replica and
 * every restart answers the same.
 */
import type { Book, ProbabilityBasis, PropResult, SportId } from '@propsfeed/contract';
import type { Db } from '../store/db';
import { historyDb, insertNew, type PropLocksTable } from './schema';

/** One book's line of a prop at the start of its game, and the chances published for it then. */
export interface PropLock {
  /** The merged game id. */
  gameId: string;
  book: Book;
  sport: SportId;
  playerKey: string;
  player: string;
  stat: string;
  homeTeam: string;
  awayTeam: string;
  startMs: number;
  /** YYYY-MM-DD: the UTC day of the start, as game logs date the game. */
  date: string;
  /** The closing line: the book's last line before the start. */
  line: number;
  pOver: number | null;
  pUnder: number | null;
  pPush?: number | undefined;
  basis: ProbabilityBasis;
  lockedAt: number;
  /**
   * The market at lock: P(over | no push) at this line from a priced book's two sides,
   * de-vigged (this book's own prices first). Absent where no book priced this line.
   */
  marketPOver?: number | undefined;
}

export interface SettledLock extends PropLock {
  finalValue: number;
  result: PropResult;
}

export interface SettledQuery {
  /** One UTC day. */
  date?: string;
  /** Days on or after this one. */
  sinceDate?: string;
  /** Only these sports (empty: none). */
  sports: readonly SportId[];
  stat?: string;
  /** Only estimates of this basis. */
  basis?: ProbabilityBasis;
  /** Only locks with a published chance. */
  withProbability?: boolean;
}

export interface SettlementReader {
  /** Settled locks, by start, game, player, stat and book. */
  settled(q: SettledQuery): Promise<SettledLock[]>;
}

export interface SettlementStore extends SettlementReader {
  /** Stores locks; one already stored for the (game, player, stat, book) stays as it was. Returns how many were new. */
  lock(locks: readonly PropLock[]): Promise<number>;
}

/** Over, under or push of a final value against a line. */
export function resultOf(finalValue: number, line: number): PropResult {
  return finalValue > line ? 'over' : finalValue < line ? 'under' : 'push';
}

function toRow(l: PropLock): PropLocksTable {
  return {
    game_id: l.gameId,
    book: l.book,
    sport: l.sport,
    player_key: l.playerKey,
    player: l.player,
    stat: l.stat,
    home_team: l.homeTeam,
    away_team: l.awayTeam,
    start_ms: l.startMs,
    date: l.date,
    line: l.line,
    p_over: l.pOver,
    p_under: l.pUnder,
    p_push: l.pPush ?? null,
    basis: l.basis,
    locked_at: l.lockedAt,
    market_p_over: l.marketPOver ?? null,
  };
}

function fromRow(row: PropLocksTable): PropLock {
  const lock: PropLock = {
    gameId: row.game_id,
    book: row.book as Book,
    sport: row.sport as SportId,
    playerKey: row.player_key,
    player: row.player,
    stat: row.stat,
    homeTeam: row.home_team,
    awayTeam: row.away_team,
    startMs: Number(row.start_ms),
    date: row.date,
    line: Number(row.line),
    pOver: row.p_over === null ? null : Number(row.p_over),
    pUnder: row.p_under === null ? null : Number(row.p_under),
    basis: row.basis as ProbabilityBasis,
    lockedAt: Number(row.locked_at),
  };
  if (row.p_push !== null) lock.pPush = Number(row.p_push);
  if (row.market_p_over !== null) lock.marketPOver = Number(row.market_p_over);
  return lock;
}

export function createSettlementStore(store: Db): SettlementStore {
  const db = historyDb(store);
  const { kysely } = db;
  return {
    lock: (locks) => insertNew(db, 'prop_locks', locks.map(toRow)),

    async settled(q) {
      if (q.sports.length === 0) return [];
      let query = kysely
        .selectFrom('prop_locks as l')
        .innerJoin('game_logs as g', (join) =>
          join
            .onRef('g.sport', '=', 'l.sport')
            .onRef('g.player_key', '=', 'l.player_key')
            .onRef('g.stat', '=', 'l.stat')
            .onRef('g.date', '=', 'l.date'),
        )
        .selectAll('l')
        .select(['g.value', 'g.opponent'])
        .where('l.sport', 'in', [...q.sports]);
      if (q.date !== undefined) query = query.where('l.date', '=', q.date);
      if (q.sinceDate !== undefined) query = query.where('l.date', '>=', q.sinceDate);
      if (q.stat !== undefined) query = query.where('l.stat', '=', q.stat);
      if (q.basis !== undefined) query = query.where('l.basis', '=', q.basis);
      if (q.withProbability) query = query.where('l.p_over', 'is not', null);
      const rows = await query
        .orderBy('l.start_ms')
        .orderBy('l.game_id')
        .orderBy('l.player_key')
        .orderBy('l.stat')
        .orderBy('l.book')
        .orderBy('g.opponent')
        .execute();
      // A player with two games on one day has a log per opponent: the one against this game's teams settles it.
      const settled: SettledLock[] = [];
      let last: { key: string; againstTeams: boolean } | undefined;
      for (const row of rows) {
        const key = `${row.game_id}|${row.player_key}|${row.stat}|${row.book}`;
        const againstTeams = row.opponent === row.home_team || row.opponent === row.away_team;
        if (last?.key === key) {
          if (last.againstTeams || !againstTeams) continue;
          settled.pop();
        }
        last = { key, againstTeams };
        const lock = fromRow(row);
        const finalValue = Number(row.value);
        settled.push({ ...lock, finalValue, result: resultOf(finalValue, lock.line) });
      }
      return settled;
    },
  };
}
