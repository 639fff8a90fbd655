/**
 * Standard Webhooks signing: a secret is `whsec_` + base64 of random bytes; each attempt
 * carries `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes), one
 * signature per secret in force, space-separated. Receivers verify with the spec's libraries
 * (the tests do, with the `standardwebhooks` package).
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function generateSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt; `secrets` are those in force (the new one first during a rotation). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' '),
  };
}
