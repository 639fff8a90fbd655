/**
 * Everything a tier view of one board can answer, serialized once per board and kept:
 * the games of a sport, the props of a game (per stat filter), and the scan rows of a sport
 * (per stat filter) as one buffer of rows, so an answer capped at N rows is a prefix.
 */
import {
  type Edge,
  type EdgesResponse,
  type EntryType,
  type GamesResponse,
  isShaped,
  PROBABILITY_METHODS,
  type Projection,
  type PropsResult,
  type ScanResponse,
  type ScanRow,
  type ScanShape,
  type SportId,
  type StateFilter,
  shapeScanRows,
} from '@propsfeed/contract';
import type { Board, BoardGame, BoardProp, ProjectionSource } from '../board/types';
import type { PropOdds } from '../odds';
import { BoundedMap } from './answers';
import { gameOf, propOf, type RowOdds, scanRowJson, scanRowOf } from './encode';
import { gameListed, propsShown } from './gameState';
import { Prepared } from './prepared';

/** How a tier sees the board: delayed or realtime, with or without live lines, with or without edges. */
export interface ViewKind {
  delayed: boolean;
  liveLines: boolean;
  /** Rows carry fair probabilities and an edge. */
  edges?: boolean;
}

export function viewKindKey(kind: ViewKind): string {
  return `${kind.delayed ? 'delayed' : 'realtime'}:${kind.liveLines ? 'live' : 'nolive'}${kind.edges ? ':edges' : ''}`;
}

/** The view kind with its cache key computed once (callers keep one per key). */
export function viewKindOf(delayed: boolean, liveLines: boolean, edges = false): ViewKind & { key: string } {
  return { delayed, liveLines, edges, key: viewKindKey({ delayed, liveLines, edges }) };
}

/**
 * Scan rows of one sport and stat filter, each made and serialized once, on first need: an
 * answer of the first N rows serializes N of them, and builds row objects only when an
 * in-process caller (MCP, the edges sort) reads them.
 */
class ScanRows {
  /** Each row's JSON, filled in order as far as an answer has needed. */
  private readonly json: string[] = [];
  private made: ScanRow[] | undefined;
  private readonly byLimit = new BoundedMap<string, Prepared<ScanResponse>>(16);

  constructor(
    readonly sport: SportId,
    readonly stat: string | null,
    readonly delayed: boolean,
    /** How many rows there are. */
    readonly length: number,
    private readonly rowOf: (i: number) => ScanRow,
    /** Row i's JSON: JSON.stringify(rowOf(i)), possibly from kept parts. */
    private readonly rowJson: (i: number) => string,
  ) {}

  /** Rows already made, as a sorted list of them is (rowOf reads the list). */
  static of(sport: SportId, stat: string | null, delayed: boolean, rows: ScanRow[]): ScanRows {
    const scanRows = new ScanRows(
      sport,
      stat,
      delayed,
      rows.length,
      (i) => rows[i] as ScanRow,
      (i) => JSON.stringify(rows[i]),
    );
    scanRows.made = rows;
    return scanRows;
  }

  /** Every row as an object. */
  get rows(): ScanRow[] {
    this.made ??= Array.from({ length: this.length }, (_, i) => this.rowOf(i));
    return this.made;
  }

  private rowsJson(count: number): string {
    for (let i = this.json.length; i < count; i++) this.json.push(this.rowJson(i));
    return this.json.length === count ? this.json.join(',') : this.json.slice(0, count).join(',');
  }

  /** The answer with the first `limit` rows; built from the row buffer, not re-serialized. */
  first(limit: number): Prepared<ScanResponse> {
    return this.prefix(Math.min(limit, this.length), this.length);
  }

  /**
   * The first `count` of `total` rows (total: those that qualify, at most all), with `extra`
   * fields after the scan's own (the edges answer's entry, minEdge and legend), which `key`
   * tells apart in the cache.
   */
  prefix<E extends Record<string, unknown>>(
    count: number,
    total: number,
    extra?: { fields: E; key: string },
  ): Prepared<ScanResponse & E> {
    const cacheKey = `${count}|${total}|${extra?.key ?? ''}`;
    let prepared = this.byLimit.get(cacheKey) as Prepared<ScanResponse & E> | undefined;
    if (!prepared) {
      const value = () =>
        ({
          sport: this.sport,
          stat: this.stat,
          count,
          total,
          delayed: this.delayed,
          ...extra?.fields,
          rows: this.rows.slice(0, count),
        }) as ScanResponse & E;
      const extraJson = extra ? JSON.stringify(extra.fields).slice(1, -1) : '';
      const head = `{"sport":${JSON.stringify(this.sport)},"stat":${JSON.stringify(this.stat)},"count":${count},"total":${total},"delayed":${this.delayed},${extraJson ? `${extraJson},` : ''}"rows":[`;
      prepared = new Prepared(value, Buffer.from(`${head}${this.rowsJson(count)}]}`));
      this.byLimit.set(cacheKey, prepared as Prepared<ScanResponse>);
    }
    return prepared;
  }
}

