/** Tier checks the queries share; each refusal names the lowest tier that would allow it. */
import type { SportId, StateFilter } from '@propsfeed/contract';
import type { BoardGame } from '../board/types';
import { ApiError } from '../errors/apiError';
import { allowsRouteTier, allowsSport, lowestLiveTier, lowestTierForSport } from '../limits/policy';
import type { Caller } from './caller';

export function assertSport(caller: Caller, sport: SportId): void {
  if (!allowsSport(caller.policy, sport)) {
    const requiredTier = lowestTierForSport(sport);
    throw new ApiError('sport_not_in_tier', `${sport} is not included in the ${caller.tier} tier`, { requiredTier });
  }
}

export function assertRoute(caller: Caller, routeTier: 'free' | 'pro', what: string): void {
  if (!allowsRouteTier(caller.policy, routeTier)) {
    throw new ApiError('route_not_in_tier', `${what} is not included in the ${caller.tier} tier`, {
      requiredTier: routeTier,
    });
  }
}

export function assertLiveAllowed(caller: Caller, game: BoardGame): void {
  if (game.live && !caller.policy.liveLines) {
    throw new ApiError(
      'live_not_in_tier',
      `${game.id} is live; live in-game lines are not included in the ${caller.tier} tier`,
      {
        requiredTier: lowestLiveTier(),
      },
    );
  }
}

/** `state=live` asks for live lines by name: a tier without them is told so, not given nothing. */
export function assertStateAllowed(caller: Caller, state: StateFilter | undefined): void {
  if (state === 'live' && !caller.policy.liveLines) {
    throw new ApiError('live_not_in_tier', `live in-game lines are not included in the ${caller.tier} tier`, {
      requiredTier: lowestLiveTier(),
    });
  }
}
