/**
 * One prop: each book's line since it opened as a step chart (its over price on a second
 * axis, the opening marked, the live value on the same time axis once the game is on), the
 * player's last games against the line as bars, and the chance's workings in words.
 */
import { useComputed, useSignal, useSignalEffect } from '@preact/signals';
import { PROBABILITY_METHODS } from '@propsfeed/contract';
import type { Book, PlayerContextResponse, PropHistoryResponse, ScanRow, SportId } from '@propsfeed/sdk';
import { useEffect, useMemo } from 'preact/hooks';
import { boardFor, rowKey } from '../board';
import { Chart, type ChartSpec, COLORS } from '../chart';
import { BOOK_NAMES, clockTime, num, pct, points, prices, stateText, statName } from '../format';
import { errorText, type Session } from '../session';
import { MoveText } from './Board';
import { DelayBanner, StreamControls } from './common';

interface LivePoint {
  at: number;
  value: number;
}

interface Props {
  session: Session;
  sport: SportId;
  eventId: string;
  stat: string;
  player: string;
}

type Loaded<T> = { data: T } | { error: string } | null;

/** Seconds since the epoch for uPlot's time axis. */
const sec = (at: string | number) => (typeof at === 'number' ? at : Date.parse(at)) / 1000;

/**
 * The line chart's columns: one time axis over every book's changes and the live values;
 * per book its line and its over price carried forward (a step holds until the next change),
 * the opening as a marked point, and the live value.
 */
export function lineChartData(history: PropHistoryResponse, live: readonly LivePoint[]) {
  const times = new Set<number>();
  for (const book of history.books) for (const p of [book.opening, ...book.changes]) times.add(sec(p.at));
  for (const p of live) times.add(sec(p.at));
  const xs = [...times].sort((a, b) => a - b);
  const columns: (number | null)[][] = [];
  const names: { label: string; kind: 'line' | 'price' | 'open' | 'live'; book?: Book }[] = [];
  for (const book of history.books) {
    const points = [book.opening, ...book.changes].map((p) => ({ t: sec(p.at), line: p.line, over: p.overOdds }));
    const lineCol: (number | null)[] = [];
    const priceCol: (number | null)[] = [];
    let i = -1;
    for (const x of xs) {
      while (i + 1 < points.length && (points[i + 1]?.t ?? Number.POSITIVE_INFINITY) <= x) i++;
      const p = points[i];
      lineCol.push(p ? p.line : null);
      priceCol.push(p?.over ?? null);
    }
    columns.push(lineCol);
    names.push({ label: `${BOOK_NAMES[book.source]} line`, kind: 'line', book: book.source });
    columns.push(priceCol);
    names.push({ label: `${BOOK_NAMES[book.source]} over price`, kind: 'price', book: book.source });
  }
  const openAt = new Map(history.books.map((b) => [sec(b.opening.at), b.opening.line]));
  columns.push(xs.map((x) => openAt.get(x) ?? null));
  names.push({ label: 'Opening', kind: 'open' });
  if (live.length > 0) {
    const liveAt = new Map(live.map((p) => [sec(p.at), p.value]));
    columns.push(xs.map((x) => liveAt.get(x) ?? null));
    names.push({ label: 'Live value', kind: 'live' });
  }
  return { xs, columns, names };
}

function lineSpec(history: PropHistoryResponse, live: readonly LivePoint[]): ChartSpec {
  const { xs, columns, names } = lineChartData(history, live);
  return (uPlot) => {
    const stepped = uPlot.paths.stepped?.({ align: 1 });
    return {
      options: {
        scales: { x: { time: true }, price: { auto: true } },
        axes: [
          { label: 'time (UTC)' },
          { label: 'line', scale: 'y' },
          { label: 'over price (American)', scale: 'price', side: 1, grid: { show: false } },
        ],
        series: [
          { label: 'Time' },
          ...names.map((n) => {
            const color =
              n.book === 'underdog' ? COLORS[1] : n.book ? COLORS[0] : n.kind === 'live' ? COLORS[2] : COLORS[4];
            if (n.kind === 'open') {
              return {
                label: n.label,
                stroke: color,
                paths: () => null,
                points: { show: true, size: 10, fill: color },
              };
            }
            if (n.kind === 'live') return { label: n.label, stroke: color, width: 2, points: { show: true } };
            return {
              label: n.label,
              stroke: color,
              width: n.kind === 'line' ? 2 : 1,
              dash: n.kind === 'price' ? [6, 4] : n.book === 'underdog' ? [2, 2] : undefined,
              scale: n.kind === 'price' ? 'price' : 'y',
              ...(stepped ? { paths: stepped } : {}),
            };
          }),
        ],
      },
      data: [xs, ...columns] as uPlot.AlignedData,
    };
  };
}

