/**
 * Interning a book's parsed lines into quotes: a line that did not change keeps its previous
 * quote object (and its updatedAt), so unchanged boards share their quotes and only real
 * changes of price are reported to line history.
 */
import type { SlateGame, SlateLine } from '../books/types';
import type { LineChange } from '../history/lineHistory';
import type { QuotedLine } from './merge';

export const lineKey = (l: Pick<SlateLine, 'gameId' | 'playerKey' | 'stat'>) => `${l.gameId}|${l.playerKey}|${l.stat}`;

function samePrice(a: SlateLine, b: SlateLine): boolean {
  return a.line === b.line && a.overOdds === b.overOdds && a.underOdds === b.underOdds;
}

function sameLine(a: SlateLine, b: SlateLine): boolean {
  return (
    samePrice(a, b) &&
    a.liveValue === b.liveValue &&
    a.player === b.player &&
    a.team === b.team &&
    a.photoUrl === b.photoUrl &&
    a.playerId === b.playerId
  );
}

export function sameGame(a: SlateGame, b: SlateGame): boolean {
  return (
    a.sport === b.sport &&
    a.homeTeam === b.homeTeam &&
    a.awayTeam === b.awayTeam &&
    a.homeKnown === b.homeKnown &&
    a.startMs === b.startMs &&
    a.state === b.state &&
    a.clock === b.clock &&
    a.score?.home === b.score?.home &&
    a.score?.away === b.score?.away
  );
}

/** A quote of one shape whatever the book sent (see newSlateLine). */
function quoted(l: SlateLine, updatedAt: number, liveAt: number | undefined): QuotedLine {
  return {
    gameId: l.gameId,
    player: l.player,
    playerKey: l.playerKey,
    playerId: l.playerId,
    photoUrl: l.photoUrl,
    team: l.team,
    stat: l.stat,
    line: l.line,
    overOdds: l.overOdds,
    underOdds: l.underOdds,
    liveValue: l.liveValue,
    updatedAt,
    liveAt,
  };
}

/** The quote a stored point of line history stands for, posted since its time. */
export function quoteOfPoint(p: LineChange & { line: number }): QuotedLine {
  return {
    gameId: p.gameId,
    player: p.player,
    playerKey: p.playerKey,
    playerId: undefined,
    photoUrl: undefined,
    team: p.team,
    stat: p.stat,
    line: p.line,
    overOdds: p.overOdds,
    underOdds: p.underOdds,
    liveValue: undefined,
    updatedAt: p.at,
    liveAt: undefined,
  };
}

/**
 * The quotes of a part's new lines: an unchanged line keeps its previous quote object (and
 * updatedAt). Lines usually arrive in the same order as last time, so they are compared by
 * position first and looked up by key only once the order differs. Returns `prev` itself
 * when nothing changed (a reorder is no change); reports each new price and each pulled line.
 * `resumed` (stored points by line key) stands in for a previous quote the core never saw.
 */
export function internLines(
  prev: QuotedLine[],
  lines: readonly SlateLine[],
  at: number,
  report: (l: SlateLine, line: number | null) => void,
  resumed?: Map<string, LineChange>,
): QuotedLine[] {
  const out: QuotedLine[] = new Array(lines.length);
  let aligned = prev.length === lines.length;
  let changed = !aligned;
  let byKey: Map<string, QuotedLine> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as SlateLine;
    let before = aligned ? prev[i] : undefined;
    if (before && (before.gameId !== l.gameId || before.playerKey !== l.playerKey || before.stat !== l.stat)) {
      aligned = false;
      before = undefined;
    }
    if (!aligned) {
      byKey ??= new Map(prev.map((q) => [lineKey(q), q]));
      before = byKey.get(lineKey(l));
    }
    if (!before && resumed) {
      const stored = resumed.get(lineKey(l));
      if (stored && stored.line !== null) before = quoteOfPoint({ ...stored, line: stored.line });
    }
    if (before && sameLine(before, l)) {
      out[i] = before;
      continue;
    }
    changed = true;
    const moved = !before || !samePrice(before, l);
    const liveAt =
      l.liveValue === undefined ? undefined : before?.liveValue === l.liveValue ? (before.liveAt ?? at) : at;
    out[i] = quoted(l, moved || !before ? at : before.updatedAt, liveAt);
    if (moved) report(l, l.line);
  }
  if (!aligned) {
    const present = new Set(lines.map(lineKey));
    for (const q of prev) {
      if (present.has(lineKey(q))) continue;
      changed = true;
      report(q, null);
    }
  }
  return changed ? out : prev;
}
