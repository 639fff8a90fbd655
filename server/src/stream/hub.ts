/**
 * Every open stream of this process, grouped by view (tier × filters). Each board change is
 * turned into one buffer per view (encode.ts) and that buffer is written to every stream of
 * the view. A realtime view advances with each new board; a delayed view (free tier) advances
 * once a second to the newest board old enough for its delay, so what it shows is what the
 * delayed REST view shows. A stream joins its view after its catch-up (snapshot, or the
 * changes after the id it resumes from) has been written, in the same turn: no gap, no
 * duplicate. An id older than the window is resumed from the stored event log (log.ts): its
 * events are read in pages, then the window's changes, and the stream joins in that turn.
 */
import type { ServerResponse } from 'node:http';
import type { STREAM_END_REASONS } from '@propsfeed/contract';
import type { Board, BoardSource } from '../board/types';
import { boardsSince } from '../feed/timeline';
import type { ViewRegistry } from '../views';
import type { BoardChange } from '../views/boardChanges';
import { frame, StreamEncoder, type StreamView } from './encode';
import type { StreamLog } from './log';
import { type RenderedChange, renderedEventsOf } from './rendered';
import { ChangeWindow, type StreamPosition } from './window';

export type EndReason = (typeof STREAM_END_REASONS)[number];

export interface StreamHubOptions {
  source: BoardSource;
  views: ViewRegistry;
  now: () => number;
  /** Changes kept for resuming (and for the delayed views): default 15 minutes. */
  retainMs?: number;
  /** Most events kept for resuming: default 1,000,000. */
  maxEvents?: number;
  /** Bytes a stream may have waiting to be read, after its snapshot, before it is ended as a slow consumer: default 4 MB. */
  maxBufferBytes?: number;
  heartbeatMs?: number;
  /** How often delayed views advance: default 1 s. */
  tickMs?: number;
  /** How long a stream resuming from an id this replica has not reached yet waits for it: default 5 s. */
  aheadWaitMs?: number;
  /** The stored event log: ids older than the window resume from it, and each change is appended to it (where this process writes it). */
  log?: StreamLog;
  /**
   * A change's events as the ingest worker rendered them (stream/renderer.ts), asked for as
   * each board arrives: streams then send the bytes the worker logged, and this thread renders
   * only what it was not given.
   */
  rendered?: (version: number) => RenderedChange | undefined;
  /** Most events a resume from the log sends; beyond it the stream starts over with a snapshot. */
  maxReplayEvents?: number;
  /** Events read from the log at a time: default 500. */
  replayPageEvents?: number;
  /** How long a replay waits for its client to read a page before ending it as a slow consumer: default 30 s. */
  replayDrainMs?: number;
  onError?: (err: unknown) => void;
}

/** One open stream. */
export interface StreamClient {
  readonly keyId: string;
  readonly res: ServerResponse;
  /** Ends the stream with a final `end` event saying why. */
  end(reason: EndReason, message: string): void;
}

interface Client extends StreamClient {
  group: ViewGroup;
  onEnd: () => void;
  /** Set while the client waits for its view to reach the id it resumes from. */
  waitingFor?: { position: StreamPosition; until: number };
  ended: boolean;
  /** Bytes written to it so far, and where its latest snapshot ended among them. */
  written: number;
  snapshotEnd: number;
}

interface ViewGroup {
  view: StreamView;
  /** The board version the view has been written up to. */
  cursor: number;
  clients: Set<Client>;
  waiting: Set<Client>;
}

const MIN = 60_000;
const CRLF = Buffer.from('\r\n');
/**
 * Most events a resume from the log sends by default (about 60 MB): hours of one sport or
 * player, minutes of the whole board at its busiest; past it a snapshot is the cheaper answer.
 */
export const DEFAULT_MAX_REPLAY_EVENTS = 100_000;

export class StreamHub {
  private window: ChangeWindow;
  private readonly groups = new Map<string, ViewGroup>();
  /** Each change's event JSON and edge facts, made once: the stream's, the log's and webhooks'. */
  readonly encoder: StreamEncoder;
  private readonly changeListeners = new Set<(change: BoardChange | 'gap', version: number) => void>();
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  private readonly maxBufferBytes: number;
  private readonly chunks = new WeakMap<Buffer, Buffer>();

  constructor(private readonly opts: StreamHubOptions) {
    this.encoder = new StreamEncoder(opts.views);
    this.maxBufferBytes = opts.maxBufferBytes ?? 4 * 1024 * 1024;
    this.window = this.windowOf([]);
  }

