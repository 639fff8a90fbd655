/**
 * One address holding its whole per-address cap (256 kept-alive connections, each idle after
 * one request) against a server in a child process. Before #32 the cap refused every new
 * connection from that address, so anyone else behind the same NAT or proxy was locked out;
 * now the newcomer closes that address's idlest connection and is answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PER_ADDRESS } from '../../src/net/connections';
import { loopbackAddress, loopbackRequest } from '../helpers/loopback';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-address-cap-'));
let server: ServeChild;
const held: Socket[] = [];

/** A connection from `localAddress` that has made one request and been answered, kept alive. */
function holdOne(port: number, localAddress: string): Promise<{ closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    held.push(socket);
    socket.on('error', reject);
    socket.on('close', () => {
      closed = true;
    });
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    let text = '';
    socket.on('data', function answered(d) {
      text += String(d);
      if (!text.includes('{"ok":true}')) return;
      socket.off('data', answered);
      socket.off('error', reject);
      socket.on('error', () => {});
      resolve({ closed: () => closed });
    });
  });
}

export function addressCapSuite(): void {
  describe('an address holding its connection cap', () => {
    beforeAll(async () => {
      server = await startServeChild({
        PROPS_DATA_DIR: dataDir,
        PROPS_BOOKS: 'prizepicks',
        PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
      });
    }, 30_000);
    afterAll(async () => {
      for (const s of held.splice(0)) s.destroy();
      await server?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("still has its own new requests answered, each closing only that address's idlest connection", async () => {
      const shared = loopbackAddress(300);
      const holding = [];
      for (let i = 0; i < DEFAULT_PER_ADDRESS; i++) holding.push(await holdOne(server.port, shared));
      const statuses: (number | string)[] = [];
      for (let i = 0; i < 10; i++) {
        try {
          statuses.push(
            (await loopbackRequest({ port: server.port, path: '/healthz', localAddress: shared, timeoutMs: 5_000 }))
              .status,
          );
        } catch (err) {
          statuses.push((err as Error).message);
        }
      }
      const closed = holding.filter((h) => h.closed()).length;
      console.log(
        `address cap: ${DEFAULT_PER_ADDRESS} held, 10 new requests from the same address: ${JSON.stringify(statuses)}; held connections closed ${closed}`,
      );
      expect(statuses).toEqual(Array(10).fill(200));
      // Each newcomer closed at most one held connection to make room (fewer when the last one had gone).
      expect(closed).toBeGreaterThanOrEqual(1);
      expect(closed).toBeLessThanOrEqual(10);
    }, 60_000);
  });
}
