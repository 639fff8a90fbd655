/** Entry types: breakevens solved from the payout tables, tables by effective day, operator replacement. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY_TABLES, EntriesResponseSchema, type EntryTable } from '@propsfeed/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config';
import { binomialPmf, breakeven, EntryBook, expectedReturn } from '../../src/odds/entries';
import { entryTablesOf } from '../../src/odds/tables';
import { buildTestApp } from '../helpers/app';

const tableOf = (id: string): EntryTable => {
  const t = ENTRY_TABLES.find((x) => x.id === id);
  if (!t) throw new Error(id);
  return t;
};
const breakevenOf = (id: string) => breakeven(tableOf(id));

describe('breakeven', () => {
  it('of an all-or-nothing entry is the n-th root of 1/multiplier', () => {
    expect(breakevenOf('prizepicks_power_2')).toBeCloseTo(0.57735, 5); // ≈ 57.74 %
    expect(breakevenOf('prizepicks_power_4')).toBeCloseTo(0.56234, 5); // ≈ 56.23 %
    expect(breakevenOf('prizepicks_power_2')).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(breakevenOf('prizepicks_power_3')).toBeCloseTo(5 ** (-1 / 3), 12);
    expect(breakevenOf('prizepicks_power_4')).toBeCloseTo(10 ** (-1 / 4), 12);
    expect(breakevenOf('underdog_standard_3')).toBeCloseTo(6 ** (-1 / 3), 12);
    expect(breakevenOf('underdog_standard_5')).toBeCloseTo(20 ** (-1 / 5), 12);
  });

  it('of flex and insured entries solves the binomial expected return', () => {
    // Underdog 3-pick insured: 3p³ + 1·3p²(1−p) = 3p² = 1, so p = 1/√3; 4-pick: 6p³ = 1.
    expect(breakevenOf('underdog_insured_3')).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(breakevenOf('underdog_insured_4')).toBeCloseTo(6 ** (-1 / 3), 12);
    // Solved independently (bisection in Python's exact binomial) to 1e-12.
    expect(breakevenOf('prizepicks_flex_3')).toBeCloseTo(0.5909419215168, 11);
    expect(breakevenOf('prizepicks_flex_4')).toBeCloseTo(0.5689019904852, 11);
    expect(breakevenOf('prizepicks_flex_5')).toBeCloseTo(0.5425253777363, 11);
    expect(breakevenOf('prizepicks_flex_6')).toBeCloseTo(0.542059699707, 11);
    expect(breakevenOf('underdog_insured_5')).toBeCloseTo(0.5474738475731, 11);
    for (const t of ENTRY_TABLES) expect(expectedReturn(t, breakeven(t)), t.id).toBeCloseTo(1, 12);
  });

  it('follows the payouts: a table changed by the operator gives a new breakeven', () => {
    expect(breakeven({ picks: 2, payouts: [{ hits: 2, multiplier: 4 }] })).toBeCloseTo(0.5, 12);
    expect(breakeven({ picks: 3, payouts: [{ hits: 3, multiplier: 8 }] })).toBeCloseTo(0.5, 12);
    // Paying the stake back with no hit at all breaks even at any probability.
    expect(
      breakeven({
        picks: 2,
        payouts: [
          { hits: 0, multiplier: 1 },
          { hits: 2, multiplier: 3 },
        ],
      }),
    ).toBe(0);
  });

  it('uses the binomial distribution of hits', () => {
    expect(binomialPmf(4, 2, 0.5)).toBeCloseTo(6 / 16, 15);
    expect(binomialPmf(5, 5, 0.6)).toBeCloseTo(0.6 ** 5, 15);
    expect(binomialPmf(3, 4, 0.5)).toBe(0);
  });
});

describe('EntryBook', () => {
  const base = tableOf('prizepicks_power_2');
  const raised: EntryTable = { ...base, payouts: [{ hits: 2, multiplier: 3.5 }], effectiveFrom: '2026-12-01' };
  const book = new EntryBook([base, raised, tableOf('underdog_standard_2'), tableOf('prizepicks_flex_3')]);

  it('answers, per entry id, the latest table in force on the day, ordered by book, kind and picks', () => {
    const before = book.inEffect('2026-11-30');
    expect(before.map((e) => [e.id, e.effectiveFrom])).toEqual([
      ['prizepicks_power_2', '2025-01-01'],
      ['prizepicks_flex_3', '2025-01-01'],
      ['underdog_standard_2', '2025-01-01'],
    ]);
    expect(before[0]?.breakeven).toBeCloseTo(1 / Math.sqrt(3), 12);
    const after = book.inEffect('2026-12-01');
    expect(after[0]).toMatchObject({ id: 'prizepicks_power_2', effectiveFrom: '2026-12-01' });
    expect(after[0]?.breakeven).toBeCloseTo(1 / Math.sqrt(3.5), 12);
    expect(book.inEffect('2024-12-31')).toEqual([]);
  });

  it('names each type and lists payouts most hits first', () => {
    const flex = book.inEffect('2026-11-30')[1];
    expect(flex?.name).toBe('PrizePicks 3-pick Flex');
    expect(flex?.payouts).toEqual([
      { hits: 3, multiplier: 2.25 },
      { hits: 2, multiplier: 1.25 },
    ]);
  });
});

describe('operator tables (PROPS_ENTRIES_FILE, PROPS_ENTRIES)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-entries-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const replacement = [{ ...tableOf('underdog_standard_2'), payouts: [{ hits: 2, multiplier: 3.5 }] }];

  it('uses the catalog when neither is set', () => {
    expect(entryTablesOf({})).toBe(ENTRY_TABLES);
  });

  it('replaces every table from a file (a list or {entries}) or from the variable', () => {
    const file = join(dir, 'entries.json');
    writeFileSync(file, JSON.stringify({ entries: replacement }));
    expect(entryTablesOf({ PROPS_ENTRIES_FILE: file })).toEqual(replacement);
    expect(entryTablesOf({ PROPS_ENTRIES: JSON.stringify(replacement) })).toEqual(replacement);
  });

  it.each([
    [
      { PROPS_ENTRIES_FILE: '/nonexistent/entries.json' },
      'PROPS_ENTRIES_FILE: cannot read /nonexistent/entries.json (ENOENT)',
    ],
    [{ PROPS_ENTRIES: '[{' }, 'PROPS_ENTRIES: not JSON'],
    [{ PROPS_ENTRIES: '[]' }, 'PROPS_ENTRIES: Array must contain at least 1 element(s)'],
    [
      { PROPS_ENTRIES: JSON.stringify([{ ...replacement[0], payouts: [{ hits: 2, multiplier: 0.9 }] }]) },
      'PROPS_ENTRIES: 0: underdog_standard_2: winning every leg must pay more than the stake',
    ],
    [
      { PROPS_ENTRIES: JSON.stringify([{ ...replacement[0], payouts: [{ hits: 3, multiplier: 5 }] }]) },
      'underdog_standard_2: pays for more hits than picks',
    ],
    [
      { PROPS_ENTRIES: JSON.stringify([{ ...replacement[0], effectiveFrom: '2026-13-01' }]) },
      '0.effectiveFrom: not a calendar day',
    ],
    [
      { PROPS_ENTRIES: JSON.stringify([...replacement, ...replacement]) },
      'underdog_standard_2 is given twice from 2025-01-01',
    ],
    [{ PROPS_ENTRIES: '[]', PROPS_ENTRIES_FILE: 'x.json' }, 'set either PROPS_ENTRIES or PROPS_ENTRIES_FILE, not both'],
  ])('refuses %j with a message naming the variable', (config, message) => {
    expect(() => entryTablesOf(config)).toThrow(ConfigError);
    expect(() => entryTablesOf(config)).toThrow(message);
  });
});

describe('GET /api/v1/entries', () => {
  it('answers every entry type in force with payouts and breakeven, to a free key', async () => {
    const now = Date.parse('2026-11-22T01:00:00.000Z');
    const t = await buildTestApp({ now: () => now });
    try {
      const res = await t.get('/api/v1/entries', t.keys.free);
      expect(res.statusCode).toBe(200);
      const body = EntriesResponseSchema.parse(res.json());
      expect(body.asOf).toBe('2026-11-22');
      expect(body.entries.map((e) => e.id)).toEqual([
        'prizepicks_power_2',
        'prizepicks_power_3',
        'prizepicks_power_4',
        'prizepicks_flex_3',
        'prizepicks_flex_4',
        'prizepicks_flex_5',
        'prizepicks_flex_6',
        'underdog_standard_2',
        'underdog_standard_3',
        'underdog_standard_4',
        'underdog_standard_5',
        'underdog_insured_3',
        'underdog_insured_4',
        'underdog_insured_5',
      ]);
      const power2 = body.entries[0];
      expect(power2).toMatchObject({ name: 'PrizePicks 2-pick Power', payouts: [{ hits: 2, multiplier: 3 }] });
      expect(power2?.breakeven).toBeCloseTo(0.57735, 5);
      expect(body.entries[2]?.breakeven).toBeCloseTo(0.56234, 5);
    } finally {
      await t.close();
    }
  });
});
