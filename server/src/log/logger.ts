/**
 * The server's one logger (pino): the app's requests, the feed and background tasks all write
 * through it, so start-up prints one log format: JSON lines, or text on a terminal
 * (`textDestination`, log/format.ts).
 */
import { type DestinationStream, type Logger, pino } from 'pino';

export interface LoggerOptions {
  level?: string;
  /** Where log lines go (default stdout, as JSON). */
  stream?: NodeJS.WritableStream | DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      // Keys travel in Authorization; they must never reach a log line.
      redact: { paths: ['req.headers.authorization', 'request.headers.authorization'], censor: '[redacted]' },
    },
    ...(opts.stream ? [opts.stream as DestinationStream] : []),
  );
}
