/** The webhooks' leadership (webhooks/service.ts `Leadership`) on Redis: a lease of their own. */
import type { Redis } from 'ioredis';
import { serially } from '../util/serially';
import type { Leadership } from '../webhooks/service';
import { LeaderLease } from './leader';

/**
 * Webhook work on the shared engines: run by the replica holding a lease in Redis (its own key,
 * apart from the ingest leader's), stopped when it loses it, so exactly one replica delivers.
 */
export function leaseLeadership(redis: Redis, key: string): Leadership {
  return (work, onError) => {
    // Taking and losing the lead run one after the other, never overlapping.
    const transitions = serially();
    const inTurn = (step: () => Promise<void>) => transitions(step).catch(onError);
    const lease: LeaderLease = new LeaderLease({
      redis,
      key,
      onAcquired: () => {
        void inTurn(async () => {
          try {
            await work.start();
          } catch (err) {
            // Leading without the work running would deliver nothing: hand the lead on, try later.
            onError(err);
            await work.stop().catch(onError);
            void lease.resign(5_000).catch(onError);
          }
        });
      },
      onLost: () => inTurn(() => work.stop()),
      onError,
    });
    void lease.start().catch(onError);
    return {
      async stop() {
        await lease.stop();
        // Once every step queued before has settled.
        await transitions(async () => {});
      },
    };
  };
}
