/**
 * The response examples of the API reference: the seeded simulator's answer to each route's
 * example request (contract metadata `example`), as docs/examples.json holds them. Same seed,
 * same clock, same answers; only the random keys are swapped for one fixed example key.
 */
import { contract, type RouteExample, type RouteMeta } from '@propsfeed/contract';
import type { ResponseExamples } from '@propsfeed/docs';
import { keyPrefixOf } from '../../src/keys/format';
import { buildSimApp, type SimApp } from '../board-routes/simSetup';

/** The key the examples show (well-formed, never issued). */
export const EXAMPLE_KEY = 'pf_3xAmp1eKeyOnlyShownInTheDocs0000';
/** The stream token the examples show (well-formed, never issued). */
export const EXAMPLE_STREAM_TOKEN = 'st_3xAmp1eStreamTokenShownInTheDocs00';
/** The webhook, secret and delivery the examples show in place of those the capture made. */
export const EXAMPLE_WEBHOOK_ID = 'wh_3xAmp1eHookShownInDocs00';
export const EXAMPLE_WEBHOOK_SECRET = 'whsec_3xAmp1eSecretOnlyShownInTheDocs0000000000=';
export const EXAMPLE_MESSAGE_ID = 'msg_3xAmp1eMessageShownInDocs0';
/** Arrays in an example keep this many items, so the reference stays readable. */
const ITEMS_SHOWN = 3;

export function requestUrl(path: string, example: RouteExample): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = example.params?.[name];
    if (value === undefined) throw new Error(`the example request has no value for the path parameter '${name}'`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(example.query ?? {}).toString();
  return query ? `${filled}?${query}` : filled;
}

function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, ITEMS_SHOWN).map(shorten);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

/**
 * A text/event-stream route's answer, bounded: the first event's JSON (the snapshot), read
 * over a real connection that is then closed (the stream itself never ends).
 */
async function firstEvent(t: SimApp, url: string, key: string): Promise<unknown> {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const controller = new AbortController();
  try {
    const res = await fetch(`${base}${url}`, {
      headers: { authorization: `Bearer ${key}` },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) {
      throw new Error(
        `the example request GET ${url} answered ${res.status} from the seeded simulator: ${await res.text()}`,
      );
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`GET ${url} ended before its first event`);
      text += value;
      const data = /^data: (.*)$/m.exec(text.split('\n\n').find((block) => block.includes('data: ')) ?? '');
      if (data && text.includes('\n\n', text.indexOf('data: '))) return JSON.parse(data[1] as string);
    }
  } finally {
    controller.abort();
  }
}

/** Made for a webhook route's example: the example webhook (and a delivery to it), under the route's key. */
interface WebhookFixture {
  id: string;
  secret: string;
  deliveryId?: string;
}

async function webhookFixture(t: SimApp, key: string, withDelivery: boolean): Promise<WebhookFixture> {
  const auth = { authorization: `Bearer ${key}` };
  const body = (contract.createWebhook.metadata as RouteMeta).example.body;
  const created = await t.inject({ method: 'POST', url: '/api/v1/webhooks', headers: auth, payload: body });
  if (created.statusCode !== 201) throw new Error(`the example webhook was refused: ${created.body}`);
  const { id, secret } = created.json() as { id: string; secret: string };
  if (!withDelivery) return { id, secret };
  const ping = await t.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, headers: auth, payload: {} });
  return { id, secret, deliveryId: (ping.json() as { id: string }).id };
}

/** The example's ids in a webhook route's path, as the fixture made them. */
function withFixture(url: string, fixture: WebhookFixture | undefined): string {
  if (!fixture) return url;
  const real = url.replace(EXAMPLE_WEBHOOK_ID, fixture.id);
  return fixture.deliveryId ? real.replace(EXAMPLE_MESSAGE_ID, fixture.deliveryId) : real;
}

export async function captureExamples(): Promise<ResponseExamples> {
  const t = await buildSimApp();
  try {
    const examples: ResponseExamples = {};
    for (const [name, route] of Object.entries(contract)) {
      const meta = route.metadata as RouteMeta;
      const key = meta.public ? undefined : await t.createKey({ tier: meta.tier ?? 'free', label: 'my laptop' });
      const fixture =
        meta.tag === 'Webhooks' && name !== 'createWebhook'
          ? await webhookFixture(t, key as string, name === 'webhookDeliveries' || name === 'retryWebhookDelivery')
          : undefined;
      const url = withFixture(requestUrl(route.path, meta.example), fixture);
      if (meta.eventStream) {
        examples[name] = { status: 200, body: shorten(await firstEvent(t, url, key as string)) };
        continue;
      }
      const res = await t.inject({
        method: route.method,
        url,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        ...(route.method === 'POST' || route.method === 'PATCH' ? { payload: meta.example.body ?? {} } : {}),
      });
      const status = Object.keys(route.responses)
        .map(Number)
        .find((s) => s >= 200 && s < 300);
      if (res.statusCode !== status) {
        throw new Error(
          `${name}: the example request ${route.method} ${url} answered ${res.statusCode} (not ${status}) from the seeded simulator: ${res.body.slice(0, 300)}`,
        );
      }
      let text = res.body;
      const answer = res.json() as { key?: unknown; token?: unknown; id?: unknown; secret?: unknown };
      // The webhook, its secret and deliveries the capture made, shown as the examples' own.
      const made = [
        [fixture?.id, EXAMPLE_WEBHOOK_ID],
        [fixture?.deliveryId, EXAMPLE_MESSAGE_ID],
        [fixture?.secret, EXAMPLE_WEBHOOK_SECRET],
        [typeof answer.secret === 'string' ? answer.secret : undefined, EXAMPLE_WEBHOOK_SECRET],
        [name === 'createWebhook' ? answer.id : undefined, EXAMPLE_WEBHOOK_ID],
        [name === 'testWebhook' ? answer.id : undefined, EXAMPLE_MESSAGE_ID],
      ] as const;
      for (const [real, shown] of made) if (typeof real === 'string') text = text.replaceAll(real, shown);
      const issued = [key, answer.key].filter((k): k is string => typeof k === 'string');
      for (const k of issued) {
        text = text.replaceAll(k, EXAMPLE_KEY).replaceAll(keyPrefixOf(k), keyPrefixOf(EXAMPLE_KEY));
      }
      if (typeof answer.token === 'string') text = text.replaceAll(answer.token, EXAMPLE_STREAM_TOKEN);
      examples[name] = { status, body: shorten(JSON.parse(text)) };
    }
    return examples;
  } finally {
    await t.close();
  }
}
