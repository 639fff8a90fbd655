/**
 * Line history in the store: the feed appends each cycle's changes in one transaction;
 * the history and movers routes read them back per prop or per sport (the `line_history`
 * view: each point of `line_points` with its prop's columns from `history_props`, migration
 * 013). The history of games that ended PROPS_HISTORY_DAYS ago is pruned (`pruneEnded`).
 */
import type { Book, SportId } from '@propsfeed/contract';
import { sql } from 'kysely';
import { normalizeName } from '../books/names';
import type { Db } from '../store/db';
import {
  bulkInsert,
  type HistoryGamesTable,
  type HistoryPropsTable,
  type HistorySchema,
  historyDb,
  type LineHistoryTable,
  type LinePointsTable,
} from './schema';
import type {
  BookLineHistory,
  LineHistoryReader,
  LinePointRecord,
  MoverBook,
  MoverRecord,
  MoversQuery,
  PropHistoryQuery,
} from './types';

/** One change of a book's line or price; `line` null records that the line was pulled. */
export interface LineChange {
  book: Book;
  sport: SportId;
  gameId: string;
  playerKey: string;
  player: string;
  team?: string | undefined;
  stat: string;
  at: number;
  line: number | null;
  overOdds?: number | undefined;
  underOdds?: number | undefined;
}

/** A book's game and the merged game it belongs to. */
export interface HistoryGame {
  id: string;
  mergedId: string;
  book: Book;
  sport: SportId;
  homeTeam: string;
  awayTeam: string;
  startMs: number;
  /** When the game was first seen final (its board's finalAt); absent while it is not. */
  endedMs?: number | undefined;
}

export interface LineHistoryStore extends LineHistoryReader {
  /** Writes one cycle (games first, then changes) in one transaction. */
  record(cycle: { games: readonly HistoryGame[]; changes: readonly LineChange[] }): Promise<void>;
  /**
   * The latest stored point of every book line that changed at or after `sinceMs`: where an
   * ingest leader taking over resumes from, so it records only what moved since.
   */
  latestPoints(sinceMs: number, untilMs?: number): Promise<LineChange[]>;
  /** The time of the newest stored point, or undefined when none is stored. */
  lastRecordedAt(): Promise<number | undefined>;
  /** Every point after `afterMs` up to `untilMs`, oldest first. */
  pointsBetween(afterMs: number, untilMs: number): Promise<LineChange[]>;
  /** The books' games starting after `afterMs`. */
  gamesStartingAfter(afterMs: number): Promise<HistoryGame[]>;
  /**
   * Deletes the history of the games that ended (were first seen final) before `endedBeforeMs`,
   * every book's game of the same merged game with it; a game not seen final is never pruned.
   * A few props per statement, a turn of the event loop between them. Returns the points deleted.
   */
  pruneEnded(endedBeforeMs: number): Promise<number>;
}

function point(row: LineHistoryTable): LinePointRecord {
  const p: LinePointRecord = { at: Number(row.at), line: Number(row.line) };
  if (row.over_odds !== null) p.overOdds = Number(row.over_odds);
  if (row.under_odds !== null) p.underOdds = Number(row.under_odds);
  return p;
}

function toChange(row: LineHistoryTable): LineChange {
  const c: LineChange = {
    book: row.book as Book,
    sport: row.sport as SportId,
    gameId: row.game_id,
    playerKey: row.player_key,
    player: row.player,
    stat: row.stat,
    at: Number(row.at),
    line: row.line === null ? null : Number(row.line),
  };
  if (row.team !== null) c.team = row.team;
  if (row.over_odds !== null) c.overOdds = Number(row.over_odds);
  if (row.under_odds !== null) c.underOdds = Number(row.under_odds);
  return c;
}

const propKeyOf = (c: Pick<LineChange, 'gameId' | 'playerKey' | 'stat' | 'book'>) =>
  `${c.gameId}|${c.playerKey}|${c.stat}|${c.book}`;

function toPropRow(c: LineChange): Omit<HistoryPropsTable, 'id'> {
  return {
    game_id: c.gameId,
    player_key: c.playerKey,
    stat: c.stat,
    book: c.book,
    sport: c.sport,
    player: c.player,
    team: c.team ?? null,
  };
}

