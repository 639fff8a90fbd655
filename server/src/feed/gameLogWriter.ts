/**
 * Writes the final stat lines of each game that goes final on a board to the game logs,
 * once per game (source 'recorded'). A failed write is logged, never thrown.
 */

import type { Board } from '../board/types';
import type { GameLog, GameLogStore } from '../history/types';
import { gameDay } from '../odds/playerInput';
import type { FeedLogger } from './logger';

export class GameLogWriter {
  private readonly loggedFinals = new Set<string>();

  constructor(
    private readonly store: GameLogStore,
    private readonly logger: FeedLogger,
  ) {}

  async recordFinals(board: Board): Promise<void> {
    const logs: GameLog[] = [];
    for (const g of board.games) {
      if (g.state !== 'final' || this.loggedFinals.has(g.id)) continue;
      this.loggedFinals.add(g.id);
      const date = gameDay(g);
      for (const p of g.props) {
        if (p.liveValue === undefined || !p.team) continue;
        const home = p.team === g.homeTeam;
        logs.push({
          sport: g.sport,
          player: p.player,
          playerKey: p.playerKey,
          team: p.team,
          opponent: home ? g.awayTeam : g.homeTeam,
          home,
          date,
          stat: p.stat,
          value: p.liveValue,
          source: 'recorded',
        });
      }
    }
    if (logs.length === 0) return;
    try {
      await this.store.append(logs);
    } catch (err) {
      this.logger.error({ err: String(err), logs: logs.length }, 'game log write failed');
    }
  }
}
