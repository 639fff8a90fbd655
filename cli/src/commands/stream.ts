/** `props stream`: each change of the board as one line, as it happens (GET /api/v1/stream). */
import type { ScanRow, SportId, StreamEvent, StreamGame } from '@propsfeed/contract';
import type { StreamMessage } from '@propsfeed/sdk';
import type { Command } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { parseMinEdge, parseSport, parseStatList } from '../options';
import { formatClockTime, formatCount, plainOdds } from '../output/format';
import { printable } from '../output/printable';
import { shortMatchup, sportName } from '../output/rows';
import { visibleWidth, wrap } from '../output/wrap';

export interface StreamOptions {
  sport?: SportId[];
  stat?: string;
  player?: string;
  event?: string;
  minEdge?: number;
  /** Leave out live-value ticks (a player's running stat); line moves and pulls still show. */
  quietLive?: boolean;
}

type PropEvent = Extract<StreamEvent, { type: 'prop' }>;

/** What a line of `props stream` last showed of a prop, to tell a visible change from an invisible one. */
interface Shown {
  line: number;
  overOdds?: number | undefined;
  underOdds?: number | undefined;
  liveValue?: number | undefined;
  pulled?: boolean;
}

/**
 * What the watcher knows between events: each game's name and state, each prop as last shown.
 * Only changes a reader can see are printed: a line or odds move, a prop pulled or back, a new
 * live value (with the clock), a game appearing or going live or final; not a clock tick alone.
 */
export class WatchState {
  private readonly games = new Map<string, { name: string; state: string }>();
  private readonly props = new Map<string, Shown>();

  constructor(private readonly quietLive = false) {}

  private static key(r: { eventId: string; player: string; stat: string }): string {
    return `${r.eventId}\u0000${r.player}\u0000${r.stat}`;
  }

  /** The game's name, `away @ home`, or its id when the stream has not named it yet. */
  gameName(eventId: string): string {
    return this.games.get(eventId)?.name ?? eventId;
  }

  snapshot(message: Extract<StreamMessage, { type: 'snapshot' }>): void {
    this.games.clear();
    this.props.clear();
    for (const g of message.games) this.noteGame(g);
    for (const r of message.rows) {
      this.props.set(WatchState.key(r), shownOf(r));
      if (!this.games.has(r.eventId)) this.games.set(r.eventId, { name: shortMatchup(r), state: r.gameState ?? 'pre' });
    }
  }

  private noteGame(g: StreamGame): { name: string; state: string } | undefined {
    const before = this.games.get(g.id);
    const now = { name: shortMatchup(g), state: g.state };
    this.games.set(g.id, now);
    for (const alias of g.aliases ?? []) this.games.set(alias, now);
    return before;
  }

  /** The fields of the line a change prints, or undefined when it shows nothing new. */
  fieldsOf(message: StreamMessage, time: string): string[] | undefined {
    if (message.type === 'prop') return this.propFields(message as PropEvent, time);
    if (message.type === 'prop.removed') {
      const key = WatchState.key(message);
      const shown = this.props.get(key);
      if (shown?.pulled) return undefined;
      this.props.set(key, { ...(shown ?? { line: Number.NaN }), pulled: true });
      const what = message.reason === 'below_min_edge' ? 'below min edge' : 'pulled';
      return [
        time,
        message.player,
        message.stat,
        '',
        '',
        what,
        '',
        '',
        message.eventId,
        this.gameName(message.eventId),
      ];
    }
    if (message.type === 'game') {
      const { game } = message;
      const before = this.noteGame(game);
      // A clock tick alone is not news: only a new game or a change of state is.
      if (before && before.state === game.state) return undefined;
      const state = game.state === 'live' && game.clock ? `live ${game.clock}` : game.state;
      return [
        time,
        shortMatchup(game),
        'game',
        '',
        '',
        before ? state : `new, ${state}`,
        '',
        '',
        game.id,
        shortMatchup(game),
      ];
    }
    return undefined;
  }

  private propFields({ row, previous }: PropEvent, time: string): string[] | undefined {
    const key = WatchState.key(row);
    const shown = this.props.get(key);
    this.props.set(key, shownOf(row));
    const books = (row.books ?? []).map((b) => b.source).join(',');
    const game = this.gameName(row.eventId);
    // The columns: time, player, stat, line and odds before, line (or what happened) and odds now, books, event, game.
    const fields = (beforeLine: string, beforeOdds: string, now: string, nowOdds: string) => [
      time,
      row.player,
      row.stat,
      beforeLine,
      beforeOdds,
      now,
      nowOdds,
      books,
      row.eventId,
      game,
    ];
    if (shown?.pulled) return fields('', '', `${row.line} back`, odds(row.overOdds, row.underOdds));
    const before = previous ?? shown;
    if (!before) return fields('', '', `${row.line} new`, odds(row.overOdds, row.underOdds));
    if (before.line !== row.line || before.overOdds !== row.overOdds || before.underOdds !== row.underOdds) {
      return fields(
        String(before.line),
        odds(before.overOdds, before.underOdds),
        String(row.line),
        odds(row.overOdds, row.underOdds),
      );
    }
    if (row.liveValue === undefined || row.liveValue === shown?.liveValue || this.quietLive) return undefined;
    const clock = row.gameClock ? ` · ${row.gameClock}` : '';
    return fields('', '', `live ${row.liveValue} of ${row.line}${clock}`, '');
  }
}

