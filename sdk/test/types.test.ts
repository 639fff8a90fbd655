/** Type-level checks: what each method returns is exactly the contract's type for that route. */
import type {
  CreatedKey,
  GamesResponse,
  KeyInfo,
  MovementResponse,
  PlayerContextResponse,
  PlayerPropsResponse,
  PropHistoryResponse,
  PropsApi,
  PropsResult,
  ScanResponse,
  SportsResponse,
} from '@propsfeed/contract';
import { describe, expectTypeOf, it } from 'vitest';
import { type Game, type GameState, PropsFeed, type ScanParams, type StateFilter, type StreamGame } from '../src/index';

describe('PropsFeed types', () => {
  it('returns the contract types', () => {
    const client = new PropsFeed({ apiKey: 'pf_x' });
    expectTypeOf(client.sports).returns.resolves.toEqualTypeOf<SportsResponse>();
    expectTypeOf(client.games).returns.resolves.toEqualTypeOf<GamesResponse>();
    expectTypeOf(client.gameProps).returns.resolves.toEqualTypeOf<PropsResult>();
    expectTypeOf(client.scan).returns.resolves.toEqualTypeOf<ScanResponse>();
    expectTypeOf(client.me).returns.resolves.toEqualTypeOf<KeyInfo>();
    expectTypeOf(client.playerProps).returns.resolves.toEqualTypeOf<PlayerPropsResponse>();
    expectTypeOf(client.playerContext).returns.resolves.toEqualTypeOf<PlayerContextResponse>();
    expectTypeOf(client.propHistory).returns.resolves.toEqualTypeOf<PropHistoryResponse>();
    expectTypeOf(client.movers).returns.resolves.toEqualTypeOf<MovementResponse>();
    expectTypeOf(client.createKey).returns.resolves.toEqualTypeOf<CreatedKey>();
    expectTypeOf(client).toExtend<PropsApi>();
  });

  it('gives every game its state, as the stream does', () => {
    expectTypeOf<Game['state']>().toEqualTypeOf<'pre' | 'live' | 'final'>();
    expectTypeOf<GameState>().toEqualTypeOf<Game['state']>();
    expectTypeOf<StreamGame>().toEqualTypeOf<Game>();
    expectTypeOf<ScanParams['state']>().toEqualTypeOf<StateFilter | undefined>();
  });

  it('checks parameters', () => {
    const client = new PropsFeed();
    expectTypeOf(client.games)
      .parameter(0)
      .toEqualTypeOf<{ sport?: GamesResponse['sport']; state?: 'pre' | 'live' | 'final' | 'all' } | undefined>();
    // Type-checked only, never called: no request is made.
    const misuse = () => {
      // @ts-expect-error: not a sport id
      void client.scan({ sport: 'cricket' });
      // @ts-expect-error: playerProps needs a name
      void client.playerProps({});
    };
    expectTypeOf(misuse).toBeFunction();
  });
});
