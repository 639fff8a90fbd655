import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app';
import { buildBoard, manyProps, TestBoardSource } from '../helpers/board';

const source = new TestBoardSource();
source.isReady = false;
const t = await buildTestApp({ source });
afterAll(() => t.close());

describe('health', () => {
  it('is live at once', async () => {
    expect((await t.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
  });

  it('is ready once a board is loaded, reporting each book', async () => {
    const before = await t.inject({ method: 'GET', url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(before.json().ready).toBe(false);
    source.healthRows = [
      {
        source: 'prizepicks',
        fetchedAt: 1_000,
        lastAttemptAt: 2_000,
        lastError: null,
        errorCount: 0,
        consecutiveFailures: 0,
        skippedItems: 1,
        unmappedStats: { 'Fantasy Score': 2 },
      },
    ];
    const board = buildBoard([{ id: 'pp_1' }, { id: 'pp_2', props: manyProps(3) }], 1_000);
    source.publish(board);
    source.isReady = true;
    const after = await t.inject({ method: 'GET', url: '/readyz' });
    expect(after.statusCode).toBe(200);
    // Props: the default game's and the three of the second.
    const props = (board.games.find((g) => g.id === 'pp_1')?.props.length ?? 0) + 3;
    expect(after.json()).toMatchObject({
      ready: true,
      games: 2,
      props,
      books: [{ source: 'prizepicks', errorCount: 0 }],
    });
  });
});