export class BoardViews {
  private readonly gamesBySport = new Map<string, Prepared<GamesResponse>>();
  private readonly propsByGame = new BoundedMap<string, Prepared<PropsResult>>(2048);
  private readonly scans = new BoundedMap<string, ScanRows>(256);
  private readonly edgeRows = new BoundedMap<string, ScanRows>(256);
  private readonly shapedScans = new BoundedMap<string, ScanRows>(256);

  constructor(
    readonly board: Board,
    readonly kind: ViewKind,
    private readonly projections?: ProjectionSource,
    private readonly odds?: PropOdds,
  ) {}

  /**
   * A prop as a scan row of this view: with the projection (the views' own unless given) and,
   * for views with edges, its fair probabilities and the edge against each book's cheapest entry.
   */
  scanRow(game: BoardGame, prop: BoardProp, projection?: Projection): ScanRow {
    const projected = projection ?? this.projections?.get(game.sport, prop.playerKey, prop.stat);
    return scanRowOf(game, prop, this.board.fetchedAt, projected, this.rowOdds(game, prop));
  }

  /** JSON.stringify(this.scanRow(game, prop)), from the parts kept between boards. */
  private scanRowJson(game: BoardGame, prop: BoardProp): string {
    const projected = this.projections?.get(game.sport, prop.playerKey, prop.stat);
    return scanRowJson(game, prop, this.board.fetchedAt, projected, this.rowOdds(game, prop));
  }

  /** The edge a scan row of this view carries for the prop (views with edges), without making the row. */
  edge(game: BoardGame, prop: BoardProp): Edge | undefined {
    return this.rowOdds(game, prop)?.edge;
  }

  /** For views with edges: the prop's fair probabilities and its edge against each book's cheapest entry. */
  private rowOdds(game: BoardGame, prop: BoardProp): RowOdds | undefined {
    if (!this.kind.edges || !this.odds) return undefined;
    const probabilities = this.odds.probabilities(game, prop, this.board.fetchedAt);
    const edge = probabilities && this.odds.edge(probabilities, this.board.fetchedAt);
    const edgeWithheld = probabilities && this.odds.withheld(probabilities);
    return { probabilities, edge, edgeWithheld };
  }

  /** The game with this id or alias, or undefined. */
  game(eventId: string): BoardGame | undefined {
    return this.board.gameById.get(eventId);
  }

  /** The games of a sport `/games` lists under `state` (see gameListed), in board order. */
  games(sport: SportId, state?: StateFilter): Prepared<GamesResponse> {
    const cacheKey = `${sport}|${state ?? ''}`;
    let prepared = this.gamesBySport.get(cacheKey);
    if (!prepared) {
      const games = this.board.games
        .filter((g) => g.sport === sport && gameListed(state, g, this.board.fetchedAt))
        .map(gameOf);
      prepared = Prepared.of({ sport, count: games.length, games, delayed: this.kind.delayed });
      this.gamesBySport.set(cacheKey, prepared);
    }
    return prepared;
  }

  /** Props of a game, keeping only `stats` when given (sorted, distinct stat keys). */
  gameProps(game: BoardGame, stats: readonly string[] | null): Prepared<PropsResult> {
    const cacheKey = `${game.id}|${stats?.join(',') ?? ''}`;
    let prepared = this.propsByGame.get(cacheKey);
    if (!prepared) {
      const props = stats ? game.props.filter((p) => stats.includes(p.stat)) : game.props;
      prepared = Prepared.of({
        eventId: game.id,
        sport: game.sport,
        homeTeam: game.homeTeam,
        awayTeam: game.awayTeam,
        startTime: game.startTime,
        props: props.map(propOf),
        sources: [...game.sources],
        fetchedAt: this.board.fetchedAt,
        delayed: this.kind.delayed,
      });
      this.propsByGame.set(cacheKey, prepared);
    }
    return prepared;
  }

