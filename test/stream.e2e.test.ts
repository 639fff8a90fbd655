/**
 * The SDK's stream() and `props stream` against a real server: typed events, a reconnection
 * after the server ends the stream that resumes at the last id (nothing missed, nothing
 * repeated), AbortSignal to stop, and the CLI's one line per change (TSV piped, NDJSON with --json).
 */
import { PropsFeed, type StreamMessage } from '@propsfeed/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../cli/src/http';
import { runCli } from '../cli/src/program';
import type { TestApp } from '../server/test/helpers/app';
import { buildTestApp } from '../server/test/helpers/app';
import { buildBoard, type GameSpec, TestBoardSource } from '../server/test/helpers/board';

const T0 = Date.parse('2026-11-22T01:00:00.000Z');
const specs = (step: number): GameSpec[] => [
  {
    id: 'pp_1',
    props: [
      { player: 'Aaron Wilson', stat: 'points', line: 20.5 + step },
      { player: 'Ben Cole', stat: 'rebounds', line: 7.5 },
    ],
  },
];

let server: TestApp;
let source: TestBoardSource;
let baseUrl = '';

beforeAll(async () => {
  source = new TestBoardSource(buildBoard(specs(0), T0));
  // The server's clock near the boards', so its resume window holds them all.
  server = await buildTestApp({ source, now: () => T0 + 10_000 });
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
});
afterAll(async () => {
  await server?.close();
});

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('client.stream()', () => {
  it('yields typed events, resumes after the server ends the stream, and stops on abort', async () => {
    const client = new PropsFeed({ apiKey: server.keys.sharp, baseUrl });
    const stop = new AbortController();
    const received: StreamMessage[] = [];
    const done = (async () => {
      for await (const event of client.stream({ sport: 'nba', signal: stop.signal })) received.push(event);
    })();
    await until(() => received.length === 1);
    expect(received[0]).toMatchObject({ type: 'snapshot', reset: false, id: String(source.current().version) });
    source.publish(buildBoard(specs(1), T0 + 1_000));
    await until(() => received.some((e) => e.type === 'prop'));
    // The server goes away (a restart): the client reconnects with the last id it got.
    server.app.streams.stop();
    server.app.streams.start();
    await until(() => server.app.streams.size === 1);
    source.publish(buildBoard(specs(2), T0 + 2_000));
    await until(() => received.filter((e) => e.type === 'prop').length === 2);
    stop.abort();
    await done;
    // Aborting closed the connection: the server let the stream go.
    await until(() => server.app.streams.size === 0);
    const props = received.filter((e): e is Extract<StreamMessage, { type: 'prop' }> => e.type === 'prop');
    expect(props.map((e) => [e.row.line, e.previous?.line])).toEqual([
      [21.5, 20.5],
      [22.5, 21.5],
    ]);
    expect(received.filter((e) => e.type === 'snapshot')).toHaveLength(1);
    expect(received.find((e) => e.type === 'end')).toMatchObject({ reason: 'server_closing' });
  });

  it('passes minEdge: only the props whose edge is at least it', async () => {
    const client = new PropsFeed({ apiKey: server.keys.sharp, baseUrl });
    // The board's -115/-105 lines, with no logs, are read as the market reads them (the blend's only
    // input): an edge of -0.0313 against PrizePicks' cheapest entry.
    const snapshotRows = async (minEdge: number) => {
      for await (const event of client.stream({ sport: 'nba', minEdge })) {
        if (event.type === 'snapshot') return event.rows.map((r) => [r.player, r.edge?.edge]);
      }
      return undefined;
    };
    expect(await snapshotRows(0.01)).toEqual([]);
    expect(await snapshotRows(-0.05)).toEqual([
      ['Aaron Wilson', -0.0313],
      ['Ben Cole', -0.0313],
    ]);
    await until(() => server.app.streams.size === 0);
  });

  it('throws the API error of a refusal (no reconnection)', async () => {
    const client = new PropsFeed({ apiKey: server.keys.free, baseUrl });
    const attempt = async () => {
      for await (const _ of client.stream({ sport: 'mlb' })) break;
    };
    await expect(attempt()).rejects.toMatchObject({ status: 403, code: 'sport_not_in_tier' });
  });
});

describe('props stream', () => {
  async function watch(args: string[], lines: number): Promise<string> {
    let stdout = '';
    const stop = new AbortController();
    await until(() => server.app.streams.size === 0);
    const run = runCli(['stream', ...args], {
      stdout: {
        write(chunk: string) {
          stdout += chunk;
          if (stdout.split('\n').length > lines) stop.abort();
          return true;
        },
      },
      stderr: { write: () => true },
      env: { PROPS_API_KEY: server.keys.sharp, PROPS_BASE_URL: baseUrl, NO_COLOR: '1' },
      fetch: nodeFetch,
      watchSignal: () => stop.signal,
      now: () => new Date(T0),
    });
    // Open, or already done (its lines came with the snapshot).
    await until(() => server.app.streams.size === 1 || stop.signal.aborted);
    source.publish(buildBoard(specs(source.current().version + 10), T0 + 5_000));
    expect(await run).toBe(0);
    return stdout;
  }

  it('prints each change as a line, TSV when piped', async () => {
    const out = await watch(['--sport', 'nba', '--stat', 'points'], 1);
    const [line] = out.split('\n');
    const fields = line?.split('\t') ?? [];
    expect(fields[0]).toBe(new Date(T0).toISOString());
    expect(fields.slice(1, 3)).toEqual(['Aaron Wilson', 'points']);
    expect(Number(fields[5])).toBeGreaterThan(Number(fields[3]));
    // Then the game, by the league's abbreviations where it has them.
    expect(fields.slice(7, 9)).toEqual(['prizepicks,underdog', 'pp_1']);
    expect(fields[9]).toMatch(/ @ /);
  });

  it('prints each event as one JSON line with --json', async () => {
    const out = await watch(['--json', '--player', 'Aaron Wilson'], 2);
    const events = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StreamMessage);
    expect(events.map((e) => e.type)).toEqual(['snapshot', 'prop']);
  });

  it('watches only the props at or above --min-edge', async () => {
    const out = await watch(['--json', '--min-edge', '0.01'], 1);
    const [snapshot] = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StreamMessage);
    expect(snapshot).toMatchObject({ type: 'snapshot', rows: [] });
  });
});
