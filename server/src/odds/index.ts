/**
 * What the views need to put probabilities and edges on rows: the fair probabilities (cached
 * per prop until its quotes or the logs change) and the entry types in force.
 */
import type { Book, Edge, EntryType, FairProbability } from '@propsfeed/contract';
import type { BoardGame, BoardProp } from '../feed/types';
import { bestEdge, cheapestEntries } from './edge';
import { type EntryBook, utcDay } from './entries';
import { FairProbabilities, type StatLogs } from './fair';
import { playedShareAt } from './live';

export { EntryBook, utcDay } from './entries';

export class PropOdds {
  readonly fair: FairProbabilities;
  private day = '';
  private cheapest = new Map<Book, EntryType>();

  constructor(
    readonly entries: EntryBook,
    logs?: StatLogs,
  ) {
    this.fair = new FairProbabilities(logs);
  }

  /** The prop's chances on the board of `atMs`: pre-game, or in-game from its value so far and the game's clock. */
  probabilities(game: BoardGame, prop: BoardProp, atMs: number): FairProbability[] | undefined {
    if (!game.live) return this.fair.of(game.sport, prop, false);
    const played = playedShareAt(game.sport, prop.gameClock ?? game.clock, game.startMs, atMs);
    return this.fair.of(game.sport, prop, true, played);
  }

  /** The entry type of this id in force on the day of `atMs`, or undefined. */
  entry(id: string, atMs: number): EntryType | undefined {
    return this.entries.inEffect(utcDay(atMs)).find((t) => t.id === id);
  }

  /** The edge against `entry`, or (none given) against each book's cheapest entry type on the day of `atMs`. */
  edge(probabilities: readonly FairProbability[], atMs: number, entry?: EntryType): Edge | undefined {
    if (entry) return bestEdge(probabilities, (book) => (book === entry.book ? entry : undefined));
    const day = utcDay(atMs);
    if (day !== this.day) {
      this.cheapest = cheapestEntries(this.entries.inEffect(day));
      this.day = day;
    }
    return bestEdge(probabilities, (book) => this.cheapest.get(book));
  }
}
