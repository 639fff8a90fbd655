import { DaySchema, TrackRecordQuerySchema, TrackRecordResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { percent, table } from '../render';
import { sportField, statField } from './context';
import { defineTool } from './tool';

export const getTrackRecordTool = defineTool({
  name: 'get_track_record',
  title: "propsfeed's track record",
  description:
    "How well propsfeed's own published chances have done (every tier). Each settled prop line that had a chance " +
    'published when its game started is one forecast of the over (given no push), scored against the recorded result. ' +
    'count: forecasts scored (pushes apart); brier: mean squared error, 0 perfect and 0.25 what a coin flip scores; ' +
    'logLoss: 0.693 for a coin, lower is better; calibration: per bin of predicted chance, how often the over actually ' +
    'hit (well calibrated when observed ≈ predicted, and only meaningful with a large count); edges: picks of the better ' +
    'side whose edge was at least minEdge against an entry type, with hits, hit rate and ROI per unit at the breakeven ' +
    'odds, with hitRateInterval (95 % Wilson) and roiInterval (that interval carried to ROI): an edge is supported only ' +
    "when the low end clears the breakeven. market: the market on the same settled props, i.e. the priced book's two " +
    "sides at the lock's line, de-vigged as they stood at the start, with its brier, logLoss, ece and calibration, and " +
    "market.ours: propsfeed's scores on exactly those props. Lower Brier is better and a coin flip scores 0.25: " +
    "propsfeed's chances add something only where market.ours.brier is below market.brier. ece: calibration error " +
    '(0 perfect). These are past results over the sample shown: they do not promise future ones, a small sample says ' +
    'little, and a single leg is not an entry. Say so when you pass them on.',
  input: z.object({
    sport: sportField.optional().describe(`${sportField.description}; every sport the key allows when absent`),
    stat: statField.optional().describe('Only this stat key; every stat when absent'),
    since: DaySchema.optional().describe('Only games on or after this UTC day, YYYY-MM-DD'),
    method: TrackRecordQuerySchema.shape.method.describe(
      'Only estimates of this basis: prices (a priced book de-vigged), prices_moved (moved to another line), distribution (game logs alone)',
    ),
  }),
  output: TrackRecordResponseSchema,
  call: (api, { sport, stat, since, method }) => api.trackRecord({ sport, stat, since, method }),
  render: (res) => {
    const scope = [res.sport ?? 'every sport', res.stat, res.since ? `since ${res.since}` : null, res.method]
      .filter(Boolean)
      .join(', ');
    if (res.count === 0) return `No settled forecasts yet (${scope}): props settle once their games are final.`;
    const head = `${res.count} settled forecasts (${scope}), ${res.pushes} pushes apart; Brier ${res.brier} (coin 0.25), log loss ${res.logLoss} (coin 0.693), ECE ${res.ece}; coefficients ${res.coefficients}. ${res.note}`;
    const m = res.market;
    const market = table(
      ['basis', 'settled', 'brier', 'log loss', 'ece'],
      [
        ['propsfeed, every forecast', res.count, res.brier, res.logLoss, res.ece],
        ['propsfeed, where the market priced', m.count, m.ours.brier, m.ours.logLoss, m.ours.ece],
        ['market (de-vigged at lock)', m.count, m.brier, m.logLoss, m.ece],
      ],
    );
    const calibration = table(
      ['predicted', 'n', 'mean predicted', 'went over'],
      res.calibration
        .filter((b) => b.count > 0)
        .map((b) => [`${percent(b.from)}–${percent(b.to)}`, b.count, percent(b.predicted), percent(b.observed)]),
    );
    const range = (i: { low: number; high: number } | null) =>
      i === null ? '' : `${percent(i.low)} to ${percent(i.high)}`;
    const picks = table(
      ['entry', 'min edge', 'picks', 'hits', 'hit rate', 'hit rate 95%', 'roi', 'roi 95%'],
      res.edges
        .filter((e) => e.picks > 0)
        .map((e) => [
          e.entry,
          e.minEdge,
          e.picks,
          e.hits,
          percent(e.hitRate),
          range(e.hitRateInterval),
          percent(e.roi),
          range(e.roiInterval),
        ]),
      { narrowHint: 'narrow with sport/stat/since' },
    );
    return `${head}\n${market}\n${calibration}\n${picks}`;
  },
});
