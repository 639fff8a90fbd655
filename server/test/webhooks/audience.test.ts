/**
 * What counts as a line move for an endpoint: the merged line by at least its line threshold,
 * or either side's odds by at least its odds threshold in cents (−105 → +105 is 10 cents); with
 * a books filter, those books' own quotes.
 */
import { describe, expect, it } from 'vitest';
import { callerOf } from '../../src/auth/caller';
import type { BoardProp } from '../../src/board/types';
import { audienceOf, movedFor, seesProp } from '../../src/webhooks/audience';
import type { EndpointRecord } from '../../src/webhooks/store';
import { gameOf } from '../helpers/board';
import { keyRecord } from '../store/store.suite';
import { endpointRecord } from './records';

const endpoint = (over: Partial<EndpointRecord> = {}): EndpointRecord =>
  endpointRecord({
    id: 'wh_1',
    keyId: 'k',
    url: 'https://h.example/',
    filters: {},
    secret: 'whsec_x',
    createdAt: 0,
    updatedAt: 0,
    ...over,
  });
const sharp = callerOf(keyRecord({ tier: 'sharp' }));
const pro = callerOf(keyRecord({ tier: 'pro' }));

const prop = (line: number, overOdds: number, underOdds: number, ppLine = line): BoardProp =>
  ({
    player: 'Aaron Wilson',
    stat: 'points',
    line,
    overOdds,
    underOdds,
    books: [
      { source: 'prizepicks', line: ppLine, updatedAt: 0 },
      { source: 'underdog', line, overOdds, underOdds, updatedAt: 0 },
    ],
  }) as BoardProp;

describe('movedFor', () => {
  it('counts a move of the line or of either side’s odds past the thresholds', () => {
    const a = audienceOf(endpoint(), sharp);
    expect(movedFor(a, prop(21, -110, -110), prop(20.5, -110, -110))).toBe(true);
    expect(movedFor(a, prop(20.5, -115, -105), prop(20.5, -110, -110))).toBe(false);
    expect(movedFor(a, prop(20.5, -120, 100), prop(20.5, -110, -110))).toBe(true);
    expect(movedFor(a, prop(20.5, 105, -125), prop(20.5, -105, -115))).toBe(true);
    const wide = audienceOf(endpoint({ lineThreshold: 2, oddsThreshold: 25 }), sharp);
    expect(movedFor(wide, prop(22, -120, 100), prop(20.5, -110, -110))).toBe(false);
    expect(movedFor(wide, prop(22.5, -110, -110), prop(20.5, -110, -110))).toBe(true);
  });

  it("judges a books-filtered endpoint on those books' own lines", () => {
    const pp = audienceOf(endpoint({ filters: { books: ['prizepicks'] } }), sharp);
    // The merged line moved (Underdog's), PrizePicks' did not.
    expect(movedFor(pp, prop(21.5, -110, -110, 20.5), prop(20.5, -110, -110, 20.5))).toBe(false);
    expect(movedFor(pp, prop(20.5, -110, -110, 21.5), prop(20.5, -110, -110, 20.5))).toBe(true);
  });
});

describe('seesProp', () => {
  it("sees as the key's tier does: its sports, live props only with live lines, then the filters", () => {
    const live = gameOf({ id: 'pp_1', live: true }, 0);
    const mlb = gameOf({ id: 'pp_2', sport: 'mlb', aliases: ['ud_9'] }, 0);
    const nfl = gameOf({ id: 'pp_3', sport: 'nfl' }, 0);
    const p = { player: 'Nikola Jokić', stat: 'hits', books: [{ source: 'underdog' }] };
    expect(seesProp(audienceOf(endpoint(), sharp), live, p)).toBe(true);
    expect(seesProp(audienceOf(endpoint(), pro), live, p)).toBe(false);
    expect(seesProp(audienceOf(endpoint(), pro), nfl, p)).toBe(false);
    expect(seesProp(audienceOf(endpoint({ filters: { games: ['ud_9'] } }), pro), mlb, p)).toBe(true);
    expect(seesProp(audienceOf(endpoint({ filters: { players: ['nikola jokic'] } }), pro), mlb, p)).toBe(true);
    expect(seesProp(audienceOf(endpoint({ filters: { stats: ['points'] } }), pro), mlb, p)).toBe(false);
    expect(seesProp(audienceOf(endpoint({ filters: { books: ['prizepicks'] } }), pro), mlb, p)).toBe(false);
  });
});
