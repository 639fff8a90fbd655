/** `@propsfeed/server/limits` (workspace only), for a benchmark that assembles its own app: the two limiters. */
export { MemoryLimiter } from './memory';
export { RedisLimiter } from './redis';
