/**
 * `pnpm bench:stream`: 10,000 concurrent streams (GET /api/v1/stream) on one server process,
 * against a bare Node SSE server writing the same bytes to the same number of connections, in
 * the same run. The board holds 50 games of 10 props (500 props); each stream follows one game
 * (eventId), 200 streams per game; one board change moves every prop's line, so it touches
 * 500 props and reaches every stream (10 events each). Printed per server: the time from the
 * change to each stream's last byte (p50/p99, read by a client process on the other CPU), the
 * fan-out rate (streams reached per second), and the server's memory per idle stream.
 * Goals (issue #18): p99 ≤ 250 ms, ≤ 30 KB per idle stream, fan-out ≥ 0.8× the bare server's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildBoard, buildTestApp, type GameSpec, TestBoardSource } from '@propsfeed/server/test-kit';
import { tasksetWorks } from './process';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const GAMES = 50;
const PROPS_PER_GAME = 10;
const CHANGES = Number(process.env.BENCH_CHANGES ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Streams per key: the enterprise tier's cap. */
const STREAMS_PER_KEY = 100;
const SCRIPT = fileURLToPath(import.meta.url);
const now = () => performance.timeOrigin + performance.now();

function specs(step: number): GameSpec[] {
  return Array.from({ length: GAMES }, (_, g) => ({
    id: `pp_${1000 + g}`,
    homeTeam: `Home ${g}`,
    awayTeam: `Away ${g}`,
    props: Array.from({ length: PROPS_PER_GAME }, (_, i) => ({
      player: `Player ${g}-${i}`,
      stat: 'points',
      line: 10.5 + i + step,
    })),
  }));
}
/**
 * What each stream follows: one game (its 10 props; the default), or with BENCH_FOLLOW=player
 * one player (1 prop), so a change brings each stream 10 events or 1.
 */
const FOLLOW = process.env.BENCH_FOLLOW === 'player' ? 'player' : 'game';
const EVENTS_PER_STREAM = FOLLOW === 'player' ? 1 : PROPS_PER_GAME;
const VIEWS = FOLLOW === 'player' ? GAMES * PROPS_PER_GAME : GAMES;
const gameOf = (view: number) => `pp_${1000 + (view % GAMES)}`;
/** The query of stream (or view) `i`. */
function filterOf(i: number): string {
  const view = i % VIEWS;
  if (FOLLOW === 'game') return `eventId=${gameOf(view)}`;
  return `eventId=${gameOf(view)}&player=${encodeURIComponent(`Player ${view % GAMES}-${Math.floor(view / GAMES)}`)}`;
}

/** A child's line protocol: it prints JSON lines; the driver writes commands on its stdin. */
function send(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}
function commands(onCommand: (command: string) => void): void {
  // 'exit' ends a child cleanly, so a --cpu-prof in BENCH_SERVER_FLAGS is written.
  createInterface({ input: process.stdin }).on('line', (command) =>
    command === 'exit' ? process.exit(0) : onCommand(command),
  );
}
function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
}

/**
 * Times a change in a server: call at the change, call what it returns once the change's
 * writes are issued. It reports when the writes were handed to the kernel and the CPU time
 * (user + system, the kernel's copying included) the server spent on them, the figure that
 * holds on a busy machine. Taken in a nextTick queued behind the writes: res.write leaves its
 * socket writes to nextTicks (the bare server's), and work a server defers past the fan-out
 * to a later turn (propsfeed's stream log, written after the last byte) is not fan-out.
 */
function changeTimer(): () => void {
  const at = now();
  const cpu = process.cpuUsage();
  return () =>
    process.nextTick(() => {
      const used = process.cpuUsage(cpu);
      send({ at, written: now(), cpuMs: (used.user + used.system) / 1000 });
    });
}

/** The app: the real route, hub and encoder, on a board source the bench moves. */
async function serveApp(): Promise<void> {
  let step = 0;
  const source = new TestBoardSource(buildBoard(specs(step), Date.now()));
  // Every stream comes from the one client address.
  const app = await buildTestApp({ source, maxConnectionsPerAddress: STREAMS + 100 });
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_KEY); i++) {
    keys.push(await app.createKey({ tier: 'enterprise', rpm: 1e9, rpd: 1e9 }));
  }
  const url = await app.app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
  const before = memory();
  send({ url, keys });
  commands((command) => {
    if (command === 'memory') send({ before, after: memory(), streams: app.app.streams.size });
    if (command === 'change') {
      step++;
      const done = changeTimer();
      source.publish(buildBoard(specs(step), Date.now()));
      done();
    }
  });
}

