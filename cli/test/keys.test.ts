/** `props keys` over a fake admin: what is printed in each mode, and a revoke that finds nothing. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type KeyAdminPort, runKeysCreate, runKeysList, runKeysRevoke } from '../src/commands/keys';
import { runMe } from '../src/commands/me';
import { runCli } from '../src/program';
import * as data from './data';
import { capture, fakeClient, testContext } from './harness';

const limits = { requestsPerMinute: 120, requestsPerDay: 20000, scanLimit: 1000 };
const key = `pf_${'Ab1'.repeat(10)}Ab`;

function fakeAdmin(): KeyAdminPort & { revoked: string[] } {
  const revoked: string[] = [];
  return {
    revoked,
    create: async (input) => ({ key, keyPrefix: key.slice(0, 8), tier: input.tier, label: input.label, limits }),
    list: async () => [
      {
        keyPrefix: 'pf_Ab1Ab',
        tier: 'pro',
        label: 'laptop',
        createdAt: '2026-11-21T10:00:00.000Z',
        revokedAt: null,
        limits,
      },
      {
        keyPrefix: 'pf_Zz9Zz',
        tier: 'free',
        label: 'old',
        createdAt: '2026-11-20T09:30:00.000Z',
        revokedAt: '2026-11-21T08:00:00.000Z',
        limits: { requestsPerMinute: 30, requestsPerDay: 1000, scanLimit: 100 },
      },
    ],
    revoke: async (prefix) => {
      if (prefix !== 'pf_Ab1Ab') return false;
      revoked.push(prefix);
      return true;
    },
  };
}

describe('props keys', () => {
  it('create shows the key once on a terminal, and only the key when piped', async () => {
    const terminal = testContext(fakeClient({}), { terminal: true });
    await runKeysCreate(fakeAdmin(), terminal.ctx.out, false, { tier: 'pro', label: 'laptop' });
    expect(terminal.stdout.text).toBe(
      `Created a pro key "laptop". It is shown only now; keep it somewhere safe:\n\n  ${key}\n\n` +
        '120/min · 20,000/day · scans up to 1,000 rows\n',
    );
    const piped = testContext(fakeClient({}), { terminal: false });
    await runKeysCreate(fakeAdmin(), piped.ctx.out, false, { tier: 'pro', label: 'laptop' });
    expect(piped.stdout.text).toBe(`${key}\n`);
  });

  it('list shows every key with its state', async () => {
    const terminal = testContext(fakeClient({}), { terminal: true });
    await runKeysList(fakeAdmin(), terminal.ctx.out, false);
    expect(terminal.stdout.text).toBe(
      [
        'PREFIX    TIER  LABEL   CREATED (UTC)     STATE    PER MIN  PER DAY',
        'pf_Ab1Ab  pro   laptop  2026-11-21 10:00  active       120   20,000',
        'pf_Zz9Zz  free  old     2026-11-20 09:30  revoked       30    1,000',
        '2 keys, 1 active',
        '',
      ].join('\n'),
    );
    const piped = testContext(fakeClient({}), { terminal: false });
    await runKeysList(fakeAdmin(), piped.ctx.out, false);
    expect(piped.stdout.text.split('\n')[1]).toBe(
      'pf_Zz9Zz\tfree\told\t2026-11-20T09:30:00.000Z\t2026-11-21T08:00:00.000Z\t30\t1000',
    );
  });

  it('revoke confirms on stderr, and refuses an unknown prefix', async () => {
    const admin = fakeAdmin();
    const { ctx, stderr } = testContext(fakeClient({}), { terminal: true });
    await runKeysRevoke(admin, ctx.out, 'pf_Ab1Ab');
    expect(admin.revoked).toEqual(['pf_Ab1Ab']);
    expect(stderr.text).toBe('Revoked pf_Ab1Ab. Servers refuse it within a second.\n');
    await expect(runKeysRevoke(admin, ctx.out, 'pf_nope')).rejects.toThrow(
      'No active key has the prefix pf_nope. Run `props keys list` to see them.',
    );
  });

  it('shows a stored label that would steer the terminal as escapes (keys list, keys create, me), on a terminal and piped', async () => {
    // Stored before the contract refused control characters, or written to the store directly.
    const hostile = '\u001b]0;owned\u0007\u001b[2J\u001b[31mred\u0000\u202Eevil\tx';
    const admin = fakeAdmin();
    const listed = await admin.list();
    const withHostile: KeyAdminPort = { ...admin, list: async () => [{ ...listed[0]!, label: hostile }] };
    const shown = String.raw`\x1b]0;owned\x07\x1b[2J\x1b[31mred\x00\u202eevil\tx`;
    for (const terminal of [true, false]) {
      const { ctx, stdout } = testContext(fakeClient({}), { terminal, color: true, columns: 200 });
      await runKeysList(withHostile, ctx.out, false);
      expect(stdout.text).toContain(shown);
      for (const raw of ['\u0007', '\u0000', '\u202E', '\u001b]', '\u001b[2J', '\u001b[31mred']) {
        expect(stdout.text).not.toContain(raw);
      }
    }
    const { ctx, stdout } = testContext(fakeClient({}), { terminal: true });
    await runKeysCreate(fakeAdmin(), ctx.out, false, { tier: 'pro', label: hostile });
    expect(stdout.text).toContain(`key "${shown}"`);
    for (const terminal of [true, false]) {
      const me = testContext(fakeClient({ me: async () => ({ ...data.me, label: hostile }) }), { terminal });
      await runMe(me.ctx);
      expect(me.stdout.text).toContain(shown);
    }
  });
});

describe('props keys on a real store', () => {
  it('names the store it opened, and refuses to create one without --init', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsfeed-cli-keys-'));
    const store = `SQLite ${join(dir, 'data', 'propsfeed.db')}`;
    const props = async (...argv: string[]) => {
      const stdout = capture(false);
      const stderr = capture(false);
      const code = await runCli(argv, { stdout, stderr, env: { PROPS_DATA_DIR: join(dir, 'data') } });
      return { code, stdout: stdout.text, stderr: stderr.text };
    };
    try {
      expect(await props('keys', 'list')).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `There is no propsfeed store at ${store}. Point PROPS_DATA_DIR (or PROPS_DATABASE_URL) at the store ` +
          'your server uses, or pass --init to create a new, empty one there.\n',
      });
      expect(existsSync(join(dir, 'data'))).toBe(false);
      expect((await props('keys', 'revoke', 'pf_abcde')).code).toBe(1);
      const created = await props('keys', 'create', '--tier', 'pro', '--label', 'laptop', '--init');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^pf_[A-Za-z0-9]{32}\n$/);
      expect(created.stderr).toBe(`Store: ${store}\n`);
      const listed = await props('keys', 'list');
      expect(listed).toMatchObject({ code: 0, stderr: `Store: ${store}\n` });
      expect(listed.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
