/**
 * Deliveries live in the store: `props serve` (a child process, its webhook clock sped up a
 * thousand times) is killed while a delivery is being retried, starts again on the same
 * store, and the delivery goes on where it stood until the receiver answers 200, every
 * attempt with the same webhook-id, verified by the receiver with `standardwebhooks`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServeChild, startServeChild } from '../helpers/serveChild';
import { type Receiver, startReceiver } from './receiver';
import { until } from './setup';

const SCRIPT = join(import.meta.dirname, 'serve-main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-webhook-restart-'));
const env = {
  PROPS_DATA_DIR: dataDir,
  PROPS_WEBHOOK_ALLOW_HTTP: '1',
  WEBHOOK_CLOCK_SPEED: '1000',
  WEBHOOK_CLOCK_ORIGIN: String(Date.now()),
};
const children: ServeChild[] = [];
let receiver: Receiver | undefined;

afterAll(async () => {
  for (const c of children) await c.kill();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (child: ServeChild, key: string, method: string, path: string, body?: unknown) =>
  fetch(`${child.address}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('a delivery across a restart', () => {
  it('is retried after the server is killed mid-retry, and completes with the same webhook-id', async () => {
    const first = await startServeChild(env, true, { script: SCRIPT });
    children.push(first);
    const key = first.demoKeys().sharp as string;
    receiver = await startReceiver();
    const r = receiver;
    r.answer = (n) => (n < 3 ? 500 : 200);
    // The second attempt (the first retry) arrives: the server dies there, before it hears the
    // answer (once it has answered the ping's request).
    let pingAnswered = () => {};
    const answered = new Promise<void>((resolve) => {
      pingAnswered = resolve;
    });
    r.onArrival = async () => {
      if (r.received.length !== 2) return;
      await answered;
      await first.kill();
    };
    const created = await (
      await api(first, key, 'POST', '/api/v1/webhooks', { url: r.url, events: ['game.final'] })
    ).json();
    r.secrets.push(created.secret);
    const ping = await (await api(first, key, 'POST', `/api/v1/webhooks/${created.id}/test`, {})).json();
    pingAnswered();
    expect(ping).toMatchObject({ type: 'ping', status: 'pending', attempts: 1, responseStatus: 500 });
    await r.waitFor((x) => x.length === 2, 20_000);
    await until(() => first.child.exitCode !== null || first.child.signalCode !== null);

    const second = await startServeChild(env, false, { script: SCRIPT });
    children.push(second);
    await r.waitFor((x) => x.some((d) => d.answered === 200), 30_000);
    expect(r.received.map((d) => d.id)).toEqual(r.received.map(() => ping.id));
    expect(r.received.every((d) => d.event?.type === 'ping')).toBe(true);
    expect(r.received.map((d) => d.answered)).toEqual([500, 500, 500, 200]);
    await until(async () => {
      const log = await (await api(second, key, 'GET', `/api/v1/webhooks/${created.id}/deliveries`)).json();
      return log.deliveries[0]?.status === 'succeeded';
    });
    const log = await (await api(second, key, 'GET', `/api/v1/webhooks/${created.id}/deliveries`)).json();
    // The attempt the killed process made was never written back: the log counts the others.
    expect(log.deliveries[0]).toMatchObject({ id: ping.id, status: 'succeeded', attempts: 3, responseStatus: 200 });
  }, 180_000);
});
