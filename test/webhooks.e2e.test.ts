/**
 * Webhooks end to end, as the guide (docs/webhooks.md) tells them: its receiver example
 * (docs/examples/webhook-receiver.mjs, word for word) runs as a process of its own and verifies
 * what a real server sends it with `standardwebhooks`; the SDK registers the endpoint and reads
 * its delivery log; `verifyWebhook` accepts what the spec's own library signs and refuses
 * anything altered.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PropsFeed, verifyWebhook, WebhookVerificationError } from '@propsfeed/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../server/test/helpers/app';
import { buildBoard, type GameSpec, TestBoardSource } from '../server/test/helpers/board';

const repo = fileURLToPath(new URL('..', import.meta.url));
const examplePath = 'docs/examples/webhook-receiver.mjs';
const board = (step: number): GameSpec[] => [
  { id: 'pp_1', props: [{ player: 'Aaron Wilson', stat: 'points', line: 20.5 + step }] },
];
const source = new TestBoardSource(buildBoard(board(0)));
let server: TestApp;
let baseUrl = '';
let receiver: ChildProcess | undefined;
let listener: ChildProcess | undefined;
let printed = '';
const configHome = mkdtempSync(join(tmpdir(), 'props-webhooks-config-'));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  server = await buildTestApp({ source });
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
});

afterAll(async () => {
  receiver?.kill();
  listener?.kill();
  await server?.close();
  rmSync(configHome, { recursive: true, force: true });
});

const run = promisify(execFile);

/** `props …` as a user runs it (piped: tab-separated output). */
async function props(args: string[], key: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'cli/src/main.ts', ...args], {
      cwd: repo,
      env: { ...process.env, XDG_CONFIG_HOME: configHome, PROPS_BASE_URL: baseUrl, PROPS_API_KEY: key },
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('the webhook guide', () => {
  it('shows the receiver example as it is in docs/examples, in about ten lines of Node', () => {
    const guide = readFileSync(`${repo}docs/webhooks.md`, 'utf8');
    const block = /```js\n([\s\S]*?)```/.exec(guide)?.[1];
    const file = readFileSync(`${repo}${examplePath}`, 'utf8');
    expect(block).toBe(file);
    // The receiver itself, past its imports and the blank line after them: ten lines.
    const lines = file.trim().split('\n');
    expect(lines.length - lines.indexOf('') - 1).toBe(10);
  });

  it('the example receives and verifies what the server sends; the SDK registers it and reads the log', async () => {
    const port = await freePort();
    const client = new PropsFeed({ apiKey: server.keys.sharp, baseUrl });
    const created = await client.webhooks.create({ url: `http://127.0.0.1:${port}/`, events: ['prop.line_moved'] });
    receiver = spawn(process.execPath, [`${repo}${examplePath}`], {
      env: { ...process.env, WEBHOOK_SECRET: created.secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout?.on('data', (d) => {
      printed += String(d);
    });
    // Until it listens, the ping is refused: try until it is in.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ping = await client.webhooks.test(created.id);
      if (ping.status === 'succeeded') break;
      if (Date.now() > deadline) throw new Error(`the example receiver never answered: ${ping.error}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    source.publish(buildBoard(board(1)));
    const until = Date.now() + 15_000;
    while (!printed.includes('prop.line_moved') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const lines = printed.trim().split('\n');
    expect(lines.some((l) => / ping /.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^msg_[0-9a-f]{24} prop\.line_moved \{"row":\{"player":"Aaron Wilson"/);
    // The receiver has printed it; its 204 is written to the log a moment later.
    let log = await client.webhooks.deliveries(created.id, { status: 'succeeded' });
    while (!log.deliveries.some((d) => d.type === 'prop.line_moved') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      log = await client.webhooks.deliveries(created.id, { status: 'succeeded' });
    }
    expect(log.deliveries.map((d) => d.type)).toContain('prop.line_moved');
    expect(log.deliveries.every((d) => d.responseStatus === 204)).toBe(true);
    const [list, removed] = [await client.webhooks.list(), await client.webhooks.delete(created.id)];
    expect(list.webhooks.map((w) => w.id)).toContain(created.id);
    expect(removed).toEqual({ id: created.id, deleted: true });
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = JSON.stringify({
    type: 'ping',
    timestamp: new Date().toISOString(),
    data: { webhookId: 'wh_x', message: 'hi' },
  });
  const signed = (() => {
    const at = new Date();
    const signature = new Webhook(secret).sign('msg_1', at, body);
    return {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
  })();

  it('accepts what standardwebhooks signs, from a record of headers or a Headers object, and gives the typed event', () => {
    expect(verifyWebhook(body, signed, secret)).toEqual(JSON.parse(body));
    const event = verifyWebhook(new TextEncoder().encode(body), new Headers(signed), ['whsec_b2xk', secret]);
    expect(event.type === 'ping' && event.data.message).toBe('hi');
  });

  it('refuses an altered body, another secret, or an old timestamp', () => {
    expect(() => verifyWebhook(`${body} `, signed, secret)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, signed, 'whsec_b3RoZXIgc2VjcmV0IG9mIGVub3VnaCBsZW5ndGg=')).toThrow(
      WebhookVerificationError,
    );
    const old = { ...signed, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => verifyWebhook(body, old, secret)).toThrow(/timestamp/i);
  });
});

describe('props webhooks', () => {
  it('adds an endpoint, listens for its deliveries verifying each, pings it, shows its log and removes it', async () => {
    const key = server.keys.sharp;
    const port = await freePort();
    const added = await props(
      ['webhooks', 'create', `http://127.0.0.1:${port}/`, '--events', 'prop.line_moved', '--stat', 'points'],
      key,
    );
    expect(added.code, added.stderr).toBe(0);
    const [id, secret] = added.stdout.trim().split('\t') as [string, string];
    expect(id).toMatch(/^wh_/);
    expect(secret).toMatch(/^whsec_/);
    expect((await props(['webhooks', 'list'], key)).stdout).toContain(
      `${id}\thttp://127.0.0.1:${port}/\tprop.line_moved\tstats=points\tactive`,
    );

    let heard = '';
    listener = spawn(
      process.execPath,
      ['--import', 'tsx', 'cli/src/main.ts', 'webhooks', 'listen', '--port', String(port), '--secret', secret],
      { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    listener.stdout?.on('data', (d) => {
      heard += String(d);
    });
    const listening = new Promise<void>((resolve) =>
      listener?.stderr?.on('data', (d) => String(d).includes('Listening on') && resolve()),
    );
    await listening;

    const ping = await props(['webhooks', 'test', id], key);
    expect(ping.code, ping.stderr).toBe(0);
    expect(ping.stdout).toMatch(/^msg_[0-9a-f]{24}\tsucceeded\t200\t\d+\t\n$/);

    source.publish(buildBoard(board(5)));
    const until = Date.now() + 15_000;
    while (!heard.includes('prop.line_moved') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const lines = heard
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines[0]?.slice(1, 3)).toEqual(['verified', 'ping']);
    const moved = lines.find((l) => l[2] === 'prop.line_moved');
    expect(moved?.[3]).toMatch(/^Aaron Wilson points \d+(\.5)? \(-115\/-105\) → 25\.5 \(-115\/-105\) · pp_1$/);

    // A delivery it cannot verify is refused (401) and shown as such.
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,Zm9yZ2Vk',
      },
      body: '{"type":"ping"}',
    });
    expect(forged.status).toBe(401);
    const refusedBy = Date.now() + 5_000;
    while (!heard.includes('refused') && Date.now() < refusedBy) await new Promise((r) => setTimeout(r, 20));
    expect(heard.trim().split('\n').at(-1)).toMatch(/\trefused\t\tNo matching signature found\tmsg_forged$/);

    const log = await props(['webhooks', 'deliveries', id], key);
    expect(
      log.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(1, 5)),
    ).toEqual(
      expect.arrayContaining([
        ['prop.line_moved', 'succeeded', '1', '200'],
        ['ping', 'succeeded', '1', '200'],
      ]),
    );
    const removed = await props(['webhooks', 'delete', id], key);
    expect(removed.stderr).toBe(`Deleted ${id}; nothing more is sent to it.\n`);
  });

  it('tells a free key which tier has webhooks, and a missing secret how to give one', async () => {
    const free = await props(['webhooks', 'list'], server.keys.free);
    expect(free.code).toBe(1);
    expect(free.stderr).toMatch(/pro/);
    const noSecret = await props(['webhooks', 'listen'], server.keys.sharp);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain("props webhooks listen needs the endpoint's secret: --secret whsec_…");
  });
});
