/**
 * A sign-up flood from many loopback source addresses (a /24 each, so no per-network
 * ceiling holds it back) against a server in a child process: it stops at the ceilings for
 * everyone (each network's first key of the day under its own, 10 times the shared one, then
 * the shared one), and another client's requests answer as fast as when the server is idle. The
 * flood comes from a child process (signupFlooder.ts) at a steady 150 sign-ups a second, a
 * connection each (9,000 a minute against a ceiling of 40), in phases that alternate with idle
 * ones: what is measured is what each sign-up costs everyone else (before the ceiling, every
 * new key reloaded the key table), not how a saturated CPU queues requests. The median is
 * compared: on a shared 2-core machine the tail moves with everyone else's load.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_KEYS_FACTOR } from '../../src/keys/signupGate';
import { loopbackRequest, quantile } from '../helpers/loopback';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const PER_MINUTE = 40;
const PER_SECOND = 150;
const PHASES = 6;
const PHASE_MS = 800;
const ATTEMPTS = (PHASES * PHASE_MS * PER_SECOND) / 1000;
/** First keys of the day under their own ceiling, then the shared one (keys/signupGate.ts). */
const CREATED = PER_MINUTE * FIRST_KEYS_FACTOR + PER_MINUTE;

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-signup-flood-'));
let server: ServeChild;

export function signupFloodSuite(): void {
  describe('a sign-up flood from rotating addresses', () => {
    beforeAll(async () => {
      server = await startServeChild({
        PROPS_DATA_DIR: dataDir,
        PROPS_SIGNUP_PER_MINUTE: String(PER_MINUTE),
        // One real book at a closed loopback port: no simulator backfill competing for the CPU.
        PROPS_BOOKS: 'prizepicks',
        PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
      });
    }, 30_000);
    afterAll(async () => {
      await server?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('stops at the ceilings for everyone while other clients answer as fast as when idle', async () => {
      const key = server.demoKeys().enterprise;
      expect(key).toBeDefined();
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const probe = async () =>
        (
          await loopbackRequest({
            port: server.port,
            path: '/api/v1/me',
            headers: { authorization: `Bearer ${key}` },
            agent,
          })
        ).ms;
      for (let i = 0; i < 30; i++) await probe();
      const probeFor = async (ms: number) => {
        const taken: number[] = [];
        for (const until = performance.now() + ms; performance.now() < until; ) taken.push(await probe());
        return taken;
      };
      const flooder = spawn(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'signupFlooder.ts'), String(server.port), String(PER_SECOND)],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let printed = '';
      flooder.stdout?.on('data', (d) => {
        printed += String(d);
      });
      // Lines after `ready`: one per burst answered.
      const bursts = () => printed.split('\n').length - 2;
      await expect.poll(() => printed, { timeout: 15_000, interval: 10 }).toContain('ready');
      // Flooded and idle phases in turn, so both meet the machine's other load alike.
      const idle: number[] = [];
      const during: number[] = [];
      for (let phase = 0; phase < PHASES; phase++) {
        idle.push(...(await probeFor(PHASE_MS)));
        flooder.stdin?.write(`${(PHASE_MS * PER_SECOND) / 1000}\n`);
        while (bursts() <= phase) during.push(await probe());
      }
      flooder.stdin?.end();
      agent.destroy();
      const { statuses, refusal } = JSON.parse(printed.trim().split('\n').at(-1) ?? '{}') as {
        statuses: Record<number, number>;
        refusal?: { body: string; retryAfter: unknown };
      };

      const created = statuses[201] ?? 0;
      const [idleP50, idleP90, duringP50, duringP90] = [
        quantile(idle, 0.5),
        quantile(idle, 0.9),
        quantile(during, 0.5),
        quantile(during, 0.9),
      ];
      console.log(
        `sign-up flood: ${ATTEMPTS} attempts from ${ATTEMPTS} /24s at ${PER_SECOND}/s, ` +
          `${created} keys made (ceilings ${PER_MINUTE * FIRST_KEYS_FACTOR} first keys + ${PER_MINUTE} others /min), statuses ${JSON.stringify(statuses)}; ` +
          `GET /me p50/p90 idle ${idleP50.toFixed(2)}/${idleP90.toFixed(2)} ms, ` +
          `during ${duringP50.toFixed(2)}/${duringP90.toFixed(2)} ms (${during.length} probes)`,
      );
      expect(created).toBe(CREATED);
      expect(statuses[429]).toBe(ATTEMPTS - CREATED);
      expect(JSON.parse(refusal?.body ?? '{}')).toMatchObject({
        error: 'rate_limited',
        message: expect.stringMatching(/new free keys/),
      });
      expect(Number(refusal?.retryAfter)).toBeGreaterThan(0);
      expect(during.length).toBeGreaterThan(20);
      expect(duringP50).toBeLessThanOrEqual(2 * idleP50);
    }, 60_000);
  });
}