function toPointRow(c: LineChange, propId: number): LinePointsTable {
  return {
    prop_id: propId,
    at: c.at,
    line: c.line,
    over_odds: c.overOdds ?? null,
    under_odds: c.underOdds ?? null,
  };
}

/** Props whose history one pruning statement deletes (each up to a few hundred points). */
const PRUNE_PROPS = 50;
/** Game ids per lookup of new props' ids. */
const LOOKUP_GAMES = 200;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * `game|playerKey|stat|book` → its history_props id, shared by every store on one connection
 * (the feed writes, the pruner deletes): a pruned prop's id is never written to again.
 */
const PROP_IDS = new WeakMap<object, Map<string, number>>();
function propIdsOf(kysely: object): Map<string, number> {
  let ids = PROP_IDS.get(kysely);
  if (!ids) {
    ids = new Map();
    PROP_IDS.set(kysely, ids);
  }
  return ids;
}

/** The feed's writes: each cycle's games, props and points. */
function cycleRecorder({ kysely, engine }: Db<HistorySchema>, propIds: Map<string, number>) {
  return {
    async record({ games, changes }) {
      if (games.length === 0 && changes.length === 0) return;
      const learned = new Map<string, number>();
      await kysely.transaction().execute(async (trx) => {
        for (const g of games) {
          const row: HistoryGamesTable = {
            id: g.id,
            merged_id: g.mergedId,
            book: g.book,
            sport: g.sport,
            home_team: g.homeTeam,
            away_team: g.awayTeam,
            start_ms: g.startMs,
            ended_ms: g.endedMs ?? null,
          };
          await trx
            .insertInto('history_games')
            .values(row)
            .onConflict((oc) =>
              oc.column('id').doUpdateSet({
                merged_id: row.merged_id,
                home_team: row.home_team,
                away_team: row.away_team,
                start_ms: row.start_ms,
                // The first sighting final is when it ended; a restart sees it final again later.
                ended_ms: sql`coalesce(history_games.ended_ms, excluded.ended_ms)`,
              }),
            )
            .execute();
        }
        // Each line's prop row once (the latest change's names), then its id from the store.
        const fresh = new Map<string, LineChange>();
        for (const c of changes) if (!propIds.has(propKeyOf(c))) fresh.set(propKeyOf(c), c);
        if (fresh.size > 0) {
          await bulkInsert(trx, engine, 'history_props', [...fresh.values()].map(toPropRow), { ignoreConflicts: true });
          const gameIds = [...new Set([...fresh.values()].map((c) => c.gameId))];
          for (let i = 0; i < gameIds.length; i += LOOKUP_GAMES) {
            const rows = await trx
              .selectFrom('history_props')
              .select(['id', 'game_id', 'player_key', 'stat', 'book'])
              .where('game_id', 'in', gameIds.slice(i, i + LOOKUP_GAMES))
              .execute();
            for (const r of rows) {
              const key = `${r.game_id}|${r.player_key}|${r.stat}|${r.book}`;
              if (fresh.has(key)) learned.set(key, Number(r.id));
            }
          }
        }
        const idOf = (c: LineChange) => {
          const id = propIds.get(propKeyOf(c)) ?? learned.get(propKeyOf(c));
          if (id === undefined) throw new Error(`line history: no prop row for ${propKeyOf(c)}`);
          return id;
        };
        // Two changes of one line in the same millisecond: the first is kept.
        await bulkInsert(
          trx,
          engine,
          'line_points',
          changes.map((c) => toPointRow(c, idOf(c))),
          { ignoreConflicts: true },
        );
      });
      // Only once committed: a rolled-back prop row has no id.
      for (const [key, id] of learned) propIds.set(key, id);
    },
  } satisfies Partial<LineHistoryStore>;
}

