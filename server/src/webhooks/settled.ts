/**
 * `prop.settled`: once a game goes final, its props settle as GET /props/results shows them
 * (the lines locked at the start against the player's recorded final values, read from the
 * store). The game is watched (in the store, so a restart keeps watching) until its results
 * are there, then each settled prop is one event, its id derived from the game, player and stat.
 */
import type { SettledProp, SportId } from '@propsfeed/contract';
import type { SettlementReader } from '../history/settlement';
import { settledProps } from '../queries/results';
import { type Audience, seesProp } from './audience';
import { messageId } from './events';
import type { EventRecord, SettlementWatch } from './store';

/** A final game with no settled props after this long has none to settle (no locks, no logs). */
export const SETTLE_GIVE_UP_MS = 30 * 60_000;

export function settledEvent(prop: SettledProp, atMs: number): EventRecord {
  const body = JSON.stringify({ type: 'prop.settled', timestamp: new Date(atMs).toISOString(), data: prop });
  return {
    id: messageId('prop.settled', prop.eventId, prop.player, prop.stat),
    type: 'prop.settled',
    body,
    createdAt: 0,
  };
}

/** Whether the audience receives this settled prop: its sport, game, stat, player and book filters. */
function receives(a: Audience, prop: SettledProp): boolean {
  if (!a.events.has('prop.settled')) return false;
  const game = {
    id: prop.eventId,
    aliases: [],
    sport: prop.sport,
    sources: prop.books.map((b) => b.source),
    live: false,
  };
  return seesProp(a, game, prop);
}

/**
 * The settled-prop events of a watched game for the audiences: `undefined` while its results
 * are not in the store yet (keep watching), else every event with its audiences.
 */
export async function settledEvents(
  watch: SettlementWatch,
  settlements: SettlementReader,
  audiences: readonly Audience[],
): Promise<{ audience: Audience; event: EventRecord }[] | undefined> {
  const locks = await settlements.settled({ date: watch.date, sports: [watch.sport as SportId] });
  const mine = locks.filter((l) => l.gameId === watch.gameId);
  if (mine.length === 0) return undefined;
  const out: { audience: Audience; event: EventRecord }[] = [];
  for (const prop of settledProps(mine)) {
    const event = settledEvent(prop, watch.finalAt);
    for (const audience of audiences) if (receives(audience, prop)) out.push({ audience, event });
  }
  return out;
}
