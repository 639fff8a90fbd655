/** `props edges`: the board sorted by edge against an entry type's breakeven (pro). */
import { type EdgesResponse, MAX_SCAN_LIMIT, type SportId } from '@propsfeed/contract';
import { InvalidArgumentError, Option } from 'commander';
import type { CommandContext } from '../context';
import { limitOption, parseMinEdge, sportOption, statOption } from '../options';
import { formatPercent } from '../output/format';
import {
  edgePoints,
  rowWhen,
  shortMatchup,
  showing,
  sportName,
  startCell,
  teamCell,
  WHY_COLUMN,
  whyCell,
  whyDetails,
} from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface EdgesOptions {
  sport?: SportId;
  stat?: string;
  entry?: string;
  minEdge?: number;
  limit?: number;
  /** Under each row, the workings of its estimate. */
  why?: boolean;
}

function parseEntry(value: string): string {
  const id = value.trim().toLowerCase();
  if (!/^[a-z0-9_]{1,64}$/.test(id))
    throw new InvalidArgumentError('an entry type id, e.g. prizepicks_power_2 (see `props entries`)');
  return id;
}

/**
 * On a terminal too narrow for every column, these go first to last; the player, stat, book,
 * pick and edge (the sort) always stay.
 */
const DROP_ORDER = ['start', 'team', 'game', 'needs', 'prob'];

export function renderEdges(data: EdgesResponse, ctx: CommandContext, opts: Pick<EdgesOptions, 'why'> = {}): string {
  const { out, clock } = ctx;
  const hasTeam = data.rows.some((r) => r.team !== undefined);
  const why = opts.why === true;
  const columns: Column[] = [
    { header: 'player', min: 10 },
    ...(hasTeam ? [{ header: 'team', min: 8, only: 'terminal' } as const] : []),
    { header: 'stat' },
    { header: 'book' },
    { header: 'pick' },
    { header: 'prob', align: 'right' },
    { header: 'needs', align: 'right' },
    { header: 'edge', align: 'right', unit: '% pts' },
    { header: 'entry', only: 'piped' },
    { header: 'game', min: 9, only: 'terminal' },
    { header: 'event', only: 'piped' },
    { header: 'start' },
    { header: 'team', only: 'piped' },
    ...(why ? [WHY_COLUMN] : []),
  ];
  const withEdge = data.rows.filter((r) => r.edge);
  const rows = withEdge.flatMap((r) => {
    const e = r.edge;
    if (!e) return [];
    const signed = edgePoints(e.edge);
    return [
      [
        cell(r.player),
        ...(hasTeam ? [teamCell(r.sport, r.team)] : []),
        cell(r.stat),
        cell(e.source),
        cell(`${e.side} ${e.line}`),
        cell(formatPercent(e.probability), String(e.probability)),
        cell(formatPercent(e.breakeven), String(e.breakeven)),
        cell(e.edge > 0 ? out.c.green(signed) : out.c.dim(signed), String(e.edge)),
        cell(e.entry),
        cell(shortMatchup(r)),
        cell(r.eventId),
        startCell(rowWhen(r), clock, out),
        cell(r.team ?? ''),
        ...(why ? [whyCell(r)] : []),
      ],
    ];
  });
  const against = data.entry ? `against ${data.entry}` : "against each book's entry type with the lowest breakeven";
  const heading = out.heading(
    `${sportName(data.sport)}${data.stat ? ` · ${data.stat}` : ''} · edges ${against}, best first`,
  );
  if (rows.length === 0) return heading + out.note('No props with an edge match.');
  const floor = data.minEdge === null ? '' : ` · edge ≥ ${edgePoints(data.minEdge)} % pts`;
  const details = why ? whyDetails(withEdge) : undefined;
  return (
    heading +
    out.table(columns, rows, { drop: DROP_ORDER, ...(details ? { details } : {}) }) +
    out.note(`${showing(rows.length, data.total ?? data.count, 'props')}${floor} · estimates, not promises`) +
    out.note(
      "Prob: the estimated chance of the pick, given no push · Needs: the entry type's per-leg breakeven · Edge: prob minus needs, in percentage points (% pts)",
    )
  );
}

export const { run: runEdges, register } = requestCommand({
  name: 'edges',
  description: 'props sorted by edge: estimated chance minus the entry breakeven (pro tier and above)',
  options: [
    sportOption(),
    statOption(),
    new Option('-e, --entry <id>', "judge against this entry type (default: each book's cheapest)").argParser(
      parseEntry,
    ),
    new Option('--min-edge <x>', 'only edges of at least x, e.g. 0.02').argParser(parseMinEdge),
    limitOption(MAX_SCAN_LIMIT, `at most N rows (1 to ${MAX_SCAN_LIMIT})`),
    new Option('--why', 'under each row, the workings of its estimate (piped: a last field)'),
  ],
  request: (ctx: CommandContext, { why: _, ...query }: EdgesOptions) => ctx.client.edges(query),
  render: renderEdges,
  hint: (opts) => ({ sport: opts.sport ?? 'nba', feature: 'edges' }),
});
