/**
 * Key changes pushed to every replica: a replica that creates or revokes a key (admin API,
 * free sign-up) publishes a notice on Redis, and every replica refreshes its key cache at
 * once. The key cache's own poll of the store (keys/cache.ts) stays as the fallback, for
 * changes made without a replica (the CLI) and for notices lost while Redis was away.
 */
import type { Redis } from 'ioredis';
import { connectRedis } from '../store/redis';
import type { Store } from '../store/types';

export interface KeyNotices {
  /** The store, publishing a notice after each successful create or revoke. */
  wrap(store: Store): Store;
  close(): Promise<void>;
}

export interface KeyNoticesOptions {
  redisUrl: string;
  channel: string;
  /** Called on every notice, this replica's own included. */
  onChange: () => void;
  onError?: (err: unknown) => void;
}

export function openKeyNotices(opts: KeyNoticesOptions): KeyNotices {
  const report = opts.onError ?? (() => {});
  const publisher: Redis = connectRedis(opts.redisUrl, { onError: report });
  const subscriber: Redis = connectRedis(opts.redisUrl, { blocking: true, onError: report });
  subscriber.on('ready', () => {
    // (Re)subscribe on every connection, then catch up on changes missed while disconnected.
    subscriber.subscribe(opts.channel).then(opts.onChange, report);
  });
  subscriber.on('message', (channel: string) => {
    if (channel === opts.channel) opts.onChange();
  });
  const notify = () => {
    publisher.publish(opts.channel, String(Date.now())).catch(report);
  };
  return {
    wrap(store) {
      return {
        ...store,
        async insertKey(key) {
          await store.insertKey(key);
          notify();
        },
        async revokeKey(prefix, atMs) {
          const revoked = await store.revokeKey(prefix, atMs);
          if (revoked) notify();
          return revoked;
        },
      };
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
