/**
 * The board: a sport picker (locked sports name the tier that opens them), then one native
 * table of the sport's props, live games first. Each row is its own component reading its own
 * signal, so a stream change re-renders one row and touches only the cells whose text changed.
 */
import { type Signal, useComputed, useSignal } from '@preact/signals';
import type { Book, ScanRow, SportId, StreamGame } from '@propsfeed/sdk';
import { Component } from 'preact';
import { useEffect } from 'preact/hooks';
import { type BoardStore, boardFor, type RowModel, rowKey } from '../board';
import { BOOK_NAMES, BOOKS, clockTime, count, num, odds, pct, points, shortTeam, stateText, statName } from '../format';
import { propHref } from '../route';
import type { Session } from '../session';
import { DelayBanner, StreamControls } from './common';

export type SortKey = 'start' | 'edge' | 'move';

/** The table's columns, for their widths (a fixed layout: a changed cell never re-lays the table out). */
const COLUMNS = ['player', 'game', 'stat', 'book', 'book', 'move', 'edge', 'fair', 'projection', 'live'];

/** Rows in the first paint of a board, and added each frame after it. */
const FIRST_ROWS = 60;
const MORE_ROWS = 150;

const STATE_ORDER = { live: 0, pre: 1, final: 2 } as const;

export interface BoardFilters {
  stat: string;
  book: Book | '';
  /** In percentage points; NaN: none. */
  minEdge: number;
}

/** The rows shown, in order: filtered, then by game (live first, then start) or by edge or move, best first. */
export function orderRows(board: BoardStore, sort: SortKey, filters: BoardFilters): RowModel[] {
  const rows: RowModel[] = [];
  for (const model of board.rows.values()) {
    const row = model.row.peek();
    if (filters.stat && row.stat !== filters.stat) continue;
    if (filters.book && !row.books?.some((b) => b.source === filters.book)) continue;
    if (!Number.isNaN(filters.minEdge) && (row.edge?.edge ?? Number.NEGATIVE_INFINITY) * 100 < filters.minEdge)
      continue;
    rows.push(model);
  }
  const gameRank = (r: ScanRow) => {
    const game = board.games.get(r.eventId)?.peek();
    return [STATE_ORDER[game?.state ?? r.gameState ?? 'pre'], Date.parse(r.startTime)] as const;
  };
  const byGame = (a: RowModel, b: RowModel) => {
    const [ra, rb] = [a.row.peek(), b.row.peek()];
    const [sa, ta] = gameRank(ra);
    const [sb, tb] = gameRank(rb);
    return sa - sb || ta - tb || ra.eventId.localeCompare(rb.eventId) || ra.player.localeCompare(rb.player);
  };
  const value =
    sort === 'edge'
      ? (m: RowModel) => m.row.peek().edge?.edge ?? Number.NEGATIVE_INFINITY
      : (m: RowModel) => Math.abs(m.row.peek().line - m.open);
  rows.sort(sort === 'start' ? byGame : (a, b) => value(b) - value(a) || byGame(a, b));
  return rows;
}

