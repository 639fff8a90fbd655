/** Movers "since open" after a restart: the opening is history's, not the first board this process saw. */
import { describe, expect, it } from 'vitest';
import type { LineHistoryReader, MoverRecord } from '../../src/history/types';
import { boardMovers } from '../../src/queries/movement';
import { OpeningLines } from '../../src/views/openingLines';
import { buildBoard, TestBoardSource } from '../helpers/board';

/** Line history as the store holds it: Underdog opened Cedric Cooper's points at 14 (-120/-100). */
const stored: MoverRecord[] = [
  {
    gameId: 'ud_1',
    sport: 'nba',
    player: 'Cedric Cooper',
    playerKey: 'cedric cooper|team',
    stat: 'points',
    books: [
      {
        source: 'underdog',
        openLine: 14,
        openOverOdds: -120,
        openUnderOdds: -100,
        currentLine: 14.5,
        currentOverOdds: 120,
        currentUnderOdds: -140,
      },
    ],
  },
];

function historyOf(records: MoverRecord[]): LineHistoryReader & { reads: number } {
  const reader = {
    reads: 0,
    propHistory: async () => undefined,
    movers: async () => {
      reader.reads += 1;
      return records;
    },
    resolveGame: async () => undefined,
  };
  return reader;
}

describe('OpeningLines after a restart', () => {
  it('measures from the stored open even when boards were seen before the first movers request', async () => {
    const now = buildBoard(
      [
        {
          id: 'ud_1',
          props: [
            {
              player: 'Cedric Cooper',
              stat: 'points',
              line: 14.5,
              overOdds: 120,
              underOdds: -140,
              books: ['underdog'],
            },
          ],
        },
      ],
      Date.parse('2026-11-22T01:00:00.000Z'),
    );
    const feed = new TestBoardSource();
    const history = historyOf(stored);
    const openings = new OpeningLines(feed, history);
    openings.start();
    // The restarted feed publishes its first boards before anyone asks for movers.
    feed.publish(now);
    feed.publish(now);
    await openings.ensure(now, 'nba');
    expect(history.reads).toBe(1);
    const movers = boardMovers(
      now,
      'nba',
      null,
      () => true,
      (game, book, key, stat) => openings.opening('nba', game.id, book, key, stat),
    );
    expect(movers).toHaveLength(1);
    expect(movers[0]).toMatchObject({ player: 'Cedric Cooper', openLine: 14, currentLine: 14.5, change: 0.5 });
    // -120 → +120 is 40 cents on the continuous scale (-20 → +20).
    expect(movers[0]?.oddsChange).toBe(40);
    // Later boards do not read history again while every quote has an opening.
    await openings.ensure(buildBoard([], now.fetchedAt + 1000), 'nba');
    await openings.ensure(now, 'nba');
    expect(history.reads).toBe(1);
    openings.stop();
  });
});
