/**
 * An enterprise stream with no filter on the seeded simulator's full board, read at full speed
 * for a minute. Its snapshot is about 6 MB, above the 4 MB a stream may have waiting: before
 * #32 the snapshot counted against that cap as one block and every such stream ended at once
 * with `slow_consumer`. Now the cap counts only what waits behind the snapshot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const READ_MS = 60_000;
/** A Saturday evening in the simulated world: NBA and NHL games live, lines moving every poll. */
const BUSY_EVENING = '2026-11-22T01:30:00Z';
const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-whole-board-'));
let server: ServeChild;

interface Read {
  status: number;
  bytes: number;
  /** Event types in order (snapshot, prop, heartbeat, end…). */
  types: string[];
  snapshotRows: number;
  snapshotBytes: number;
  /** The connection ended before the reader let go. */
  ended: boolean;
}

/** Reads the stream at `path` for `ms`, then lets go. */
function readStream(port: number, path: string, key: string, ms: number): Promise<Read> {
  return new Promise((resolve, reject) => {
    const read: Read = { status: 0, bytes: 0, types: [], snapshotRows: 0, snapshotBytes: 0, ended: false };
    let pending = '';
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${key}` } }, (res) => {
      read.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        read.bytes += Buffer.byteLength(chunk);
        pending += chunk;
        const events = pending.split('\n\n');
        pending = events.pop() ?? '';
        for (const event of events) {
          const data = event.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const type = /^data: \{"type":"([a-z.]+)"/.exec(data)?.[1] ?? '?';
          read.types.push(type);
          if (type === 'snapshot') {
            read.snapshotRows = (JSON.parse(data.slice(6)) as { rows: unknown[] }).rows.length;
            read.snapshotBytes = Buffer.byteLength(data);
          }
        }
      });
      res.on('close', () => {
        read.ended = true;
      });
    });
    req.on('error', reject);
    req.end();
    setTimeout(() => {
      resolve({ ...read });
      req.destroy();
    }, ms);
  });
}

export function wholeBoardSuite(): void {
  describe('an unfiltered enterprise stream on the full board', () => {
    beforeAll(async () => {
      // The simulated books at their default seed, at a busy hour.
      server = await startServeChild({ PROPS_DATA_DIR: dataDir }, true, { clockAt: BUSY_EVENING });
    }, 120_000);
    afterAll(async () => {
      await server?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      'is read for 60 s with no end event',
      async () => {
        const key = server.demoKeys().enterprise as string;
        const read = await readStream(server.port, '/api/v1/stream', key, READ_MS);
        const counts: Record<string, number> = {};
        for (const t of read.types) counts[t] = (counts[t] ?? 0) + 1;
        console.log(
          `whole board: ${read.bytes.toLocaleString('en-US')} bytes in ${READ_MS / 1000} s, snapshot of ${read.snapshotRows} rows ` +
            `(${read.snapshotBytes.toLocaleString('en-US')} bytes), events ${JSON.stringify(counts)}`,
        );
        expect(read.status).toBe(200);
        expect(read.types[0]).toBe('snapshot');
        expect(read.snapshotRows).toBeGreaterThan(4_000);
        expect(read.bytes).toBeGreaterThan(4 * 1024 * 1024);
        expect(read.types).not.toContain('end');
        expect(read.ended).toBe(false);
        // Heartbeats every 15 s: the stream was alive to the end.
        expect(counts.heartbeat ?? 0).toBeGreaterThanOrEqual(3);
      },
      READ_MS + 30_000,
    );
  });
}
