/**
 * Writes each new board's line changes to line history, with each game the first time it is
 * seen (and again when its teams or start change, or it goes final: its history is pruned
 * from then on, PROPS_HISTORY_DAYS). A failed write is logged, never thrown:
 * the board is still served, and the games are written again with the next board.
 */
import type { Book } from '@propsfeed/contract';
import type { Board } from '../board/types';
import type { SlateGame } from '../books/types';
import type { HistoryGame, LineChange, LineHistoryStore } from '../history/lineHistory';
import type { FeedLogger } from './logger';

/** Which book a game id (the merged id or an alias) belongs to, and its slate game there. */
export type GameOwner = (id: string) => { book: Book; game: SlateGame } | undefined;

export class LineHistoryWriter {
  /** Game id → what was last written of it. */
  private readonly writtenGames = new Map<string, string>();

  constructor(
    private readonly history: LineHistoryStore,
    private readonly logger: FeedLogger,
  ) {}

  async write(board: Board, changes: LineChange[], ownerOf: GameOwner): Promise<void> {
    const games: HistoryGame[] = [];
    for (const g of board.games) {
      for (const id of [g.id, ...g.aliases]) {
        const owner = ownerOf(id);
        if (!owner) continue;
        const sg = owner.game;
        const sig = `${g.id}|${sg.homeTeam}|${sg.awayTeam}|${sg.startMs}|${g.finalAt ?? ''}`;
        if (this.writtenGames.get(id) === sig) continue;
        this.writtenGames.set(id, sig);
        games.push({
          id,
          mergedId: g.id,
          book: owner.book,
          sport: sg.sport,
          homeTeam: g.homeTeam,
          awayTeam: g.awayTeam,
          startMs: sg.startMs,
          endedMs: g.finalAt,
        });
      }
    }
    try {
      await this.history.record({ games, changes });
    } catch (err) {
      // The board is still served; the written-games memo is dropped so the next cycle retries them.
      for (const g of games) this.writtenGames.delete(g.id);
      this.logger.error({ err: String(err), changes: changes.length }, 'line history write failed');
    }
  }
}
