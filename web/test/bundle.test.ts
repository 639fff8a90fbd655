/**
 * The page's size: every JavaScript file it may load, gzipped, 60 KB at most in all (built here
 * into a temporary folder, so the numbers are this tree's and a running server's files stay put). And the SDK's route table is the
 * contract's: every route, its method, path and answer statuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { buildWeb, routeTable } from '../build';

describe('the page bundle', () => {
  it('holds the JavaScript to 60 KB gzip in all', async () => {
    const out = mkdtempSync(join(tmpdir(), 'propsfeed-web-build-'));
    const files = await buildWeb(out);
    rmSync(out, { recursive: true, force: true });
    const js = files.filter((f) => f.name.endsWith('.js'));
    const total = js.reduce((sum, f) => sum + f.gzipBytes, 0);
    console.log(js.map((f) => `${f.name}: ${f.gzipBytes} B gzip`).join('\n'), `\nin all: ${total} B gzip`);
    expect(js.map((f) => f.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^app-[A-Z0-9]{8}\.js$/)]));
    expect(total).toBeLessThanOrEqual(60 * 1024);
  }, 60_000);

  it('gives the SDK every route of the contract with its method, path and statuses', () => {
    const table = routeTable(contract as unknown as Record<string, unknown>) as Record<
      string,
      { method: string; path: string; responses: Record<string, null> }
    >;
    expect(Object.keys(table).sort()).toEqual(Object.keys(contract).sort());
    for (const [name, route] of Object.entries(contract)) {
      expect(table[name]).toMatchObject({ method: route.method, path: route.path });
      expect(Object.keys(table[name]?.responses ?? {}).sort()).toEqual(Object.keys(route.responses).sort());
    }
  });
});
