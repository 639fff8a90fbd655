/**
 * Fair probabilities of each book's line of a prop, all read from one distribution of the
 * player's stat (odds/model.ts): the market's read (a priced book's two sides de-vigged, else
 * the line) blended with the season's logs and recent form. Computed once per change of the
 * prop's quotes or of the game logs, not per request.
 * `method` gives the figures in a few words; what each basis means is said once, in the
 * contract's PROBABILITY_METHODS legend, not on every row.
 */
import type { Book, FairProbability, ProbabilityBasis, SportId } from '@propsfeed/contract';
import { BOOK_NAMES } from '@propsfeed/contract';
import type { BoardGame, BoardProp, BookQuote } from '../board/types';
import { COEFFICIENTS } from './coefficients';
import { devigMultiplicative } from './devig';
import {
  calibrateMean,
  describeModel,
  probabilitiesAt,
  remainingModel,
  type SideProbabilities,
  type StatModel,
} from './distribution';
import { round4 } from './entries';
import { liveChances } from './live';
import {
  blendWeights,
  type Coefficients,
  dispersionOf,
  inherentOf,
  MIN_READ_GAMES,
  marketMean,
  modelFor,
  type Reads,
  seasonMean,
  stackedMean,
} from './model';
import { gameDay, type LoggedValue, type PlayerInput, playerInputBefore } from './playerInput';

export type { PlayerInput } from './playerInput';

/** The game logs the distributions are fitted to (the game-log index satisfies it). */
export interface StatLogs {
  /** Changes whenever the logs change. */
  readonly version: number;
  player(sport: SportId, playerKey: string): { byStat: Map<string, readonly LoggedValue[]> } | undefined;
}

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

const r2 = (v: number) => String(Math.round(v * 100) / 100);

/**
 * The blended mean in figures a bettor can check: "mean 25.06 = 0.82 × market 25.1 + 0.12 ×
 * season 23.4 + 0.06 × form 27 (40 games)"; a read that is missing is said so, its weight the market's.
 */
export function blendText(reads: Reads, coef: Coefficients, mean: number): string {
  const w = blendWeights(reads, coef);
  const parts = [`${r2(w.market)} × market ${r2(reads.market)}`];
  if (reads.season !== null) parts.push(`${r2(w.season)} × season ${r2(reads.season)}`);
  if (reads.form !== null) parts.push(`${r2(w.form)} × form ${r2(reads.form)}`);
  const games = reads.season === null ? `${reads.games} games logged, too few to read` : `${reads.games} games`;
  return `mean ${r2(mean)} = ${parts.join(' + ')} (${games})`;
}

/** Which coefficients a chance was made with, as `method` ends: "real coefficients" or "simulated coefficients". */
const coefficientsText = (coef: Coefficients) => `${coef.kind} coefficients`;

/**
 * The market's read of a prop: the chance of the over given no push (de-vigged) at each priced
 * line, with how many books it stands for, or (none prices it) the line alone; `line` is the
 * line the read is at (the first priced one), `text` says whose, for `method`.
 */
export interface MarketRead {
  line: number;
  priced: readonly { line: number; pOver: number; books: number }[];
  text: string;
}

/** The market read of a prop's quotes: its first priced book's, else its first line unpriced (undefined without quotes). */
export function marketReadOf(quotes: readonly BookQuote[]): MarketRead | undefined {
  const first = quotes[0];
  if (!first) return undefined;
  const priced = pricedQuote(quotes);
  if (!priced) return { line: first.line, priced: [], text: `line ${first.line} unpriced` };
  return {
    line: priced.quote.line,
    priced: [{ line: priced.quote.line, pOver: priced.pOver, books: 1 }],
    text: `${BOOK_NAMES[priced.quote.source]} ${priced.quote.line} ${american(priced.overOdds)}/${american(priced.underOdds)} de-vigged (margin ${percent(priced.overround)})`,
  };
}

/**
 * The reads the blended mean weighs: the market's (each priced line's chance read back to a
 * mean at the spread fitted for the stat, weighed by its books; unpriced, the line), the
 * season's and form's.
 */
export function readsAt(market: MarketRead, input: PlayerInput, coef: Coefficients = COEFFICIENTS): Reads {
  const dispersion = dispersionOf(coef, input.sport, input.stat);
  let sum = 0;
  let books = 0;
  for (const p of market.priced) {
    sum += p.books * marketMean(p.line, p.pOver, dispersion);
    books += p.books;
  }
  return { ...logReads(input), market: books > 0 ? sum / books : market.line, priced: books > 0 };
}

/** The reads the blended mean weighs (undefined without quotes). */
export function readsOf(
  quotes: readonly BookQuote[],
  input: PlayerInput,
  coef: Coefficients = COEFFICIENTS,
): Reads | undefined {
  const market = marketReadOf(quotes);
  return market && readsAt(market, input, coef);
}

