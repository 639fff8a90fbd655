/**
 * 20,000 idle connections (two opener processes of 10,000, from 100 loopback addresses)
 * against a server in a child process whose open-file limit is 20,000: normal requests keep
 * being answered and the server keeps polling its book (a simulated one on loopback) while
 * they are held.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SimServer, SimWorld, startSimServer } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookHealth } from '../../src/board/types';
import { loopbackRequest } from '../helpers/loopback';
import { type ServeChild, startServeChild } from '../helpers/serveChild';
import { startReporter } from './childLines';

const OPENERS = 2;
const PER_OPENER = 10_000;
const ADDRESSES_PER_OPENER = 50;

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-idle-flood-'));
const openers: ChildProcess[] = [];
let sim: SimServer;
let server: ServeChild;

export function idleFloodSuite(): void {
  describe('20,000 idle connections', () => {
    beforeAll(async () => {
      sim = await startSimServer(new SimWorld(20261122), Date.now);
      server = await startServeChild({
        PROPS_DATA_DIR: dataDir,
        PROPS_BOOKS: 'prizepicks',
        PROPS_PRIZEPICKS_URL: sim.prizepicksUrl,
      });
    }, 30_000);
    afterAll(async () => {
      for (const o of openers) o.kill('SIGKILL');
      await server?.kill();
      await sim?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function book(): Promise<BookHealth | undefined> {
      const res = await loopbackRequest({ port: server.port, path: '/readyz', timeoutMs: 5_000 });
      return (JSON.parse(res.body) as { books: BookHealth[] }).books[0];
    }

    /** Starts an opener process; `progress()` is its latest report. */
    function startOpener(firstAddress: number): () => { open: number; attempts: number; failures: number } {
      const { child, latest } = startReporter(
        'opener.ts',
        [server.port, PER_OPENER, firstAddress, ADDRESSES_PER_OPENER],
        { open: 0, attempts: 0, failures: 0 },
      );
      openers.push(child);
      return latest;
    }

    it('do not stop normal requests or book polling', async () => {
      await expect.poll(async () => (await book())?.fetchedAt ?? null, { timeout: 15_000 }).not.toBeNull();
      const key = server.demoKeys().pro;
      const floodStarted = Date.now();
      const progress = Array.from({ length: OPENERS }, (_, i) => startOpener(i * ADDRESSES_PER_OPENER));
      const attempted = () => progress.reduce((sum, p) => sum + p().attempts, 0);
      await expect.poll(attempted, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(OPENERS * PER_OPENER);

      // Normal clients, a new connection each, until the book has been polled since the flood began.
      const failed: string[] = [];
      let answered = 0;
      let polledSince: BookHealth | undefined;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        for (const path of ['/healthz', '/api/v1/me']) {
          try {
            const res = await loopbackRequest({
              port: server.port,
              path,
              headers: { authorization: `Bearer ${key}` },
              timeoutMs: 5_000,
            });
            if (res.status === 200) answered += 1;
            else failed.push(`${path}: ${res.status}`);
          } catch (err) {
            failed.push(`${path}: ${(err as Error).message}`);
          }
        }
        const health = await book().catch(() => undefined);
        if (health?.fetchedAt && health.fetchedAt > floodStarted) {
          polledSince = health;
          break;
        }
        await sleep(200);
      }
      const open = progress.reduce((sum, p) => sum + p().open, 0);
      console.log(
        `idle flood: ${attempted()} connections attempted, ${open} open at the end; normal requests ${answered} answered, ` +
          `${failed.length} failed ${JSON.stringify(failed.slice(0, 3))}; book polled since the flood began: ` +
          `${polledSince ? `yes, ${polledSince.fetchedAt! - floodStarted} ms in` : 'no'}`,
      );
      expect(failed).toEqual([]);
      expect(answered).toBeGreaterThan(10);
      expect(polledSince?.lastError ?? null).toBeNull();
      expect(polledSince).toBeDefined();
    }, 60_000);
  });
}
