/**
 * POST /slips/evaluate: a slip of 2–6 legs priced against each entry type of its book with
 * as many picks: the distribution of legs won (legs independent), the chance of a profit and
 * the expected return. Legs from one game are flagged, since their outcomes may move together.
 */
import { BOOKS, type Book, type SlipEvaluation, type SlipLeg } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import type { BoardGame, BoardProp } from '../board/types';
import { echo } from '../errors/answer';
import { ApiError } from '../errors/apiError';
import { hitDistribution, round4, utcDay } from '../odds/entries';
import { candidateLabel, searchPlayers } from '../stats/playerSearch';
import type { QueryDeps } from './deps';
import { entryBookOf } from './entries';
import { type BoardPlayer, playerFilterOf, playersOnBoard, requestedSports } from './players';
import { MATCH_THRESHOLD, teamScore } from './teamMatch';

const ASSUMPTION =
  'The legs are treated as independent, and each probability is an estimate from prices and game logs, not a promise. A pushed leg is left out (the books drop it from the entry); the chances here are given no push.';

function refuse(message: string): never {
  throw new ApiError('invalid_request', message);
}

/** A leg that could mean several props: a 400 whose body lists each as a leg to paste (`choices`). */
export class AmbiguousLegError extends ApiError {
  constructor(
    message: string,
    readonly choices: string[],
  ) {
    super('invalid_request', `${message}: ${choices.join('; ')}`);
  }

  override toBody() {
    return { ...super.toBody(), choices: this.choices };
  }
}

/** A leg as the CLI takes it, `player@tag:stat:side[@book]`, the tag telling the player (team or game) apart. */
function legText(player: string, tag: string, leg: SlipLeg): string {
  return `${player}@${tag}:${leg.stat}:${leg.side}${leg.book ? `@${leg.book}` : ''}`;
}

/** The players a leg's team and sport leave: a team is matched forgivingly (name, nickname, city, abbreviation). */
function playersOfLeg(players: readonly BoardPlayer[], leg: SlipLeg): BoardPlayer[] {
  return players.filter(
    (p) =>
      (leg.sport === undefined || p.sport === leg.sport) &&
      (leg.team === undefined || (p.team !== undefined && teamScore(leg.team, p.team, p.sport) >= MATCH_THRESHOLD)),
  );
}

/** The one player a leg names; a 400 listing the choices, as legs, when it names several. */
function playerOfLeg(
  players: readonly BoardPlayer[],
  leg: SlipLeg,
  where: string,
  hasProp: (player: BoardPlayer) => boolean,
): BoardPlayer {
  playerFilterOf(leg.player);
  const pool = playersOfLeg(players, leg);
  const match = searchPlayers(leg.player, pool);
  if (match.kind === 'found') return match.player;
  // Of players sharing a name, one may be the only one with this stat tonight: the leg means them.
  const playable = match.kind === 'ambiguous' ? match.candidates.filter(hasProp) : [];
  if (playable.length === 1) return playable[0] as BoardPlayer;
  if (match.kind === 'none') {
    const narrowed = [leg.team && `of team '${echo(leg.team)}'`, leg.sport && `in ${leg.sport}`].filter(Boolean);
    refuse(`${where}: no such player${narrowed.length ? ` ${narrowed.join(' ')}` : ''} on today's board`);
  }
  const teams = match.candidates.map((p) => p.team ?? p.sport);
  const choices = match.candidates.map((p, i) => {
    const team = teams[i] as string;
    // A team two candidates share does not tell them apart: their game does.
    const tag = teams.indexOf(team) === teams.lastIndexOf(team) ? team : (p.props[0]?.game.id ?? team);
    return legText(p.name, tag, leg);
  });
  throw new AmbiguousLegError(
    `${where}: '${echo(leg.player)}' matches more than one player (${match.candidates.map(candidateLabel).join('; ')}); write the leg as one of`,
    choices,
  );
}

interface Found {
  leg: SlipLeg;
  game: BoardGame;
  prop: BoardProp;
}

/**
 * One prop is one leg at most: the same leg twice is not two picks, and its over and under
 * cannot both win (a slip holding both has no chance, whatever independence would say). Legs of
 * the same game but other props stay allowed; they are flagged as correlated.
 */
