/**
 * `props webhooks create | list | delete | test | deliveries | retry-delivery | pause | resume | rotate-secret | listen`:
 * webhook endpoints and their deliveries (pro tier and above), and a local receiver that
 * verifies and prints deliveries as they arrive, for development.
 */
import {
  BOOKS,
  type Book,
  type CreatedWebhook,
  type CreateWebhookRequest,
  type RotatedSecret,
  type SportId,
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDeliveries,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
} from '@propsfeed/contract';
import type { WebhookDeliveriesParams } from '@propsfeed/sdk';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { CliApp, CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import { type ListenOptions, listenForWebhooks } from '../listen';
import { intParser, parseMinEdge, parseSport, parseStatList } from '../options';
import { plainOdds } from '../output/format';
import { toJson } from '../output/output';
import { printable } from '../output/printable';
import { cell } from '../output/table';
import { requestCommand } from '../requestCommand';

export interface AddOptions {
  events: WebhookEventType[];
  sport?: SportId[];
  stat?: string;
  player?: string[];
  book?: Book[];
  game?: string[];
  line?: number;
  odds?: number;
  minEdge?: number;
  entry?: string;
  description?: string;
}

function parseEvents(value: string): WebhookEventType[] {
  const events = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (events.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`comma-separated event types, of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return [...new Set(events)] as WebhookEventType[];
}

function parseBook(value: string): Book {
  const book = value.trim().toLowerCase();
  if (!(BOOKS as readonly string[]).includes(book)) throw new InvalidArgumentError(`one of ${BOOKS.join(', ')}`);
  return book as Book;
}

function parseLine(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || n < 0.5 || n > 100)
    throw new InvalidArgumentError('a line move from 0.5 to 100');
  return n;
}

const collect =
  <T>(parse: (v: string) => T) =>
  (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), ...value.split(',').map(parse)];

export function createRequestOf(url: string, opts: AddOptions): CreateWebhookRequest {
  const filters: NonNullable<CreateWebhookRequest['filters']> = {};
  if (opts.sport) filters.sports = opts.sport;
  if (opts.stat) filters.stats = opts.stat.split(',');
  if (opts.player) filters.players = opts.player;
  if (opts.book) filters.books = opts.book;
  if (opts.game) filters.games = opts.game;
  const thresholds: NonNullable<CreateWebhookRequest['thresholds']> = {};
  if (opts.line !== undefined) thresholds.line = opts.line;
  if (opts.odds !== undefined) thresholds.odds = opts.odds;
  return {
    url,
    events: opts.events,
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
    ...(Object.keys(thresholds).length > 0 ? { thresholds } : {}),
    ...(opts.minEdge !== undefined ? { minEdge: opts.minEdge } : {}),
    ...(opts.entry !== undefined ? { entry: opts.entry } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
  };
}

export function renderCreated(created: CreatedWebhook, ctx: CommandContext): string {
  const { out } = ctx;
  if (!out.terminal) return `${created.id}\t${created.secret}\n`;
  return (
    `Registered ${out.c.bold(created.id)} → ${printable(created.url)}\n` +
    `Events: ${created.events.join(', ')}\n\n` +
    `Signing secret (shown only now; verify deliveries with it):\n\n  ${out.c.bold(created.secret)}\n\n` +
    out.note(`Try it: props webhooks test ${created.id}`)
  );
}

/** The filters as `field=a,b` pairs (none: every prop the tier shows). */
function filtersText(w: Webhook): string {
  return (['sports', 'stats', 'players', 'books', 'games'] as const)
    .flatMap((field) => (w.filters[field] ? [`${field}=${w.filters[field]?.join(',')}`] : []))
    .join(' ');
}

export function renderList(data: { count: number; max: number; webhooks: Webhook[] }, ctx: CommandContext): string {
  const { out } = ctx;
  const state = (w: Webhook) =>
    w.status === 'active'
      ? out.c.green('active')
      : w.status === 'paused'
        ? out.c.yellow('paused')
        : out.c.red('disabled');
  const rows = data.webhooks.map((w) => [
    cell(w.id),
    cell(w.url),
    cell(w.events.join(', '), w.events.join(',')),
    cell(filtersText(w)),
    cell(state(w), w.status),
    cell(w.createdAt.slice(0, 16).replace('T', ' '), w.createdAt),
  ]);
  const table = out.table(
    [
      { header: 'id' },
      { header: 'url', min: 16 },
      { header: 'events', min: 12 },
      { header: 'filters', min: 8 },
      { header: 'state' },
      { header: 'created (utc)' },
    ],
    rows,
    { drop: ['filters', 'created (utc)'] },
  );
  const why = data.webhooks
    .flatMap((w) => {
      if (w.status === 'disabled') return [`${w.id} was disabled: ${w.disabledReason ?? 'no reason given'}`];
      if (w.status === 'paused' && w.pausedReason) {
        const probe = w.nextProbeAt ? `; next try ${w.nextProbeAt.slice(0, 19).replace('T', ' ')} utc` : '';
        return [`${w.id} was paused by the service: ${w.pausedReason}${probe}`];
      }
      return [];
    })
    .join('\n');
  return table + out.note(`${data.count} of ${data.max} endpoints your tier allows${why ? `\n${why}` : ''}`);
}

/** One delivery in a sentence: its outcome, code and latency. */
function outcomeOf(d: WebhookDelivery): string {
  const code = d.responseStatus === null ? 'no answer' : `answered ${d.responseStatus}`;
  const latency = d.latencyMs === null ? '' : ` in ${d.latencyMs} ms`;
  return `${code}${latency}`;
}

export function renderTest(d: WebhookDelivery, ctx: CommandContext): string {
  const { out } = ctx;
  if (!out.terminal)
    return `${d.id}\t${d.status}\t${d.responseStatus ?? ''}\t${d.latencyMs ?? ''}\t${printable(d.error ?? '')}\n`;
  if (d.status === 'succeeded') return `${out.c.green('✓')} ping ${d.id}: ${outcomeOf(d)}\n`;
  const retry = d.nextAttemptAt ? `; retried at ${d.nextAttemptAt}` : '';
  return `${out.c.red('✗')} ping ${d.id}: ${outcomeOf(d)}${d.error ? ` (${printable(d.error)})` : ''}${retry}\n`;
}

export function renderRotated(r: RotatedSecret, ctx: CommandContext): string {
  const { out } = ctx;
  if (!out.terminal) return `${r.secret}\n`;
  return `New secret for ${r.id} (shown only now):\n\n  ${out.c.bold(r.secret)}\n\n${out.note(`The previous secret also signs until ${r.previousSecretExpiresAt}.`)}`;
}

export function renderDeliveries(data: WebhookDeliveries, ctx: CommandContext): string {
  const { out } = ctx;
  const status = (d: WebhookDelivery) =>
    d.status === 'succeeded'
      ? out.c.green(d.status)
      : d.status === 'failed'
        ? out.c.red(d.status)
        : out.c.yellow(d.status);
  const rows = data.deliveries.map((d) => [
    cell(d.id),
    cell(d.type),
    cell(status(d), d.status),
    cell(String(d.attempts)),
    cell(d.responseStatus === null ? '–' : String(d.responseStatus), String(d.responseStatus ?? '')),
    cell(d.latencyMs === null ? '–' : `${d.latencyMs} ms`, String(d.latencyMs ?? '')),
    cell((d.lastAttemptAt ?? '').slice(5, 19).replace('T', ' '), d.lastAttemptAt ?? ''),
    cell(d.error ?? ''),
  ]);
  const table = out.table(
    [
      { header: 'id' },
      { header: 'type' },
      { header: 'status' },
      { header: 'tries', align: 'right' },
      { header: 'code', align: 'right' },
      { header: 'latency', align: 'right' },
      { header: 'last attempt (utc)' },
      { header: 'error', min: 10 },
    ],
    rows,
    { drop: ['tries', 'latency', 'error'] },
  );
  const more = data.nextBefore ? `; older: --before ${data.nextBefore}` : '';
  return table + out.note(`${data.count} deliveries, newest first${more}`);
}

/** What a delivery says, in a few words: the line a person reads for it. */
export function summaryOf(event: WebhookEvent): string {
  switch (event.type) {
    case 'prop.line_moved': {
      const { row, previous } = event.data;
      const odds = (o?: number, u?: number) =>
        o === undefined && u === undefined ? '' : ` (${plainOdds(o) || '–'}/${plainOdds(u) || '–'})`;
      return `${row.player} ${row.stat} ${previous.line}${odds(previous.overOdds, previous.underOdds)} → ${row.line}${odds(row.overOdds, row.underOdds)} · ${row.eventId}`;
    }
    case 'prop.edge': {
      const { row, edge, minEdge, direction } = event.data;
      const pct = (x: number) => `${(x * 100).toFixed(1)} pts`;
      const now = edge ? `${edge.side} ${edge.line} ${pct(edge.edge)} vs ${edge.entry}` : 'no edge';
      return `${row.player} ${row.stat} ${now} (${direction} ${pct(minEdge)}) · ${row.eventId}`;
    }
    case 'game.started':
    case 'game.final': {
      const { game } = event.data;
      const score = game.score ? ` ${game.score.away}-${game.score.home}` : '';
      return `${game.awayTeam} @ ${game.homeTeam} ${game.state}${score} · ${game.id}`;
    }
    case 'prop.settled': {
      const p = event.data;
      const books = p.books.map((b) => `${b.source} ${b.closingLine} ${b.result}`).join(', ');
      return `${p.player} ${p.stat} final ${p.finalValue}: ${books} · ${p.eventId}`;
    }
    case 'ping':
    case 'webhook.capped':
    case 'webhook.paused':
      return event.data.message;
  }
}

const NOT_FOUND = { notFound: 'Run `props webhooks list` to see your endpoints.', feature: 'webhooks' };
const ENDPOINT_ID = new Argument('<id>', 'the endpoint id (wh_…)');

export function register(program: Command, app: CliApp): void {
  const webhooks = program
    .command('webhooks')
    .description(
      'webhook endpoints: signed pushes of line moves, edges, games and results to your server (pro and above)',
    );
  create.register(webhooks, app);
  list.register(webhooks, app);
  registerByEndpoint(webhooks, app);
  registerListen(webhooks, app);
}

/** `props webhooks create`: an endpoint, its filters and thresholds. */
const create = requestCommand({
  name: 'create',
  description: 'register an endpoint; its signing secret is printed once',
  arguments: [new Argument('<url>', 'where deliveries are POSTed (https://)')],
  options: [
    new Option('--events <types>', `comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
      .argParser(parseEvents)
      .makeOptionMandatory(),
    new Option('-s, --sport <ids>', 'only these sports, comma-separated or repeated').argParser(collect(parseSport)),
    new Option('--stat <keys>', 'only these stat keys, comma-separated').argParser(parseStatList),
    new Option('-p, --player <name>', 'only this player (repeat for more)').argParser(collect((v) => v)),
    new Option('--book <books>', 'only props these books post (their own lines judge a move)').argParser(
      collect(parseBook),
    ),
    new Option('-e, --game <ids>', 'only these games (event ids)').argParser(collect((v) => v.trim())),
    new Option('--line <x>', 'prop.line_moved: a line move of at least x (default 0.5)').argParser(parseLine),
    new Option('--odds <cents>', 'prop.line_moved: or an odds move of at least this many cents (default 10)').argParser(
      intParser(1, 1000),
    ),
    new Option('--min-edge <x>', 'prop.edge: the edge to watch for, e.g. 0.03 (needed for prop.edge)').argParser(
      parseMinEdge,
    ),
    new Option('--entry <id>', 'prop.edge: the entry type judged against (see `props entries`)'),
    new Option('--description <text>', 'a note for you'),
  ],
  request: (ctx: CommandContext, url: string, opts: AddOptions) => ctx.webhooks.create(createRequestOf(url, opts)),
  render: renderCreated,
  hint: { feature: 'webhooks' },
});

