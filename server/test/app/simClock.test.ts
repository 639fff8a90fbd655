/**
 * PROPS_SIM_CLOCK moves the simulated world and the board only: a `props serve` started at a
 * past evening serves that evening's board, while its keys' tokens and its HTTP dates keep
 * the machine's clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const SIM_AT = '2026-11-22T01:30:00.000Z';
const MIN = 60_000;

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-simclock-'));
let server: ServeChild;
let startedAt: number;

beforeAll(async () => {
  startedAt = Date.now();
  server = await startServeChild({ PROPS_DATA_DIR: dataDir, PROPS_SIM_CLOCK: SIM_AT });
}, 120_000);
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`props serve with PROPS_SIM_CLOCK=${SIM_AT}`, () => {
  it('serves the board of the simulated instant, run on in real time from there', async () => {
    const ready = (await (await fetch(`${server.address}/readyz`)).json()) as { fetchedAt: string; props: number };
    const fetchedAt = Date.parse(ready.fetchedAt);
    expect(fetchedAt).toBeGreaterThanOrEqual(Date.parse(SIM_AT));
    expect(fetchedAt - Date.parse(SIM_AT)).toBeLessThan(Date.now() - startedAt + MIN);
    expect(ready.props).toBeGreaterThan(0);
  });

  it("keeps the machine's clock for tokens and HTTP dates", async () => {
    const key = server.demoKeys().sharp;
    const res = await fetch(`${server.address}/api/v1/stream/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    const { expiresAt } = (await res.json()) as { expiresAt: string };
    expect(Math.abs(Date.parse(expiresAt) - Date.now())).toBeLessThan(30 * MIN);
    expect(Math.abs(Date.parse(res.headers.get('date') ?? '') - Date.now())).toBeLessThan(MIN);
  });

  it('refuses a value that is not an instant, naming the setting', async () => {
    await expect(startServeChild({ PROPS_DATA_DIR: dataDir, PROPS_SIM_CLOCK: 'tonight' })).rejects.toThrow(
      /PROPS_SIM_CLOCK: must be an ISO 8601 UTC instant/,
    );
  }, 90_000);
});
