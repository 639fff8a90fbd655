/**
 * Slow uploads against the connection cap: 420 connections from 5 addresses, each sending a
 * 64 KiB body a byte a second, against a server (a child process) capped at 400 connections.
 * Before #32 a connection counted as busy once its headers had arrived, so none of them could
 * be closed to make room and every new client was refused. Now the newcomer closes the slowest
 * upload, and each upload is cut 10 s after its first byte: a client on a fresh address is
 * answered within a second, request after request, for as long as the uploads keep coming.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackAddress, loopbackRequest } from '../helpers/loopback';
import { type ServeChild, startServeChild } from '../helpers/serveChild';
import { startReporter } from './childLines';

const CAP = 400;
const UPLOADS = 420;
const ADDRESSES = 5;
/** Long enough to outlast the 10 s request deadline: the uploads are cut and come back meanwhile. */
const PROBE_MS = 13_000;

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-slow-bodies-'));
let server: ServeChild;
let uploader: ChildProcess | undefined;

export function slowBodiesSuite(): void {
  describe('slow bodies filling the connection cap', () => {
    beforeAll(async () => {
      server = await startServeChild({
        PROPS_DATA_DIR: dataDir,
        PROPS_MAX_CONNECTIONS: String(CAP),
        // One real book at a closed loopback port: no simulator competing for the CPU.
        PROPS_BOOKS: 'prizepicks',
        PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
      });
    }, 30_000);
    afterAll(async () => {
      uploader?.kill('SIGKILL');
      await server?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('from 5 addresses at a cap of 400 leave a fresh address answered within 1 s', async () => {
      const flood = startReporter('slowUploader.ts', [server.port, UPLOADS, ADDRESSES], {
        open: 0,
        sending: 0,
        attempts: 0,
        closed: 0,
      });
      uploader = flood.child;
      // The cap is full of uploads under way.
      await expect
        .poll(() => flood.latest().sending, { timeout: 20_000, interval: 100 })
        .toBeGreaterThanOrEqual(CAP * 0.9);
      const fresh = loopbackAddress(ADDRESSES + 100);
      const answered: number[] = [];
      const failed: string[] = [];
      const fullAt: number[] = [];
      for (const until = Date.now() + PROBE_MS; Date.now() < until; ) {
        fullAt.push(flood.latest().sending);
        try {
          const res = await loopbackRequest({
            port: server.port,
            path: '/healthz',
            localAddress: fresh,
            timeoutMs: 1_000,
          });
          if (res.status === 200) answered.push(res.ms);
          else failed.push(`status ${res.status}`);
        } catch (err) {
          failed.push((err as Error).message);
        }
        await sleep(250);
      }
      const { attempts, closed } = flood.latest();
      console.log(
        `slow bodies: ${attempts} uploads started from ${ADDRESSES} addresses (cap ${CAP}), ${closed} closed by the server; ` +
          `uploads under way while probing ${Math.min(...fullAt)}–${Math.max(...fullAt)}; fresh address: ${answered.length} answered ` +
          `(slowest ${Math.max(0, ...answered).toFixed(0)} ms), ${failed.length} failed ${JSON.stringify(failed.slice(0, 3))}`,
      );
      expect(failed).toEqual([]);
      expect(answered.length).toBeGreaterThan(20);
      // The flood held the cap all along: the answers were not made in a lull.
      expect(Math.min(...fullAt)).toBeGreaterThanOrEqual(CAP * 0.8);
    }, 60_000);
  });
}
