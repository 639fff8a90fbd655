/**
 * What each book's parser gathers while it reads one payload, and the ParseResult it ends in:
 * the games that have lines, one line per game, player and stat (the first stands), and what
 * was left out.
 */
import type { Book, SportId } from '@propsfeed/contract';
import { countUnmapped, statKey } from './stats';
import { newSlateLine, type ParseResult, type SlateGame, type SlateLine } from './types';

export class SlateAccumulator {
  /** Items that failed to parse; the parser counts them as it meets them. */
  skipped = 0;
  private readonly games = new Map<string, SlateGame>();
  private readonly lines: SlateLine[] = [];
  private readonly seen = new Set<string>();
  private readonly unmapped: Record<string, number> = {};

  /** The stat key of a book's stat name, or undefined after counting the name as unmapped. */
  statKey(sport: SportId, bookStat: string): string | undefined {
    const stat = statKey(sport, bookStat);
    if (!stat) countUnmapped(this.unmapped, sport, bookStat);
    return stat;
  }

  /**
   * The new line, for the parser to fill in, with its game on the slate; undefined when the
   * payload already gave this player and stat in this game.
   */
  addLine(game: SlateGame, player: string, playerKey: string, stat: string, line: number): SlateLine | undefined {
    const dedupe = `${game.id}|${playerKey}|${stat}`;
    if (this.seen.has(dedupe)) return undefined;
    this.seen.add(dedupe);
    if (!this.games.has(game.id)) this.games.set(game.id, game);
    const out = newSlateLine({ gameId: game.id, player, playerKey, stat, line });
    this.lines.push(out);
    return out;
  }

  result(book: Book): ParseResult {
    return {
      slate: { book, games: [...this.games.values()], lines: this.lines },
      skipped: this.skipped,
      unmapped: this.unmapped,
    };
  }
}