/**
 * One prop's distribution before the start: its mean blended from the market read, the season
 * and form (odds/model.ts), its spread fitted for the stat, and `method`, its figures in one
 * sentence. What fairProbabilities reads every book's line from, and the real backtest too.
 */
export function estimate(
  market: MarketRead,
  input: PlayerInput,
  coef: Coefficients = COEFFICIENTS,
): { reads: Reads; model: StatModel; method: string } {
  const reads = readsAt(market, input, coef);
  const model = modelFor(stackedMean(reads, coef), dispersionOf(coef, input.sport, input.stat));
  const method = `${market.text} reads market ${r2(reads.market)}; ${blendText(reads, coef, model.mean)}; ${describeModel(model)}; ${coefficientsText(coef)}`;
  return { reads, model, method };
}

/** The logs' reads of the player, before the start and in-game alike: season, form and how many games. */
function logReads(input: PlayerInput): Pick<Reads, 'season' | 'form' | 'games'> {
  return {
    season: seasonMean(input.values),
    form: input.values.length >= MIN_READ_GAMES ? (input.projection?.value ?? null) : null,
    games: input.values.length,
  };
}

/**
 * Each book's line of one prop, from one distribution: its mean blended from the market
 * (the priced book's de-vigged chance, else the line), the season's logs and recent form
 * (odds/model.ts, weights fitted on earlier days), its spread fitted likewise. The basis says
 * which market read it rests on: the prices at this line, the prices carried to another line,
 * or (no book prices it) the line and the logs.
 */
export function fairProbabilities(
  quotes: readonly BookQuote[],
  input: PlayerInput,
  coef: Coefficients = COEFFICIENTS,
): FairProbability[] {
  const market = marketReadOf(quotes);
  if (!market) return [];
  const { model, method } = estimate(market, input, coef);
  return quotes.map((q) => {
    const basis: ProbabilityBasis =
      market.priced.length === 0 ? 'distribution' : q.line === market.line ? 'prices' : 'prices_moved';
    return published(q.source, q.line, probabilitiesAt(model, q.line), basis, method);
  });
}

/**
 * A prop's chances before its game's start, from the player's logs of the stat (any order and
 * dates; playerInputBefore keeps those dated before the game's UTC day, in one order) and the
 * coefficients served. The one code path of "priced once means one truth" (#40): the scan rows
 * (PropOdds, over the API's game-log index) and the locks the track record scores
 * (feed/lockWriter.ts, over the store) both price here. They share no memory (the feed runs
 * apart from the API, in a worker thread or on another replica), so the equality of a prop's
 * last pre-game scan chance and its lock cannot come from a cached object both read: it comes
 * from identical inputs (the same board's quotes, the same stored logs, the coefficients
 * servedCoefficients picks from the same config) through this deterministic function.
 */
export function preGameChances(
  game: Pick<BoardGame, 'sport' | 'startTime'>,
  prop: Pick<BoardProp, 'stat' | 'books'>,
  logs: readonly LoggedValue[],
  coef: Coefficients = COEFFICIENTS,
): FairProbability[] {
  return fairProbabilities(prop.books, playerInputBefore(game.sport, prop.stat, logs, gameDay(game)), coef);
}

/** Below this share of the game left, the books' live line is not read back to a full-game mean (it says little and divides by almost nothing). */
const MIN_LEFT_READ = 0.1;

/**
 * The full-game mean at which the remaining share `left` of the game, from `modelFor(mean)`,
 * gives `pOver` over `lineLeft` (the live line less the value so far): the book's live price
 * read back to the scale of a whole game, so it stacks with the logs as a pre-game price does.
 */
export function liveMarketMean(lineLeft: number, pOver: number, dispersion: number, left: number): number {
  let mean = Math.max(lineLeft, 0.5) / left;
  for (let i = 0; i < 3; i++)
    mean = calibrateMean(remainingModel(modelFor(mean, dispersion), left), lineLeft, pOver).mean / left;
  return mean;
}

/**
 * A live prop's chances: the same blended mean as before the start, its market read taken from
 * the live line and prices (what the book expects over the share left, scaled to a game), then
 * the value so far plus that distribution over what is left (odds/live.ts). Empty when the
 * value so far or the share played is unknown.
 */
