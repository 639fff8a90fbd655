/**
 * `pnpm bench:webhooks`: 1,000 healthy webhook endpoints (10 enterprise keys × 100) and, beside
 * them, 50 stalled ones (one more enterprise key's: receivers that read the body and never
 * answer, so each attempt runs to its 15 s limit), all subscribed to prop.line_moved on a board
 * of 20 props (2 games × 10); one board change moves every prop's line, so each endpoint
 * receives that change's 20 events: 20,000 deliveries to the healthy endpoints (and 1,000 to the
 * stalled), every one produced, stored (SQLite), claimed, signed and POSTed by the app as it
 * runs in `props serve`. The receivers are loopback HTTP servers in a child process (one port
 * each; it checks one delivery in a hundred with the `standardwebhooks` package). Printed: the
 * time from the board change to each healthy delivery's arrival (p50/p99/max) and deliveries per
 * second, beside a baseline measured in the same run: bare Node POSTing the same signed bodies
 * to the same healthy receivers with the same concurrency, from memory (no store, no production,
 * and nothing sent to the stalled ones: the floor), and each sender's CPU per 1,000 deliveries,
 * the figure that holds on a busy machine. BENCH_ENDPOINTS, BENCH_STALLED and BENCH_PROPS scale
 * it (the run is bounded: a minute or two on the shared 2-core machine).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildBoard, buildTestApp, type GameSpec, systemClock, TestBoardSource } from '@propsfeed/server/test-kit';
import { Webhook } from 'standardwebhooks';

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1_000);
const STALLED = Number(process.env.BENCH_STALLED ?? 50);
const PROPS = Number(process.env.BENCH_PROPS ?? 20);
const PROPS_PER_GAME = 10;
const GAMES = Math.ceil(PROPS / PROPS_PER_GAME);
const PER_KEY = 100;
/** The app's attempts under way at once (its default), and the baseline's. */
const IN_FLIGHT = 128;
const SCRIPT = fileURLToPath(import.meta.url);

function specs(step: number): GameSpec[] {
  return Array.from({ length: GAMES }, (_, g) => ({
    id: `pp_${1000 + g}`,
    homeTeam: `Home ${g}`,
    awayTeam: `Away ${g}`,
    props: Array.from({ length: Math.min(PROPS_PER_GAME, PROPS - g * PROPS_PER_GAME) }, (_, i) => ({
      player: `Player ${g}-${i}`,
      stat: 'points',
      line: 10.5 + i + step,
    })),
  }));
}

interface Summary {
  /** The sending process's CPU (user + system) from the change until the last delivery arrived, ms. */
  cpuMs?: number;
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Arrival of the last delivery, ms after the change. */
  lastMs: number;
  checked: number;
  refused: number;
  /** Requests the stalled receivers read (and never answered). */
  stalledRequests?: number;
}

// ---- The receivers' child: one HTTP server per endpoint, on loopback ----