  /**
   * The scan answer for a sport, optional stat and state filter (see propsShown), with at most
   * `limit` rows; with a shape, the rows of the whole board are sorted and filtered first.
   */
  scan(
    sport: SportId,
    stat: string | null,
    limit: number,
    state?: StateFilter,
    shape?: ScanShape,
  ): Prepared<ScanResponse> {
    if (isShaped(shape)) return this.shapedScan(sport, stat, limit, state, shape);
    const cacheKey = `${sport}|${stat ?? ''}|${state ?? ''}`;
    let rows = this.scans.get(cacheKey);
    if (!rows) {
      const sources = this.propsOf(sport, stat, state);
      const source = (i: number) => sources[i] as { game: BoardGame; prop: BoardProp };
      rows = new ScanRows(
        sport,
        stat,
        this.kind.delayed,
        sources.length,
        (i) => this.scanRow(source(i).game, source(i).prop),
        (i) => this.scanRowJson(source(i).game, source(i).prop),
      );
      this.scans.set(cacheKey, rows);
    }
    return rows.first(limit);
  }

  /** The scan's rows kept to minBooks and sorted, once per board and shape; an answer is a prefix. */
  private shapedScan(
    sport: SportId,
    stat: string | null,
    limit: number,
    state: StateFilter | undefined,
    shape: ScanShape | undefined,
  ): Prepared<ScanResponse> {
    const minBooks = shape?.minBooks ?? 1;
    const cacheKey = `${sport}|${stat ?? ''}|${state ?? ''}|${shape?.sort ?? ''}|${minBooks}`;
    let shaped = this.shapedScans.get(cacheKey);
    if (!shaped) {
      const all = this.scan(sport, stat, Number.MAX_SAFE_INTEGER, state).value.rows;
      shaped = ScanRows.of(sport, stat, this.kind.delayed, shapeScanRows(all, shape));
      this.shapedScans.set(cacheKey, shaped);
    }
    return shaped.first(limit);
  }

  /**
   * Rows with an edge, best first, judged against `entry` (that book's rows only) or each
   * book's cheapest entry type; those with an edge of at least `minEdge`, at most `limit`.
   * Sorted once per board, sport, stat and entry; an answer is a prefix of that order.
   */
  edges(
    sport: SportId,
    stat: string | null,
    entry: EntryType | undefined,
    minEdge: number | null,
    limit: number,
    state?: StateFilter,
  ): Prepared<EdgesResponse> {
    const cacheKey = `${sport}|${stat ?? ''}|${entry?.id ?? ''}|${state ?? ''}`;
    let sorted = this.edgeRows.get(cacheKey);
    if (!sorted) {
      sorted = ScanRows.of(sport, stat, this.kind.delayed, this.rowsByEdge(sport, stat, entry, state));
      this.edgeRows.set(cacheKey, sorted);
    }
    let qualifying = sorted.rows.length;
    if (minEdge !== null) {
      // Binary search: the first row below minEdge in the descending order.
      let low = 0;
      let high = sorted.rows.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((sorted.rows[mid]?.edge?.edge ?? -Infinity) >= minEdge) low = mid + 1;
        else high = mid;
      }
      qualifying = low;
    }
    return sorted.prefix(Math.min(limit, qualifying), qualifying, {
      fields: {
        entry: entry?.id ?? null,
        minEdge,
        methods: PROBABILITY_METHODS,
        ...(this.odds && Object.keys(this.odds.coefficients.withheld).length > 0
          ? { withheld: this.odds.coefficients.withheld }
          : {}),
      },
      key: `${entry?.id ?? ''}|${minEdge ?? ''}`,
    });
  }

  private rowsByEdge(
    sport: SportId,
    stat: string | null,
    entry: EntryType | undefined,
    state: StateFilter | undefined,
  ): ScanRow[] {
    if (!this.kind.edges || !this.odds) return [];
    const { odds } = this;
    const rows: ScanRow[] = [];
    for (const row of this.scan(sport, stat, Number.MAX_SAFE_INTEGER, state).value.rows) {
      if (!row.probabilities) continue;
      const edge = entry ? odds.edge(row.probabilities, this.board.fetchedAt, entry) : row.edge;
      if (edge) rows.push(entry ? { ...row, edge } : row);
    }
    // Stable: equal edges keep the board's order.
    return rows.sort((a, b) => (b.edge?.edge ?? 0) - (a.edge?.edge ?? 0));
  }

  /** Whether the view shows the game's props under `state`: not live ones without live lines. */
  showsProps(game: BoardGame, state?: StateFilter): boolean {
    return propsShown(state, game) && (this.kind.liveLines || !game.live);
  }

  /** The sport's props in board order, with their games, as the view shows them. */
  private propsOf(
    sport: SportId,
    stat: string | null,
    state: StateFilter | undefined,
  ): Array<{ game: BoardGame; prop: BoardProp }> {
    const sources: Array<{ game: BoardGame; prop: BoardProp }> = [];
    for (const game of this.board.games) {
      if (game.sport !== sport || !this.showsProps(game, state)) continue;
      for (const prop of game.props) {
        if (stat === null || prop.stat === stat) sources.push({ game, prop });
      }
    }
    return sources;
  }
}