/** `props webhooks list`: what is registered. */
const list = requestCommand({
  name: 'list',
  description: "your key's endpoints",
  request: (ctx: CommandContext) => ctx.webhooks.list(),
  render: renderList,
  hint: { feature: 'webhooks' },
});

/** `props webhooks deliveries`: an endpoint's delivery log. */
const deliveries = requestCommand({
  name: 'deliveries',
  description: "an endpoint's delivery log, newest first",
  arguments: [ENDPOINT_ID],
  options: [
    new Option('--status <status>', 'only these').choices(['pending', 'succeeded', 'failed']),
    new Option('-n, --limit <n>', 'at most this many (1 to 100, default 20)').argParser(intParser(1, 100)).default(20),
    new Option('--before <cursor>', 'older than this (the cursor the previous page printed)'),
  ],
  request: (ctx: CommandContext, id: string, opts: WebhookDeliveriesParams) => ctx.webhooks.deliveries(id, opts),
  render: renderDeliveries,
  hint: NOT_FOUND,
});

/** `props webhooks rotate-secret`: a new signing secret, shown once. */
const rotateSecret = requestCommand({
  name: 'rotate-secret',
  description: 'a new signing secret; the old one also signs for 24 hours',
  arguments: [ENDPOINT_ID],
  request: (ctx: CommandContext, id: string) => ctx.webhooks.rotateSecret(id),
  render: renderRotated,
  hint: NOT_FOUND,
});

