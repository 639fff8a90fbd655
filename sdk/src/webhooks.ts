/**
 * Webhooks (pro tier and above): `client.webhooks.create/list/get/update/delete/rotateSecret/
 * test/deliveries/retryDelivery`, and `verifyWebhook`, which checks a delivery your server received
 * with the Standard Webhooks specification's own library (`standardwebhooks`) and gives its
 * typed event.
 */
import type {
  CreatedWebhook,
  CreateWebhookRequest,
  DeletedWebhook,
  RotatedSecret,
  UpdateWebhookRequest,
  Webhook,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEvent,
  WebhookList,
} from '@propsfeed/contract';
import { Webhook as StandardWebhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

export interface WebhookDeliveriesParams {
  status?: 'pending' | 'succeeded' | 'failed';
  /** 1 to 100 (default 50), newest first. */
  limit?: number;
  /** The `nextBefore` of the previous page. */
  before?: string;
}

/** The webhook methods of the client; what `props webhooks` runs on. */
export interface WebhooksApi {
  create(params: CreateWebhookRequest): Promise<CreatedWebhook>;
  list(): Promise<WebhookList>;
  get(id: string): Promise<Webhook>;
  update(id: string, params: UpdateWebhookRequest): Promise<Webhook>;
  delete(id: string): Promise<DeletedWebhook>;
  rotateSecret(id: string): Promise<RotatedSecret>;
  test(id: string): Promise<WebhookDelivery>;
  deliveries(id: string, params?: WebhookDeliveriesParams): Promise<WebhookDeliveries>;
  retryDelivery(id: string, deliveryId: string): Promise<WebhookDelivery>;
  /** @deprecated use `retryDelivery` (named after its route, `retryWebhookDelivery`); `retry` goes in the next release. */
  retry(id: string, deliveryId: string): Promise<WebhookDelivery>;
}

/** Headers as a server framework gives them: a Headers object, or a record (Node's IncomingHttpHeaders). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: WebhookHeaders, name: string): string {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? '';
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Verifies a delivery with the Standard Webhooks library: its `webhook-signature` against
 * `secret` (the `whsec_…` the endpoint was created or rotated with; several secrets are tried
 * in turn, for a rotation), and its `webhook-timestamp` within 5 minutes of now. Pass the body
 * exactly as received (the raw string or bytes, not re-serialized JSON). Returns the event;
 * throws WebhookVerificationError when it does not verify.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const wanted = {
    'webhook-id': headerOf(headers, 'webhook-id'),
    'webhook-timestamp': headerOf(headers, 'webhook-timestamp'),
    'webhook-signature': headerOf(headers, 'webhook-signature'),
  };
  const secrets = typeof secret === 'string' ? [secret] : secret;
  let failure: unknown = new WebhookVerificationError('No secret to verify with');
  for (const s of secrets) {
    try {
      return new StandardWebhook(s).verify(payload, wanted) as WebhookEvent;
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}
