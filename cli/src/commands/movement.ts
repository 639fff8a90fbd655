/** `props movement`: the biggest line moves board-wide (pro). */
import { DEFAULT_MOVERS_LIMIT, MAX_MOVERS_LIMIT, type MovementResponse, type SportId } from '@propsfeed/contract';
import { Option } from 'commander';
import type { CommandContext } from '../context';
import { limitOption, parseIsoTime, sportOption, statOption } from '../options';
import { numberCell, shortMatchup, showing, sportName, startCell } from '../output/rows';
import { type Column, cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface MovementOptions {
  sport?: SportId;
  stat?: string;
  since?: string;
  limit?: number;
}

/** On a terminal too narrow for every column, these go first to last; the move (the sort) always stays. */
const DROP_ORDER = ['start', 'odds move', 'game', 'open'];

export function renderMovement(data: MovementResponse, ctx: CommandContext): string {
  const { out, clock } = ctx;
  const columns: Column[] = [
    { header: 'player', min: 10 },
    { header: 'stat' },
    { header: 'open', align: 'right' },
    { header: 'now', align: 'right' },
    { header: 'move', align: 'right' },
    { header: 'odds move', align: 'right', unit: '¢' },
    { header: 'game', min: 9, only: 'terminal' },
    { header: 'event', only: 'piped' },
    { header: 'start' },
  ];
  const rows = data.movers.map((m) => {
    const rounded = Math.round(m.change * 100) / 100;
    const signed = rounded > 0 ? `+${rounded}` : String(rounded);
    const arrow =
      m.direction === 'up' ? out.c.green(`▲ ${signed}`) : m.direction === 'down' ? out.c.red(`▼ ${signed}`) : signed;
    return [
      cell(m.player),
      cell(m.stat),
      numberCell(m.openLine, out),
      numberCell(m.currentLine, out),
      cell(arrow, signed),
      numberCell(m.oddsChange, out),
      cell(shortMatchup(m)),
      cell(m.eventId),
      startCell({ startTime: m.startTime }, clock, out),
    ];
  });
  const window = data.since ? `since ${data.since}` : 'since each line opened (from line history)';
  const delayed = data.delayed ? ' · delayed (free tier)' : '';
  const heading = out.heading(
    `${sportName(data.sport)}${data.stat ? ` · ${data.stat}` : ''} · biggest line moves ${window}`,
  );
  if (rows.length === 0) return heading + out.note(`No line moves ${window}.${delayed}`);
  return (
    heading +
    out.table(columns, rows, { drop: DROP_ORDER }) +
    out.note(`${showing(rows.length, data.total ?? data.count, 'movers')}${delayed}`) +
    out.note("Open, now and move in the stat's units · odds move in cents of American odds (-110 → -120 is 10¢)")
  );
}

export const { run: runMovement, register } = requestCommand({
  name: 'movement',
  description: 'the biggest line moves board-wide (pro tier and above)',
  options: [
    sportOption(),
    statOption(),
    new Option('--since <time>', 'moves since this ISO time (default: since each line opened)').argParser(parseIsoTime),
    limitOption(MAX_MOVERS_LIMIT, `at most N movers (1 to ${MAX_MOVERS_LIMIT}, default ${DEFAULT_MOVERS_LIMIT})`),
  ],
  request: (ctx: CommandContext, opts: MovementOptions) => ctx.client.movement(opts),
  render: renderMovement,
  hint: (opts) => ({ sport: opts.sport ?? 'nba', feature: 'line movement' }),
});
