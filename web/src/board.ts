/**
 * One sport's board as the stream tells it: a signal per row and per game, so a change
 * re-renders only its own row (and the DOM only the cells whose text changed). Pausing closes
 * the stream and keeps the last event id; resuming opens it again after that id, so the
 * server sends exactly the events missed (or a reset snapshot when they are too old).
 */
import { batch, type Signal, signal } from '@preact/signals';
import type { PropsFeed, ScanRow, SportId, StreamGame, StreamMessage } from '@propsfeed/sdk';
import { count } from './format';

/** A prop's identity on the board: the game, the player, the stat. */
export const rowKey = (r: { eventId: string; player: string; stat: string }) => `${r.eventId}|${r.player}|${r.stat}`;

/** An edge at least this large is news worth saying (5 percentage points). */
export const BIG_EDGE = 0.05;

export interface RowModel {
  key: string;
  row: Signal<ScanRow>;
  /** The line when the page first saw the prop (the opening, when the movers route knows it). */
  open: number;
  /** The cells the last change touched (highlighted a moment), and how many changes the row had. */
  changed: Signal<{ cells: readonly string[]; n: number }>;
}

export type StreamState = 'connecting' | 'live' | 'paused' | 'error';

/** What changed since the status line last spoke. */
interface Tally {
  moved: number;
  priced: number;
  added: number;
  pulled: number;
  bigEdges: number;
}

const emptyTally = (): Tally => ({ moved: 0, priced: 0, added: 0, pulled: 0, bigEdges: 0 });

/** "4 lines moved; 1 new edge ≥ 5 points": the polite status line's summary of a tally. */
export function summarize(t: Tally): string {
  const parts: string[] = [];
  if (t.moved) parts.push(`${count(t.moved, 'line')} moved`);
  if (t.priced) parts.push(`${count(t.priced, 'price')} changed`);
  if (t.bigEdges) parts.push(`${count(t.bigEdges, 'new edge')} ≥ ${BIG_EDGE * 100} points`);
  if (t.added) parts.push(`${count(t.added, 'prop')} added`);
  if (t.pulled) parts.push(`${count(t.pulled, 'prop')} pulled`);
  return parts.join('; ');
}

/** The cells of a row whose shown value differs between two versions of it. */
export function changedCells(before: ScanRow, after: ScanRow): string[] {
  const cells: string[] = [];
  for (const book of ['prizepicks', 'underdog'] as const) {
    const a = before.books?.find((b) => b.source === book);
    const b = after.books?.find((x) => x.source === book);
    if (a?.line !== b?.line || a?.overOdds !== b?.overOdds || a?.underOdds !== b?.underOdds) cells.push(book);
  }
  if (before.line !== after.line) cells.push('move');
  if (before.edge?.edge !== after.edge?.edge || before.edge?.side !== after.edge?.side) cells.push('edge', 'fair');
  if (before.propsfeedProjection?.value !== after.propsfeedProjection?.value) cells.push('projection');
  if (before.liveValue !== after.liveValue) cells.push('live');
  return cells;
}

const SUMMARY_EVERY_MS = 5_000;
const STREAM_SLOT_TRIES = 6;
/** How long events gather before they are shown together. */
const FLUSH_MS = 500;
/** How long a changed cell stays highlighted. */
const HIGHLIGHT_MS = 1_500;