/** `props webhooks delete | test | deliveries | retry-delivery | pause | resume | rotate-secret`: one endpoint by id, in help order. */
function registerByEndpoint(webhooks: Command, app: CliApp): void {
  webhooks
    .command('delete')
    .description('delete an endpoint and its delivery log')
    .addArgument(ENDPOINT_ID)
    .action((id: string, _opts, cmd: Command) =>
      app.run(
        cmd,
        async (ctx) => {
          await ctx.load(() => ctx.webhooks.delete(id));
          ctx.out.message(`Deleted ${id}; nothing more is sent to it.`);
        },
        NOT_FOUND,
      ),
    );

  webhooks
    .command('test')
    .description('send a ping now and show how the endpoint answered')
    .addArgument(ENDPOINT_ID)
    .action((id: string, _opts, cmd: Command) =>
      app.run(
        cmd,
        async (ctx) => {
          const delivery = await ctx.load(() => ctx.webhooks.test(id));
          ctx.out.stdout.write(ctx.json ? toJson(delivery) : renderTest(delivery, ctx));
          if (delivery.status !== 'succeeded')
            throw new CliError('The ping did not succeed; it will be retried.', EXIT.error);
        },
        NOT_FOUND,
      ),
    );

  deliveries.register(webhooks, app);

  webhooks
    .command('retry-delivery')
    .description('send a delivery again now (same webhook-id and body)')
    .addArgument(ENDPOINT_ID)
    .argument('<delivery>', 'the delivery id (msg_…) from `props webhooks deliveries`')
    .action((id: string, delivery: string, _opts, cmd: Command) =>
      app.run(
        cmd,
        async (ctx) => {
          await ctx.load(() => ctx.webhooks.retryDelivery(id, delivery));
          ctx.out.message(`Queued ${delivery} to be sent again now.`);
        },
        NOT_FOUND,
      ),
    );

  for (const [name, status, said] of [
    ['pause', 'paused', 'Paused: no new events; pending deliveries wait.'],
    ['resume', 'active', 'Active again: events flow and pending deliveries are sent.'],
  ] as const) {
    webhooks
      .command(name)
      .description(
        name === 'pause' ? 'stop sending to an endpoint for now' : 'send to a paused or disabled endpoint again',
      )
      .addArgument(ENDPOINT_ID)
      .action((id: string, _opts, cmd: Command) =>
        app.run(
          cmd,
          async (ctx) => {
            await ctx.load(() => ctx.webhooks.update(id, { status }));
            ctx.out.message(`${id}: ${said}`);
          },
          NOT_FOUND,
        ),
      );
  }

  rotateSecret.register(webhooks, app);
}

