/**
 * `serve()` as a user runs it, in a child process: demo keys printed on first start only,
 * SIGTERM drains and saves usage, and a restarted server reports it exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMPTY_BOARD } from '../../src/board/types';
import { ConfigError, loadConfig } from '../../src/config';
import { boardLine, serve } from '../../src/main';
import { buildBoard, manyProps } from '../helpers/board';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-serve-'));
const children: ServeChild[] = [];
afterAll(async () => {
  for (const c of children) await c.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Starts `serve({ port: 0 })` on the test's store. One real book at a closed loopback port:
 * start-up skips the simulator's backfill, and the feed's failed polls show in /readyz
 * without touching what this test checks.
 */
async function start(firstStart: boolean): Promise<ServeChild> {
  const child = await startServeChild(
    { PROPS_DATA_DIR: dataDir, PROPS_BOOKS: 'prizepicks', PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9' },
    firstStart,
  );
  children.push(child);
  return child;
}

describe('serve()', () => {
  it('prints demo keys once, saves usage on SIGTERM and reports it after a restart', async () => {
    const first = await start(true);
    const keys = first.demoKeys();
    expect(Object.keys(keys).sort()).toEqual(['enterprise', 'free', 'pro', 'sharp']);
    // The board's size at start: still loading here, on a book that does not answer.
    expect(first.output()).toContain('board: loading (polling prizepicks)');
    // Piped, every line is JSON; the demo keys' line carries the commands to paste.
    const lines = first
      .output()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    const tryIt = lines.find((l) => l.demoKeys)?.tryIt;
    expect(tryIt?.[0]).toBe(`curl -H "Authorization: Bearer ${keys.sharp}" "${first.address}/api/v1/games?sport=nba"`);
    // The CLI line repeats how the user runs the CLI (here as the server package's `propsfeed`).
    expect(tryIt?.[1]).toMatch(/PROPS_API_KEY=pf_\w{32} propsfeed games --sport nba$/);
    const get = (address: string, path: string) =>
      fetch(`${address}${path}`, { headers: { authorization: `Bearer ${keys.pro}` } });
    for (let i = 0; i < 4; i++) expect((await get(first.address, '/api/v1/sports')).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await start(false);
    const me = await (await get(second.address, '/api/v1/me')).json();
    expect(me.usage.today).toBe(5);
    expect(second.output()).not.toContain('First start');
    // A later start says how to make a key, on this store.
    const later = second
      .output()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(later.find((l) => l.makeKey)?.makeKey).toBe(
      `PROPS_DATA_DIR=${dataDir} propsfeed keys create --tier sharp --label "my laptop"`,
    );
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it('says how big the board is at start, and where its lines come from', () => {
    const board = buildBoard([{ id: 'pp_1', props: manyProps(1_234) }, { id: 'pp_2' }]);
    const props = board.games.reduce((n, g) => n + g.props.length, 0);
    expect(boardLine(board, { PROPS_BOOKS: [], PROPS_SIM_SEED: 5 })).toBe(
      `board: ${props.toLocaleString('en-US')} props in 2 games (simulated books, seed 5)`,
    );
    expect(boardLine(EMPTY_BOARD, { PROPS_BOOKS: ['prizepicks', 'underdog'], PROPS_SIM_SEED: 5 })).toMatch(
      /^board: loading \(polling prizepicks and underdog\)/,
    );
  });

  it('refuses a port in use with a sentence saying how to choose another', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const config = loadConfig({
      PROPS_DATA_DIR: mkdtempSync(join(dataDir, 'busy-')),
      PROPS_LOG_LEVEL: 'fatal',
      PROPS_BOOKS: 'prizepicks',
      PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
    });
    try {
      const refused = serve({ port }, config);
      await expect(refused).rejects.toThrow(ConfigError);
      await expect(refused).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the port is in use (another server already running?). Stop it, or choose another port with --port or PROPS_PORT.`,
      );
    } finally {
      holder.close();
    }
  }, 30_000);
});
