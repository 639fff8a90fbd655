/**
 * Locks each game's props when it starts: the first board on which a game is no longer
 * pre-game, every prop of its last pre-game board is stored per book with its closing line
 * and the chances the service's method gives it from the player's logs of the days before the
 * game: odds/fair.ts preGameChances, the function the scan priced that board's rows with, so
 * the lock is exactly what the scan last showed. Those are what the track record is scored on,
 * so it never reads anything from after the start. A failed write is logged, never thrown.
 */

import type { Board, BoardGame, BookQuote } from '../board/types';
import type { PropLock, SettlementStore } from '../history/settlement';
import type { GameLog, GameLogStore } from '../history/types';
import { COEFFICIENTS } from '../odds/coefficients';
import { devigMultiplicative } from '../odds/devig';
import { preGameChances } from '../odds/fair';
import type { Coefficients } from '../odds/model';
import { gameDay } from '../odds/playerInput';
import type { FeedLogger } from './logger';

/**
 * The market's over chance (given no push) at `line`, as the board showed it: a priced book's
 * two sides at that line de-vigged, `book`'s own first. Undefined where no book priced it.
 */
export function marketAt(quotes: readonly BookQuote[], book: BookQuote['source'], line: number): number | undefined {
  const priced = quotes
    .filter((q) => q.line === line && q.overOdds !== undefined && q.underOdds !== undefined)
    .sort((a, b) => Number(b.source === book) - Number(a.source === book))[0];
  if (priced?.overOdds === undefined || priced.underOdds === undefined) return undefined;
  return devigMultiplicative(priced.overOdds, priced.underOdds).pOver;
}

export class PropLockWriter {
  /** Each game's last pre-game version, until it starts or leaves the board. */
  private readonly lastPre = new Map<string, BoardGame>();

  constructor(
    private readonly locks: SettlementStore,
    private readonly gameLogs: GameLogStore,
    private readonly logger: FeedLogger,
    private readonly coefficients: Coefficients = COEFFICIENTS,
  ) {}

  /**
   * Follows a new board; with `record`, stores the locks of the games that started on it.
   * Without (a replay of what the store already holds), a start is only noted.
   */
  async write(board: Board, at: number, record: boolean): Promise<void> {
    const started: BoardGame[] = [];
    const onBoard = new Set<string>();
    for (const g of board.games) {
      onBoard.add(g.id);
      if (g.state === 'pre') {
        this.lastPre.set(g.id, g);
        continue;
      }
      const pre = this.lastPre.get(g.id);
      if (!pre) continue;
      this.lastPre.delete(g.id);
      started.push(pre);
    }
    for (const id of this.lastPre.keys()) if (!onBoard.has(id)) this.lastPre.delete(id);
    if (!record || started.length === 0) return;
    try {
      const locks: PropLock[] = [];
      for (const g of started) locks.push(...(await this.locksOf(g, at)));
      await this.locks.lock(locks);
    } catch (err) {
      this.logger.error({ err: String(err), games: started.length }, 'prop lock write failed');
    }
  }

  private async locksOf(game: BoardGame, at: number): Promise<PropLock[]> {
    const date = gameDay(game);
    const players = [...new Set(game.props.map((p) => p.playerKey))];
    const byStat = new Map<string, GameLog[]>();
    for (const log of await this.gameLogs.before(game.sport, players, date)) {
      const key = `${log.playerKey}|${log.stat}`;
      const list = byStat.get(key);
      if (list) list.push(log);
      else byStat.set(key, [log]);
    }
    const locks: PropLock[] = [];
    for (const prop of game.props) {
      const logs = byStat.get(`${prop.playerKey}|${prop.stat}`) ?? [];
      for (const p of preGameChances(game, prop, logs, this.coefficients)) {
        locks.push({
          gameId: game.id,
          book: p.source,
          sport: game.sport,
          playerKey: prop.playerKey,
          player: prop.player,
          stat: prop.stat,
          homeTeam: game.homeTeam,
          awayTeam: game.awayTeam,
          startMs: game.startMs,
          date,
          line: p.line,
          pOver: p.pOver,
          pUnder: p.pUnder,
          pPush: p.pPush,
          basis: p.basis,
          lockedAt: at,
          marketPOver: marketAt(prop.books, p.source, p.line),
        });
      }
    }
    return locks;
  }
}
