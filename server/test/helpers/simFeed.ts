/** The seeded simulator as the feed polls it, for tests that step the simulated day by hand. */

import { renderPrizePicks, renderUnderdog, SIM_SPORTS, type SimWorld } from '@propsfeed/sim';
import { ADAPTERS } from '../../src/books';
import type { FeedCore } from '../../src/feed/core';

/** One poll cycle of both books at `at`: every sport's PrizePicks part and Underdog's, parsed and committed. */
export async function pollSim(core: FeedCore, world: SimWorld, at: number): Promise<void> {
  for (const sport of SIM_SPORTS) {
    core.applyPart('prizepicks', sport.id, ADAPTERS.prizepicks.parse(renderPrizePicks(world, sport.id, at)), at);
  }
  core.applyPart('underdog', 'all', ADAPTERS.underdog.parse(renderUnderdog(world, at)), at);
  await core.commit(['prizepicks', 'underdog'], at);
}
