/**
 * A test app listening on a real port for the stream tests, and the streams opened on it:
 * every stream and the app are closed after each test.
 */
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { buildTestApp, type TestApp, type TestAppOptions } from '../helpers/app';
import type { TestBoardSource } from '../helpers/board';
import { openStream, type SseClient } from './sseClient';

/** Registers the clean-up; `start` builds one app per test. */
export function streamApps() {
  let t: TestApp | undefined;
  let clients: SseClient[] = [];
  afterEach(async () => {
    for (const c of clients) c.close();
    clients = [];
    await t?.close();
    t = undefined;
  });
  return async function start(opts: TestAppOptions & { source: TestBoardSource }) {
    t = await buildTestApp(opts);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    /** A stream with the key as bearer (none: without, e.g. by token). */
    const open = async (path: string, key?: string, headers: Record<string, string> = {}) => {
      const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
      const c = await openStream(`http://127.0.0.1:${port}`, path, { ...auth, ...headers });
      clients.push(c);
      return c;
    };
    return { app: t, open };
  };
}
