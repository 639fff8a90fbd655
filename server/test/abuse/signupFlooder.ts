/**
 * Sends free sign-ups, each from a loopback address in a /24 of its own, from a child process
 * (so the test's own latency probes do not share its event loop):
 * `node --import tsx signupFlooder.ts <port> <perSecond>`. Each line `N` read from stdin
 * sends the next N at a steady `perSecond`; when they are answered it prints one JSON line
 * `{ statuses, refusal }` with every answer so far. It prints `ready` first.
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { loopbackAddress, loopbackRequest } from '../helpers/loopback';

const [port, perSecond] = process.argv.slice(2).map(Number) as [number, number];
const statuses: Record<number, number> = {};
let refusal: { body: string; retryAfter: unknown } | undefined;
let sent = 0;

async function burst(count: number): Promise<void> {
  const started = performance.now();
  const first = sent;
  sent += count;
  await Promise.all(
    Array.from({ length: count }, async (_, k) => {
      await sleep(started + (k * 1000) / perSecond - performance.now());
      const i = first + k;
      const res = await loopbackRequest({
        port,
        method: 'POST',
        path: '/api/v1/keys',
        json: { email: `fan${i}@example.com` },
        localAddress: loopbackAddress(i),
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 429) refusal ??= { body: res.body, retryAfter: res.headers['retry-after'] };
    }),
  );
  process.stdout.write(`${JSON.stringify({ statuses, refusal })}\n`);
}

process.stdout.write('ready\n');
let queue = Promise.resolve();
for await (const line of createInterface({ input: process.stdin })) {
  queue = queue.then(() => burst(Number(line)));
}
await queue;
