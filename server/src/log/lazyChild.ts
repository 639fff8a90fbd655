/**
 * Fastify gives every request a pino child logger, which costs about as much as our own
 * per-request work, and almost no request logs anything: this child is made on first use.
 */
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Level = (typeof LEVELS)[number];
type LogMethod = (...args: unknown[]) => void;

class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  // One method per level, each writing to the child: set once on the prototype, so a request
  // whose logger is never used costs no more than the constructor.
  static {
    const prototype = LazyChildLogger.prototype as LazyChildLogger & Record<Level, LogMethod>;
    for (const level of LEVELS) {
      prototype[level] = function (this: LazyChildLogger, ...args: unknown[]): void {
        (this.logger[level] as LogMethod)(...args);
      };
    }
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made when it first logs. */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
