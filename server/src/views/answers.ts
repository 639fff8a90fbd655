/**
 * Answers kept so they are not made again: per board (or board view) object by request key,
 * gone with the board (AnswersPer), or read from the store and kept a while (RecentAnswers).
 * What they keep is most often a Prepared answer (prepared.ts).
 */

/** A Map that forgets its oldest entries beyond `max`: for caches keyed by request input. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

/**
 * Answers kept per board (or board view) object, by request key: gone with the board, and at
 * most `max` per board. `getOrBuild` builds each answer once.
 */
export class AnswersPer<O extends object, V> {
  private readonly byOwner = new WeakMap<O, BoundedMap<string, V>>();

  constructor(private readonly max: number) {}

  of(owner: O): BoundedMap<string, V> {
    let answers = this.byOwner.get(owner);
    if (!answers) {
      answers = new BoundedMap(this.max);
      this.byOwner.set(owner, answers);
    }
    return answers;
  }

  getOrBuild(owner: O, key: string, build: () => V): V {
    const answers = this.of(owner);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = build();
      answers.set(key, answer);
    }
    return answer;
  }
}

/**
 * Answers read from the store, kept by request key for `maxAgeMs` (at most `max` of them):
 * what changes only when a game settles need not be read again for every request. A failed
 * read is not kept. `RecentAnswers.per(owner)` keeps one set per store reader.
 */
export class RecentAnswers<V> {
  /** One set of answers per owner (a store reader), made on first use. */
  static per<O extends object, V>(maxAgeMs: number, max: number): (owner: O) => RecentAnswers<V> {
    const byOwner = new WeakMap<O, RecentAnswers<V>>();
    return (owner) => {
      let answers = byOwner.get(owner);
      if (!answers) {
        answers = new RecentAnswers<V>(maxAgeMs, max);
        byOwner.set(owner, answers);
      }
      return answers;
    };
  }

  private readonly answers: BoundedMap<string, { at: number; value: Promise<V> }>;

  constructor(
    private readonly maxAgeMs: number,
    max: number,
  ) {
    this.answers = new BoundedMap(max);
  }

  getOrRead(key: string, nowMs: number, read: () => Promise<V>): Promise<V> {
    const kept = this.answers.get(key);
    if (kept && nowMs - kept.at < this.maxAgeMs && nowMs >= kept.at) return kept.value;
    const value = read();
    this.answers.delete(key);
    this.answers.set(key, { at: nowMs, value });
    value.catch(() => {
      if (this.answers.get(key)?.value === value) this.answers.delete(key);
    });
    return value;
  }
}