/** The pruning of ended games' history; it shares the prop ids the recorder learns, to forget them. */
function endedGamePruner({ kysely }: Db<HistorySchema>, propIds: Map<string, number>) {
  return {
    async pruneEnded(endedBeforeMs: number) {
      const ended = kysely
        .selectFrom('history_games')
        .select('merged_id')
        .where('ended_ms', 'is not', null)
        .where('ended_ms', '<', endedBeforeMs);
      const endedGames = kysely.selectFrom('history_games').select('id').where('merged_id', 'in', ended);
      let deleted = 0;
      for (;;) {
        const props = await kysely
          .selectFrom('history_props')
          .select('id')
          .where('game_id', 'in', endedGames)
          .limit(PRUNE_PROPS)
          .execute();
        if (props.length === 0) return deleted;
        const ids = props.map((p) => Number(p.id));
        deleted += await kysely.transaction().execute(async (trx) => {
          const result = await trx.deleteFrom('line_points').where('prop_id', 'in', ids).executeTakeFirst();
          await trx.deleteFrom('history_props').where('id', 'in', ids).execute();
          return Number(result.numDeletedRows);
        });
        // Every store on this connection forgets its ids: a line seen again gets a new row.
        propIds.clear();
        await nextTurn();
      }
    },
  } satisfies Partial<LineHistoryStore>;
}

/** What the feed reads back when it resumes or restores. */
function resumeReads({ kysely }: Db<HistorySchema>) {
  return {
    async lastRecordedAt() {
      const row = await kysely
        .selectFrom('line_history')
        .select((eb) => eb.fn.max('at').as('at'))
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },

    async pointsBetween(afterMs: number, untilMs: number) {
      const rows = await kysely
        .selectFrom('line_history')
        .selectAll()
        .where('at', '>', afterMs)
        .where('at', '<=', untilMs)
        .orderBy('at')
        .execute();
      return rows.map(toChange);
    },

    async gamesStartingAfter(afterMs: number) {
      const rows = await kysely.selectFrom('history_games').selectAll().where('start_ms', '>', afterMs).execute();
      return rows.map((r) => ({
        id: r.id,
        mergedId: r.merged_id,
        book: r.book as Book,
        sport: r.sport as SportId,
        homeTeam: r.home_team,
        awayTeam: r.away_team,
        startMs: Number(r.start_ms),
      }));
    },

    async latestPoints(sinceMs: number, untilMs = Number.MAX_SAFE_INTEGER) {
      const latest = kysely
        .selectFrom('line_history')
        .select(['book', 'game_id', 'player_key', 'stat'])
        .select((eb) => eb.fn.max('at').as('at'))
        .where('at', '>=', sinceMs)
        .where('at', '<=', untilMs)
        .groupBy(['book', 'game_id', 'player_key', 'stat'])
        .as('m');
      const rows = await kysely
        .selectFrom('line_history as h')
        .innerJoin(latest, (join) =>
          join
            .onRef('h.book', '=', 'm.book')
            .onRef('h.game_id', '=', 'm.game_id')
            .onRef('h.player_key', '=', 'm.player_key')
            .onRef('h.stat', '=', 'm.stat')
            .onRef('h.at', '=', 'm.at'),
        )
        .selectAll('h')
        .execute();
      return rows.map(toChange);
    },
  } satisfies Partial<LineHistoryStore>;
}

/** One prop's history (the history route), and the game lookup it starts from. */
function propHistoryReads({ kysely }: Db<HistorySchema>) {
  async function resolveGame(id: string) {
    const row = await kysely.selectFrom('history_games').select('merged_id').where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const rows: HistoryGamesTable[] = await kysely
      .selectFrom('history_games')
      .selectAll()
      .where('merged_id', '=', row.merged_id)
      .execute();
    const merged = rows.find((r) => r.id === row.merged_id) ?? rows[0];
    if (!merged) return undefined;
    return { gameId: row.merged_id, sport: merged.sport as SportId, bookGameIds: rows.map((r) => r.id) };
  }

  return {
    resolveGame,

    async propHistory(q: PropHistoryQuery) {
      const game = await resolveGame(q.gameId);
      if (!game) return undefined;
      let query = kysely
        .selectFrom('line_history')
        .selectAll()
        .where('game_id', 'in', game.bookGameIds)
        .where('stat', '=', q.stat);
      if (q.source) query = query.where('book', '=', q.source);
      if (q.untilMs !== undefined) query = query.where('at', '<=', q.untilMs);
      const rows = await query.orderBy('at').execute();
      const wanted = q.player.includes('|') ? q.player : undefined;
      const name = normalizeName(q.player);
      const mine = rows.filter((r) => (wanted ? r.player_key === wanted : r.player_key.split('|')[0] === name));
      const first = mine[0];
      if (!first) return undefined;
      // Two players of one name in one game: keep the first one's key.
      const key = first.player_key;
      const byBook = new Map<Book, LineHistoryTable[]>();
      for (const r of mine) {
        if (r.player_key !== key) continue;
        const list = byBook.get(r.book as Book) ?? [];
        list.push(r);
        byBook.set(r.book as Book, list);
      }
      let truncated = false;
      const books: BookLineHistory[] = [];
      for (const [source, list] of byBook) {
        const posted = list.filter((r) => r.line !== null).map(point);
        const opening = posted[0];
        const current = posted[posted.length - 1];
        if (!opening || !current) continue;
        const max = q.maxChanges ?? Number.POSITIVE_INFINITY;
        if (posted.length > max) truncated = true;
        books.push({
          source,
          gameId: (list[0] as LineHistoryTable).game_id,
          opening,
          current,
          changes: posted.length > max ? posted.slice(posted.length - max) : posted,
          pulled: (list[list.length - 1] as LineHistoryTable).line === null,
        });
      }
      books.sort((a, b) => a.source.localeCompare(b.source));
      const last = mine[mine.length - 1] as LineHistoryTable;
      return {
        gameId: game.gameId,
        sport: game.sport,
        player: last.player,
        playerKey: key,
        stat: q.stat,
        books,
        truncated,
      };
    },
  } satisfies Partial<LineHistoryStore>;
}

