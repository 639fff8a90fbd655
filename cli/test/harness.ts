/** A CommandContext by hand: a fake client, captured streams, a fixed clock in UTC. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { PropsApi } from '@propsfeed/contract';
import type { StreamMessage, WebhooksApi } from '@propsfeed/sdk';
import { expect } from 'vitest';
import { type CommandContext, createWatcher } from '../src/context';
import { Output, type Stream } from '../src/output/output';

export const NOW = new Date('2026-11-22T00:00:00.000Z');

export interface Captured extends Stream {
  text: string;
}

export function capture(isTTY: boolean, columns = 100): Captured {
  const stream: Captured = {
    text: '',
    isTTY,
    columns,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

/** A PropsApi whose methods answer what the test gives and fail loudly otherwise. */
export function fakeClient(methods: Partial<PropsApi>): PropsApi {
  return new Proxy(methods as PropsApi, {
    get(target, name: string) {
      const method = target[name as keyof PropsApi];
      if (method) return method;
      return () => Promise.reject(new Error(`unexpected call: ${name}`));
    },
  });
}

export interface TestContextOptions {
  terminal: boolean;
  color?: boolean;
  json?: boolean;
  columns?: number;
  /** What `ctx.stream` (and `--watch`) yields: a stream that then ends. */
  events?: StreamMessage[];
  /** The webhook methods a test answers (others fail loudly). */
  webhooks?: Partial<WebhooksApi>;
}

export function testContext(client: PropsApi, opts: TestContextOptions) {
  const stdout = capture(opts.terminal, opts.columns ?? 100);
  const stderr = capture(false);
  const out = new Output(stdout, stderr, opts.color ? {} : { NO_COLOR: '1' });
  const clock = { now: () => NOW, timeZone: 'UTC' };
  /** The params each `ctx.stream` call was given. */
  const streamed: Parameters<CommandContext['stream']>[0][] = [];
  const stream = async function* (params: Parameters<CommandContext['stream']>[0]) {
    streamed.push(params);
    yield* opts.events ?? [];
  };
  const watcher = createWatcher(out, clock);
  const webhooks = new Proxy((opts.webhooks ?? {}) as WebhooksApi, {
    get(target, name: string) {
      return (
        target[name as keyof WebhooksApi] ?? (() => Promise.reject(new Error(`unexpected call: webhooks.${name}`)))
      );
    },
  });
  const ctx: CommandContext = {
    client,
    webhooks,
    out,
    clock,
    json: opts.json === true,
    load: (request) => request(),
    present: async (frame) => {
      stdout.write(await frame());
    },
    stream,
    watch: (params, frame) => watcher(stream(params), frame),
  };
  return { ctx, stdout, stderr, streamed };
}

const fixtureDir = new URL('./fixtures/', import.meta.url);

/** Compares with `fixtures/<name>`; UPDATE_FIXTURES=1 rewrites it (then read the diff). */
export function expectFixture(name: string, actual: string): void {
  const file = new URL(name, fixtureDir);
  if (process.env.UPDATE_FIXTURES === '1') writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
