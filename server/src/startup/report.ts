/**
 * Where `props serve`'s start-up words go: on a terminal, a banner and a progress line
 * (`textReport`); elsewhere, or with PROPS_LOG_FORMAT=json, one JSON log line each
 * (`jsonReport`), so a collector reads every line of stdout as JSON.
 */
import type { Logger } from 'pino';
import type { BackfillProgress } from '../feed/backfill';
import type { CreatedKeyResult } from '../keys/issue';
import type { TerminalOut } from '../log/terminal';
import {
  type Addresses,
  addressLines,
  DEMO_KEYS_SAID,
  demoKeysLines,
  laterStartLines,
  makeKeyCommand,
  progressText,
  tryItCommands,
} from './banner';

export interface Ready {
  at: Addresses;
  boardLine: string;
  /** The demo keys of a first start; empty on a later one. */
  demoKeys: CreatedKeyResult[];
  /** How the user runs the CLI (`props`, `npx -y pnpm@10 -s props`). */
  cli: string;
  env: NodeJS.ProcessEnv;
}

export interface StartupReport {
  starting(line: string): void;
  backfill(progress: BackfillProgress): void;
  ready(ready: Ready): void;
  stopping(signal: string): void;
  stopped(): void;
}

export function textReport(out: TerminalOut): StartupReport {
  return {
    starting: (line) => out.line(line),
    backfill: (progress) => out.status(progressText(progress)),
    ready({ at, boardLine, demoKeys, cli, env }) {
      out.clearStatus();
      const keys = demoKeys.length > 0 ? demoKeysLines(demoKeys, at.address, cli) : laterStartLines(cli, env);
      const lines = [`  ${boardLine}`, '', ...addressLines(at), '', ...keys, '', 'Ctrl-C stops it. Log lines follow.'];
      for (const line of lines) out.line(line);
    },
    stopping: () =>
      out.line('Stopping: finishing the requests in flight and saving usage (Ctrl-C again quits at once)…'),
    stopped: () => out.line('Stopped.'),
  };
}

/** The same words as log lines, at info whatever PROPS_LOG_LEVEL says (they carry the address and the keys). */
export function jsonReport(log: Logger): StartupReport {
  let stage = '';
  return {
    starting: (line) => log.info(line),
    backfill(progress) {
      // A line per stage, not per step.
      if (progress.stage === stage) return;
      stage = progress.stage;
      const what =
        progress.stage === 'game logs'
          ? `storing ${progress.logs} past game logs`
          : `replaying today's lines in ${progress.steps} steps`;
      log.info(progress, `backfill: ${what}`);
    },
    ready({ at, boardLine, demoKeys, cli, env }) {
      log.info(at, `propsfeed listening on ${at.address}`);
      log.info(boardLine);
      if (demoKeys.length > 0) {
        const keys = Object.fromEntries(demoKeys.map((k) => [k.tier, k.key]));
        log.info({ demoKeys: keys, tryIt: tryItCommands(demoKeys, at.address, cli) }, DEMO_KEYS_SAID);
      } else {
        log.info(
          { makeKey: makeKeyCommand(cli, env) },
          'keys are shown only on the first start: make one with makeKey',
        );
      }
    },
    stopping: (signal) => log.info({ signal }, 'stopping: finishing the requests in flight and saving usage'),
    stopped: () => log.info('stopped'),
  };
}

/** What a `props serve` printing JSON lines said so far: its address and a first start's demo keys (what tests and scripts read). */
export function readStartup(output: string): { address?: string; demoKeys?: Record<string, string> } {
  const found: { address?: string; demoKeys?: Record<string, string> } = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const record = JSON.parse(line) as { address?: unknown; demoKeys?: unknown };
      if (typeof record.address === 'string') found.address = record.address;
      if (typeof record.demoKeys === 'object' && record.demoKeys !== null) {
        found.demoKeys = record.demoKeys as Record<string, string>;
      }
    } catch {
      // a line cut short while it is being written: read again later
    }
  }
  return found;
}