  /** Starts following the board; the window starts with the boards the feed still holds. */
  start(): void {
    if (this.unsubscribe) return;
    const retainMs = this.opts.retainMs ?? 15 * MIN;
    let held: Board[] = [];
    try {
      held = boardsSince(this.opts.source, 0, this.opts.now() - retainMs);
    } catch (err) {
      // A feed that cannot give its boards yet: the window starts with the next one.
      this.opts.onError?.(err);
    }
    this.window = this.windowOf(held);
    this.unsubscribe = this.opts.source.subscribe((board) => this.onBoard(board));
    const tick = setInterval(() => this.tick(), this.opts.tickMs ?? 1_000);
    const heartbeat = setInterval(() => this.heartbeat(), this.opts.heartbeatMs ?? 15_000);
    for (const t of [tick, heartbeat]) {
      t.unref();
      this.timers.push(t);
    }
  }

  /** Ends every stream (the server is closing) and stops following the board. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const t of this.timers.splice(0)) clearInterval(t);
    this.endAll();
  }

  /** Ends every open stream, telling it the server is closing: an open stream never ends by itself. */
  endAll(): void {
    for (const group of [...this.groups.values()]) {
      for (const client of [...group.clients, ...group.waiting]) {
        client.end('server_closing', 'the server is restarting; reconnect with the last event id');
      }
    }
  }

  private windowOf(held: readonly Board[]): ChangeWindow {
    return new ChangeWindow(
      { retainMs: this.opts.retainMs ?? 15 * MIN, maxEvents: this.opts.maxEvents ?? 1_000_000 },
      held,
    );
  }

  /** Open streams, for tests and the benchmark. */
  get size(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.clients.size + g.waiting.size;
    return n;
  }

  /**
   * Adds a stream whose response head is written: its catch-up first (a snapshot, or the
   * changes after `resumeFrom`), then every change of its view. `onEnd` runs once, when the
   * stream ends for any reason.
   */
  open(
    res: ServerResponse,
    view: StreamView,
    keyId: string,
    resumeFrom: StreamPosition | undefined,
    onEnd: () => void,
  ) {
    const group = this.groupOf(view);
    const client: Client = {
      keyId,
      res,
      group,
      onEnd,
      ended: false,
      written: 0,
      snapshotEnd: 0,
      end: (reason, message) => {
        if (client.ended) return;
        if (!res.writableEnded) res.end(frame(JSON.stringify({ type: 'end', reason, message })));
        this.detach(client);
      },
    };
    res.on('close', () => this.detach(client));
    if (resumeFrom && resumeFrom.version > group.cursor) {
      client.waitingFor = { position: resumeFrom, until: this.opts.now() + (this.opts.aheadWaitMs ?? 5_000) };
      group.waiting.add(client);
    } else {
      this.join(client, resumeFrom);
    }
    return client as StreamClient;
  }

  /** Ends the streams of keys no longer active (revoked), within the turn it is called. */
  endRevoked(isActive: (keyId: string) => boolean): void {
    for (const group of [...this.groups.values()]) {
      for (const client of [...group.clients, ...group.waiting]) {
        if (!isActive(client.keyId)) client.end('key_revoked', 'the API key was revoked');
      }
    }
  }

  private detach(client: Client): void {
    if (client.ended) return;
    client.ended = true;
    const { group } = client;
    group.clients.delete(client);
    group.waiting.delete(client);
    if (group.clients.size === 0 && group.waiting.size === 0 && this.groups.get(group.view.key) === group) {
      this.groups.delete(group.view.key);
    }
    client.onEnd();
  }

  private groupOf(view: StreamView): ViewGroup {
    let group = this.groups.get(view.key);
    if (!group) {
      group = { view, cursor: this.cursorOf(view), clients: new Set(), waiting: new Set() };
      this.groups.set(view.key, group);
    }
    return group;
  }

  /** The newest board the view may show now. */
  private cursorOf(view: StreamView): number {
    if (view.delayMs === 0) return this.window.board.version;
    return this.window.boardAt(this.opts.now() - view.delayMs)?.version ?? 0;
  }

  /** The board a view's cursor stands at (the window's, else the feed's history at the view's delay). */
  private boardOf(version: number, view: StreamView): Board {
    return this.window.boardOf(version) ?? this.opts.source.at(this.opts.now() - view.delayMs);
  }

