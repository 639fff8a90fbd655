/** `@propsfeed/server/stream` (workspace only), for the stream benchmark: the stream's bytes and its stored event log. */
export { StreamEncoder } from './encode';
export { StreamLog } from './log';
