/**
 * Opens idle TCP connections to a server and holds them, sending nothing: what an attacker
 * exhausting a server's file descriptors does. Run as a child process (its own descriptors):
 * `node --import tsx opener.ts <port> <count> <firstAddress> <addresses>` spreads `count`
 * connections over loopback source addresses loopbackAddress(firstAddress…), reopens any the
 * server closes a second later, and prints a JSON line `{ open, attempts, failures }` every
 * 250 ms until killed.
 */
import { connect, type Socket } from 'node:net';
import { loopbackAddress } from '../helpers/loopback';

const [port, count, firstAddress, addresses] = process.argv.slice(2).map(Number) as [number, number, number, number];
const CONNECTING_AT_ONCE = 200;

let open = 0;
let attempts = 0;
let failures = 0;
let connecting = 0;
const waiting: number[] = Array.from({ length: count }, (_, i) => i);

function next(): void {
  while (connecting < CONNECTING_AT_ONCE && waiting.length > 0) {
    const i = waiting.shift() as number;
    connecting += 1;
    attempts += 1;
    let connected = false;
    const socket: Socket = connect({
      port,
      host: '127.0.0.1',
      localAddress: loopbackAddress(firstAddress + (i % addresses)),
    });
    socket.on('connect', () => {
      connected = true;
      connecting -= 1;
      open += 1;
      next();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (connected) open -= 1;
      else {
        connecting -= 1;
        failures += 1;
      }
      setTimeout(() => {
        waiting.push(i);
        next();
      }, 1_000);
      next();
    });
  }
}

next();
setInterval(() => process.stdout.write(`${JSON.stringify({ open, attempts, failures })}\n`), 250);
