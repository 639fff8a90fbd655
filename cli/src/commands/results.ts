/** `props results`: the settled props of a day, one row per book: closing line, result and the chance published at lock. */
import { MAX_RESULTS_LIMIT, type ResultsResponse, type SportId } from '@propsfeed/contract';
import { Option } from 'commander';
import type { CommandContext } from '../context';
import { limitOption, parseDay, sportOption, statOption } from '../options';
import { formatPercent } from '../output/format';
import { shortMatchup, showing, sportName } from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface ResultsOptions {
  date?: string;
  sport?: SportId;
  player?: string;
  stat?: string;
  limit?: number;
}

export function renderResults(data: ResultsResponse, ctx: CommandContext): string {
  const { out } = ctx;
  const columns: Column[] = [
    { header: 'player', min: 10 },
    { header: 'stat' },
    { header: 'final', align: 'right' },
    { header: 'book' },
    { header: 'line', align: 'right' },
    { header: 'result' },
    { header: 'p over', align: 'right' },
    { header: 'basis', only: 'piped' },
    { header: 'game', min: 9, only: 'terminal' },
    { header: 'event', only: 'piped' },
    { header: 'start', only: 'piped' },
  ];
  const rows = data.results.flatMap((r) =>
    r.books.map((b) => [
      cell(r.player),
      cell(r.stat),
      cell(String(r.finalValue)),
      cell(b.source),
      cell(String(b.closingLine)),
      cell(b.result === 'push' ? out.c.dim(b.result) : out.c.bold(b.result), b.result),
      b.pOver === null ? cell(out.c.dim('—'), '') : cell(formatPercent(b.pOver), String(b.pOver)),
      cell(b.basis),
      cell(shortMatchup(r)),
      cell(r.eventId),
      cell(r.startTime),
    ]),
  );
  const heading = out.heading(
    `Results of ${data.date} (UTC) · ${sportName(data.sport)} (line: the closing line; p over: the chance published at the start)`,
  );
  if (rows.length === 0) return heading + out.note('No settled props match: games settle once they are final.');
  return (
    heading +
    out.table(columns, rows, { drop: ['game', 'final'] }) +
    out.note(showing(data.count, data.total, 'settled props'))
  );
}

export const { run: runResults, register } = requestCommand({
  name: 'results',
  description: "settled props of a day: each book's closing line, result and the chance published at lock",
  options: [
    new Option('-d, --date <day>', 'UTC day YYYY-MM-DD (default: today for pro, yesterday for free)').argParser(
      parseDay,
    ),
    sportOption('sport id (default: every sport your tier allows)'),
    new Option('-p, --player <name>', 'only this player'),
    statOption(),
    limitOption(MAX_RESULTS_LIMIT, `at most N props (1 to ${MAX_RESULTS_LIMIT})`),
  ],
  request: (ctx: CommandContext, opts: ResultsOptions) => ctx.client.results(opts),
  render: renderResults,
  hint: (opts) => ({ ...(opts.sport ? { sport: opts.sport } : {}), feature: "today's list of results" }),
});