export function liveFairProbabilities(
  quotes: readonly BookQuote[],
  input: PlayerInput,
  soFar: number | undefined,
  played: number | undefined,
  coef: Coefficients = COEFFICIENTS,
): FairProbability[] {
  const first = quotes[0];
  if (!first || soFar === undefined || played === undefined || !Number.isFinite(soFar)) return [];
  const left = 1 - Math.min(1, Math.max(0, played));
  const dispersion = dispersionOf(coef, input.sport, input.stat);
  const priced = pricedQuote(quotes);
  const logs = logReads(input);
  const lineLeft = (priced?.quote.line ?? first.line) - soFar;
  let market: number | null = null;
  let marketText = 'live line not read';
  if (left >= MIN_LEFT_READ && lineLeft > 0) {
    market = priced ? liveMarketMean(lineLeft, priced.pOver, dispersion, left) : lineLeft / left;
    marketText = priced
      ? `${BOOK_NAMES[priced.quote.source]} live ${priced.quote.line} ${american(priced.overOdds)}/${american(priced.underOdds)} de-vigged (game mean ${r2(market)})`
      : `live line ${first.line} unpriced (game mean ${r2(market)})`;
  }
  if (market === null) {
    market = logs.season ?? logs.form;
    marketText += `, the ${logs.season !== null ? 'season' : 'form'} read stands in for the market`;
  }
  if (market === null || !(market > 0)) return [];
  const reads: Reads = { ...logs, market, priced: priced !== undefined };
  const model = modelFor(stackedMean(reads, coef), dispersion);
  const method = `${marketText}; ${blendText(reads, coef, model.mean)}; ${describeModel(model)} for the game; ${r2(soFar)} so far, ${Math.round(left * 100)} % left; ${coefficientsText(coef)}`;
  const inherent = inherentOf(coef, input.sport, input.stat);
  return quotes.map((q) => {
    const { pOver, pUnder, pPush } = sharpened(liveChances(model, soFar, played, q.line, inherent), coef.liveScale);
    // A push is possible only on a whole-number line: elsewhere it is left out, as before the start.
    const sides = Number.isInteger(q.line) ? { pOver, pUnder, pPush } : { pOver, pUnder };
    return published(q.source, q.line, sides, 'live', method);
  });
}

/**
 * The over's chance given no push, its log-odds scaled by `scale` (Coefficients.liveScale,
 * fitted on earlier days' live snapshots); the push's chance kept. A decided prop stays decided.
 */
export function sharpened(p: { pOver: number; pUnder: number; pPush: number }, scale: number): SideProbabilities {
  const decided = p.pOver + p.pUnder;
  if (scale === 1 || !(decided > 0) || p.pOver <= 0 || p.pUnder <= 0) return p;
  const q = p.pOver / decided;
  const scaled = 1 / (1 + Math.exp(-scale * Math.log(q / (1 - q))));
  return { pOver: scaled * decided, pUnder: (1 - scaled) * decided, pPush: p.pPush };
}

/**
 * A prop's probabilities, cached by its quotes (live: and its value and share played) until the
 * game logs change: before the start preGameChances', live liveFairProbabilities' over the same
 * input (the logs of days before the game's).
 */
export class FairProbabilities {
  private readonly cache = new Map<string, FairProbability[]>();
  private cachedVersion = -1;

  constructor(
    private readonly logs?: StatLogs,
    readonly coefficients: Coefficients = COEFFICIENTS,
  ) {}

  /**
   * Pre-game chances, or (`live`) the in-game chances of the value so far and the share of the
   * game `played`; undefined when a live prop's value or share played is unknown.
   */
  of(
    game: Pick<BoardGame, 'sport' | 'startTime'>,
    prop: BoardProp,
    live: boolean,
    played?: number,
  ): FairProbability[] | undefined {
    const version = this.logs?.version ?? 0;
    if (version !== this.cachedVersion || this.cache.size > 200_000) {
      this.cache.clear();
      this.cachedVersion = version;
    }
    // A live prop's chances move with the clock: read to a hundredth of the game (half a minute
    // of basketball), so the boards between reuse them rather than price every live prop anew.
    const share = live && played !== undefined ? Math.round(played * 100) / 100 : undefined;
    const { sport } = game;
    // The game's day is in the key: the logs its chances read are those before it.
    let key = `${sport}|${gameDay(game)}|${prop.playerKey}|${prop.stat}`;
    if (live) key += `|live:${prop.liveValue ?? ''}:${share ?? ''}`;
    for (const b of prop.books) key += `|${b.source}:${b.line}:${b.overOdds ?? ''}:${b.underOdds ?? ''}`;
    let result = this.cache.get(key);
    if (!result) {
      const logs = this.logs?.player(sport, prop.playerKey)?.byStat.get(prop.stat) ?? [];
      result = live
        ? liveFairProbabilities(
            prop.books,
            playerInputBefore(sport, prop.stat, logs, gameDay(game)),
            prop.liveValue,
            share,
            this.coefficients,
          )
        : preGameChances(game, prop, logs, this.coefficients);
      this.cache.set(key, result);
    }
    return result.length > 0 ? result : undefined;
  }
}
