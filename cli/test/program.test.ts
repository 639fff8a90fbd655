/** The whole program in process: parsing, global options, and the exit code of each outcome. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/program';
import * as data from './data';
import { capture } from './harness';

function deps(answer: (url: string, init: RequestInit) => Response) {
  const stdout = capture(false);
  const stderr = capture(false);
  const seen: { url: string; auth?: string }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    seen.push({ url, auth: (init.headers as Record<string, string>).authorization });
    return answer(url, init);
  };
  return { stdout, stderr, seen, env: { XDG_CONFIG_HOME: '/nonexistent-props-test' }, fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('runCli', () => {
  it('prints the version and help with exit 0', async () => {
    const d = deps(() => json(500, {}));
    expect(await runCli(['--version'], d)).toBe(0);
    expect(d.stdout.text).toBe('0.1.0\n');
    expect(await runCli(['scan', '--help'], d)).toBe(0);
    expect(d.stdout.text).toContain('--min-books <n>');
    expect(d.stdout.text).toContain('--api-key <key>');
  });

  it("prints the failed request's id after the sentence, unless it is unsafe to print", async () => {
    const refusal = { error: 'event_not_found', message: 'no game pp_1' };
    const d = deps(() => json(404, refusal, { 'x-request-id': 'req-7f3a' }));
    expect(await runCli(['game-props', 'pp_1', '--base-url', 'http://api.test', '--api-key', 'pf_x'], d)).toBe(1);
    expect(d.stderr.text).toMatch(/^No game pp_1\. .*\nRequest id: req-7f3a\n$/);
    const hostile = deps(() => json(404, refusal, { 'x-request-id': 'x y<z>' }));
    await runCli(['game-props', 'pp_1', '--base-url', 'http://api.test', '--api-key', 'pf_x'], hostile);
    expect(hostile.stderr.text).not.toContain('Request id');
  });

  it('runs a command by its old name with a one-line notice on stderr, for one release', async () => {
    const refusal = { error: 'event_not_found', message: 'no game pp_1' };
    const d = deps(() => json(404, refusal));
    expect(await runCli(['--api-key', 'pf_x', 'game', 'pp_1', '--base-url', 'http://api.test'], d)).toBe(1);
    expect(d.stderr.text).toMatch(
      /^`props game` is deprecated and goes in the next release: use `props game-props`\nNo game pp_1\. /,
    );
    const renamed = deps(() => json(404, refusal));
    await runCli(['game-props', 'pp_1', '--base-url', 'http://api.test', '--api-key', 'pf_x'], renamed);
    expect(renamed.stderr.text).not.toContain('deprecated');
  });

  it('exits 2 on an unknown command or a bad option value', async () => {
    const d = deps(() => json(500, {}));
    expect(await runCli(['bogus'], d)).toBe(2);
    expect(await runCli(['games', '--sport', 'cricket'], d)).toBe(2);
    expect(await runCli(['scan', '--sort', 'price'], d)).toBe(2);
    expect(await runCli(['results', '--date', '2026-02-30'], d)).toBe(2);
    expect(await runCli(['track-record', '--min-edge', '0.03'], d)).toBe(2);
    expect(await runCli(['stream', '--min-edge', '2'], d)).toBe(2);
    expect(await runCli(['track-record', '--method', 'none'], d)).toBe(2);
    expect(await runCli(['keys', 'create', '--tier', 'enterprise', '--label', 'x', '--rpm', 'abc'], d)).toBe(2);
    expect(await runCli(['keys', 'create', '--tier', 'enterprise', '--label', 'x', '--scan-limit', '0'], d)).toBe(2);
    expect(d.stderr.text).toContain(
      "option '--rpm <n>' argument 'abc' is invalid. a whole number from 1 to 1000000000",
    );
    expect(d.stderr.text).toContain("option '--scan-limit <n>' argument '0' is invalid. a whole number from 1 to 5000");
    expect(d.stderr.text).toContain('a UTC day, YYYY-MM-DD');
    expect(d.stderr.text).toContain('one of 0, 0.02, 0.05, 0.1');
    expect(d.seen).toEqual([]);
  });

  it('escapes the argument a usage error quotes back, as any text from elsewhere', async () => {
    const d = deps(() => json(500, {}));
    expect(await runCli(['edges', '--entry', 'b\u001b]0;owned\u0007'], d)).toBe(2);
    expect(await runCli(['games', '--sp\u001b[2Jort', 'nba'], d)).toBe(2);
    expect(d.stderr.text).toContain("argument 'b\\x1b]0;owned\\x07' is invalid");
    expect(d.stderr.text).toContain("unknown option '--sp\\x1b[2Jort'");
    expect(d.stderr.text).not.toContain('\u001b');
    expect(d.stderr.text).not.toContain('\u0007');
  });

  it('exits 2 with a sentence naming where a base URL that is no http address came from', async () => {
    const d = deps(() => json(200, data.games));
    expect(await runCli(['games', '--api-key', 'pf_x', '--base-url', 'notaurl'], d)).toBe(2);
    expect(d.stderr.text).toBe(
      "--base-url is 'notaurl', which is not an http:// or https:// address (e.g. http://127.0.0.1:8787).\n",
    );
    const fromEnv = { ...deps(() => json(200, data.games)), env: { PROPS_BASE_URL: 'ftp://h', PROPS_API_KEY: 'pf_x' } };
    expect(await runCli(['games'], fromEnv)).toBe(2);
    expect(fromEnv.stderr.text).toMatch(/^PROPS_BASE_URL is 'ftp:\/\/h', which is not/);
    expect([...d.seen, ...fromEnv.seen]).toEqual([]);
    // A config directory that can be written, so only the base URL can stop the login.
    const login = {
      ...deps(() => json(200, {})),
      env: { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'props-login-')) },
    };
    const key = `pf_${'a'.repeat(32)}`;
    expect(await runCli(['login', '--no-verify', '--api-key', key, '--base-url', 'notaurl'], login)).toBe(2);
    expect(login.stderr.text).toMatch(/^--base-url is 'notaurl', which is not/);
  });

  it("props results asks for the day and filters given; a free key asking for today hears it is pro's", async () => {
    const d = deps(() => json(200, data.results));
    const args = ['--base-url', 'http://api.test', '--api-key', 'pf_x'];
    expect(
      await runCli(['results', '--date', '2026-11-21', '--player', 'Nikola Jokic', '--stat', 'rebounds', ...args], d),
    ).toBe(0);
    expect(d.seen[0]?.url).toBe(
      'http://api.test/api/v1/props/results?date=2026-11-21&player=Nikola%20Jokic&stat=rebounds',
    );
    const refusal = { error: 'route_not_in_tier', message: "today's results are not included", requiredTier: 'pro' };
    const today = deps(() => json(403, refusal));
    expect(await runCli(['results', '--date', '2026-11-22', ...args], today)).toBe(1);
    expect(today.stderr.text).toContain(
      "today's list of results is not included in your tier. It is available on the pro tier and above.",
    );
  });

  it('sends the --api-key flag to --base-url, wherever the flags sit', async () => {
    const d = deps(() => json(200, data.games));
    expect(await runCli(['games', '--api-key', 'pf_flag', '--base-url', 'http://api.test:1/'], d)).toBe(0);
    expect(d.seen).toEqual([{ url: 'http://api.test:1/api/v1/games', auth: 'Bearer pf_flag' }]);
    expect(d.stdout.text.split('\n')[0]).toBe(
      'pp_8812345\tLos Angeles Lakers\tDenver Nuggets\t2026-11-21T23:10:00.000Z\ttrue\tlive\t54-61\tprizepicks,underdog',
    );
  });

  it('exits 4 when the key is missing or rejected', async () => {
    const d = deps(() => json(401, { error: 'missing_api_key', message: 'no key' }));
    expect(await runCli(['me'], d)).toBe(4);
    expect(d.stderr.text).toBe('No API key. Run `props login`, pass --api-key, or set PROPS_API_KEY.\n');
    expect(d.stdout.text).toBe('');
  });
});