  /**
   * Writes what a joining client needs to reach its view's cursor and adds it to its view: in
   * this turn, or, when the id is older than the window and there is a log, once the replay
   * from the log is written (the client waits among `waiting`, with no `waitingFor`).
   */
  private join(client: Client, from: StreamPosition | undefined): void {
    const { log } = this.opts;
    if (from === undefined) this.writeSnapshot(client, false);
    else if (!this.fromWindow(client, from)) {
      if (log) {
        client.group.waiting.add(client);
        this.replay(client, from, log).catch((err) => {
          log.reportError(err);
          this.startOver(client);
        });
        return;
      }
      this.writeSnapshot(client, true);
    }
    if (!client.ended) client.group.clients.add(client);
  }

  /** The snapshot of the board at the client's view's cursor; `reset` when it answers an id it could not resume from. */
  private writeSnapshot(client: Client, reset: boolean): void {
    const { group } = client;
    this.write(client, this.encoder.snapshotBytes(this.boardOf(group.cursor, group.view), group.view, reset), true);
  }

  /** Writes the window's changes after `from` up to the view's cursor; false when the window does not reach it. */
  private fromWindow(client: Client, from: StreamPosition): boolean {
    const { view, cursor } = client.group;
    const resumed = this.window.after(from, cursor);
    if (!resumed) return false;
    let skip = resumed.skip;
    for (const change of resumed.changes) {
      this.write(client, this.encoder.changeBytes(change, view, skip));
      skip = 0;
    }
    return true;
  }

  /**
   * Resumes from the stored log: its events after `from` (in pages, waiting for the client to
   * read each), up to where the window takes over, then the window's changes, then the client
   * joins its view in that same turn. Boards arriving meanwhile only move the view's cursor,
   * which the window answers up to: no gap, no duplicate. A delayed view reads no further than
   * its cursor, so it never sees events younger than its delay.
   */
  private async replay(client: Client, from: StreamPosition, log: StreamLog): Promise<void> {
    const { group } = client;
    const pageSize = this.opts.replayPageEvents ?? 500;
    let position = from;
    // A few rounds: the window may move past what one round read while it was being read.
    for (let round = 0; round < 3; round++) {
      const until = await log.reachFrom(position, group.cursor);
      if (client.ended) return;
      if (until === undefined || (until === position.version && position.index === 0)) break;
      if (round === 0) {
        const most = this.opts.maxReplayEvents ?? DEFAULT_MAX_REPLAY_EVENTS;
        if ((await log.countEvents(position, until, group.view, most)) > most) break;
      }
      for (;;) {
        const page = await log.events(position, until, group.view, pageSize);
        if (client.ended) return;
        let text = '';
        for (const event of page.events)
          if (event.json !== undefined) text += frame(event.json, `${event.version}.${event.index}`);
        this.write(client, Buffer.from(text));
        position = page.through;
        if (position.version >= until && position.index === 0) break;
        if (!(await this.drained(client))) return;
      }
      if (client.ended) return;
      if (this.fromWindow(client, position)) {
        group.waiting.delete(client);
        if (!client.ended) group.clients.add(client);
        return;
      }
    }
    // The log does not reach the id (older than kept, or a change missing), or holds more than a replay sends.
    this.startOver(client);
  }

  /** A client whose resume could not be answered exactly: a snapshot marked as a reset, then its view. */
  private startOver(client: Client): void {
    if (client.ended) return;
    const { group } = client;
    group.waiting.delete(client);
    this.writeSnapshot(client, true);
    if (!client.ended) group.clients.add(client);
  }

