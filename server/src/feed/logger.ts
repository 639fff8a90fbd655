/** What the feed and the cluster log through: a pino logger in the server, or nothing in tests and benchmarks. */
export interface FeedLogger {
  info(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
  error(o: object, msg?: string): void;
  /** For what only a developer chasing a problem wants (pino's, where the logger is pino). */
  debug?(o: object, msg?: string): void;
}

export const SILENT_LOGGER: FeedLogger = { info() {}, warn() {}, error() {} };
