/**
 * `@propsfeed/server/store` (workspace only), for the benchmarks: the store over SQLite or
 * PostgreSQL (the keys' and usage's, or the bare database the feed writes), and Redis.
 */
export { loadSqlite, openDb } from './db';
export { openStore } from './kyselyStore';
export { connectRedis, redisReady } from './redis';