function barsSpec(context: PlayerContextResponse['stats'][number]): ChartSpec {
  const games = [...context.recentForm].reverse();
  const xs = games.map((_, i) => i + 1);
  return (uPlot) => ({
    options: {
      scales: { x: { time: false } },
      axes: [
        {
          label: 'game (oldest to newest)',
          values: (_u, ticks) => ticks.map((t) => games[t - 1]?.date.slice(5) ?? ''),
        },
        { label: statName(context.stat) },
      ],
      series: [
        { label: 'Game' },
        {
          label: statName(context.stat),
          stroke: COLORS[0],
          fill: '#2f6fdf55',
          paths: uPlot.paths.bars?.({ size: [0.6, 60] }),
          points: { show: false },
        },
        { label: `Line ${num(context.line)}`, stroke: COLORS[1], dash: [6, 4], points: { show: false } },
      ],
    },
    data: [xs, games.map((g) => g.value), games.map(() => context.line)] as uPlot.AlignedData,
  });
}

function historySummary(history: PropHistoryResponse, live: readonly LivePoint[]): string {
  const parts = history.books.map((b) => {
    const changes = b.changes.length;
    return `${BOOK_NAMES[b.source]} opened at ${num(b.opening.line)}${prices(b.opening.overOdds, b.opening.underOdds)} at ${clockTime(b.opening.at)}, now ${num(b.current.line)}${prices(b.current.overOdds, b.current.underOdds)} after ${changes} change${changes === 1 ? '' : 's'}.`;
  });
  const last = live.at(-1);
  if (last)
    parts.push(`Live value ${num(last.value)} at ${clockTime(last.at)} (${live.length} readings on this page).`);
  return parts.join(' ');
}

function formSummary(context: PlayerContextResponse['stats'][number]): string {
  const games = context.recentForm;
  if (games.length === 0) return 'No recorded games.';
  const over = games.filter((g) => g.hit === true).length;
  const list = games.map((g) => `${num(g.value)} ${g.home ? 'vs' : 'at'} ${g.opponent} (${g.date})`).join(', ');
  const against = context.line === null ? '' : `: ${over} of ${games.length} over the line ${num(context.line)}`;
  return `Last ${games.length} games, newest first${against}. ${list}.`;
}

