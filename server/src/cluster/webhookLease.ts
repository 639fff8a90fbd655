/** The webhooks' leadership (webhooks/service.ts `Leadership`) on Redis: a lease of their own. */
import type { Redis } from 'ioredis';
import type { Leadership } from '../webhooks/service';
import { LeaderLease } from './leader';

/**
 * Webhook work on the shared engines: run by the replica holding a lease in Redis (its own key,
 * apart from the ingest leader's), stopped when it loses it, so exactly one replica delivers.
 */
export function leaseLeadership(redis: Redis, key: string): Leadership {
  return (work, onError) => {
    // Taking and losing the lead run one after the other, never overlapping.
    let chain: Promise<void> = Promise.resolve();
    const serially = (step: () => Promise<void>) => {
      chain = chain.then(step).catch(onError);
      return chain;
    };
    const lease: LeaderLease = new LeaderLease({
      redis,
      key,
      onAcquired: () => {
        void serially(async () => {
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
      onLost: () => serially(() => work.stop()),
      onError,
    });
    void lease.start().catch(onError);
    return {
      async stop() {
        await lease.stop();
        await chain;
      },
    };
  };
}
