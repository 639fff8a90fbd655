/** What the webhook tests share: an app over hand-built boards, a receiver, and calls to the webhook routes. */
import type { LightMyRequestResponse } from 'fastify';
import type { WebhookOptions } from '../../src/webhooks/service';
import { buildTestApp, offlineResolver, type TestApp } from '../helpers/app';
import { buildBoard, type GameSpec, TestBoardSource } from '../helpers/board';
import { type Receiver, startReceiver } from './receiver';

export interface WebhookTest {
  t: TestApp;
  source: TestBoardSource;
  receiver: Receiver;
  /** Names the app resolves (tests change them to rebind a name). */
  names: Record<string, string>;
  call(method: string, url: string, key: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** Registers an endpoint at the receiver; the receiver verifies with its secret. */
  register(key: string, body: Record<string, unknown>): Promise<{ id: string; secret: string }>;
  publish(specs: GameSpec[]): void;
  close(): Promise<void>;
}

export async function webhookTest(
  opts: { webhooks?: Partial<WebhookOptions>; specs?: GameSpec[] } = {},
): Promise<WebhookTest> {
  const source = new TestBoardSource();
  if (opts.specs) source.publish(buildBoard(opts.specs));
  const names: Record<string, string> = { localhost: '127.0.0.1', 'hooks.test': '127.0.0.1' };
  const resolve = offlineResolver(names);
  const t = await buildTestApp({
    source,
    webhooks: { ...opts.webhooks, targets: { resolve, ...opts.webhooks?.targets } },
  });
  const receiver = await startReceiver();
  const call = (method: string, url: string, key: string, payload?: unknown) =>
    t.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return {
    t,
    source,
    receiver,
    names,
    call,
    async register(key, body) {
      const res = await call('POST', '/api/v1/webhooks', key, { url: receiver.url, ...body });
      if (res.statusCode !== 201) throw new Error(`registration refused: ${res.body}`);
      const { id, secret } = res.json() as { id: string; secret: string };
      receiver.secrets.push(secret);
      return { id, secret };
    },
    publish(specs) {
      source.publish(buildBoard(specs));
    },
    async close() {
      await t.close();
      await receiver.close();
    },
  };
}

/**
 * Polls until `check` holds (the webhook work runs in the background), every 50 ms: a check that
 * calls the API must stay inside the key's 600 requests a minute however long the wait.
 */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
