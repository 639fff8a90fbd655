/**
 * Fair probabilities of each book's line of a prop, best basis first: a priced book's two
 * sides de-vigged; that probability moved to another book's line through the player's
 * distribution; else the distribution alone. None (with the reason) when the basis is too
 * thin. Computed once per change of the prop's quotes or of the game logs, not per request.
 * `method` gives the figures in a few words; what each basis means is said once, in the
 * contract's PROBABILITY_METHODS legend, not on every row.
 */
import type { Book, FairProbability, ProbabilityBasis, Projection, SportId } from '@propsfeed/contract';
import type { BoardProp, BookQuote } from '../feed/types';
import { devigMultiplicative } from './devig';
import {
  calibrateMean,
  describeModel,
  type Fit,
  fitStat,
  MIN_DISTRIBUTION_GAMES,
  probabilitiesAt,
  type SideProbabilities,
  type StatModel,
} from './distribution';
import { round4 } from './entries';

/** The game logs the distributions are fitted to (the game-log index satisfies it). */
export interface StatLogs {
  /** Changes whenever the logs change. */
  readonly version: number;
  player(sport: SportId, playerKey: string): { byStat: Map<string, readonly { value: number }[]> } | undefined;
  /** The projection: the distribution's centre. */
  get(sport: SportId, playerKey: string, stat: string): Projection | undefined;
}

const BOOK_NAMES: Record<Book, string> = { prizepicks: 'PrizePicks', underdog: 'Underdog' };
const percent = (v: number) => `${Math.round(v * 1000) / 10} %`;
const american = (odds: number) => (odds > 0 ? `+${odds}` : String(odds));

/** Rounded to 4 places, the sides still summing to 1. */
function published(
  source: Book,
  line: number,
  p: SideProbabilities,
  basis: ProbabilityBasis,
  method: string,
): FairProbability {
  const pOver = round4(p.pOver);
  const pPush = p.pPush === undefined ? undefined : round4(p.pPush);
  const pUnder = round4(1 - pOver - (pPush ?? 0));
  return { source, line, pOver, pUnder, ...(pPush === undefined ? {} : { pPush }), basis, method };
}

function none(source: Book, line: number, why: string): FairProbability {
  return { source, line, pOver: null, pUnder: null, basis: 'none', method: `no estimate: ${why}` };
}

interface Priced {
  quote: BookQuote;
  overOdds: number;
  underOdds: number;
  /** P(over | no push), de-vigged. */
  pOver: number;
  overround: number;
}

function pricedQuote(quotes: readonly BookQuote[]): Priced | undefined {
  for (const quote of quotes) {
    if (quote.overOdds === undefined || quote.underOdds === undefined) continue;
    const { overOdds, underOdds } = quote;
    return { quote, overOdds, underOdds, ...devigMultiplicative(overOdds, underOdds) };
  }
  return undefined;
}

/** The sides at `line` of a model already moved to the priced book, or the de-vigged split when the line cannot push. */
function fromPriced(priced: Priced, moved: StatModel | undefined, line: number): SideProbabilities | undefined {
  if (moved) {
    const p = probabilitiesAt(moved, line);
    // At the priced line itself the split is the prices', exactly (bisection only approaches it).
    if (line === priced.quote.line && p.pPush === undefined) return { pOver: priced.pOver, pUnder: 1 - priced.pOver };
    return p;
  }
  if (line === priced.quote.line && !Number.isInteger(line)) return { pOver: priced.pOver, pUnder: 1 - priced.pOver };
  return undefined;
}

/** Each book's line of one prop, with its probabilities or the reason there are none. */
export function fairProbabilities(quotes: readonly BookQuote[], fit: Fit): FairProbability[] {
  const priced = pricedQuote(quotes);
  const model = 'model' in fit ? fit.model : undefined;
  const sample = 'model' in fit ? `${fit.n} games` : '';
  const moved = priced && model ? calibrateMean(model, priced.quote.line, priced.pOver) : undefined;
  return quotes.map((q) => {
    if (priced) {
      const { quote, overOdds, underOdds } = priced;
      const devig = `${BOOK_NAMES[quote.source]} ${quote.line} ${american(overOdds)}/${american(underOdds)} de-vigged, margin ${percent(priced.overround)}`;
      const p = fromPriced(priced, moved, q.line);
      if (p) {
        const through = moved ? ` by ${describeModel(moved)} on ${sample}` : '';
        const atPriced = q.line === priced.quote.line;
        const method = atPriced
          ? `${devig}${p.pPush === undefined ? '' : `; push${through}`}`
          : `${devig}; moved to ${q.line}${through}`;
        return published(q.source, q.line, p, atPriced ? 'prices' : 'prices_moved', method);
      }
    }
    if (model) {
      return published(
        q.source,
        q.line,
        probabilitiesAt(model, q.line),
        'distribution',
        `${describeModel(model)} on ${sample}`,
      );
    }
    const why = 'none' in fit ? fit.none : 'no distribution';
    if (!priced) return none(q.source, q.line, `no book prices it and ${why}`);
    if (q.line === priced.quote.line) return none(q.source, q.line, `an integer line and ${why} to estimate a push`);
    return none(
      q.source,
      q.line,
      `${BOOK_NAMES[priced.quote.source]} prices ${priced.quote.line}, and ${why} to move it`,
    );
  });
}

/** A prop's probabilities, cached by its quotes until the game logs change. */
export class FairProbabilities {
  private readonly cache = new Map<string, FairProbability[]>();
  private cachedVersion = -1;

  constructor(private readonly logs?: StatLogs) {}

  /** Undefined for a live prop: in-game chances are not modelled. */
  of(sport: SportId, prop: BoardProp, live: boolean): FairProbability[] | undefined {
    if (live) return undefined;
    const version = this.logs?.version ?? 0;
    if (version !== this.cachedVersion || this.cache.size > 200_000) {
      this.cache.clear();
      this.cachedVersion = version;
    }
    let key = `${sport}|${prop.playerKey}|${prop.stat}`;
    for (const b of prop.books) key += `|${b.source}:${b.line}:${b.overOdds ?? ''}:${b.underOdds ?? ''}`;
    let result = this.cache.get(key);
    if (!result) {
      result = fairProbabilities(prop.books, this.fitOf(sport, prop));
      this.cache.set(key, result);
    }
    return result;
  }

  private fitOf(sport: SportId, prop: BoardProp): Fit {
    return fitOfGames(
      this.logs?.player(sport, prop.playerKey)?.byStat.get(prop.stat) ?? [],
      this.logs?.get(sport, prop.playerKey, prop.stat),
    );
  }
}

/** The distribution of a stat from its games (newest first) centred on its projection; none without a projection. */
export function fitOfGames(games: readonly { value: number }[], projection: Projection | undefined): Fit {
  if (!projection) return { none: `${games.length} recorded games (at least ${MIN_DISTRIBUTION_GAMES} needed)` };
  return fitStat(
    games.map((g) => g.value),
    projection.value,
  );
}
