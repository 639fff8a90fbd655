/** `props watch`: each change of the board as one line, as it happens (GET /api/v1/stream). */
import type { SportId, StreamEvent } from '@propsfeed/contract';
import type { StreamMessage } from '@propsfeed/sdk';
import type { Command } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { parseMinEdge, parseSport, parseStatList } from '../options';
import { formatClockTime, plainOdds } from '../output/format';
import { printable } from '../output/printable';

export interface WatchOptions {
  sport?: SportId[];
  stat?: string;
  player?: string;
  event?: string;
  minEdge?: number;
}

type PropEvent = Extract<StreamEvent, { type: 'prop' }>;

function odds(over: number | undefined, under: number | undefined): string {
  if (over === undefined && under === undefined) return '';
  return `${plainOdds(over) || '–'}/${plainOdds(under) || '–'}`;
}

/** The fields of one change, as printed: time, player, stat, old line and odds, new ones, books, game. */
function fieldsOf(message: StreamMessage, time: string): string[] | undefined {
  if (message.type === 'prop') {
    const { row, previous } = message as PropEvent;
    return [
      time,
      row.player,
      row.stat,
      previous ? String(previous.line) : '',
      previous ? odds(previous.overOdds, previous.underOdds) : '',
      String(row.line),
      odds(row.overOdds, row.underOdds),
      (row.books ?? []).map((b) => b.source).join(','),
      row.eventId,
    ];
  }
  if (message.type === 'prop.removed') {
    const what = message.reason === 'below_min_edge' ? 'below min edge' : 'pulled';
    return [time, message.player, message.stat, '', '', what, '', '', message.eventId];
  }
  if (message.type === 'game') {
    const { game } = message;
    const state = game.clock ? `${game.state} ${game.clock}` : game.state;
    return [time, `${game.awayTeam} @ ${game.homeTeam}`, 'game', '', '', state, '', '', game.id];
  }
  return undefined;
}

/** One line per change: coloured on a terminal (line up green, down red), TSV when piped. */
export function renderChange(message: StreamMessage, ctx: CommandContext): string {
  const { out } = ctx;
  const time = formatClockTime(ctx.clock.now(), ctx.clock);
  const fields = fieldsOf(message, out.terminal ? time : ctx.clock.now().toISOString());
  if (!fields) return '';
  const safe = fields.map(printable);
  if (!out.terminal) return `${safe.join('\t')}\n`;
  const [at, player, stat, oldLine, oldOdds, newLine, newOdds, books, eventId] = safe as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const { c } = out;
  let moved = newLine;
  if (message.type === 'prop' && message.previous) {
    const up = message.row.line > message.previous.line;
    const down = message.row.line < message.previous.line;
    moved = up ? c.green(newLine) : down ? c.red(newLine) : newLine;
  } else if (message.type === 'prop.removed') moved = c.yellow(newLine);
  else if (message.type === 'prop') moved = c.cyan(`${newLine} new`);
  const before = oldLine ? `${oldLine}${oldOdds ? ` (${oldOdds})` : ''} → ` : '';
  const after = `${moved}${newOdds ? ` (${newOdds})` : ''}`;
  return `${c.dim(at)}  ${c.bold(player)}  ${stat}  ${before}${after}  ${c.dim([books, eventId].filter(Boolean).join(' · '))}\n`;
}

export async function runWatch(ctx: CommandContext, opts: WatchOptions): Promise<void> {
  const params = {
    ...(opts.sport ? { sport: opts.sport } : {}),
    ...(opts.stat ? { stats: opts.stat } : {}),
    ...(opts.player ? { player: opts.player } : {}),
    ...(opts.event ? { eventId: opts.event } : {}),
    ...(opts.minEdge !== undefined ? { minEdge: opts.minEdge } : {}),
  };
  for await (const message of ctx.stream(params)) {
    if (ctx.json) {
      ctx.out.stdout.write(`${JSON.stringify(message)}\n`);
      continue;
    }
    if (message.type === 'snapshot') {
      const delayed = message.delayed ? ' · delayed 10 minutes (free tier)' : '';
      const what = message.reset ? 'Starting over from' : 'Watching';
      ctx.out.message(
        `${what} ${message.rows.length} props in ${message.games.length} games${delayed}; one line per change. Ctrl-C to stop.`,
      );
    } else if (message.type === 'end') {
      ctx.out.message(`The server ended the stream (${message.reason}); resuming…`);
    } else {
      ctx.out.stdout.write(renderChange(message, ctx));
    }
  }
}

const collectSport = (value: string, previous: SportId[] | undefined): SportId[] => [
  ...(previous ?? []),
  ...value.split(',').map(parseSport),
];

export function register(program: Command, app: CliApp): void {
  program
    .command('watch')
    .description('each change of the board as one line, as it happens (a live stream; Ctrl-C to stop)')
    .option(
      '-s, --sport <ids>',
      'sport ids, comma-separated or repeated (default: every sport your tier has)',
      collectSport,
    )
    .option('--stat <keys>', 'only these stat keys, comma-separated, e.g. points,pra', parseStatList)
    .option('-p, --player <name>', 'only this player')
    .option('-e, --event <id>', 'only this game (an event id from `props games`)')
    .option(
      '--min-edge <x>',
      'only props whose edge is at least x, e.g. 0.02 (pro and above); one falling below is shown as removed',
      parseMinEdge,
    )
    .addHelpText(
      'after',
      '\nEach line: time, player, stat, old line (odds) → new line (odds), books, game. TSV when piped; --json prints each event as one JSON line (NDJSON). A dropped connection resumes where it stopped.',
    )
    .action((opts: WatchOptions, cmd: Command) => app.run(cmd, (ctx) => runWatch(ctx, opts)));
}
