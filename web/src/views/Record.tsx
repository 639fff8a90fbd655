/**
 * The track record: a reliability diagram (predicted against observed per bin, ours beside
 * the market's, with counts), Brier and ECE beside the coin's and the market's, and the hit
 * rate by minimum edge per entry type with its 95 % interval.
 */
import { useSignal } from '@preact/signals';
import type { CalibrationBin, SportId, TrackRecordResponse } from '@propsfeed/sdk';
import { useEffect, useMemo } from 'preact/hooks';
import { Chart, type ChartSpec, COLORS } from '../chart';
import { BOOK_NAMES, count, pct, points } from '../format';
import { errorText, type Session } from '../session';

const mid = (b: CalibrationBin) => (b.from + b.to) / 2;

/** The over rate of the settled props behind some bins: what a constant forecast is scored against. */
export function baseRate(bins: readonly CalibrationBin[]): number | null {
  const n = bins.reduce((s, b) => s + b.count, 0);
  if (n === 0) return null;
  return bins.reduce((s, b) => s + b.count * (b.observed ?? 0), 0) / n;
}

/** A coin (always 50 %) scores Brier 0.25, and its calibration error is how far the over rate sits from a half. */
export function coinScores(bins: readonly CalibrationBin[]): { brier: number; ece: number | null } {
  const rate = baseRate(bins);
  return { brier: 0.25, ece: rate === null ? null : Math.abs(0.5 - rate) };
}

function diagramSpec(record: TrackRecordResponse): ChartSpec {
  const xs = record.calibration.map(mid);
  return () => ({
    options: {
      scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
      axes: [{ label: 'predicted chance of the over' }, { label: 'observed over rate' }],
      series: [
        { label: 'Predicted' },
        { label: 'Perfect calibration', stroke: COLORS[4], dash: [4, 4], points: { show: false } },
        { label: 'propsfeed', stroke: COLORS[0], width: 2, points: { show: true, size: 8 } },
        { label: 'Market (de-vigged)', stroke: COLORS[1], width: 2, dash: [8, 3], points: { show: true, size: 8 } },
      ],
    },
    data: [
      xs,
      xs,
      record.calibration.map((b) => b.observed),
      record.market.calibration.map((b) => b.observed),
    ] as unknown as import('uplot').AlignedData,
  });
}

export function RecordView({ session, sport }: { session: Session; sport: SportId }) {
  const record = useSignal<{ data: TrackRecordResponse } | { error: string } | null>(null);
  useEffect(() => {
    session.client
      .trackRecord({ sport })
      .then((data) => (record.value = { data }))
      .catch((err) => (record.value = { error: errorText(err) }));
  }, [sport]);
  const r = record.value;
  const spec = useMemo(() => (r && 'data' in r ? diagramSpec(r.data) : null), [r]);
  return (
    <section aria-labelledby="record-title">
      <h1 id="record-title">Track record ({sport.toUpperCase()})</h1>
      {r === null && <p>Loading the track record…</p>}
      {r && 'error' in r && <p class="note">{r.error}</p>}
      {r && 'data' in r && (
        <>
          <p>{r.data.note}</p>
          <h2>Reliability</h2>
          <Chart
            id="reliability"
            spec={spec}
            label="Reliability diagram: predicted chance of the over against the observed over rate, per tenth, for propsfeed and the market"
            summary={<BinsTable record={r.data} />}
            height={320}
          />
          <h2>Scores</h2>
          <ScoresTable record={r.data} />
          <h2>Hit rate by minimum edge</h2>
          <EdgesTable record={r.data} />
        </>
      )}
    </section>
  );
}

function BinsTable({ record }: { record: TrackRecordResponse }) {
  return (
    <table class="numbers">
      <caption>The diagram's points: each tenth of predicted chance, how many settled, how often it went over</caption>
      <thead>
        <tr>
          <th scope="col">Predicted</th>
          <th scope="col">propsfeed: count</th>
          <th scope="col">propsfeed: predicted → observed</th>
          <th scope="col">Market: count</th>
          <th scope="col">Market: predicted → observed</th>
        </tr>
      </thead>
      <tbody>
        {record.calibration.map((b, i) => {
          const m = record.market.calibration[i];
          return (
            <tr key={b.from}>
              <th scope="row">
                {pct(b.from, 0)}–{pct(b.to, 0)}
              </th>
              <td>{b.count.toLocaleString('en-US')}</td>
              <td>{b.count ? `${pct(b.predicted)} → ${pct(b.observed)}` : '—'}</td>
              <td>{m ? m.count.toLocaleString('en-US') : '—'}</td>
              <td>{m?.count ? `${pct(m.predicted)} → ${pct(m.observed)}` : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const score = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(4));

function ScoresTable({ record }: { record: TrackRecordResponse }) {
  const coin = coinScores(record.calibration);
  const rows: [string, string, number | null, number | null][] = [
    ['propsfeed, every settled estimate', count(record.count, 'estimate'), record.brier, record.ece],
    [
      'propsfeed, on the props the market priced',
      count(record.market.count, 'estimate'),
      record.market.ours.brier,
      record.market.ours.ece,
    ],
    [
      'Market (de-vigged), the same props',
      count(record.market.count, 'estimate'),
      record.market.brier,
      record.market.ece,
    ],
    ['A coin (always 50 %)', count(record.count, 'estimate'), coin.brier, coin.ece],
  ];
  return (
    <table class="numbers">
      <caption>Lower is better for both: Brier is the mean squared error, ECE the calibration error</caption>
      <thead>
        <tr>
          <th scope="col">Forecaster</th>
          <th scope="col">Settled</th>
          <th scope="col">Brier</th>
          <th scope="col">ECE</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([who, n, brier, ece]) => (
          <tr key={who}>
            <th scope="row">{who}</th>
            <td>{n}</td>
            <td>{score(brier)}</td>
            <td>{score(ece)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EdgesTable({ record }: { record: TrackRecordResponse }) {
  if (record.edges.length === 0) return <p>No settled picks yet.</p>;
  return (
    <table class="numbers">
      <caption>Picks of the better side whose published edge was at least the minimum, per entry type</caption>
      <thead>
        <tr>
          <th scope="col">Entry type</th>
          <th scope="col">Minimum edge</th>
          <th scope="col">Picks</th>
          <th scope="col">Hit rate</th>
          <th scope="col">95 % interval</th>
          <th scope="col">Breakeven</th>
        </tr>
      </thead>
      <tbody>
        {record.edges.map((e) => (
          <tr key={`${e.entry}-${e.minEdge}`}>
            <th scope="row">
              {e.name} ({BOOK_NAMES[e.book]})
            </th>
            <td>{points(e.minEdge)}</td>
            <td>{e.picks.toLocaleString('en-US')}</td>
            <td>{pct(e.hitRate)}</td>
            <td>{e.hitRateInterval ? `${pct(e.hitRateInterval.low)} – ${pct(e.hitRateInterval.high)}` : '—'}</td>
            <td>{pct(e.breakeven)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