/**
 * The baseline: node:http, each connection answered with SSE headers and held; a change
 * writes to every connection the bytes the app sends its view (the app's frames for that
 * game, taken from the app itself at start), one prepared buffer per view, nothing else.
 */
async function serveBare(): Promise<void> {
  const file = process.argv[process.argv.indexOf('--frames') + 1] as string;
  const frames = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const bytes = new Map(Object.entries(frames).map(([game, text]) => [game, Buffer.from(text)]));
  const byView = new Map<string, Set<ServerResponse>>();
  const server = createServer((req, res) => {
    const view = (req.url ?? '').split('?')[1] ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(`retry: 2000\n\nid: 0\ndata: {"type":"snapshot"}\n\n`);
    let set = byView.get(view);
    if (!set) {
      set = new Set();
      byView.set(view, set);
    }
    set.add(res);
    res.on('close', () => set.delete(res));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const before = memory();
  const { port } = server.address() as { port: number };
  send({ url: `http://127.0.0.1:${port}`, keys: ['bare'] });
  commands((command) => {
    if (command === 'memory') {
      let streams = 0;
      for (const set of byView.values()) streams += set.size;
      send({ before, after: memory(), streams });
    }
    if (command === 'change') {
      const done = changeTimer();
      for (const [view, set] of byView) {
        const frame = bytes.get(view) as Buffer;
        for (const res of set) res.write(frame);
      }
      done();
    }
  });
}

/**
 * The clients: STREAMS raw sockets, each reading its stream and counting event ids; a change
 * has arrived at a stream when its events have. Prints each stream's arrival times. Every
 * socket reads into one reused buffer (`onread`): allocating a 64 KB buffer per read made the
 * client, not the server, the slowest part of the measurement.
 */
async function runClients(): Promise<void> {
  const { url, keys } = JSON.parse(process.argv[process.argv.indexOf('--target') + 1] as string) as {
    url: string;
    keys: string[];
  };
  const { hostname, port } = new URL(url);
  const ID = Buffer.from('\nid: ');
  const counts = new Int32Array(STREAMS);
  const arrivals: number[][] = Array.from({ length: CHANGES }, () => []);
  const sockets: Socket[] = [];
  const readBuffer = Buffer.alloc(256 * 1024);
  /** Per stream, how many bytes of ID its last read ended with (an id split across two reads). */
  const partial = new Uint8Array(STREAMS);
  let ready = 0;
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const counted = (n: number) => {
        if (n === 1) {
          ready++;
          resolve();
        } else if ((n - 1) % EVENTS_PER_STREAM === 0) {
          arrivals[(n - 1) / EVENTS_PER_STREAM - 1]?.push(now());
        }
      };
      const onRead = (length: number, data: Buffer) => {
        let from = 0;
        // An id that began in the previous read: does this read finish it?
        let carried = partial[i] as number;
        if (carried > 0) {
          let k = 0;
          while (carried + k < ID.length && k < length && data[k] === ID[carried + k]) k++;
          if (carried + k === ID.length) {
            counts[i] = (counts[i] as number) + 1;
            counted(counts[i] as number);
            from = k;
            carried = 0;
          } else if (k === length) carried += k;
          else carried = 0;
        }
        const view = data.subarray(0, length);
        let at = view.indexOf(ID, from);
        while (at !== -1) {
          counts[i] = (counts[i] as number) + 1;
          counted(counts[i] as number);
          at = view.indexOf(ID, at + ID.length);
        }
        // The longest end of this read that starts an id.
        if (carried === 0) {
          for (let k = Math.min(ID.length - 1, length); k > 0; k--) {
            if (view.subarray(length - k).equals(ID.subarray(0, k))) {
              carried = k;
              break;
            }
          }
        }
        partial[i] = carried;
        return true;
      };
      const socket = connect({
        host: hostname,
        port: Number(port),
        onread: { buffer: readBuffer, callback: onRead },
      });
      sockets.push(socket);
      const key = keys[Math.floor(i / STREAMS_PER_KEY) % keys.length];
      socket.setNoDelay(true);
      socket.write(
        `GET /api/v1/stream?${filterOf(i)} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\n\r\n`,
      );
      socket.once('error', reject);
    });
  for (let i = 0; i < STREAMS; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, STREAMS - i) }, (_, k) => open(i + k)));
  }
  send({ ready });
  // The clients' CPU over the changes: close to the delivery time, the client sets the figures.
  const cpuAtReady = process.cpuUsage();
  commands((command) => {
    if (command === 'report') {
      const used = process.cpuUsage(cpuAtReady);
      send({ arrivals, clientCpuMs: (used.user + used.system) / 1000 / CHANGES });
    }
    if (command === 'close') {
      for (const s of sockets) s.destroy();
      process.exit(0);
    }
  });
}

