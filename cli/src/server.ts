/**
 * The server package, for the commands that run the service or work on its store (`serve`,
 * `keys`, `stats import`). A CLI-only install does not have it: say what to install.
 */
import { CliError } from './errors';

type ServerPackage = typeof import('@propsfeed/server');

const SERVER_PACKAGE = '@propsfeed/server';

/** The server a clone's launcher loaded from its built bundle, when it found that fresh. */
let bundled: ServerPackage | undefined;

/**
 * Serves loadServer from the server's built bundle, already loaded: a clone's launcher
 * (cli/bin/props.js) runs the CLI from source but the server built, loaded before tsx is
 * registered (its hooks would double the bundle's loading time), so `props serve` starts
 * seconds sooner than from the server's TypeScript.
 */
export function useServerBundle(server: ServerPackage): void {
  bundled = server;
}

function isServerMissing(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${SERVER_PACKAGE}'`);
}

/** Loads the server package (seconds of start-up the other commands never pay). */
export async function loadServer(command: string): Promise<ServerPackage> {
  try {
    return bundled ?? (await import('@propsfeed/server'));
  } catch (err) {
    if (!isServerMissing(err)) throw err;
    throw new CliError(
      `\`props ${command}\` needs the propsfeed server, which this install does not include. ` +
        `Install it with \`npm i -g ${SERVER_PACKAGE}\`, then run \`props ${command}\` again (or \`propsfeed ${command}\`).`,
    );
  }
}
