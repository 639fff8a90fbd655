/**
 * Holds connections with requests whose body never finishes arriving: what an attacker filling
 * a server's connection cap with slow uploads does. Run as a child process (its own
 * descriptors and event loop): `node --import tsx slowUploader.ts <port> <count> <addresses>`
 * spreads `count` connections over the loopback addresses loopbackAddress(0…addresses-1);
 * each sends a POST's headers promising a 64 KiB body, then one byte of it a second. A
 * connection the server closes is reopened 200 ms later. Prints a JSON line
 * `{ open, sending, attempts, closed }` every 250 ms until killed (`sending`: headers sent).
 */
import { connect, type Socket } from 'node:net';
import { loopbackAddress } from '../helpers/loopback';

const [port, count, addresses] = process.argv.slice(2).map(Number) as [number, number, number];
const HEAD =
  'POST /api/v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 65536\r\n\r\n{';

let open = 0;
let attempts = 0;
let closed = 0;
const sending = new Set<Socket>();

function start(i: number): void {
  attempts += 1;
  let connected = false;
  const socket = connect({ port, host: '127.0.0.1', localAddress: loopbackAddress(i % addresses) });
  socket.on('connect', () => {
    connected = true;
    open += 1;
    socket.write(HEAD);
    sending.add(socket);
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (connected) open -= 1;
    closed += 1;
    sending.delete(socket);
    setTimeout(() => start(i), 200);
  });
}

for (let i = 0; i < count; i++) start(i);
setInterval(() => {
  for (const s of sending) s.write(' ');
}, 1_000);
setInterval(() => process.stdout.write(`${JSON.stringify({ open, sending: sending.size, attempts, closed })}\n`), 250);