export function BoardView({ session, sport }: { session: Session; sport: SportId }) {
  const board = boardFor(session.client, sport);
  const sort = useSignal<SortKey>('start');
  const stat = useSignal('');
  const book = useSignal<Book | ''>('');
  const minEdge = useSignal('');
  const hasEdges = session.me.tier !== 'free';

  useEffect(() => {
    if (!hasEdges) return;
    // The movement route knows each line's opening: the move column counts from it.
    session.client
      .movement({ sport, limit: 500 })
      .then((answer) => {
        board.setOpens(new Map(answer.movers.map((m) => [rowKey(m), m.openLine])));
      })
      .catch(() => {});
  }, [board]);

  // The first render with data, for the page test's measure (milliseconds after navigation).
  const loaded = board.loadedAt.value !== null;
  useEffect(() => {
    if (loaded && performance.getEntriesByName('board-rendered').length === 0) performance.mark('board-rendered');
  }, [loaded]);

  const rows = useComputed(() => {
    board.structure.value;
    return orderRows(board, sort.value, {
      stat: stat.value,
      book: book.value,
      minEdge: minEdge.value === '' ? Number.NaN : Number(minEdge.value),
    });
  });
  // A long board is drawn a slice at a time: the first rows show at once, the rest follow frame by frame.
  const shown = useSignal(FIRST_ROWS);
  const total = rows.value.length;
  useEffect(() => {
    if (shown.value >= total) return;
    const next = requestAnimationFrame(() => {
      shown.value += MORE_ROWS;
    });
    return () => cancelAnimationFrame(next);
  }, [shown.value, total]);

  const stats = useComputed(() => {
    board.structure.value;
    return [...new Set([...board.rows.values()].map((m) => m.row.peek().stat))].sort();
  });

  return (
    <section aria-labelledby="board-title">
      <h1 id="board-title">Board</h1>
      <SportPicker session={session} sport={sport} />
      <DelayBanner session={session} delayed={board.delayed.value} />
      <StreamControls board={board} />
      <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Stat{' '}
          <select value={stat.value} onChange={(e) => (stat.value = e.currentTarget.value)}>
            <option value="">every stat</option>
            {stats.value.map((s) => (
              <option value={s} key={s}>
                {statName(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Book{' '}
          <select value={book.value} onChange={(e) => (book.value = e.currentTarget.value as Book | '')}>
            <option value="">every book</option>
            {BOOKS.map((b) => (
              <option value={b} key={b}>
                {BOOK_NAMES[b]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Minimum edge (points){' '}
          <input
            type="number"
            step="0.5"
            inputMode="decimal"
            value={minEdge.value}
            disabled={!hasEdges}
            onInput={(e) => (minEdge.value = e.currentTarget.value)}
          />
        </label>
        {!hasEdges && <span class="note">Edges and fair chances come with the pro tier.</span>}
      </form>
      <p class="count">
        {board.loadedAt.value === null
          ? 'Loading the board…'
          : `${count(rows.value.length, 'prop')} in ${count(board.games.size, 'game')}`}
      </p>
      <BoardTable
        board={board}
        rows={rows.value.slice(0, shown.value)}
        sort={sort.value}
        onSort={(s) => (sort.value = s)}
      />
    </section>
  );
}

export function SportPicker({ session, sport }: { session: Session; sport: SportId }) {
  return (
    <nav aria-label="Sports" class="sports">
      <ul>
        {session.sports.map((s) =>
          s.enabled ? (
            <li key={s.id}>
              <a href={`#/board/${s.id}`} aria-current={s.id === sport ? 'page' : undefined}>
                {s.name}
              </a>
            </li>
          ) : (
            <li key={s.id} class="locked">
              <span aria-hidden="true">🔒</span> {s.name} <span class="tier">({s.requiredTier} tier)</span>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

function SortHeader({
  label,
  by,
  sort,
  onSort,
}: {
  label: string;
  by: SortKey;
  sort: SortKey;
  onSort: (s: SortKey) => void;
}) {
  const active = sort === by;
  // Start sorts soonest first (live first); edge and move sort largest first.
  const direction = by === 'start' ? 'ascending' : 'descending';
  return (
    <th scope="col" aria-sort={active ? direction : 'none'}>
      <button type="button" class="sort" onClick={() => onSort(by)}>
        {label}
        <span aria-hidden="true">{active ? (by === 'start' ? ' ↑' : ' ↓') : ' ↕'}</span>
      </button>
    </th>
  );
}

function BoardTable({
  board,
  rows,
  sort,
  onSort,
}: {
  board: BoardStore;
  rows: RowModel[];
  sort: SortKey;
  onSort: (s: SortKey) => void;
}) {
  // Grouped by game when sorted by start: a row heading per game, with its state, clock and score.
  const groups: { game: string; rows: RowModel[] }[] = [];
  if (sort === 'start') {
    for (const model of rows) {
      const id = model.row.peek().eventId;
      const last = groups.at(-1);
      if (last?.game === id) last.rows.push(model);
      else groups.push({ game: id, rows: [model] });
    }
  } else groups.push({ game: '', rows });
  return (
    <div class="board-scroll">
      <table class="board">
        <caption class="visually-hidden">
          Props of the board: each book's line and prices, the move since open, the best side's edge against the
          cheapest entry's breakeven, the fair chance and the projection
        </caption>
        <colgroup>
          {COLUMNS.map((c, i) => (
            <col key={`${c}-${i}`} class={`col-${c}`} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <SortHeader label="Game" by="start" sort={sort} onSort={onSort} />
            <th scope="col">Stat</th>
            {BOOKS.map((b) => (
              <th scope="col" key={b}>
                {BOOK_NAMES[b]}
              </th>
            ))}
            <SortHeader label="Move" by="move" sort={sort} onSort={onSort} />
            <SortHeader label="Edge" by="edge" sort={sort} onSort={onSort} />
            <th scope="col">Fair chance (over / under)</th>
            <th scope="col">Projection</th>
            <th scope="col">Live</th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.game || 'all'}>
            {group.game && <GameHeading game={board.games.get(group.game)} id={group.game} />}
            {group.rows.map((model) => (
              <Row key={model.key} model={model} board={board} />
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

function GameHeading({ game: gameSignal, id }: { game: Signal<StreamGame> | undefined; id: string }) {
  const game = gameSignal?.value;
  if (!game)
    return (
      <tr class="game">
        <th scope="rowgroup" colSpan={10}>
          {id}
        </th>
      </tr>
    );
  const score = game.score ? `, ${game.awayTeam} ${game.score.away} – ${game.score.home} ${game.homeTeam}` : '';
  return (
    <tr class={`game ${game.state}`}>
      <th scope="rowgroup" colSpan={10}>
        {game.awayTeam} at {game.homeTeam}{' '}
        <span class="state">
          ({stateText(game)}
          {score})
        </span>
      </th>
    </tr>
  );
}

function BookCell({ row, book, flash }: { row: ScanRow; book: Book; flash: string }) {
  const line = row.books?.find((b) => b.source === book);
  if (!line)
    return (
      <td class="book">
        <span class="muted">—</span>
        <span class="visually-hidden">not offered</span>
      </td>
    );
  return (
    <td class={`book${flash}`}>
      <span class="line">{num(line.line)}</span>
      {(line.overOdds !== undefined || line.underOdds !== undefined) && (
        <span class="prices">
          {' '}
          {odds(line.overOdds)} / {odds(line.underOdds)}
        </span>
      )}
    </td>
  );
}

export function MoveText({ move }: { move: number }) {
  if (Math.abs(move) < 1e-9) return <span class="muted">—</span>;
  return (
    <span class={move > 0 ? 'up' : 'down'}>
      <span aria-hidden="true">{move > 0 ? '▲' : '▼'}</span> {move > 0 ? 'up' : 'down'} {num(Math.abs(move))}
    </span>
  );
}

interface RowProps {
  model: RowModel;
  board: BoardStore;
}

/** A row re-renders when its own signals change, not when the table around it does. */
class Row extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.model !== this.props.model;
  }

  override render({ model, board }: RowProps) {
    return <RowCells model={model} board={board} />;
  }
}

function RowCells({ model, board }: RowProps) {
  const row = model.row.value;
  const { cells } = model.changed.value;
  const flash = (cell: string) => (cells.includes(cell) ? ' changed' : '');
  const game = board.games.get(row.eventId)?.peek();
  const fair = row.edge && row.probabilities?.find((p) => p.source === row.edge?.source && p.line === row.edge.line);
  return (
    <tr data-key={model.key}>
      <th scope="row">
        <a href={propHref({ sport: row.sport, eventId: row.eventId, stat: row.stat, player: row.player })}>
          {row.player}
        </a>
      </th>
      <td class="game-cell">
        {shortTeam(row.awayTeam)} @ {shortTeam(row.homeTeam)}
        <span class="muted"> {game?.state === 'live' ? 'live' : clockTime(row.startTime)}</span>
      </td>
      <td>{statName(row.stat)}</td>
      {BOOKS.map((b) => (
        <BookCell key={b} row={row} book={b} flash={flash(b)} />
      ))}
      <td class={`move${flash('move')}`}>
        <MoveText move={row.line - model.open} />
      </td>
      <td class={`edge${flash('edge')}`}>
        {row.edge ? (
          <>
            <span class={row.edge.edge >= 0 ? 'pos' : 'neg'}>{points(row.edge.edge)}</span>{' '}
            <span class="detail">
              {row.edge.side} {num(row.edge.line)} at {BOOK_NAMES[row.edge.source]}: {pct(row.edge.probability)} vs{' '}
              {pct(row.edge.breakeven)} breakeven
            </span>
          </>
        ) : (
          <span class="muted">—</span>
        )}
      </td>
      <td class={`fair${flash('fair')}`}>
        {fair ? `${pct(fair.pOver)} / ${pct(fair.pUnder)}` : <span class="muted">—</span>}
      </td>
      <td class={`projection${flash('projection')}`}>{num(row.propsfeedProjection?.value)}</td>
      <td class={`live${flash('live')}`}>
        {row.liveValue === undefined ? (
          <span class="muted">—</span>
        ) : (
          <>
            {num(row.liveValue)}
            {row.gameClock && <span class="muted"> {row.gameClock}</span>}
          </>
        )}
      </td>
    </tr>
  );
}