function refuseRepeatedProps(found: readonly Found[]): void {
  const first = new Map<BoardProp, number>();
  found.forEach(({ leg, game, prop }, i) => {
    const j = first.get(prop);
    if (j === undefined) {
      first.set(prop, i);
      return;
    }
    const earlier = found[j] as Found;
    const what = `${prop.player} ${prop.stat} in ${game.id}`;
    if (earlier.leg.side === leg.side) {
      refuse(`leg ${i + 1} (${what} ${leg.side}) repeats leg ${j + 1}: a prop can be one leg of a slip only once`);
    }
    refuse(
      `leg ${i + 1} (${what} ${leg.side}) contradicts leg ${j + 1} (${earlier.leg.side}): the over and the under of one prop cannot both win`,
    );
  });
}

export function evaluateSlipQuery(deps: QueryDeps, caller: Caller, legs: readonly SlipLeg[]): SlipEvaluation {
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  const sports = requestedSports(caller, undefined);
  const players = [...playersOnBoard(views).values()].filter((p) => sports.includes(p.sport));
  const found: Found[] = legs.map((leg, i) => {
    const where = `leg ${i + 1} (${leg.player} ${leg.stat})`;
    const propsOf = (p: BoardPlayer) =>
      p.props.filter(
        ({ game, prop }) =>
          prop.stat === leg.stat &&
          views.showsProps(game) &&
          (leg.eventId === undefined || game.id === leg.eventId || game.aliases.includes(leg.eventId)),
      );
    const player = playerOfLeg(players, leg, where, (p) => propsOf(p).length > 0);
    const matches = propsOf(player);
    if (matches.length === 0)
      refuse(`${where}: ${player.name} has no ${leg.stat} prop${leg.eventId ? ` in ${leg.eventId}` : ''} you can play`);
    if (matches.length > 1)
      throw new AmbiguousLegError(
        `${where}: ${player.name} has ${leg.stat} props in ${matches.length} games; give the game (eventId), as in`,
        matches.map((m) => legText(player.name, m.game.id, leg)),
      );
    const match = matches[0] as { game: BoardGame; prop: BoardProp };
    return { leg, ...match };
  });

  refuseRepeatedProps(found);

  const named = [...new Set(legs.flatMap((l) => (l.book ? [l.book] : [])))];
  if (named.length > 1) refuse(`the legs name different books (${named.join(', ')}); an entry is played at one book`);
  const book: Book | undefined =
    named[0] ?? BOOKS.find((b) => found.every((f) => f.prop.books.some((q) => q.source === b)));
  if (!book) refuse('no one book posts every leg; name the book of each leg');

  const evaluated = found.map(({ leg, game, prop }, i) => {
    const where = `leg ${i + 1} (${prop.player} ${leg.stat})`;
    const fair = views.scanRow(game, prop).probabilities?.find((p) => p.source === book);
    if (!fair) refuse(`${where}: ${book} does not post this prop`);
    if (fair.pOver === null || fair.pUnder === null) refuse(`${where}: ${fair.method}`);
    const probability = (leg.side === 'over' ? fair.pOver : fair.pUnder) / (fair.pOver + fair.pUnder);
    const correlatedWith = found.flatMap((other, j) => (j !== i && other.game.id === game.id ? [j] : []));
    return {
      eventId: game.id,
      player: prop.player,
      stat: prop.stat,
      side: leg.side,
      line: fair.line,
      probability: round4(probability),
      method: fair.method,
      correlatedWith,
    };
  });

  const dist = hitDistribution(evaluated.map((l) => l.probability));
  const entries = entryBookOf(deps)
    .inEffect(utcDay(deps.now()))
    .filter((t) => t.book === book && t.picks === legs.length)
    .map((t) => {
      const pays = (k: number) => t.payouts.find((p) => p.hits === k)?.multiplier ?? 0;
      let expectedReturn = 0;
      let winProbability = 0;
      dist.forEach((q, k) => {
        expectedReturn += q * pays(k);
        if (pays(k) > 1) winProbability += q;
      });
      return {
        entry: t.id,
        name: t.name,
        kind: t.kind,
        breakeven: round4(t.breakeven),
        winProbability: round4(winProbability),
        expectedReturn: round4(expectedReturn),
        hits: dist.map((q, k) => ({ hits: k, probability: round4(q), multiplier: pays(k) })).reverse(),
      };
    });
  const correlated = evaluated.some((l) => l.correlatedWith.length > 0);
  const assumption = correlated
    ? `${ASSUMPTION} Some legs share a game, so their outcomes may move together and these numbers may be off.`
    : ASSUMPTION;
  return { book, legs: evaluated, entries, correlated, assumption };
}
