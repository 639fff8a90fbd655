/**
 * What every command runs with: the client, the output, the clock, and a way to show a
 * frame once or refresh it (`--watch`). Tests build a CommandContext by hand with a fake
 * client and captured streams; `CliApp` builds the real one from flags, env and config.
 */
import { isWellFormedRequestId, type PropsApi } from '@propsfeed/contract';
import {
  type FetchLike,
  PropsFeed,
  PropsFeedError,
  type StreamMessage,
  type StreamParams,
  type WebhooksApi,
} from '@propsfeed/sdk';
import type { Command } from 'commander';
import { resolveConnection } from './config';
import { describeError, type ErrorHint, EXIT } from './errors';
import { nodeFetch } from './http';
import { type Clock, formatClockTime } from './output/format';
import { Output, type Stream } from './output/output';
import { startSpinner } from './output/spinner';
import { StreamBoard } from './streamBoard';

export interface CommandContext {
  client: PropsApi;
  /** The client's webhook methods (`props webhooks`). */
  webhooks: WebhooksApi;
  out: Output;
  clock: Clock;
  /** --json: print the API's JSON exactly. */
  json: boolean;
  /** Awaits a request, with a spinner on stderr while it waits. */
  load<T>(request: () => Promise<T>): Promise<T>;
  /** Writes a frame once. */
  present(frame: () => Promise<string>): Promise<void>;
  /** The board's changes as they happen (GET /api/v1/stream), until Ctrl-C. */
  stream(params: Omit<StreamParams, 'signal'>): AsyncIterable<StreamMessage>;
  /**
   * `--watch`: draws `frame` from the stream's board once the snapshot is in, and again after
   * each change (at most every REDRAW_MS), in place on a terminal, until Ctrl-C.
   */
  watch(params: Omit<StreamParams, 'signal'>, frame: (board: StreamBoard) => string): Promise<void>;
}

export interface CliDeps {
  stdout: Stream;
  stderr: Stream;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  timeZone?: string;
  fetch?: FetchLike;
  /** Where `props login` reads a key it was not given; default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** Called when a `--watch` starts: the signal that ends it (Ctrl-C). */
  watchSignal?: () => AbortSignal;
  /** The name it was run as: `props`, or `propsfeed` from the server package. */
  programName?: string;
}

export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  json?: boolean;
}

const CLEAR_SCREEN = '\u001b[H\u001b[2J\u001b[3J';

/** A change's events arrive together: one redraw for them, and at most one per this many ms. */
export const REDRAW_MS = 200;

/** `--watch` over a stream of events: a frame drawn from the stream's board after each change. */
export function createWatcher(out: Output, clock: Clock) {
  return async (events: AsyncIterable<StreamMessage>, frame: (board: StreamBoard) => string): Promise<void> => {
    const board = new StreamBoard();
    let timer: NodeJS.Timeout | undefined;
    let drawnAt = 0;
    const draw = () => {
      timer = undefined;
      drawnAt = Date.now();
      const text = frame(board);
      if (!out.terminal) {
        out.stdout.write(text);
        return;
      }
      const updated = formatClockTime(clock.now(), clock);
      const footer = out.c.dim(`Live · updated ${updated} · Ctrl-C to stop`);
      out.stdout.write(`${CLEAR_SCREEN}${text}\n${footer}\n`);
    };
    try {
      for await (const event of events) {
        board.apply(event);
        if (!board.ready || event.type === 'heartbeat' || event.type === 'end' || timer) continue;
        timer = setTimeout(draw, Math.max(0, drawnAt + REDRAW_MS - Date.now()));
      }
    } finally {
      if (timer) {
        clearTimeout(timer);
        draw();
      }
    }
  };
}

/** Builds the real context from the global flags and runs a command, turning failures into an exit code. */
export class CliApp {
  exitCode: number = EXIT.ok;

  constructor(readonly deps: CliDeps) {}

  output(): Output {
    return new Output(this.deps.stdout, this.deps.stderr, this.deps.env);
  }

  async run(command: Command, action: (ctx: CommandContext) => Promise<void>, hint: ErrorHint = {}): Promise<void> {
    const globals = command.optsWithGlobals<GlobalOptions>();
    const out = this.output();
    let keySource: ErrorHint['keySource'];
    try {
      const connection = await resolveConnection(globals, this.deps.env);
      keySource = connection.keySource;
      const client = new PropsFeed({
        apiKey: connection.apiKey ?? '',
        baseUrl: connection.baseUrl,
        // A CLI user would rather hear "try again in 40s" than watch a spinner for it.
        maxRetryAfterSeconds: 5,
        fetch: this.deps.fetch ?? nodeFetch,
      });
      const clock: Clock = { now: this.deps.now ?? (() => new Date()), timeZone: this.deps.timeZone };
      const stream = (params: Omit<StreamParams, 'signal'>) => {
        const signal = this.deps.watchSignal?.();
        return client.stream(signal ? { ...params, signal } : params);
      };
      const watcher = createWatcher(out, clock);
      const ctx: CommandContext = {
        client,
        webhooks: client.webhooks,
        out,
        clock,
        json: globals.json === true,
        load: async (request) => {
          const stop = startSpinner(this.deps.stderr, 'Loading');
          try {
            return await request();
          } finally {
            stop();
          }
        },
        present: async (frame) => {
          out.stdout.write(await frame());
        },
        stream,
        watch: (params, frame) => watcher(stream(params), frame),
      };
      await action(ctx);
    } catch (err) {
      this.fail(out, err, { ...hint, keySource });
    }
  }

  /** Prints the failure for a person and records its exit code. */
  fail(out: Output, err: unknown, hint: ErrorHint = {}): void {
    const { message, exitCode } = describeError(err, hint);
    out.message(message);
    // The server's id for the failed request, for support; printed only when it is safe to print.
    const requestId = err instanceof PropsFeedError ? err.requestId : undefined;
    if (requestId !== undefined && isWellFormedRequestId(requestId)) out.message(`Request id: ${requestId}`);
    this.exitCode = exitCode;
  }
}
