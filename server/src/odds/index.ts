/**
 * What the views need to put probabilities and edges on rows: the fair probabilities (cached
 * per prop until its quotes or the logs change) and the entry types in force. Also
 * `@propsfeed/server/model` (workspace only), for the backtests: the model's pricing (de-vig,
 * distributions, fair chances), its fit and its scoring.
 */
import type { Book, Edge, EntryType, FairProbability } from '@propsfeed/contract';
import type { BoardGame, BoardProp } from '../board/types';
import { COEFFICIENTS } from './coefficients';
import { bestEdge, cheapestEntries, withheldReason } from './edge';
import { type EntryBook, utcDay } from './entries';
import { FairProbabilities, type StatLogs } from './fair';
import { playedShareAt } from './live';
import type { Coefficients } from './model';

export { COEFFICIENTS, REAL_COEFFICIENTS, SIMULATED_COEFFICIENTS } from './coefficients';
export { devigMultiplicative, impliedProbability } from './devig';
export { probabilitiesAt } from './distribution';
export { EntryBook, utcDay } from './entries';
export { estimate, liveFairProbabilities, type PlayerInput, readsOf } from './fair';
export { fitCoefficients, fitLiveScale, type Sample } from './fit';
export { playedShareAt } from './live';
export { type Coefficients, dispersionOf, marketMean, modelFor, seasonMean } from './model';
export { playerInputBefore } from './playerInput';
export { CALIBRATION_BINS, LOG_LOSS_CLAMP, type Outcome, type ProbabilityScores, scoreProbabilities } from './record';

const DAY_MS = 86_400_000;

/** A prop's default edge (against each book's cheapest entry type on `day`) and why some of its edges are withheld. */
interface RowEdge {
  day: string;
  edge: Edge | undefined;
  withheld: string | undefined;
}

export class PropOdds {
  readonly fair: FairProbabilities;
  private day = '';
  private cheapest = new Map<Book, EntryType>();
  /**
   * Per chances (FairProbabilities keeps one array per prop until its quotes or the logs
   * change): its default edge and withheld note, so a board build reuses them, workings
   * sentence included, rather than making them again for every prop that did not move.
   */
  private readonly rowEdges = new WeakMap<readonly FairProbability[], RowEdge>();
  /** The UTC day of the last `atMs` asked, by its number since the epoch: a board asks thousands of times for one. */
  private dayNumber = Number.NaN;
  private dayText = '';

  constructor(
    readonly entries: EntryBook,
    logs?: StatLogs,
    readonly coefficients: Coefficients = COEFFICIENTS,
  ) {
    this.fair = new FairProbabilities(logs, coefficients);
  }

  /**
   * The prop's chances on the board of `atMs`: pre-game (odds/fair.ts preGameChances, what its
   * lock stores when the game starts), or in-game from its value so far and the game's clock.
   */
  probabilities(game: BoardGame, prop: BoardProp, atMs: number): FairProbability[] | undefined {
    if (!game.live) return this.fair.of(game, prop, false);
    const played = playedShareAt(game.sport, prop.gameClock ?? game.clock, game.startMs, atMs);
    return this.fair.of(game, prop, true, played);
  }

  /** The entry type of this id in force on the day of `atMs`, or undefined. */
  entry(id: string, atMs: number): EntryType | undefined {
    return this.entries.inEffect(utcDay(atMs)).find((t) => t.id === id);
  }

  /** The edge against `entry`, or (none given) against each book's cheapest entry type on the day of `atMs`. */
  edge(probabilities: readonly FairProbability[], atMs: number, entry?: EntryType): Edge | undefined {
    const { withheld } = this.coefficients;
    if (entry) return bestEdge(probabilities, (book) => (book === entry.book ? entry : undefined), withheld);
    const dayNumber = Math.floor(atMs / DAY_MS);
    if (dayNumber !== this.dayNumber) {
      this.dayNumber = dayNumber;
      this.dayText = utcDay(atMs);
    }
    return this.rowEdge(probabilities, this.dayText).edge;
  }

  /** Why some of these chances carry no edge (their basis was not calibrated where it was scored), or undefined. */
  withheld(probabilities: readonly FairProbability[]): string | undefined {
    let row = this.rowEdges.get(probabilities);
    if (!row) {
      // The note does not depend on the day: any day's entry will do until the edge is asked for.
      row = { day: '', edge: undefined, withheld: withheldReason(probabilities, this.coefficients.withheld) };
      this.rowEdges.set(probabilities, row);
    }
    return row.withheld;
  }

  private rowEdge(probabilities: readonly FairProbability[], day: string): RowEdge {
    let row = this.rowEdges.get(probabilities);
    if (row?.day === day) return row;
    if (day !== this.day) {
      this.cheapest = cheapestEntries(this.entries.inEffect(day));
      this.day = day;
    }
    const edge = bestEdge(probabilities, (book) => this.cheapest.get(book), this.coefficients.withheld);
    row = { day, edge, withheld: row ? row.withheld : withheldReason(probabilities, this.coefficients.withheld) };
    this.rowEdges.set(probabilities, row);
    return row;
  }
}
