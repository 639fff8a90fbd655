/**
 * Book stat names → stat keys, and the catalog's deliberately unsupported stats: skipped
 * without being counted as unmapped, while any other unknown stat is counted.
 */
import { STAT_KEYS, UNSUPPORTED_STATS } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { countUnmapped, statKey, statSpelling } from '../../src/books/stats';

describe('stat names', () => {
  it('maps both books’ spellings of the stats they post to one key', () => {
    expect(statKey('nfl', 'Rec Targets')).toBe('targets');
    expect(statKey('nfl', 'Longest Reception')).toBe('longest_reception');
    expect(statKey('nfl', 'longest_rush')).toBe('longest_rush');
    expect(statKey('nfl', 'Longest Completion')).toBe('longest_completion');
    expect(statKey('soccer', 'crosses')).toBe('crosses');
    expect(statKey('soccer', 'Interceptions')).toBe('interceptions');
    expect(statKey('wnba', '3-PT Made')).toBe('threes');
  });

  it('counts an unknown stat as unmapped, but not one the catalog leaves out on purpose', () => {
    const counts: Record<string, number> = {};
    countUnmapped(counts, 'nfl', 'Punts');
    countUnmapped(counts, 'nfl', 'Punts');
    countUnmapped(counts, 'nfl', 'Yards on First Reception');
    countUnmapped(counts, 'mlb', 'fantasy_points');
    expect(counts).toEqual({ 'nfl:Punts': 2 });
  });

  it('lists unsupported stats with a reason, under names no stat key has', () => {
    for (const [sport, stats] of Object.entries(UNSUPPORTED_STATS)) {
      for (const [name, why] of Object.entries(stats)) {
        expect(name).toBe(statSpelling(name));
        expect(why.length).toBeGreaterThan(20);
        expect(STAT_KEYS[sport as keyof typeof STAT_KEYS] as readonly string[]).not.toContain(name);
        expect(statKey(sport as keyof typeof STAT_KEYS, name)).toBeUndefined();
      }
    }
  });
});
