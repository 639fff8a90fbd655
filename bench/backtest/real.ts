/**
 * The backtest on real lines and results (`pnpm backtest --real DIR [--fit-until YYYY-MM-DD]`):
 * DIR/props.csv (sportsbook lines with American odds, one row per book) and DIR/logs.csv (the
 * players' game logs, the `props stats import` format), as docs/edges.md describes them. Every
 * prop is replayed date by date with only the logs of earlier dates, through the served model
 * code (odds/fair.ts `estimate`): the market read is the books' de-vigged consensus at the
 * line most books post. With --fit-until the real coefficients are fitted on the props before
 * that date and the props from it on are scored; without, the served real coefficients score
 * every prop. Scored against the market (the consensus at each line) and a coin; the edges are
 * bets on the best-priced book's side wherever a chance beats that price's implied chance by
 * a minimum, settled at that book's odds (a push refunds the stake).
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { EDGE_THRESHOLDS, isStatKey, SPORT_IDS, type SportId } from '@propsfeed/contract';
import type { GameLog } from '@propsfeed/server/history';
import {
  type Coefficients,
  devigMultiplicative,
  estimate,
  fitCoefficients,
  impliedProbability,
  type PlayerInput,
  probabilitiesAt,
  REAL_COEFFICIENTS,
  type Sample,
  SIMULATED_COEFFICIENTS,
} from '@propsfeed/server/model';
import { byDateDesc, parseGameLogCsv, projectStat, splitCsv } from '@propsfeed/server/stats';
import { brierDifference, type EdgeRow, score, scoreLine, withheldWhy } from './score';

/** The columns of props.csv, in any order; start_time may be empty, and so may taken_at. */
export const PROPS_COLUMNS = [
  'date',
  'sport',
  'player',
  'team',
  'opponent',
  'stat',
  'line',
  'book',
  'over_odds',
  'under_odds',
  'taken_at',
  'start_time',
] as const;

/** Bad input: the sentence the run prints before it exits non-zero. */
export class RealInputError extends Error {}

/** One book's prices at a line: a side it did not price is undefined (the quote is then not de-vigged, only bet). */
interface Quote {
  book: string;
  overOdds: number | undefined;
  underOdds: number | undefined;
}

/** One player's stat on one date: every book's quote at every line. */
interface PropGroup {
  date: string;
  sport: SportId;
  player: string;
  stat: string;
  lines: Map<number, Map<string, Quote>>;
}

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
/** American odds: at most -100 or at least +100. */
const isAmerican = (v: number) => Number.isInteger(v) && (v <= -100 || v >= 100);

function readText(dir: string, name: string): string {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RealInputError(
      `${join(dir, name)} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}); DIR must hold props.csv and logs.csv (docs/edges.md)`,
    );
  }
}

