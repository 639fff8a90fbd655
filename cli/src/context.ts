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
  RateLimitError,
  ServerError,
  type StreamMessage,
  type StreamParams,
} from '@propsfeed/sdk';
import type { Command } from 'commander';
import { resolveConnection } from './config';
import { describeError, type ErrorHint, EXIT } from './errors';
import { nodeFetch } from './http';
import { type Clock, formatClockTime } from './output/format';
import { Output, type Stream } from './output/output';
import { startSpinner } from './output/spinner';

export interface CommandContext {
  client: PropsApi;
  out: Output;
  clock: Clock;
  /** --json: print the API's JSON exactly. */
  json: boolean;
  /** Awaits a request, with a spinner on stderr while it waits. */
  load<T>(request: () => Promise<T>): Promise<T>;
  /** Writes a frame once, or every `watchSeconds` until interrupted. */
  present(watchSeconds: number | undefined, frame: () => Promise<string>): Promise<void>;
  /** The board's changes as they happen (GET /api/v1/stream), until Ctrl-C. */
  stream(params: Omit<StreamParams, 'signal'>): AsyncIterable<StreamMessage>;
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Errors a refresh survives: the next one may work. Anything else ends the watch. */
function isTransient(err: unknown): boolean {
  return (
    err instanceof RateLimitError || err instanceof ServerError || (err instanceof PropsFeedError && err.status === 0)
  );
}

export interface WatchDriver {
  signal?: () => AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function createPresenter(out: Output, clock: Clock, driver: WatchDriver) {
  return async (watchSeconds: number | undefined, frame: () => Promise<string>): Promise<void> => {
    if (watchSeconds === undefined) {
      out.stdout.write(await frame());
      return;
    }
    const signal = driver.signal?.();
    while (!signal?.aborted) {
      let text: string;
      try {
        text = await frame();
      } catch (err) {
        if (!isTransient(err)) throw err;
        text = out.c.yellow(`${describeError(err).message}\n`);
      }
      if (out.terminal) {
        const updated = formatClockTime(clock.now(), clock);
        const footer = out.c.dim(`Every ${watchSeconds}s · updated ${updated} · Ctrl-C to stop`);
        out.stdout.write(`${CLEAR_SCREEN}${text}\n${footer}\n`);
      } else {
        out.stdout.write(text);
      }
      await driver.sleep(watchSeconds * 1000, signal);
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
      const ctx: CommandContext = {
        client,
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
        present: createPresenter(out, clock, { signal: this.deps.watchSignal, sleep }),
        stream: (params) => {
          const signal = this.deps.watchSignal?.();
          return client.stream(signal ? { ...params, signal } : params);
        },
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