async function receivers(): Promise<void> {
  const secrets = new Map<number, string>();
  let arrivals: number[] = [];
  let expected = 0;
  let t0 = 0;
  let checked = 0;
  let refused = 0;
  let stalledRequests = 0;
  const servers: Server[] = [];
  const finish = () => {
    const sorted = arrivals.map((a) => a - t0).sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
    const summary: Summary = {
      count: sorted.length,
      p50: q(0.5),
      p99: q(0.99),
      max: sorted.at(-1) ?? Number.NaN,
      lastMs: sorted.at(-1) ?? Number.NaN,
      checked,
      refused,
      stalledRequests,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    expected = 0;
  };
  for (let i = 0; i < ENDPOINTS; i++) {
    const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => {
        body += d;
      });
      req.on('end', () => {
        arrivals.push(Date.now());
        const port = (server.address() as AddressInfo).port;
        const secret = secrets.get(port);
        if (secret && arrivals.length % 100 === 1) {
          checked++;
          try {
            new Webhook(secret).verify(body, {
              'webhook-id': String(req.headers['webhook-id']),
              'webhook-timestamp': String(req.headers['webhook-timestamp']),
              'webhook-signature': String(req.headers['webhook-signature']),
            });
          } catch {
            refused++;
          }
        }
        res.writeHead(200).end();
        if (expected > 0 && arrivals.length >= expected) finish();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
    servers.push(server);
  }
  // The stalled receivers: read the body, never answer (the connection stays open until the
  // sender gives up at its time limit).
  for (let i = 0; i < STALLED; i++) {
    const server = createServer({ keepAliveTimeout: 60_000, requestTimeout: 0 }, (req) => {
      req.resume();
      req.on('end', () => {
        stalledRequests++;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
    servers.push(server);
  }
  process.stdout.write(`${JSON.stringify(servers.map((s) => (s.address() as AddressInfo).port))}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as { secrets?: Record<string, string>; expect?: number; t0?: number; exit?: true };
    if (command.exit) process.exit(0);
    if (command.secrets) for (const [port, s] of Object.entries(command.secrets)) secrets.set(Number(port), s);
    if (command.expect !== undefined) {
      arrivals = [];
      checked = 0;
      refused = 0;
      stalledRequests = 0;
      expected = command.expect;
      t0 = command.t0 ?? Date.now();
    }
  });
}

// ---- The driver: the app, then the baseline, against the same receivers ----

interface Child {
  process: ChildProcess;
  next(): Promise<string>;
  send(command: object): void;
}

function startReceivers(): Promise<{ child: Child; ports: number[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', SCRIPT, 'receivers'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  const child: Child = {
    process: proc,
    next: () => {
      const line = lines.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
    },
    send: (command) => proc.stdin?.write(`${JSON.stringify(command)}\n`),
  };
  return child.next().then((line) => ({ child, ports: JSON.parse(line) as number[] }));
}

async function runApp(child: Child, ports: number[]): Promise<Summary & { produceMs: number }> {
  const source = new TestBoardSource(buildBoard(specs(0), Date.now()));
  const t = await buildTestApp({ source, webhooks: { clock: systemClock(), maxInFlight: IN_FLIGHT } });
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(ENDPOINTS / PER_KEY); i++) keys.push(await t.createKey({ tier: 'enterprise' }));
  // The stalled receivers' key: registered first, so their deliveries are the oldest.
  const stalledKey = await t.createKey({ tier: 'enterprise' });
  const secrets: Record<string, string> = {};
  for (let i = ENDPOINTS; i < ENDPOINTS + STALLED; i++) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${stalledKey}` },
      payload: { url: `http://127.0.0.1:${ports[i]}/hooks`, events: ['prop.line_moved'] },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
  }
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${keys[Math.floor(i / PER_KEY)]}` },
      payload: { url: `http://127.0.0.1:${ports[i]}/hooks`, events: ['prop.line_moved'] },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    secrets[String(ports[i])] = res.json().secret;
  }
  child.send({ secrets });
  const expected = ENDPOINTS * PROPS;
  const t0 = Date.now();
  child.send({ expect: expected, t0 });
  const cpu = process.cpuUsage();
  source.publish(buildBoard(specs(1), t0));
  await t.webhooks?.produced();
  const produceMs = Date.now() - t0;
  const summary = JSON.parse(await child.next()) as Summary;
  const used = process.cpuUsage(cpu);
  // Closing waits for the attempts under way, the stalled ones' to their 15 s limit.
  await t.close();
  return { ...summary, produceMs, cpuMs: (used.user + used.system) / 1000 };
}

/** The floor: the same signed bodies POSTed from memory, IN_FLIGHT at a time, 8 connections per receiver. */
async function runBaseline(child: Child, ports: number[]): Promise<Summary> {
  const secret = Buffer.from('bench-baseline-secret-0123456789');
  const healthy = ports.slice(0, ENDPOINTS);
  child.send({ secrets: Object.fromEntries(healthy.map((p) => [String(p), `whsec_${secret.toString('base64')}`])) });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const bodies = Array.from({ length: PROPS }, (_, i) =>
    JSON.stringify({
      type: 'prop.line_moved',
      timestamp: new Date().toISOString(),
      data: { row: { player: `Player ${i}`, stat: 'points', line: 11.5 }, previous: { line: 10.5 }, lineChange: 1 },
    }),
  );
  const expected = ENDPOINTS * PROPS;
  const t0 = Date.now();
  child.send({ expect: expected, t0 });
  const cpu = process.cpuUsage();
  let next = 0;
  const send = (): Promise<void> | undefined => {
    const n = next++;
    if (n >= expected) return undefined;
    const event = Math.floor(n / ENDPOINTS);
    const port = ports[n % ENDPOINTS] as number;
    const body = bodies[event] as string;
    const id = `msg_${String(n).padStart(24, '0')}`;
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', secret).update(`${id}.${ts}.${body}`).digest('base64');
    return new Promise<void>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/hooks',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'webhook-id': id,
            'webhook-timestamp': String(ts),
            'webhook-signature': `v1,${sig}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    }).then(() => send());
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => send()));
  const summary = JSON.parse(await child.next()) as Summary;
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return { ...summary, cpuMs: (used.user + used.system) / 1000 };
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const rate = (s: Summary) => s.count / (s.lastMs / 1000);
/** The sending process's CPU per 1,000 deliveries: what holds on a busy machine, where wall times do not. */
const perThousand = (s: Summary) => ((s.cpuMs ?? Number.NaN) / s.count) * 1000;

async function main(): Promise<void> {
  const { child, ports } = await startReceivers();
  console.log(
    `bench:webhooks: ${ENDPOINTS} healthy endpoints × ${PROPS} props moved in one board change = ${(ENDPOINTS * PROPS).toLocaleString('en-US')} deliveries, beside ${STALLED} stalled endpoints (never answer; ${(STALLED * PROPS).toLocaleString('en-US')} deliveries more)`,
  );
  // BENCH_ONLY=app or =bare runs one side (to profile it); the other's row is then empty.
  const only = process.env.BENCH_ONLY;
  const none: Summary & { produceMs: number } = {
    count: 0,
    p50: NaN,
    p99: NaN,
    max: NaN,
    lastMs: NaN,
    checked: 0,
    refused: 0,
    produceMs: NaN,
  };
  const app = only === 'bare' ? none : await runApp(child, ports);
  const bare = only === 'app' ? none : await runBaseline(child, ports);
  child.send({ exit: true });
  const rows = [
    ['', 'propsfeed', 'bare node (baseline)', 'ratio'],
    ['deliveries', String(app.count), String(bare.count), ''],
    ['p50 change → delivery', fmt(app.p50), fmt(bare.p50), (app.p50 / bare.p50).toFixed(2)],
    ['p99 change → delivery', fmt(app.p99), fmt(bare.p99), (app.p99 / bare.p99).toFixed(2)],
    ['max', fmt(app.max), fmt(bare.max), ''],
    ['deliveries/s', rate(app).toFixed(0), rate(bare).toFixed(0), (rate(app) / rate(bare)).toFixed(2)],
    [
      'sender CPU per 1,000',
      fmt(perThousand(app)),
      fmt(perThousand(bare)),
      (perThousand(app) / perThousand(bare)).toFixed(2),
    ],
    [
      'verified (sample)',
      `${app.checked - app.refused}/${app.checked}`,
      `${bare.checked - bare.refused}/${bare.checked}`,
      '',
    ],
  ];
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  '));
  console.log(
    `propsfeed stored the change's ${((ENDPOINTS + STALLED) * PROPS).toLocaleString('en-US')} deliveries ${fmt(app.produceMs)} after it (production and the store's insert); the stalled receivers were sent ${app.stalledRequests ?? 0} attempts meanwhile (each held to its 15 s limit).`,
  );
}

if (process.argv[2] === 'receivers') await receivers();
else await main();