/** `props webhooks listen`: the local receiver for development. */
function registerListen(webhooks: Command, app: CliApp): void {
  webhooks
    .command('listen')
    .description('a local receiver for development: verifies each delivery and prints it (Ctrl-C to stop)')
    .option('--port <n>', 'the port to listen on (127.0.0.1)', intParser(1, 65535), 9000)
    .option('--secret <whsec>', "the endpoint's secret (default PROPS_WEBHOOK_SECRET)")
    .addHelpText(
      'after',
      '\nRegister http://127.0.0.1:<port>/ as an endpoint (the server needs PROPS_WEBHOOK_ALLOW_HTTP=1 for http:// and loopback), then pass its secret. Each delivery is verified with the Standard Webhooks library and printed on one line: time, type, what happened, webhook-id. Unverified ones are answered 401 and shown as such. --json prints each verified event as one JSON line.',
    )
    .action((opts: { port: number; secret?: string }, cmd: Command) => {
      const out = app.output();
      const secret = opts.secret ?? app.deps.env.PROPS_WEBHOOK_SECRET;
      if (!secret) {
        app.fail(
          out,
          new CliError(
            "props webhooks listen needs the endpoint's secret: --secret whsec_… or PROPS_WEBHOOK_SECRET (printed by `props webhooks create`).",
            EXIT.usage,
          ),
        );
        return;
      }
      const listen: ListenOptions = {
        port: opts.port,
        secret,
        json: cmd.optsWithGlobals<{ json?: boolean }>().json === true,
        out,
        clock: { now: app.deps.now ?? (() => new Date()), timeZone: app.deps.timeZone },
        summary: summaryOf,
        ...(app.deps.watchSignal ? { signal: app.deps.watchSignal() } : {}),
      };
      return listenForWebhooks(listen).catch((err) => app.fail(out, err));
    });
}
