/**
 * The connection caps on a real loopback server: per address and in all (each evicting the
 * worst connection in the way), the first-request time and the whole-request deadline.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard, connectionOwner, defaultMaxConnections, openFileLimit } from '../../src/net/connections';
import { isTrustedProxy } from '../../src/net/trustProxy';

let server: Server | undefined;
let guard: ConnectionGuard | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  guard?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

/** A guarded server answering `ok` once a request's body has arrived; `/hold` is never answered. */
async function guarded(limits: ConstructorParameters<typeof ConnectionGuard>[1]): Promise<number> {
  server = createServer((req, res) => {
    req.resume();
    if (req.url !== '/hold') req.on('end', () => res.end('ok'));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
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
  it("at the per-address cap closes that address's idlest connection, refusing only when all are answered; a proxy is exempt", async () => {
    const port = await guarded({
      max: 100,
      perAddress: 2,
      firstRequestMs: 60_000,
      isProxy: isTrustedProxy(['127.0.9.0/24']),
    });
    const a = [await open(port, '127.0.0.5'), await open(port, '127.0.0.5')];
    await ask(a[0]?.socket as Socket);
    // The address's silent connection goes before its kept-alive one, then the kept-alive one.
    const third = await open(port, '127.0.0.5');
    await expect.poll(() => a.map((c) => c.closed())).toEqual([false, true]);
    await ask(third.socket);
    const fourth = await open(port, '127.0.0.5');
    await expect.poll(() => a[0]?.closed()).toBe(true);
    await ask(fourth.socket);
    // Both of its connections are being answered: nothing to close, the newcomer is refused.
    third.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    fourth.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(50);
    const fifth = await open(port, '127.0.0.5');
    await expect.poll(() => fifth.closed()).toBe(true);
    const other = await open(port, '127.0.0.6');
    const proxy = [await open(port, '127.0.9.1'), await open(port, '127.0.9.1'), await open(port, '127.0.9.1')];
    await sleep(100);
    expect([third, fourth, other, ...proxy].map((c) => c.closed())).toEqual([false, false, false, false, false, false]);
    expect(guard?.stats).toMatchObject({ open: 6, evicted: 2, refused: 1 });
  });

  it('counts an IPv6 client per /64, an IPv4 one per address', () => {
    expect(connectionOwner('2001:db8:1:2::1')).toBe(connectionOwner('2001:db8:1:2:ffff:1:2:3'));
    expect(connectionOwner('2001:db8:1:2::1')).not.toBe(connectionOwner('2001:db8:1:3::1'));
    expect(connectionOwner('10.1.2.3')).not.toBe(connectionOwner('10.1.2.4'));
    expect(connectionOwner('::ffff:10.1.2.3')).toBe('::ffff:10.1.2.3');
  });

  it('when full, closes the slowest upload before any connection idle between requests', async () => {
    const port = await guarded({ max: 3, perAddress: 10, firstRequestMs: 60_000 });
    const idle = await open(port, '127.0.3.1');
    await ask(idle.socket);
    const slowOld = await open(port, '127.0.3.2');
    slowOld.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc');
    await sleep(20);
    const slowNew = await open(port, '127.0.3.3');
    slowNew.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc');
    await sleep(20);
    const newcomer = await open(port, '127.0.3.4');
    await expect.poll(() => slowOld.closed()).toBe(true);
    await ask(newcomer.socket);
    const next = await open(port, '127.0.3.5');
    await expect.poll(() => slowNew.closed()).toBe(true);
    await ask(next.socket);
    expect(idle.closed()).toBe(false);
    expect(guard?.stats).toMatchObject({ open: 3, evicted: 2 });
  });

  it('closes a request whose headers and body have not all arrived within the request time of its first byte', async () => {
    const port = await guarded({ max: 10, perAddress: 10, firstRequestMs: 60_000, requestMs: 1_000 });
    const trickle = await open(port, '127.0.4.1');
    trickle.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    const drip = setInterval(() => trickle.socket.write('a'), 100);
    const slowHeaders = await open(port, '127.0.4.2');
    slowHeaders.socket.write('GET / HTTP/1.1\r\n');
    const headerDrip = setInterval(() => slowHeaders.socket.write('X-A: b\r\n'), 100);
    try {
      // Node looks for late requests every second (the guard sets it): closed at 1–2 s, not at 30.
      await expect
        .poll(() => [trickle.closed(), slowHeaders.closed()], { timeout: 5_000, interval: 50 })
        .toEqual([true, true]);
    } finally {
      clearInterval(drip);
      clearInterval(headerDrip);
    }
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
