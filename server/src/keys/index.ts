/** `@propsfeed/server/keys` (workspace only), for a benchmark that assembles its own app: issuing keys and their cache. */
export { KeyCache } from './cache';
export { issueKey } from './issue';
