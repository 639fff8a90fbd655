/** The board's players as the player queries find them. */
import type { SportId } from '@propsfeed/contract';
import { assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { BoardGame, BoardProp } from '../board/types';
import { normalizeName } from '../books/names';
import { echo } from '../errors/answer';
import { ApiError } from '../errors/apiError';
import { ALL_SPORTS, allowsSport } from '../limits/policy';
import { candidateLabel, type SearchablePlayer, searchPlayers } from '../stats/playerSearch';
import type { BoardViews } from '../views';

/** A player on the board, with the props they have there, in board order. */
export interface BoardPlayer extends SearchablePlayer {
  props: { game: BoardGame; prop: BoardProp }[];
}

/** An ambiguous name: a 400 whose body lists the players it could mean. */
export class AmbiguousPlayerError extends ApiError {
  constructor(
    name: string,
    readonly candidates: string[],
  ) {
    super('invalid_request', `'${name}' matches more than one player: ${candidates.join('; ')}`);
  }

  override toBody() {
    return { ...super.toBody(), candidates: this.candidates };
  }
}

const boardPlayers = new WeakMap<BoardViews, Map<string, BoardPlayer>>();

/** The players of a view's board by sport and playerKey, built once per board and view. */
export function playersOnBoard(views: BoardViews): Map<string, BoardPlayer> {
  let players = boardPlayers.get(views);
  if (players) return players;
  players = new Map();
  for (const game of views.board.games) {
    for (const prop of game.props) {
      const id = `${game.sport}|${prop.playerKey}`;
      let player = players.get(id);
      if (!player) {
        player = { name: prop.player, playerKey: prop.playerKey, sport: game.sport, props: [] };
        if (prop.team) player.team = prop.team;
        players.set(id, player);
      }
      player.props.push({ game, prop });
    }
  }
  boardPlayers.set(views, players);
  return players;
}

/** The sports a request covers: the one named (if the tier allows it) or every sport of the tier. */
export function requestedSports(caller: Caller, sport: SportId | undefined): readonly SportId[] {
  if (sport === undefined) return ALL_SPORTS.filter((s) => allowsSport(caller.policy, s));
  assertSport(caller, sport);
  return [sport];
}

/**
 * The normalized name a player filter matches (books/names.ts); a 400 when nothing is left of
 * it (only punctuation, symbols or NUL), which would otherwise match no one, or everyone.
 */
export function playerFilterOf(name: string): string {
  const normal = normalizeName(name);
  if (normal === '') {
    throw new ApiError(
      'invalid_request',
      `the player name '${echo(name)}' has no letter or digit to match a player by`,
    );
  }
  return normal;
}

/** The one player a name means among `players`; undefined when none; a 400 when ambiguous or empty once normalized. */
export function findPlayer<P extends SearchablePlayer>(name: string, players: Iterable<P>): P | undefined {
  playerFilterOf(name);
  const match = searchPlayers(name, players);
  if (match.kind === 'ambiguous') throw new AmbiguousPlayerError(name, match.candidates.map(candidateLabel));
  return match.kind === 'found' ? match.player : undefined;
}