/** props.csv as prop groups, or a RealInputError naming the first bad row. */
export function parsePropsCsv(text: string): { groups: PropGroup[]; rows: number; books: Set<string> } {
  const split = splitCsv(text);
  if ('error' in split) throw new RealInputError(`props.csv ${split.error}`);
  const [header, ...body] = split.records;
  const names = (header?.fields ?? []).map((f) => f.trim().toLowerCase());
  const missing = PROPS_COLUMNS.filter((c) => !names.includes(c));
  if (!header || missing.length > 0)
    throw new RealInputError(
      `props.csv line 1: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected ${PROPS_COLUMNS.join(',')})`,
    );
  const at = Object.fromEntries(PROPS_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<
    (typeof PROPS_COLUMNS)[number],
    number
  >;
  const groups = new Map<string, PropGroup>();
  const books = new Set<string>();
  let rows = 0;
  for (const record of body) {
    if (record.fields.length === 1 && record.fields[0]?.trim() === '') continue;
    const bad = (why: string) => new RealInputError(`props.csv line ${record.line}: ${why}`);
    if (record.fields.length !== names.length)
      throw bad(`${record.fields.length} fields, the header has ${names.length}`);
    const cell = (c: (typeof PROPS_COLUMNS)[number]) => (record.fields[at[c]] ?? '').trim();
    const date = cell('date');
    if (!isDate(date)) throw bad(`date '${date}' is not a YYYY-MM-DD date`);
    const sport = cell('sport').toLowerCase() as SportId;
    if (!SPORT_IDS.includes(sport)) throw bad(`sport '${cell('sport')}' is not one of ${SPORT_IDS.join(', ')}`);
    const stat = cell('stat').toLowerCase();
    if (!isStatKey(sport, stat)) throw bad(`stat '${cell('stat')}' is not a ${sport} stat key`);
    const player = cell('player');
    if (player === '') throw bad('player is empty');
    const book = cell('book');
    if (book === '') throw bad('book is empty');
    const line = Number(cell('line'));
    if (cell('line') === '' || !Number.isFinite(line) || line < 0)
      throw bad(`line '${cell('line')}' is not a number of at least 0`);
    const odds = (name: 'over_odds' | 'under_odds') => {
      if (cell(name) === '') return undefined;
      const v = Number(cell(name));
      if (!isAmerican(v)) throw bad(`${name} '${cell(name)}' is not American odds (≤ -100 or ≥ +100, or empty)`);
      return v;
    };
    const overOdds = odds('over_odds');
    const underOdds = odds('under_odds');
    if (overOdds === undefined && underOdds === undefined) throw bad('over_odds and under_odds are both empty');
    const key = `${date}|${sport}|${player}|${stat}`;
    let group = groups.get(key);
    if (!group) {
      group = { date, sport, player, stat, lines: new Map() };
      groups.set(key, group);
    }
    const quotes = group.lines.get(line) ?? new Map<string, Quote>();
    group.lines.set(line, quotes);
    // A book quoted twice at a line: its later row stands.
    quotes.set(book, { book, overOdds, underOdds });
    books.add(book);
    rows++;
  }
  if (rows === 0) throw new RealInputError('props.csv has a header but no rows');
  return { groups: [...groups.values()].sort((a, b) => a.date.localeCompare(b.date)), rows, books };
}

/** logs.csv as each player's games of each stat, oldest first, or a RealInputError naming the first bad row. */
function parseLogs(text: string): { byPlayer: Map<string, GameLog[]>; rows: number } {
  const parsed = parseGameLogCsv(text);
  if (!parsed.ok) {
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : '';
    throw new RealInputError(`logs.csv ${parsed.errors[0]}${more}`);
  }
  const byPlayer = new Map<string, GameLog[]>();
  for (const row of parsed.rows) {
    // Joined on the player's name as spelled in both files: a traded player keeps his games.
    const key = `${row.sport}|${row.player}|${row.stat}`;
    const list = byPlayer.get(key) ?? [];
    list.push({ ...row, source: 'import' });
    byPlayer.set(key, list);
  }
  for (const list of byPlayer.values()) list.sort((a, b) => a.date.localeCompare(b.date));
  return { byPlayer, rows: parsed.rows.length };
}

/** The number of games before `date` in a list sorted oldest first. */
function countBefore(games: readonly GameLog[], date: string): number {
  let low = 0;
  let high = games.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((games[mid] as GameLog).date < date) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** One scored line of one prop. */
interface Row {
  date: string;
  basis: 'prices' | 'prices_moved';
  /** P(over | no push): ours and the books' consensus. */
  ours: number;
  market: number;
  result: 'over' | 'under' | 'push';
  /** Each side's best price (American) among the books at this line. */
  bestOver: number;
  bestUnder: number;
}

/** The books pricing both sides at a line, and their de-vigged consensus: the mean of each one's multiplicative de-vig (undefined: none). */
function consensus(quotes: Map<string, Quote>): { books: number; pOver: number | undefined } {
  let sum = 0;
  let books = 0;
  for (const q of quotes.values()) {
    if (q.overOdds === undefined || q.underOdds === undefined) continue;
    sum += devigMultiplicative(q.overOdds, q.underOdds).pOver;
    books++;
  }
  return { books, pOver: books > 0 ? sum / books : undefined };
}

/** The line most books price both sides of (ties: the one whose consensus is nearest an even price): the market read. */
function modalLine(group: PropGroup): number | undefined {
  let best: { line: number; books: number; tilt: number } | undefined;
  for (const [line, quotes] of group.lines) {
    const { books, pOver } = consensus(quotes);
    if (pOver === undefined) continue;
    const tilt = Math.abs(pOver - 0.5);
    if (!best || books > best.books || (books === best.books && tilt < best.tilt)) best = { line, books, tilt };
  }
  return best?.line;
}

interface Replay {
  rows: Row[];
  samples: Sample[];
  /** Props with no outcome in the logs (left out). */
  unsettled: number;
  /** Props no book priced both sides of at any line (left out: no market read). */
  unpriced: number;
}

/** Every prop through the served estimate with `coef`, each from the logs of earlier dates only. */
function replay(groups: readonly PropGroup[], logs: Map<string, GameLog[]>, coef: Coefficients): Replay {
  const rows: Row[] = [];
  const samples: Sample[] = [];
  let unsettled = 0;
  let unpriced = 0;
  for (const g of groups) {
    const games = logs.get(`${g.sport}|${g.player}|${g.stat}`) ?? [];
    const n = countBefore(games, g.date);
    const outcome = games[n]?.date === g.date ? (games[n] as GameLog).value : undefined;
    if (outcome === undefined) {
      unsettled++;
      continue;
    }
    const before = games.slice(0, n).sort(byDateDesc);
    const input: PlayerInput = {
      sport: g.sport,
      stat: g.stat,
      values: before.map((x) => x.value),
      projection: projectStat(g.sport, g.stat, before),
    };
    const modal = modalLine(g);
    if (modal === undefined) {
      unpriced++;
      continue;
    }
    // The market read: every line's consensus, each read back to a mean and weighed by its books.
    const priced = [...g.lines].flatMap(([line, quotes]) => {
      const c = consensus(quotes);
      return c.pOver === undefined ? [] : [{ line, pOver: c.pOver, books: c.books }];
    });
    const { reads, model } = estimate(
      { line: modal, priced, text: `the consensus of ${priced.reduce((a, p) => a + p.books, 0)} books` },
      input,
      coef,
    );
    samples.push({ date: g.date, sport: g.sport, stat: g.stat, reads, final: outcome, values: input.values });
    for (const [line, atLine] of g.lines) {
      const atMarket = consensus(atLine).pOver;
      // A line no book prices both sides of has no market to score against.
      if (atMarket === undefined) continue;
      const p = probabilitiesAt(model, line);
      const best = (side: 'overOdds' | 'underOdds') =>
        Math.max(...[...atLine.values()].flatMap((q) => (q[side] === undefined ? [] : [decimalOf(q[side])])));
      rows.push({
        date: g.date,
        basis: line === modal ? 'prices' : 'prices_moved',
        ours: p.pOver / (p.pOver + p.pUnder),
        market: atMarket,
        result: outcome > line ? 'over' : outcome < line ? 'under' : 'push',
        bestOver: best('overOdds'),
        bestUnder: best('underOdds'),
      });
    }
  }
  return { rows, samples, unsettled, unpriced };
}

/** Decimal odds (the return per unit staked, stake included) of American odds. */
const decimalOf = (american: number) => 1 / impliedProbability(american);

/** A row of the edge table (score.ts's), by the source whose chances made the bets rather than by entry type. */
type BetRow = Omit<EdgeRow, 'entry'> & { source: string };

/**
 * The bets a source's chances make: on each line, the side whose chance (given no push) beats
 * the implied chance of its best price by the most, when by at least minEdge; won at that
 * price, lost, or refunded on a push. Hit rate over decided bets, ROI per unit staked, ± 1.96 SE.
 */
function bets(source: string, rows: readonly Row[], chance: (r: Row) => number): BetRow[] {
  return EDGE_THRESHOLDS.map((minEdge) => {
    const profits: number[] = [];
    let hits = 0;
    let decided = 0;
    for (const r of rows) {
      const q = chance(r);
      const over = q - 1 / r.bestOver;
      const under = 1 - q - 1 / r.bestUnder;
      const side = over >= under ? 'over' : 'under';
      if (Math.max(over, under) < minEdge) continue;
      if (r.result === 'push') {
        profits.push(0);
        continue;
      }
      decided++;
      const won = r.result === side;
      if (won) hits++;
      profits.push(won ? (side === 'over' ? r.bestOver : r.bestUnder) - 1 : -1);
    }
    const n = profits.length;
    const roi = n ? profits.reduce((a, v) => a + v, 0) / n : Number.NaN;
    const variance = n > 1 ? profits.reduce((a, v) => a + (v - roi) ** 2, 0) / (n - 1) : Number.NaN;
    const h = decided ? hits / decided : Number.NaN;
    return {
      source,
      minEdge,
      picks: n,
      hitRate: h,
      hitHalfWidth: decided ? 1.96 * Math.sqrt((h * (1 - h)) / decided) : Number.NaN,
      roi,
      roiHalfWidth: 1.96 * Math.sqrt(variance / n),
    };
  });
}

const pct = (v: number) => (Number.isFinite(v) ? (v * 100).toFixed(1) : '-');

function betLine(b: BetRow): string {
  return `  ${b.source.padEnd(22)} ≥${b.minEdge.toFixed(2)}  picks ${String(b.picks).padStart(6)}  hit ${pct(b.hitRate)} ±${pct(b.hitHalfWidth)}  ROI ${pct(b.roi).padStart(6)} ±${pct(b.roiHalfWidth)} %`;
}

/** A real set read from its directory: its props grouped by player-date, its game logs, its name. */
interface RealSet {
  dir: string;
  title: string;
  props: ReturnType<typeof parsePropsCsv>;
  logs: ReturnType<typeof parseLogs>;
}

function readRealSet(dirArg: string | undefined, fitUntil: string | undefined): RealSet {
  if (dirArg === undefined || dirArg.startsWith('--'))
    throw new RealInputError('--real needs a directory holding props.csv and logs.csv (docs/edges.md)');
  if (fitUntil !== undefined && !isDate(fitUntil))
    throw new RealInputError(`--fit-until '${fitUntil}' is not a YYYY-MM-DD date`);
  const dir = resolve(dirArg);
  const props = parsePropsCsv(readText(dir, 'props.csv'));
  const logs = parseLogs(readText(dir, 'logs.csv'));
  const dates = props.groups.map((g) => g.date);
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  let title = '';
  try {
    title = /^#\s*(.+)$/m.exec(readFileSync(join(dir, 'README.md'), 'utf8'))?.[1]?.trim() ?? '';
  } catch {
    // No README: the set is named by its directory alone.
  }
  console.log(
    `backtest --real: ${dir}${title ? ` ("${title}")` : ''}: props.csv ${props.rows} rows (${props.groups.length} player-dates, ${props.books.size} books, ${first}..${last}), logs.csv ${logs.rows} rows`,
  );
  if (fitUntil !== undefined && !(first < fitUntil && fitUntil <= last))
    throw new RealInputError(`--fit-until ${fitUntil} leaves no props to fit on or none to score (${first}..${last})`);
  return { dir, title, props, logs };
}

/** The rows to score and the coefficients that priced them: fitted before `fitUntil`, or the served real ones. */
function priceRealSet(set: RealSet, fitUntil: string | undefined): { coef: Coefficients; scored: readonly Row[] } {
  const { props, logs } = set;
  let coef: Coefficients = REAL_COEFFICIENTS;
  if (fitUntil !== undefined) {
    // The market reads depend on the stat's spread: fitted twice, the second time on reads made with the first fit's.
    let fit: Coefficients = { ...SIMULATED_COEFFICIENTS, kind: 'real' };
    for (let pass = 0; pass < 2; pass++)
      fit = fitCoefficients(
        replay(props.groups, logs.byPlayer, fit).samples,
        fitUntil,
        set.title || basename(set.dir),
        'real',
      );
    coef = fit;
  }
  const all = replay(props.groups, logs.byPlayer, coef);
  const scored = fitUntil !== undefined ? all.rows.filter((r) => r.date >= fitUntil) : all.rows;
  console.log(
    fitUntil !== undefined
      ? `model fitted on ${coef.fittedOn}; scored from ${fitUntil} (days it was not fitted on)`
      : `served real coefficients, fitted on ${coef.fittedOn}; scored on every prop`,
  );
  if (all.unsettled > 0) console.log(`${all.unsettled} player-dates have no outcome in logs.csv and are left out`);
  if (all.unpriced > 0) console.log(`${all.unpriced} player-dates have no line priced on both sides and are left out`);
  return { coef, scored };
}

/**
 * Prints one section's scores (ours, the market, a coin) and, for a basis, whether its edges
 * are shown; records in `withheld` why a basis's edges are withheld.
 */
function printSection(
  title: string,
  rows: readonly Row[],
  span: string,
  withheld: Record<string, string>,
  basis?: string,
): void {
  const decided = rows.filter((r) => r.result !== 'push');
  const of = (pick: (r: Row) => number) => decided.map((r) => ({ q: pick(r), over: r.result === 'over' }));
  const ours = score(of((r) => r.ours));
  console.log(`\n== ${title}: ${rows.length} lines, ${rows.length - decided.length} pushes apart`);
  console.log(scoreLine('ours', ours));
  console.log(scoreLine('market (consensus)', score(of((r) => r.market))));
  console.log(scoreLine('coin', score(of(() => 0.5))));
  if (decided.length <= 1) return;
  const { diff, se } = brierDifference(
    of((r) => r.ours),
    of((r) => r.market),
  );
  console.log(
    `  ours − market Brier ${diff >= 0 ? '+' : ''}${diff.toFixed(4)} ± ${se.toFixed(4)} (1 SE): ${diff > se ? 'worse' : diff < -se ? 'better' : 'no different within 1 SE'}`,
  );
  if (!basis) return;
  const why = withheldWhy(
    of((r) => r.ours),
    of((r) => r.market),
    `real lines ${span}`,
  );
  if (why) withheld[basis] = why;
  console.log(`  ${basis}: ${why ? `edges withheld, ${why}` : 'calibrated and no worse than the market: edges shown'}`);
}

/** `pnpm backtest --real DIR [--fit-until YYYY-MM-DD]`; answers the exit code. */
export function runRealBacktest(argv: readonly string[]): number {
  const began = performance.now();
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const fitUntil = value('fit-until');
  try {
    const set = readRealSet(value('real'), fitUntil);
    const { coef, scored } = priceRealSet(set, fitUntil);
    const span = `${scored[0]?.date ?? '-'}..${scored.at(-1)?.date ?? '-'}`;
    const withheld: Record<string, string> = {};
    printSection('every line', scored, span, withheld);
    printSection(
      'basis prices (the line most books post)',
      scored.filter((r) => r.basis === 'prices'),
      span,
      withheld,
      'prices',
    );
    printSection(
      'basis prices_moved (other lines, read from the same distribution)',
      scored.filter((r) => r.basis === 'prices_moved'),
      span,
      withheld,
      'prices_moved',
    );
    console.log(
      "\n== edges: the best-priced book's side where the chance beats that price's implied chance by the minimum, settled at its odds (a push refunds)",
    );
    for (const [source, pick] of [
      ['ours', (r: Row) => r.ours],
      ['market', (r: Row) => r.market],
      ['coin', () => 0.5],
    ] as const)
      for (const b of bets(source, scored, pick)) console.log(betLine(b));
    if (fitUntil !== undefined) {
      withheld.distribution = 'not scored on real lines: the real set has no unpriced lines';
      withheld.live = 'not scored on real lines: the real set has no in-game lines';
      console.log(
        `\nREAL_COEFFICIENTS (paste into server/src/odds/coefficients.ts):\n${JSON.stringify({ ...coef, withheld }, null, 2)}`,
      );
    }
    console.log(`\ntotal ${((performance.now() - began) / 1000).toFixed(0)} s`);
    return 0;
  } catch (err) {
    if (err instanceof RealInputError) {
      console.error(`backtest --real: ${err.message}.`);
      return 1;
    }
    throw err;
  }
}
