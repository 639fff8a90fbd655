/**
 * The board as the stream tells it (a snapshot, then each change), for `--watch`: the games,
 * game and scan answers are drawn from it after each change instead of polling the API.
 */
import {
  GAME_STATE_ORDER,
  type GamesResponse,
  isShaped,
  type PlayerProp,
  type PropsResult,
  type ScanResponse,
  type ScanRow,
  type ScanShape,
  type SportId,
  type StreamGame,
  shapeScanRows,
} from '@propsfeed/contract';
import type { StreamMessage } from '@propsfeed/sdk';

const rowKey = (r: { eventId: string; player: string; stat: string }) => `${r.eventId}\u0000${r.player}\u0000${r.stat}`;

/** Live, then pre-game, then final; each by start time, then by id: the board's order of games. */
function compareGames(
  a: Pick<StreamGame, 'state' | 'startTime' | 'id'>,
  b: Pick<StreamGame, 'state' | 'startTime' | 'id'>,
) {
  return (
    GAME_STATE_ORDER[a.state] - GAME_STATE_ORDER[b.state] ||
    a.startTime.localeCompare(b.startTime) ||
    a.id.localeCompare(b.id)
  );
}

export class StreamBoard {
  private readonly gamesById = new Map<string, StreamGame>();
  private readonly rows = new Map<string, ScanRow>();
  delayed = false;
  /** Whether a snapshot has arrived: nothing is drawn before it. */
  ready = false;

  apply(event: StreamMessage): void {
    if (event.type === 'snapshot') {
      this.gamesById.clear();
      this.rows.clear();
      for (const g of event.games) this.gamesById.set(g.id, g);
      for (const r of event.rows) this.rows.set(rowKey(r), r);
      this.delayed = event.delayed;
      this.ready = true;
    } else if (event.type === 'game') this.gamesById.set(event.game.id, event.game);
    else if (event.type === 'prop') this.rows.set(rowKey(event.row), event.row);
    else if (event.type === 'prop.removed') this.rows.delete(rowKey(event));
  }

  private sortedRows(keep: (r: ScanRow) => boolean): ScanRow[] {
    const rows = [...this.rows.values()].filter(keep);
    const games = this.gamesById;
    return rows.sort((a, b) => {
      const ga = games.get(a.eventId);
      const gb = games.get(b.eventId);
      const byGame = ga && gb ? compareGames(ga, gb) : a.eventId.localeCompare(b.eventId);
      return byGame || a.player.localeCompare(b.player) || a.stat.localeCompare(b.stat);
    });
  }

  /** As the API's scan: the open games' rows (a finished game's are left out), shaped before the limit. */
  scan(sport: SportId, stat: string | undefined, limit: number | undefined, shape?: ScanShape): ScanResponse {
    const open = this.sortedRows(
      (r) => r.sport === sport && r.gameState !== 'final' && (stat === undefined || r.stat === stat),
    );
    const rows = isShaped(shape) ? shapeScanRows(open, shape) : open;
    const shown = limit === undefined ? rows : rows.slice(0, limit);
    return { sport, stat: stat ?? null, count: shown.length, total: rows.length, delayed: this.delayed, rows: shown };
  }

  games(sport: SportId): GamesResponse {
    const games = [...this.gamesById.values()].filter((g) => g.sport === sport).sort(compareGames);
    return { sport, count: games.length, games, delayed: this.delayed };
  }

  /** The props of one game (by its id or an alias); undefined while the stream has not shown it. */
  gameProps(eventId: string, stats: readonly string[] | undefined): PropsResult | undefined {
    const game = [...this.gamesById.values()].find((g) => g.id === eventId || g.aliases?.includes(eventId));
    if (!game) return undefined;
    const rows = this.sortedRows((r) => r.eventId === game.id && (stats === undefined || stats.includes(r.stat)));
    const props: PlayerProp[] = rows.map(
      ({
        eventId: _e,
        sport: _s,
        homeTeam: _h,
        awayTeam: _a,
        startTime: _t,
        source: _src,
        fetchedAt: _f,
        propsfeedProjection: _p,
        probabilities: _pr,
        edge: _edge,
        ...prop
      }) => prop,
    );
    const sources = [...new Set(rows.flatMap((r) => (r.books ?? []).map((b) => b.source)))].sort();
    const fetchedAt = rows.reduce((max, r) => Math.max(max, r.fetchedAt ?? 0), 0);
    return {
      eventId: game.id,
      sport: game.sport,
      homeTeam: game.homeTeam,
      awayTeam: game.awayTeam,
      startTime: game.startTime,
      props,
      sources: sources.length > 0 ? sources : [game.source],
      fetchedAt,
      delayed: this.delayed,
    };
  }
}
