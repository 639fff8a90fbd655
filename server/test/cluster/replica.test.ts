/**
 * The change log's two ends on their own: BoardDiffer (what ingest sends) and BoardReplica
 * (what the API thread, or a Redis replica, applies), across a structured clone as the
 * embedded worker's MessagePort sends it.
 */
import { describe, expect, it } from 'vitest';
import { type BoardChange, BoardDiffer } from '../../src/board/changes';
import type { Board } from '../../src/board/types';
import { BoardReplica } from '../../src/cluster/replica';
import { board, game, HEALTH } from './boards';

const T = Date.UTC(2026, 10, 22, 1);

/** What the replica holds of a board: compared field by field with the board sent. */
function same(replicated: Board, sent: Board): void {
  expect(replicated.version).toBe(sent.version);
  expect(replicated.fetchedAt).toBe(sent.fetchedAt);
  expect(replicated.games).toEqual(sent.games);
  expect([...replicated.gameById.entries()].map(([id, g]) => [id, g.id])).toEqual(
    [...sent.gameById.entries()].map(([id, g]) => [id, g.id]),
  );
}

describe('the change log: BoardDiffer → BoardReplica', () => {
  it('sends a keyframe, then deltas of the changed games only, and rebuilds every board', () => {
    const boards = [
      board(100, T, [game('pp_1', 20.5), game('pp_2', 10.5)]),
      board(101, T + 5_000, [game('pp_1', 21.5), game('pp_2', 10.5)]),
      // A game gone, one new, the order changed; versions need not be consecutive.
      board(105, T + 10_000, [game('pp_3', 5.5), game('pp_1', 21.5)]),
    ];
    const differ = new BoardDiffer();
    const replica = new BoardReplica({ now: () => T + 10_000 });
    const seen: number[] = [];
    replica.subscribe((b) => seen.push(b.version));
    const changes = boards.map((b) => structuredClone(differ.next(b, HEALTH)));
    expect(changes.map((c) => [c.base, c.games.map((g) => g.id), c.order])).toEqual([
      [undefined, ['pp_1', 'pp_2'], ['pp_1', 'pp_2']],
      [100, ['pp_1'], ['pp_1', 'pp_2']],
      [101, ['pp_3'], ['pp_3', 'pp_1']],
    ]);
    for (const [i, change] of changes.entries()) {
      expect(replica.apply(change)).toBe(true);
      same(replica.current(), boards[i] as Board);
    }
    expect(seen).toEqual([100, 101, 105]);
    // An unchanged game is the same object from board to board (views cache by it).
    expect(replica.at(T + 5_000).gameById.get('pp_2')).toBe(replica.at(T).gameById.get('pp_2'));
    expect(replica.at(T + 7_000).version).toBe(101);
    expect(replica.at(T - 1).version).toBe(0);
    expect(replica.health()).toEqual(HEALTH);
  });

  it('refuses a delta on a board it does not have, and takes the next keyframe', () => {
    const differ = new BoardDiffer();
    const replica = new BoardReplica({ now: () => T });
    differ.next(board(1, T, [game('pp_1', 1.5)]), HEALTH);
    const delta = differ.next(board(2, T + 1, [game('pp_1', 2.5)]), HEALTH);
    expect(replica.apply(delta)).toBe(false);
    expect(replica.current().version).toBe(0);
    differ.reset();
    const keyframe = differ.next(board(3, T + 2, [game('pp_1', 3.5)]), HEALTH);
    expect(keyframe.base).toBeUndefined();
    expect(replica.apply(keyframe)).toBe(true);
    expect(replica.current().games[0]?.props[0]?.line).toBe(3.5);
  });

  it('keeps the retention on the board clock it is given, with the board at its edge', () => {
    let now = T;
    const replica = new BoardReplica({ retentionMs: 60_000, now: () => now });
    const differ = new BoardDiffer();
    for (let i = 0; i < 5; i++) {
      now = T + i * 30_000;
      replica.apply(differ.next(board(i + 1, now, [game('pp_1', i + 0.5)]), HEALTH));
    }
    // At T + 120 s the horizon is T + 60 s: the board of T + 60 s stands there, older ones are gone.
    expect(replica.at(T + 60_000).version).toBe(3);
    expect(replica.at(T + 59_999).version).toBe(0);
  });

  it('rebuilds from a whole log, skipping deltas until a keyframe, keeping older boards it saw', () => {
    const replica = new BoardReplica({ now: () => T + 20_000 });
    const differ = new BoardDiffer();
    replica.apply(differ.next(board(1, T, [game('pp_1', 1.5)]), HEALTH));
    const log: BoardChange[] = [
      { version: 3, base: 2, fetchedAt: T + 10_000, order: ['pp_1'], games: [], health: HEALTH },
      { version: 4, fetchedAt: T + 15_000, order: ['pp_2'], games: [game('pp_2', 4.5)], health: HEALTH },
      {
        version: 5,
        base: 4,
        fetchedAt: T + 20_000,
        order: ['pp_2', 'pp_1'],
        games: [game('pp_1', 5.5)],
        health: HEALTH,
      },
    ];
    let told = 0;
    replica.subscribe(() => told++);
    replica.rebuild(log);
    expect(told).toBe(1);
    expect(replica.current().version).toBe(5);
    expect(replica.current().games.map((g) => g.id)).toEqual(['pp_2', 'pp_1']);
    expect(replica.at(T + 12_000).version).toBe(1);
  });

  it('is ready once it has a board, unless its source says otherwise', () => {
    const replica = new BoardReplica();
    expect(replica.ready()).toBe(false);
    replica.apply(new BoardDiffer().next(board(7, Date.now(), [game('pp_1', 1.5)]), HEALTH));
    expect(replica.ready()).toBe(true);
    replica.setStatus({ ready: false, health: [] });
    expect(replica.ready()).toBe(false);
    expect(replica.health()).toEqual([]);
  });
});
