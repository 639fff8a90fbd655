/**
 * A TCP proxy on a random loopback port in front of a shared service, so a test can take
 * "the service" down and bring it back without touching the machine's real PostgreSQL or
 * Redis, which other tests use at the same time.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cuts every open connection and refuses new ones until `up()`. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let isUp = true;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!isUp) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const down = () => {
    isUp = false;
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    port: address.port,
    down,
    up() {
      isUp = true;
    },
    close() {
      down();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