// ---- the driver ----

interface Child {
  next(): Promise<Record<string, unknown>>;
  tell(command: string): void;
  stop(): void;
}

const pinnable = tasksetWorks();

/** A child on its own CPU (when it can be pinned), with the soft fd limit raised to the hard one. */
function child(cpu: string, args: string[]): Child {
  const flags = args[0] === '--serve-app' ? (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean) : [];
  const node = [process.execPath, '--expose-gc', ...flags, '--import', 'tsx', SCRIPT, ...args];
  const proc = spawn(
    'sh',
    ['-c', 'ulimit -n "$(ulimit -Hn)" && exec "$@"', 'sh', ...(pinnable ? ['taskset', '-c', cpu] : []), ...node],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  return {
    next: () =>
      new Promise((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(JSON.parse(line));
        else waiting.push((l) => resolve(JSON.parse(l)));
      }),
    tell: (c) => proc.stdin.write(`${c}\n`),
    stop: () => proc.kill('SIGKILL'),
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Result {
  name: string;
  streams: number;
  p50: number;
  p99: number;
  max: number;
  /** Streams reached per second: streams ÷ (change → last stream's last byte), median over changes. */
  rate: number;
  writeMs: number;
  /** Server CPU (user + system) from the change to its writes handed to the kernel. */
  cpuMs: number;
  /** The client process's CPU per change. */
  clientCpuMs: number;
  kbPerStream: number;
  heapKbPerStream: number;
}

/** Each figure's median over the rounds of one server. */
function median(rounds: Result[]): Result {
  const mid = <K extends keyof Result>(key: K) =>
    quantile(
      rounds.map((r) => r[key] as number).sort((a, b) => a - b),
      0.5,
    );
  const first = rounds[0] as Result;
  return {
    name: first.name,
    streams: first.streams,
    p50: mid('p50'),
    p99: mid('p99'),
    max: mid('max'),
    rate: mid('rate'),
    writeMs: mid('writeMs'),
    cpuMs: mid('cpuMs'),
    clientCpuMs: mid('clientCpuMs'),
    kbPerStream: mid('kbPerStream'),
    heapKbPerStream: mid('heapKbPerStream'),
  };
}

async function measure(name: string, args: string[]): Promise<Result> {
  const server = child('0', args);
  const target = await server.next();
  const clients = child('1', ['--clients', '--target', JSON.stringify(target)]);
  try {
    const { ready } = (await clients.next()) as { ready: number };
    await sleep(1_000);
    server.tell('memory');
    const mem = (await server.next()) as {
      before: { rss: number; heap: number };
      after: { rss: number; heap: number };
      streams: number;
    };
    const changes: { at: number; written: number; cpuMs: number }[] = [];
    for (let c = 0; c < CHANGES; c++) {
      server.tell('change');
      changes.push((await server.next()) as { at: number; written: number; cpuMs: number });
      await sleep(1_500);
    }
    clients.tell('report');
    const { arrivals, clientCpuMs } = (await clients.next()) as { arrivals: number[][]; clientCpuMs: number };
    const delays: number[] = [];
    const rates: number[] = [];
    const writes: number[] = [];
    const cpus: number[] = [];
    changes.forEach((change, c) => {
      const times = (arrivals[c] ?? []).map((t) => t - change.at);
      if (times.length !== ready)
        throw new Error(`${name}: change ${c + 1} reached ${times.length} of ${ready} streams`);
      delays.push(...times);
      rates.push(ready / (Math.max(...times) / 1000));
      writes.push(change.written - change.at);
      cpus.push(change.cpuMs);
    });
    delays.sort((a, b) => a - b);
    rates.sort((a, b) => a - b);
    writes.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    return {
      name,
      streams: mem.streams,
      p50: quantile(delays, 0.5),
      p99: quantile(delays, 0.99),
      max: delays.at(-1) ?? NaN,
      rate: quantile(rates, 0.5),
      writeMs: quantile(writes, 0.5),
      cpuMs: quantile(cpus, 0.5),
      clientCpuMs,
      kbPerStream: (mem.after.rss - mem.before.rss) / 1024 / mem.streams,
      heapKbPerStream: (mem.after.heap - mem.before.heap) / 1024 / mem.streams,
    };
  } finally {
    clients.tell('close');
    server.tell('exit');
    await sleep(1_000);
    server.stop();
  }
}

/** The frames the app sends each game's streams for the first change, for the bare server to send. */
async function appFrames(): Promise<Record<string, string>> {
  const source = new TestBoardSource(buildBoard(specs(0), Date.now()));
  const app = await buildTestApp({ source, maxConnectionsPerAddress: VIEWS + 100 });
  const keys = await Promise.all(
    Array.from({ length: Math.ceil(VIEWS / STREAMS_PER_KEY) }, () =>
      app.createKey({ tier: 'enterprise', rpm: 1e9, rpd: 1e9 }),
    ),
  );
  const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const frames: Record<string, string> = {};
  const readers = Array.from({ length: VIEWS }, async (_, v) => {
    const key = keys[Math.floor(v / STREAMS_PER_KEY)] as string;
    const res = await fetch(`${url}/api/v1/stream?${filterOf(v)}`, { headers: { authorization: `Bearer ${key}` } });
    if (!res.body) throw new Error(`no stream for ${filterOf(v)}: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/\nid: /g) ?? []).length < 1 + EVENTS_PER_STREAM || !text.endsWith('\n\n')) {
      const { value } = await reader.read();
      text += value ?? '';
    }
    frames[filterOf(v)] = text.slice(text.indexOf('\n\n', text.indexOf('"type":"snapshot"')) + 2);
    await reader.cancel();
  });
  while (app.app.streams.size < VIEWS) await sleep(10);
  source.publish(buildBoard(specs(1), Date.now()));
  await Promise.all(readers);
  await app.close();
  return frames;
}

async function drive(): Promise<void> {
  const frames = await appFrames();
  const bytesPerStream = Object.values(frames).reduce((n, f) => n + Buffer.byteLength(f), 0) / VIEWS;
  console.log(
    `propsfeed stream fan-out: ${STREAMS} streams, ${GAMES} games × ${PROPS_PER_GAME} props, each stream following one ${FOLLOW} (${VIEWS} views, ${STREAMS / VIEWS} streams each), ${CHANGES} changes of all 500 props, ${EVENTS_PER_STREAM} events and ${Math.round(bytesPerStream)} bytes per stream per change; server on CPU 0, clients on CPU 1${pinnable ? '' : ' (not pinned)'}\n`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-stream-'));
  const file = join(dir, 'frames.json');
  writeFileSync(file, JSON.stringify(frames));
  // Interleaved rounds, so both servers see the same noise of a shared machine; each figure is
  // the median of its server's rounds.
  const rounds: Result[][] = [[], []];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      rounds[0]?.push(await measure('bare Node SSE (node:http)', ['--serve-bare', '--frames', file]));
      rounds[1]?.push(await measure('propsfeed GET /api/v1/stream', ['--serve-app']));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = rounds.map(median);
  console.log(
    'server                          streams   p50 ms   p99 ms   max ms   streams/s   write ms   CPU ms   KB/stream (rss)   KB/stream (heap)',
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)}${String(r.streams).padStart(7)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${r.max.toFixed(1).padStart(9)}${Math.round(r.rate).toString().padStart(12)}${r.writeMs.toFixed(1).padStart(11)}${r.cpuMs.toFixed(1).padStart(9)}${r.kbPerStream.toFixed(1).padStart(18)}${r.heapKbPerStream.toFixed(1).padStart(19)}`,
    );
  }
  console.log(
    `(medians of ${ROUNDS} interleaved rounds; fan-out rate per round: ${rounds
      .map((rs) => `${rs[0]?.name.split(' ')[0]} ${rs.map((r) => Math.round(r.rate)).join(' / ')}`)
      .join(', ')})`,
  );
  const [bare, app] = results as [Result, Result];
  const ratio = app.rate / bare.rate;
  console.log(`\nfan-out rate, propsfeed ÷ bare: ${ratio.toFixed(2)} (goal ≥ 0.80)`);
  console.log(
    `server CPU per change, bare ÷ propsfeed: ${(bare.cpuMs / app.cpuMs).toFixed(2)} (${bare.cpuMs.toFixed(1)} ÷ ${app.cpuMs.toFixed(1)} ms: the fan-out ratio when the machine, not the server, is the bottleneck)`,
  );
  console.log(`p99 change → last byte: ${app.p99.toFixed(1)} ms (goal ≤ 250; bare Node ${bare.p99.toFixed(1)} ms)`);
  console.log(
    `client CPU per change: ${app.clientCpuMs.toFixed(1)} ms with propsfeed, ${bare.clientCpuMs.toFixed(1)} ms with bare Node (near the p99, the load generator and not the server would set it)`,
  );
  console.log(
    `memory per idle stream: ${app.kbPerStream.toFixed(1)} KB rss, ${app.heapKbPerStream.toFixed(1)} KB heap (goal ≤ 30)`,
  );
}

if (process.argv.includes('--serve-app')) await serveApp();
else if (process.argv.includes('--serve-bare')) await serveBare();
else if (process.argv.includes('--clients')) await runClients();
else await drive();
