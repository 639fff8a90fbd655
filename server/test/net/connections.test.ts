/** The connection caps on a real loopback server: per address, in all (evicting the idlest), first-request time. */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard, defaultMaxConnections, openFileLimit } from '../../src/net/connections';
import { isTrustedProxy } from '../../src/net/trustProxy';

let server: Server | undefined;
let guard: ConnectionGuard | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  guard?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

async function guarded(limits: ConstructorParameters<typeof ConnectionGuard>[1]): Promise<number> {
  server = createServer((_req, res) => res.end('ok'));
  guard = new ConnectionGuard(server, limits);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An open connection from `localAddress`; `closed` resolves when the server drops it. */
async function open(port: number, localAddress: string): Promise<{ socket: Socket; closed: () => boolean }> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  let closed = false;
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, closed: () => closed };
}

/** One keep-alive request on the socket; resolves when the answer has arrived. */
async function ask(socket: Socket): Promise<void> {
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise<void>((resolve) => {
    socket.on('data', function onData(d) {
      if (String(d).endsWith('ok')) {
        socket.off('data', onData);
        resolve();
      }
    });
  });
}

describe('ConnectionGuard', () => {
  it('refuses connections beyond the per-address cap, except from a trusted proxy', async () => {
    const port = await guarded({
      max: 100,
      perAddress: 2,
      firstRequestMs: 60_000,
      isProxy: isTrustedProxy(['127.0.9.0/24']),
    });
    const a = [await open(port, '127.0.0.5'), await open(port, '127.0.0.5'), await open(port, '127.0.0.5')];
    await expect.poll(() => a.map((c) => c.closed())).toEqual([false, false, true]);
    const other = await open(port, '127.0.0.6');
    const proxy = [await open(port, '127.0.9.1'), await open(port, '127.0.9.1'), await open(port, '127.0.9.1')];
    await sleep(100);
    expect([other, ...proxy].map((c) => c.closed())).toEqual([false, false, false, false]);
    expect(guard?.stats).toMatchObject({ open: 6, refused: 1 });
  });

  it('when full, evicts the connection idle longest, first those that never sent a request', async () => {
    const port = await guarded({ max: 3, perAddress: 10, firstRequestMs: 60_000 });
    const kept = await open(port, '127.0.1.1');
    await ask(kept.socket);
    const silentOld = await open(port, '127.0.1.2');
    const silentNew = await open(port, '127.0.1.3');
    const newcomer = await open(port, '127.0.1.4');
    await expect.poll(() => silentOld.closed()).toBe(true);
    expect([kept.closed(), silentNew.closed(), newcomer.closed()]).toEqual([false, false, false]);
    await ask(newcomer.socket);
    await ask(silentNew.socket);
    // None has never sent a request: the one idle longest since its answer goes.
    const last = await open(port, '127.0.1.5');
    await expect.poll(() => kept.closed()).toBe(true);
    await ask(last.socket);
    expect(guard?.stats).toMatchObject({ open: 3, evicted: 2 });
  });

  it('closes a connection that sends no complete request in time, and not one that did', async () => {
    const port = await guarded({ max: 10, perAddress: 10, firstRequestMs: 200 });
    const silent = await open(port, '127.0.2.1');
    const slow = await open(port, '127.0.2.2');
    slow.socket.write('GET / HTTP/1.1\r\n');
    const prompt = await open(port, '127.0.2.3');
    await ask(prompt.socket);
    await expect.poll(() => [silent.closed(), slow.closed()], { timeout: 2_500 }).toEqual([true, true]);
    expect(prompt.closed()).toBe(false);
    expect(guard?.stats.timedOut).toBe(2);
  });

  it('derives the cap from the open-file limit, keeping a reserve', () => {
    const limits =
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            20000                20000                files\n';
    expect(openFileLimit(limits)).toBe(20_000);
    expect(openFileLimit('Max open files            unlimited            unlimited            files')).toBeUndefined();
    expect(defaultMaxConnections(20_000)).toBe(19_000);
    expect(defaultMaxConnections(1_024)).toBe(768);
    expect(defaultMaxConnections(100)).toBe(16);
  });
});
