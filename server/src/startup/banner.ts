/**
 * The words `props serve` says at start-up, as plain text: what it starts on, its progress,
 * where the API, the docs and the board page are, the demo keys of a first start (or how to
 * make a key on a later one), and its stopping. report.ts prints them on a terminal or as JSON.
 */

import { type Board, propCount } from '../board/types';
import type { Config } from '../config';
import type { BackfillProgress } from '../feed/backfill';
import type { CreatedKeyResult } from '../keys/issue';

/** Where the running server is; `board` only when the app serves a page at `/`. */
export interface Addresses {
  address: string;
  api: string;
  docs: string;
  /** The board page (GET /): set only when the app has that route, so the banner never names a page that is not there. */
  board?: string;
}

export function addressesOf(address: string, servesBoardPage: boolean): Addresses {
  return {
    address,
    api: `${address}/api/v1`,
    docs: `${address}/docs`,
    ...(servesBoardPage ? { board: `${address}/` } : {}),
  };
}

type SourceConfig = Pick<Config, 'PROPS_BOOKS' | 'PROPS_SIM_SEED'>;

function sourceOf(config: SourceConfig): string {
  return config.PROPS_BOOKS.length > 0
    ? `polling ${config.PROPS_BOOKS.join(' and ')}`
    : `simulated books, seed ${config.PROPS_SIM_SEED}`;
}

/** The first line: what starts, on which address, from which lines and store. */
export function startingLine(
  config: SourceConfig & Pick<Config, 'PROPS_HOST' | 'PROPS_PORT' | 'PROPS_DATA_DIR' | 'PROPS_DATABASE_URL'>,
  port: number,
): string {
  const on = port === 0 ? `${config.PROPS_HOST} (a free port)` : `http://${config.PROPS_HOST}:${port}`;
  const store = config.PROPS_DATABASE_URL ? 'PostgreSQL' : config.PROPS_DATA_DIR;
  return `propsfeed is starting on ${on}: ${sourceOf(config)}, store ${store}`;
}

/** The backfill's progress in a few words. */
export function progressText(progress: BackfillProgress): string {
  if (progress.stage === 'game logs') {
    return `  storing ${progress.logs.toLocaleString('en-US')} past game logs…`;
  }
  if (progress.step === progress.steps) return `  replayed today's lines (${progress.steps} steps); opening the API…`;
  return `  replaying today's lines: step ${progress.step} of ${progress.steps}…`;
}

/** The board at start-up in one line: its size, and where its lines come from. */
export function boardLine(board: Board, config: SourceConfig): string {
  const source = sourceOf(config);
  if (board.version === 0) return `board: loading (${source}); /readyz reports it once the first poll is in`;
  const count = (x: number, what: string) => `${x.toLocaleString('en-US')} ${what}${x === 1 ? '' : 's'}`;
  return `board: ${count(propCount(board), 'prop')} in ${count(board.games.length, 'game')} (${source})`;
}

/** The address block: API, docs, and the board page when there is one. */
export function addressLines(at: Addresses): string[] {
  return [
    `propsfeed listening on ${at.address}`,
    `  API    ${at.api}`,
    `  Docs   ${at.docs}`,
    // The board page's line: printed only when the app serves GET / (addressesOf).
    ...(at.board ? [`  Board  ${at.board}`] : []),
  ];
}

export const DEMO_KEYS_SAID = 'First start: one demo key per tier (shown only now; the store keeps only their hashes)';

/** A curl and a CLI command to paste, with the sharp demo key. */
export function tryItCommands(keys: CreatedKeyResult[], address: string, cli: string): string[] {
  const sharp = keys.find((k) => k.tier === 'sharp') ?? keys[0];
  // The CLI's default server is http://127.0.0.1:8787; name any other address.
  const cliEnv = address === 'http://127.0.0.1:8787' ? '' : `PROPS_BASE_URL=${address} `;
  return [
    `curl -H "Authorization: Bearer ${sharp?.key}" "${address}/api/v1/games?sport=nba"`,
    `${cliEnv}PROPS_API_KEY=${sharp?.key} ${cli} games --sport nba`,
  ];
}

export function demoKeysLines(keys: CreatedKeyResult[], address: string, cli: string): string[] {
  const width = Math.max(...keys.map((k) => k.tier.length));
  return [
    `${DEMO_KEYS_SAID}:`,
    ...keys.map((k) => `  ${k.tier.padEnd(width)}  ${k.key}`),
    '',
    'Try it:',
    ...tryItCommands(keys, address, cli).map((c) => `  ${c}`),
  ];
}

/**
 * A later start shows no key (the store keeps only hashes): the command that makes one, on
 * this server's store (PROPS_DATA_DIR or PROPS_DATABASE_URL repeated when set).
 */
export function makeKeyCommand(cli: string, env: NodeJS.ProcessEnv): string {
  const word = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  const store = env.PROPS_DATABASE_URL
    ? 'PROPS_DATABASE_URL=… '
    : env.PROPS_DATA_DIR
      ? `PROPS_DATA_DIR=${word(env.PROPS_DATA_DIR)} `
      : '';
  return `${store}${cli} keys create --tier sharp --label "my laptop"`;
}

export function laterStartLines(cli: string, env: NodeJS.ProcessEnv): string[] {
  return [
    'Keys are shown only on the first start. Make one (any tier: free, pro, sharp, enterprise) with:',
    `  ${makeKeyCommand(cli, env)}`,
  ];
}
