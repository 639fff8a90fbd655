/**
 * The simulated books' own thread (started by sim/books.ts): renders and serves both books'
 * JSON on loopback, so the API thread only fetches, parses and merges it, as it does the real
 * books'. workerData: `{ seed, offsetMs, host }`; posts `{ prizepicksUrl, underdogUrl }` once
 * listening, and closes on the message `'close'`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSimServer } from './server';
import { SimWorld } from './world';

export interface SimBooksData {
  seed: number;
  /** The simulated clock's lead over the machine's (PROPS_SIM_CLOCK), in ms. */
  offsetMs: number;
  host: string;
}

const port = parentPort;
if (!port) throw new Error('sim/worker.ts runs as a worker thread (sim/books.ts starts it)');
const { seed, offsetMs, host } = workerData as SimBooksData;
const server = await startSimServer(new SimWorld(seed), () => Date.now() + offsetMs, host);
port.on('message', (message) => {
  if (message === 'close') void server.close().then(() => port.close());
});
port.postMessage({ prizepicksUrl: server.prizepicksUrl, underdogUrl: server.underdogUrl });
