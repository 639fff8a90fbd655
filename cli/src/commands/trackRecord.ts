/**
 * `props track-record`: the service's track record. On a terminal: the scores, ours beside the
 * market's on the props the market priced, the calibration table drawn as bars (the observed
 * over rate against the predicted one, per bin, the market's bin beside it) and the edge picks
 * at one threshold with their 95 % intervals. Piped: the calibration rows (the market's after
 * ours), or with --edges every edge row (the intervals' bounds last).
 */
import {
  type CalibrationBin,
  EDGE_THRESHOLDS,
  type EdgeRecord,
  type Interval,
  PROBABILITY_BASES,
  type ProbabilityBasis,
  type SportId,
  type TrackRecordResponse,
} from '@propsfeed/contract';
import { InvalidArgumentError, Option } from 'commander';
import type { CommandContext } from '../context';
import { parseDay, sportOption, statOption } from '../options';
import type { Colors } from '../output/color';
import { formatPercent } from '../output/format';
import { sportName } from '../output/rows';
import { cell } from '../output/table';
import { requestCommand } from '../requestCommand';

const METHODS = PROBABILITY_BASES.filter((b) => b !== 'none' && b !== 'live');
const BAR_WIDTH = 20;

export interface TrackRecordOptions {
  sport?: SportId;
  stat?: string;
  since?: string;
  method?: Exclude<ProbabilityBasis, 'none' | 'live'>;
  minEdge?: number;
  edges?: boolean;
}

/** A share in percent with its sign, the minus a hyphen as everywhere in the tables: "+8.1", "-3.6". */
const signed = (p: number) => `${p > 0 ? '+' : p < 0 ? '-' : ''}${Math.abs(p * 100).toFixed(1)}`;
/** A probability difference in percentage points: 0.02 → "2". */
const points = (p: number) => String(Math.round(p * 1000) / 10);
const bound = (i: Interval | null, side: 'low' | 'high') => (i === null ? '' : String(i[side]));
const fixed4 = (v: number | null) => (v === null ? '—' : v.toFixed(4));

function parseThreshold(value: string): number {
  const n = Number(value);
  if (!(EDGE_THRESHOLDS as readonly number[]).includes(n) || value.trim() === '')
    throw new InvalidArgumentError(`one of ${EDGE_THRESHOLDS.join(', ')}`);
  return n;
}

/**
 * The observed over rate as a bar of BAR_WIDTH cells, with the predicted chance marked ┃: a
 * well-calibrated bin ends its bar at the mark.
 */
export function calibrationBar(bin: CalibrationBin, c: Colors): string {
  if (bin.observed === null || bin.predicted === null) return c.dim('·'.repeat(BAR_WIDTH));
  const filled = Math.round(bin.observed * BAR_WIDTH);
  const mark = Math.min(BAR_WIDTH - 1, Math.round(bin.predicted * BAR_WIDTH));
  let bar = '';
  for (let i = 0; i < BAR_WIDTH; i++) {
    if (i === mark) bar += c.yellow('┃');
    else bar += i < filled ? '█' : c.dim('·');
  }
  return bar;
}

function calibrationTable(data: TrackRecordResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const share = (p: number | null) => (p === null ? cell(out.c.dim('—'), '') : cell(formatPercent(p), String(p)));
  const rows = data.calibration.map((b, i) => {
    const m = data.market.calibration[i];
    return [
      cell(`${Math.round(b.from * 100)}–${Math.round(b.to * 100)}%`, String(b.from)),
      cell(String(b.to), String(b.to)),
      cell(b.count.toLocaleString('en-US'), String(b.count)),
      share(b.predicted),
      share(b.observed),
      cell(calibrationBar(b, out.c), ''),
      cell((m?.count ?? 0).toLocaleString('en-US'), String(m?.count ?? 0)),
      share(m?.predicted ?? null),
      share(m?.observed ?? null),
    ];
  });
  return out.table(
    [
      { header: 'predicted' },
      { header: 'to', only: 'piped' },
      { header: 'n', align: 'right' },
      { header: 'mean', align: 'right' },
      { header: 'went over', align: 'right' },
      { header: 'observed █ vs predicted ┃', only: 'terminal' },
      { header: 'market n', align: 'right' },
      { header: 'market mean', align: 'right' },
      { header: 'market over', align: 'right' },
    ],
    rows,
    { drop: ['market n', 'n', 'market mean', 'market over'] },
  );
}

/** Ours on every settled estimate, ours and the market's on the props the market priced: one row each. */
function comparisonTable(data: TrackRecordResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const { market } = data;
  const row = (basis: string, n: number, s: { brier: number | null; logLoss: number | null; ece: number | null }) => [
    cell(basis),
    cell(n.toLocaleString('en-US'), String(n)),
    cell(fixed4(s.brier)),
    cell(fixed4(s.logLoss)),
    cell(s.ece === null ? '—' : (s.ece * 100).toFixed(1), s.ece === null ? '' : String(s.ece)),
  ];
  return out.table(
    [
      { header: 'basis' },
      { header: 'settled', align: 'right' },
      { header: 'brier', align: 'right' },
      { header: 'log loss', align: 'right' },
      { header: 'ece', align: 'right', unit: '% pts' },
    ],
    [
      row('ours, every estimate', data.count, data),
      row('ours, where the market priced', market.count, market.ours),
      row('market (de-vigged at lock)', market.count, market),
      row('coin flip', market.count, { brier: 0.25, logLoss: Math.LN2, ece: null }),
    ],
    { drop: ['log loss', 'settled'] },
  );
}