function shownOf(r: ScanRow): Shown {
  return { line: r.line, overOdds: r.overOdds, underOdds: r.underOdds, liveValue: r.liveValue };
}

function odds(over: number | undefined, under: number | undefined): string {
  if (over === undefined && under === undefined) return '';
  return `${plainOdds(over) || '–'}/${plainOdds(under) || '–'}`;
}

/** One line per visible change: coloured on a terminal (line up green, down red), TSV when piped. */
export function renderChange(message: StreamMessage, ctx: CommandContext, state: WatchState): string {
  const { out } = ctx;
  const time = formatClockTime(ctx.clock.now(), ctx.clock);
  const fields = state.fieldsOf(message, out.terminal ? time : ctx.clock.now().toISOString());
  if (!fields) return '';
  const safe = fields.map(printable);
  if (!out.terminal) return `${safe.join('\t')}\n`;
  const [at, player, stat, oldLine, oldOdds, newLine, newOdds, bookList, , game] = safe as [
    string,
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
  const books = bookList.replaceAll(',', ', ');
  let moved = newLine;
  if (message.type === 'prop' && oldLine) {
    const up = message.row.line > Number(oldLine);
    const down = message.row.line < Number(oldLine);
    moved = up ? c.green(newLine) : down ? c.red(newLine) : newLine;
  } else if (message.type === 'prop.removed') moved = c.yellow(newLine);
  else if (message.type === 'prop' && newLine.startsWith('live ')) moved = c.magenta(newLine);
  else if (message.type === 'prop') moved = c.cyan(newLine);
  else if (message.type === 'game') moved = c.bold(newLine);
  const before = oldLine ? `${oldLine}${oldOdds ? ` (${oldOdds})` : ''} → ` : '';
  const after = `${moved}${newOdds ? ` (${newOdds})` : ''}`;
  // A line wider than the terminal wraps between words, under the player.
  const indent = ' '.repeat(visibleWidth(at) + 2);
  if (message.type === 'game') return `${wrap(`${c.dim(at)}  ${c.bold(player)}  ${after}`, out.width, indent)}\n`;
  const line = `${c.dim(at)}  ${c.bold(player)}  ${stat}  ${before}${after}  ${c.dim([game, books].filter(Boolean).join(' · '))}`;
  return `${wrap(line, out.width, indent)}\n`;
}

export async function runStream(ctx: CommandContext, opts: StreamOptions): Promise<void> {
  const params = {
    ...(opts.sport ? { sport: opts.sport } : {}),
    ...(opts.stat ? { stats: opts.stat } : {}),
    ...(opts.player ? { player: opts.player } : {}),
    ...(opts.event ? { eventId: opts.event } : {}),
    ...(opts.minEdge !== undefined ? { minEdge: opts.minEdge } : {}),
  };
  const state = new WatchState(opts.quietLive === true);
  for await (const message of ctx.stream(params)) {
    if (ctx.json) {
      ctx.out.stdout.write(`${JSON.stringify(message)}\n`);
      continue;
    }
    if (message.type === 'snapshot') {
      state.snapshot(message);
      const delayed = message.delayed ? ' · delayed 10 minutes (free tier)' : '';
      const what = message.reset ? 'Starting over from' : 'Watching';
      const sports = opts.sport?.length ? opts.sport.map(sportName).join(', ') : 'all sports of your tier';
      ctx.out.message(
        `${what} ${formatCount(message.rows.length)} props in ${formatCount(message.games.length)} games (${sports})${delayed}; one line per change. Ctrl-C to stop.`,
      );
    } else if (message.type === 'end') {
      ctx.out.message(`The server ended the stream (${message.reason}); resuming…`);
    } else {
      ctx.out.stdout.write(renderChange(message, ctx, state));
    }
  }
}

const collectSport = (value: string, previous: SportId[] | undefined): SportId[] => [
  ...(previous ?? []),
  ...value.split(',').map(parseSport),
];

export function register(program: Command, app: CliApp): void {
  program
    .command('stream')
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
    .option('--quiet-live', "hide live-value ticks (a player's running stat); line moves and pulls still show")
    .addHelpText(
      'after',
      '\nOne line per visible change: time, player, stat, old line (odds) → new line (odds), then the game and books; a prop pulled or back; a live value with the clock; a game going live or final. A change that shows nothing (a clock tick alone) prints no line. Piped: tab-separated time, player, stat, old line, old odds, new line or what happened, new odds, books, event id, game. --json prints each event as one JSON line (NDJSON). A dropped connection resumes where it stopped.',
    )
    .action((opts: StreamOptions, cmd: Command) => app.run(cmd, (ctx) => runStream(ctx, opts)));
}