  /** Waits until the client has read what was written (false when it ended, or is too slow to). */
  private async drained(client: Client): Promise<boolean> {
    // write() sends to the socket itself: its buffer is what waits to be read.
    const socket = client.res.socket;
    const waitMs = this.opts.replayDrainMs ?? 30_000;
    if (socket?.writableNeedDrain && !client.ended) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        socket.on('drain', done);
        socket.on('close', done);
      });
      if (socket.writableNeedDrain && !client.ended) {
        client.end(
          'slow_consumer',
          `what was sent was not read within ${waitMs / 1000} s; reconnect with the last event id to resume`,
        );
      }
    }
    return !client.ended;
  }

  /**
   * Writes to one stream; past the cap of bytes waiting to be read, ends it as a slow consumer.
   * A `snapshot` is not counted against the cap, however large (a whole board is several MB): the
   * cap applies to what follows it, so a client reading at full speed is never ended while its
   * snapshot is on the way, and one that stops reading is, once the changes after it pass the cap.
   */
  private write(client: Client, bytes: Buffer, snapshot = false): void {
    if (client.ended || bytes.length === 0) return;
    client.written += bytes.length;
    if (snapshot) client.snapshotEnd = client.written;
    const { res } = client;
    const { socket } = res;
    // Past the head, the bytes go to the socket as they will appear on the wire, framed once
    // per buffer: res.write would frame them again for every stream, and cork and schedule an
    // uncork for each, the largest cost of a change reaching 10,000 streams.
    let waiting: number;
    if (socket && res.headersSent && !socket.destroyed) {
      socket.write(res.chunkedEncoding ? this.chunkOf(bytes) : bytes);
      waiting = socket.writableLength;
    } else {
      res.write(bytes);
      waiting = res.writableLength;
    }
    // Only what waits behind the latest snapshot counts: the snapshot itself may be waiting too.
    if (Math.min(waiting, client.written - client.snapshotEnd) > this.maxBufferBytes) {
      client.end(
        'slow_consumer',
        `more than ${this.maxBufferBytes} bytes were waiting to be read; reconnect with the last event id to resume`,
      );
    }
  }

  /** The bytes as one HTTP/1.1 chunk (size line, bytes, CRLF), made once per buffer. */
  private chunkOf(bytes: Buffer): Buffer {
    let chunk = this.chunks.get(bytes);
    if (!chunk) {
      chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
      this.chunks.set(bytes, chunk);
    }
    return chunk;
  }

  /**
   * Calls `listener` with each change after the streams are written (or 'gap' when boards were
   * missed, with the new board's version); returns an unsubscribe. Webhooks produce from these.
   */
  onChange(listener: (change: BoardChange | 'gap', version: number) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The changes after board `version` up to the newest, when the window still reaches it. */
  changesAfter(version: number): BoardChange[] | undefined {
    return this.window.after({ version, index: 0 }, this.window.board.version)?.changes;
  }

  private onBoard(board: Board): void {
    const change = this.window.push(board);
    if (!change) return;
    if (change !== 'gap') {
      this.seed(change);
      this.opts.log?.append(change, this.encoder);
    }
    for (const group of this.groups.values()) {
      if (group.view.delayMs > 0) continue;
      if (change === 'gap') this.resetGroup(group, board.version);
      else this.advance(group, [change]);
    }
    for (const listener of this.changeListeners) listener(change, board.version);
  }

  /**
   * Gives the encoder the change's events as rendered by ingest, when ingest diffed the same
   * two boards (not so for a restarted worker's first board, which it diffed from its own
   * start: that change is rendered here, and the log misses it, so a resume across it resets).
   */
  private seed(change: BoardChange): void {
    const rendered = this.opts.rendered?.(change.version);
    if (rendered?.previousVersion !== change.previousVersion || rendered.rows.length !== change.events.length) return;
    this.encoder.seed(change, renderedEventsOf(change, rendered.rows));
  }

  /** Delayed views move to the newest board old enough; waiting clients are let in or given up on. */
  private tick(): void {
    for (const group of [...this.groups.values()]) {
      if (group.view.delayMs > 0) {
        const cursor = this.cursorOf(group.view);
        if (cursor > group.cursor) {
          const next = this.window.after({ version: group.cursor, index: 0 }, cursor);
          if (next) this.advance(group, next.changes);
          else this.resetGroup(group, cursor);
        }
      }
      this.admitWaiting(group);
    }
  }

  private advance(group: ViewGroup, changes: readonly BoardChange[]): void {
    for (const change of changes) {
      const bytes = this.encoder.changeBytes(change, group.view);
      group.cursor = change.version;
      if (bytes.length > 0) for (const client of group.clients) this.write(client, bytes);
    }
    this.admitWaiting(group);
  }

  /** The window no longer links the view's cursor to the new one: every client starts over. */
  private resetGroup(group: ViewGroup, cursor: number): void {
    group.cursor = cursor;
    const bytes = this.encoder.snapshotBytes(this.boardOf(cursor, group.view), group.view, true);
    for (const client of group.clients) this.write(client, bytes, true);
  }

  private admitWaiting(group: ViewGroup): void {
    if (group.waiting.size === 0) return;
    const now = this.opts.now();
    for (const client of [...group.waiting]) {
      const waiting = client.waitingFor;
      if (!waiting) continue;
      const reached = waiting.position.version <= group.cursor;
      if (!reached && now < waiting.until) continue;
      group.waiting.delete(client);
      client.waitingFor = undefined;
      this.join(client, waiting.position);
    }
  }

  private heartbeat(): void {
    const bytes = Buffer.from(
      frame(JSON.stringify({ type: 'heartbeat', at: new Date(this.opts.now()).toISOString() })),
    );
    for (const group of this.groups.values()) for (const client of group.clients) this.write(client, bytes);
  }
}