/**
 * The edge picks: on a terminal too narrow for every column, these go first to last; the entry,
 * the hit rate and the ROI always stay, and so does the minimum edge when rows differ by it.
 */
function edgesTable(edges: readonly EdgeRecord[], ctx: CommandContext): string {
  const { out } = ctx;
  const rows = edges.map((e) => {
    const roi = e.roi === null ? '' : `${signed(e.roi)}%`;
    return [
      cell(e.name),
      cell(e.entry),
      cell(formatPercent(e.breakeven), String(e.breakeven)),
      cell(points(e.minEdge), String(e.minEdge)),
      cell(e.picks.toLocaleString('en-US'), String(e.picks)),
      cell(e.hits.toLocaleString('en-US'), String(e.hits)),
      e.hitRate === null ? cell(out.c.dim('—'), '') : cell(formatPercent(e.hitRate), String(e.hitRate)),
      e.roi === null ? cell(out.c.dim('—'), '') : cell(e.roi > 0 ? out.c.green(roi) : roi, String(e.roi)),
      cell(String(e.pushes)),
      e.hitRateInterval === null
        ? cell(out.c.dim('—'), '')
        : cell(`${(e.hitRateInterval.low * 100).toFixed(1)}–${formatPercent(e.hitRateInterval.high)}`, ''),
      e.roiInterval === null
        ? cell(out.c.dim('—'), '')
        : cell(`${signed(e.roiInterval.low)}…${signed(e.roiInterval.high)}%`, ''),
      cell(bound(e.hitRateInterval, 'low')),
      cell(bound(e.hitRateInterval, 'high')),
      cell(bound(e.roiInterval, 'low')),
      cell(bound(e.roiInterval, 'high')),
    ];
  });
  const thresholds = new Set(edges.map((e) => e.minEdge)).size;
  return out.table(
    [
      { header: 'entry', min: 10, only: 'terminal' },
      { header: 'id', only: 'piped' },
      { header: 'needs', align: 'right' },
      { header: 'min edge', align: 'right', unit: '% pts' },
      { header: 'picks', align: 'right' },
      { header: 'hits', align: 'right' },
      { header: 'hit rate', align: 'right' },
      { header: 'roi', align: 'right' },
      { header: 'pushes', align: 'right' },
      { header: 'hit rate 95%', align: 'right', only: 'terminal' },
      { header: 'roi 95%', align: 'right', only: 'terminal' },
      { header: 'hit low', only: 'piped' },
      { header: 'hit high', only: 'piped' },
      { header: 'roi low', only: 'piped' },
      { header: 'roi high', only: 'piped' },
    ],
    rows,
    {
      drop: [...(thresholds > 1 ? [] : ['min edge']), 'pushes', 'hits', 'needs', 'hit rate 95%', 'picks'],
    },
  );
}

export function renderTrackRecord(data: TrackRecordResponse, ctx: CommandContext, opts: TrackRecordOptions): string {
  const { out } = ctx;
  const minEdge = opts.minEdge ?? 0.02;
  if (!out.terminal) return opts.edges ? edgesTable(data.edges, ctx) : calibrationTable(data, ctx);
  const scope = [
    sportName(data.sport),
    data.stat,
    data.since ? `since ${data.since}` : null,
    data.method ? `basis ${data.method}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const heading = out.heading(`Track record · ${scope}`);
  if (data.count === 0 && data.pushes === 0)
    return heading + out.note('No settled props with a published chance yet: props settle once their games are final.');
  const scores =
    out.prose(
      `${data.count.toLocaleString('en-US')} settled estimates (${data.pushes.toLocaleString('en-US')} pushes apart) · Brier ${fixed4(data.brier)} (a coin: 0.25) · log loss ${fixed4(data.logLoss)} (a coin: 0.693)`,
    ) + out.prose(`The model's coefficients: ${data.coefficients}`);
  const picks = opts.edges ? data.edges : data.edges.filter((e) => e.minEdge === minEdge);
  return (
    heading +
    scores +
    '\n' +
    out.heading('Ours against the market on the same props (lower is better)') +
    comparisonTable(data, ctx) +
    '\n' +
    out.heading('Calibration: chance of the over given no push, predicted vs observed') +
    calibrationTable(data, ctx) +
    '\n' +
    out.heading(
      opts.edges
        ? 'Picks by the edge they had at least (a single leg at the breakeven odds)'
        : `Picks whose edge was at least ${points(minEdge)} % pts (--min-edge ${minEdge}; a single leg at the breakeven odds)`,
    ) +
    edgesTable(picks, ctx) +
    out.note(data.note)
  );
}

export const { run: runTrackRecord, register } = requestCommand({
  name: 'track-record',
  description: "the service's track record: Brier score, log loss, calibration bars and edge picks",
  options: [
    sportOption('sport id (default: every sport your tier allows)'),
    statOption(),
    new Option('--since <day>', 'only games on or after this UTC day, YYYY-MM-DD').argParser(parseDay),
    new Option('-m, --method <basis>', 'only estimates of this basis').choices(METHODS),
    new Option('--min-edge <x>', `the edge picks shown (one of ${EDGE_THRESHOLDS.join(', ')}; default 0.02)`).argParser(
      parseThreshold,
    ),
    new Option('--edges', 'every edge row (piped: the edge rows instead of the calibration rows)'),
  ],
  // --min-edge and --edges choose what is shown; the API is asked for the rest.
  request: (ctx: CommandContext, { minEdge: _, edges: __, ...query }: TrackRecordOptions) =>
    ctx.client.trackRecord(query),
  render: renderTrackRecord,
  hint: (opts) => (opts.sport ? { sport: opts.sport } : {}),
});
