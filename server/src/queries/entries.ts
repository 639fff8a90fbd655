import type { EntriesResponse } from '@propsfeed/contract';
import { EntryBook, utcDay } from '../odds/entries';
import { Prepared } from '../views';
import type { QueryDeps } from './deps';

const catalog = new EntryBook();
const answers = new WeakMap<EntryBook, Prepared<EntriesResponse>>();

/** The server's entry tables (the catalog's unless an operator replaced them). */
export function entryBookOf(deps: QueryDeps): EntryBook {
  return deps.entries ?? catalog;
}

/** Every entry type in force today (UTC) with payouts and breakeven; one prepared answer per day. */
export function entriesQuery(deps: QueryDeps): Prepared<EntriesResponse> {
  const book = entryBookOf(deps);
  const asOf = utcDay(deps.now());
  const cached = answers.get(book);
  if (cached?.value.asOf === asOf) return cached;
  const prepared = Prepared.of<EntriesResponse>({ asOf, entries: book.inEffect(asOf) });
  answers.set(book, prepared);
  return prepared;
}