export class BoardStore {
  readonly rows = new Map<string, RowModel>();
  readonly games = new Map<string, Signal<StreamGame>>();
  /** Bumped when rows or games come or go (what the order and the filters are computed from). */
  readonly structure = signal(0);
  readonly state = signal<StreamState>('connecting');
  readonly error = signal<string | null>(null);
  readonly delayed = signal(false);
  readonly status = signal('');
  readonly lastEventId = signal<string | undefined>(undefined);
  /** Events applied since the page opened (the benchmark and the tests read it). */
  readonly applied = signal(0);
  /** When the first snapshot was shown (performance.now()), for the first-render measure. */
  readonly loadedAt = signal<number | null>(null);
  private controller: AbortController | undefined;
  private tally = emptyTally();
  private timer: ReturnType<typeof setInterval> | undefined;
  private opens = new Map<string, number>();
  private pending: StreamMessage[] = [];
  private highlighted = new Map<RowModel, number>();
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly client: PropsFeed,
    readonly sport: SportId,
  ) {}

  /** Opens the stream (from the last event id when there is one). */
  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.state.value = 'connecting';
    this.error.value = null;
    this.timer ??= setInterval(() => this.speak(), SUMMARY_EVERY_MS);
    void this.run(controller);
  }

  private async run(controller: AbortController): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const params = { sport: this.sport, signal: controller.signal, lastEventId: this.lastEventId.peek() };
        for await (const message of this.client.stream(params)) {
          if (controller.signal.aborted) break;
          this.receive(message);
        }
        return;
      } catch (err) {
        if (controller.signal.aborted) return;
        // The stream just closed (a pause, another sport) may not have left the server yet: its slot frees in a moment.
        if ((err as { code?: string }).code === 'too_many_streams' && attempt < STREAM_SLOT_TRIES) {
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
          continue;
        }
        this.error.value = (err as Error).message;
        this.state.value = 'error';
        this.controller = undefined;
        return;
      }
    }
  }

  /**
   * The first snapshot shows at once; later events wait for the next flush (a few a second), so
   * a busy stream costs the page one layout per flush, not one per event.
   */
  private receive(message: StreamMessage): void {
    if (message.type === 'snapshot' && this.loadedAt.peek() === null) {
      this.apply([message]);
      return;
    }
    this.pending.push(message);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const messages = this.pending;
    this.pending = [];
    if (messages.length > 0) this.apply(messages);
  }

  /** Stops updates (WCAG 2.2.2): the stream closes; what arrived is shown; the last event id is kept for resume. */
  pause(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.flush();
    this.state.value = 'paused';
    const id = this.lastEventId.peek();
    this.status.value = `Updates paused${id ? ` after event ${id}` : ''}.`;
  }

  resume(): void {
    this.status.value = 'Updates resumed: catching up.';
    this.start();
  }

  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = [];
    clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Opening lines known from elsewhere (the movers route): the move column counts from them. */
  setOpens(opens: Map<string, number>): void {
    this.opens = opens;
    for (const [key, model] of this.rows) {
      const open = opens.get(key);
      if (open !== undefined) model.open = open;
    }
    this.structure.value++;
  }

  /** Applies messages in order, as one change of the page's signals. */
  apply(messages: readonly StreamMessage[]): void {
    batch(() => {
      // Highlights that have had their time go in the same render as the new ones.
      this.unhighlight();
      for (const message of messages) this.applyOne(message);
    });
    // While updates flow, each flush takes the old highlights off; the timer is for when they stop.
    clearTimeout(this.sweepTimer);
    this.sweepTimer = this.highlighted.size > 0 ? setTimeout(() => this.sweep(), HIGHLIGHT_MS) : undefined;
  }

  private applyOne(message: StreamMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.loadSnapshot(message);
        break;
      case 'prop':
        this.applyProp(message.row, message.previous);
        break;
      case 'prop.removed': {
        const key = rowKey(message);
        if (this.rows.delete(key)) {
          this.tally.pulled++;
          this.structure.value++;
        }
        break;
      }
      case 'game': {
        const game = this.games.get(message.game.id);
        if (game) game.value = message.game;
        else {
          this.games.set(message.game.id, signal(message.game));
          this.structure.value++;
        }
        break;
      }
      case 'end':
        this.status.value = `The server ended the stream (${message.reason}); reconnecting.`;
        break;
      case 'heartbeat':
        break;
    }
    if (message.id !== undefined) this.lastEventId.value = message.id;
    if (message.type !== 'heartbeat') this.applied.value++;
    if (this.state.peek() !== 'live' && message.type !== 'end') this.state.value = 'live';
  }

  private loadSnapshot(message: Extract<StreamMessage, { type: 'snapshot' }>): void {
    const keep = new Map(this.rows);
    this.rows.clear();
    for (const row of message.rows) {
      const key = rowKey(row);
      const old = keep.get(key);
      if (old) {
        if (old.row.peek() !== row) old.row.value = row;
        this.rows.set(key, old);
      } else this.rows.set(key, this.model(key, row));
    }
    this.games.clear();
    for (const game of message.games) this.games.set(game.id, signal(game));
    this.delayed.value = message.delayed;
    this.structure.value++;
    if (this.loadedAt.peek() === null) {
      this.loadedAt.value = performance.now();
      performance.mark('board-snapshot');
    }
  }

  private model(key: string, row: ScanRow): RowModel {
    return { key, row: signal(row), open: this.opens.get(key) ?? row.line, changed: signal({ cells: [], n: 0 }) };
  }

  private applyProp(row: ScanRow, previous: { line: number; overOdds?: number; underOdds?: number } | null): void {
    const key = rowKey(row);
    const model = this.rows.get(key);
    const hadBigEdge = (model?.row.peek().edge?.edge ?? Number.NEGATIVE_INFINITY) >= BIG_EDGE;
    if (!model) {
      this.rows.set(key, this.model(key, row));
      this.tally.added++;
      this.structure.value++;
    } else {
      const cells = changedCells(model.row.peek(), row);
      model.row.value = row;
      if (cells.length > 0) {
        model.changed.value = { cells, n: model.changed.peek().n + 1 };
        this.highlighted.set(model, performance.now());
      }
    }
    if (previous && previous.line !== row.line) this.tally.moved++;
    else if (previous) this.tally.priced++;
    if (!hadBigEdge && (row.edge?.edge ?? Number.NEGATIVE_INFINITY) >= BIG_EDGE) this.tally.bigEdges++;
  }

  /** Takes the highlight off cells changed long enough ago (one render each, not an animation frame by frame). */
  private sweep(): void {
    this.sweepTimer = undefined;
    batch(() => this.unhighlight());
    if (this.highlighted.size > 0) this.sweepTimer = setTimeout(() => this.sweep(), HIGHLIGHT_MS / 2);
  }

  private unhighlight(): void {
    const old = performance.now() - HIGHLIGHT_MS;
    for (const [model, at] of this.highlighted) {
      if (at > old) continue;
      model.changed.value = { cells: [], n: model.changed.peek().n };
      this.highlighted.delete(model);
    }
  }

  /** Says what changed since it last spoke, at most every few seconds (a polite status, not a running commentary). */
  private speak(): void {
    if (this.state.peek() === 'paused') return;
    const text = summarize(this.tally);
    this.tally = emptyTally();
    if (text) this.status.value = `${text}.`;
  }
}

/** One board per sport, kept while the page is open (the prop page reads the board's rows). */
const boards = new Map<string, BoardStore>();
let boardsOf: PropsFeed | undefined;

export function boardFor(client: PropsFeed, sport: SportId): BoardStore {
  if (boardsOf !== client) {
    for (const b of boards.values()) b.stop();
    boards.clear();
    boardsOf = client;
  }
  let board = boards.get(sport);
  if (!board) {
    // One stream at a time (the free tier may hold one): the other sports' boards close.
    for (const b of boards.values()) b.stop();
    boards.clear();
    board = new BoardStore(client, sport);
    boards.set(sport, board);
    board.start();
  }
  return board;
}

export function stopBoards(): void {
  for (const b of boards.values()) b.stop();
  boards.clear();
  boardsOf = undefined;
}