/** The movers route's read. */
function moverReads({ kysely }: Db<HistorySchema>) {
  return {
    async movers(q: MoversQuery) {
      const games = await kysely
        .selectFrom('history_games')
        .select(['id', 'merged_id'])
        .where('sport', '=', q.sport)
        .execute();
      const mergedOf = new Map(games.map((g) => [g.id, g.merged_id]));
      let query = kysely.selectFrom('line_history').selectAll().where('sport', '=', q.sport);
      if (q.stat) query = query.where('stat', '=', q.stat);
      if (q.untilMs !== undefined) query = query.where('at', '<=', q.untilMs);
      const rows = await query.orderBy('at').execute();

      const perBookLine = new Map<string, { open?: LineHistoryTable; current: LineHistoryTable }>();
      for (const r of rows) {
        const k = `${r.book}|${r.game_id}|${r.player_key}|${r.stat}`;
        const seen = perBookLine.get(k);
        const beforeSince = q.sinceMs !== undefined && Number(r.at) <= q.sinceMs;
        if (!seen) {
          perBookLine.set(k, { open: r.line === null ? undefined : r, current: r });
          continue;
        }
        seen.current = r;
        // The opening is the line as it stood at `since`, or the first posted after it.
        if (r.line !== null && (beforeSince || seen.open === undefined)) seen.open = r;
      }

      const merged = new Map<string, MoverRecord>();
      for (const { open, current } of perBookLine.values()) {
        if (!open || current.line === null) continue;
        const gameId = mergedOf.get(current.game_id) ?? current.game_id;
        const k = `${gameId}|${current.player_key}|${current.stat}`;
        let rec = merged.get(k);
        if (!rec) {
          rec = {
            gameId,
            sport: q.sport,
            player: current.player,
            playerKey: current.player_key,
            stat: current.stat,
            books: [],
          };
          merged.set(k, rec);
        }
        const o = point(open);
        const c = point(current);
        const book: MoverBook = { source: current.book as Book, openLine: o.line, currentLine: c.line };
        if (o.overOdds !== undefined) book.openOverOdds = o.overOdds;
        if (o.underOdds !== undefined) book.openUnderOdds = o.underOdds;
        if (c.overOdds !== undefined) book.currentOverOdds = c.overOdds;
        if (c.underOdds !== undefined) book.currentUnderOdds = c.underOdds;
        rec.books.push(book);
      }
      for (const rec of merged.values()) rec.books.sort((a, b) => a.source.localeCompare(b.source));
      return [...merged.values()];
    },
  } satisfies Partial<LineHistoryStore>;
}

/** The store's methods come in parts by concern (above), each checked against LineHistoryStore. */
export function createLineHistoryStore(store: Db): LineHistoryStore {
  const db = historyDb(store);
  const propIds = propIdsOf(db.kysely);
  return {
    ...cycleRecorder(db, propIds),
    ...endedGamePruner(db, propIds),
    ...resumeReads(db),
    ...propHistoryReads(db),
    ...moverReads(db),
  };
}