export function PropView({ session, sport, eventId, stat, player }: Props) {
  const board = boardFor(session.client, sport);
  const key = rowKey({ eventId, player, stat });
  const history = useSignal<Loaded<PropHistoryResponse>>(null);
  const context = useSignal<Loaded<PlayerContextResponse>>(null);
  const live = useSignal<LivePoint[]>([]);
  const row = useComputed(() => {
    board.structure.value;
    return board.rows.get(key)?.row.value;
  });

  useEffect(() => {
    session.client
      .propHistory({ eventId, player, stat })
      .then((data) => (history.value = { data }))
      .catch((err) => (history.value = { error: errorText(err) }));
    session.client
      .playerContext({ name: player, sport, stat })
      .then((data) => (context.value = { data }))
      .catch((err) => (context.value = { error: errorText(err) }));
  }, [key]);

  // The stream's changes to this prop: a line change extends the chart, a live value adds a point.
  useSignalEffect(() => {
    const r = row.value;
    const h = history.peek();
    if (!r) return;
    const at = r.fetchedAt ?? Date.now();
    if (r.liveValue !== undefined && live.peek().at(-1)?.value !== r.liveValue) {
      live.value = [...live.peek(), { at, value: r.liveValue }];
    }
    if (h && 'data' in h) {
      let moved = false;
      const books = h.data.books.map((b) => {
        const now = r.books?.find((x) => x.source === b.source);
        if (!now) return b;
        const cur = b.current;
        if (cur.line === now.line && cur.overOdds === now.overOdds && cur.underOdds === now.underOdds) return b;
        moved = true;
        const point = {
          at: new Date(at).toISOString(),
          line: now.line,
          overOdds: now.overOdds,
          underOdds: now.underOdds,
        };
        return { ...b, current: point, changes: [...b.changes, point] };
      });
      if (moved) history.value = { data: { ...h.data, books } };
    }
  });

  const h = history.value;
  const lineChart = useMemo(() => (h && 'data' in h ? lineSpec(h.data, live.value) : null), [h, live.value]);
  const c = context.value;
  const statContext = c && 'data' in c ? c.data.stats.find((s) => s.stat === stat) : undefined;
  const bars = useMemo(() => (statContext ? barsSpec(statContext) : null), [statContext]);
  const r = row.value;
  const game = board.games.get(eventId)?.value;

  return (
    <section aria-labelledby="prop-title">
      <p>
        <a href={`#/board/${sport}`}>← Board</a>
      </p>
      <h1 id="prop-title">
        {player}: {statName(stat)}
      </h1>
      <DelayBanner session={session} delayed={board.delayed.value} />
      <StreamControls board={board} />
      {game && (
        <p>
          {game.awayTeam} at {game.homeTeam}, {stateText(game)}
          {game.score ? `, ${game.score.away} – ${game.score.home}` : ''}
        </p>
      )}
      {r ? <Quote row={r} open={board.rows.get(key)?.open ?? r.line} /> : <p>This prop is not on the board now.</p>}

      <h2>Line since open</h2>
      {h === null && <p>Loading the line's history…</p>}
      {h && 'error' in h && <p class="note">{h.error}</p>}
      {h && 'data' in h && (
        <Chart
          id="line-chart"
          spec={lineChart}
          label={`Each book's line for ${player} ${statName(stat)} since it opened, with the over price`}
          summary={historySummary(h.data, live.value)}
        />
      )}

      <h2>Last games against the line</h2>
      {c === null && <p>Loading the player's games…</p>}
      {c && 'error' in c && <p class="note">{c.error}</p>}
      {c && 'data' in c && !statContext && <p>No recorded games for this stat.</p>}
      {statContext && (
        <Chart
          id="form-chart"
          spec={bars}
          label={`${player}'s last games of ${statName(stat)} against the line`}
          summary={formSummary(statContext)}
          height={200}
        />
      )}

      <h2>How the chance is worked out</h2>
      <Workings row={r} />
    </section>
  );
}

function Quote({ row, open }: { row: ScanRow; open: number }) {
  return (
    <dl class="quote">
      {row.books?.map((b) => (
        <div key={b.source}>
          <dt>{BOOK_NAMES[b.source]}</dt>
          <dd>
            {num(b.line)}
            {prices(b.overOdds, b.underOdds)}
          </dd>
        </div>
      ))}
      <div>
        <dt>Move since open</dt>
        <dd>
          <MoveText move={row.line - open} />
        </dd>
      </div>
      {row.edge && (
        <div>
          <dt>Edge</dt>
          <dd>
            {points(row.edge.edge)}: {row.edge.side} {num(row.edge.line)} at {BOOK_NAMES[row.edge.source]},{' '}
            {pct(row.edge.probability)} against the {row.edge.entry} breakeven {pct(row.edge.breakeven)}
          </dd>
        </div>
      )}
      {row.propsfeedProjection && (
        <div>
          <dt>Projection</dt>
          <dd>{num(row.propsfeedProjection.value)}</dd>
        </div>
      )}
      {row.liveValue !== undefined && (
        <div>
          <dt>Live</dt>
          <dd>
            {num(row.liveValue)}
            {row.gameClock ? ` (${row.gameClock})` : ''}
          </dd>
        </div>
      )}
    </dl>
  );
}

function Workings({ row }: { row: ScanRow | undefined }) {
  if (!row) return <p>No current estimate: the prop is off the board.</p>;
  if (!row.probabilities || row.probabilities.length === 0) {
    return <p class="note">Fair chances and their workings come with the pro tier.</p>;
  }
  return (
    <ul class="workings">
      {row.probabilities.map((p) => (
        <li key={`${p.source}-${p.line}`}>
          <strong>
            {BOOK_NAMES[p.source]} {num(p.line)}:
          </strong>{' '}
          over {pct(p.pOver)}, under {pct(p.pUnder)}
          {p.pPush !== undefined ? `, push ${pct(p.pPush)}` : ''}. {p.method}
          <br />
          <span class="muted">
            Basis “{p.basis}”: {PROBABILITY_METHODS[p.basis]}
          </span>
        </li>
      ))}
      {row.propsfeedProjection && (
        <li>
          <strong>Projection {num(row.propsfeedProjection.value)}:</strong> {row.propsfeedProjection.method} (
          {row.propsfeedProjection.sampleN} games)
        </li>
      )}
    </ul>
  );
}
