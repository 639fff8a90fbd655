/**
 * The server package, for the commands that run the service or work on its store (`serve`,
 * `keys`, `stats import`). A CLI-only install does not have it: say what to install.
 */
import type { Command } from 'commander';
import type { CliApp, GlobalOptions } from './context';
import { CliError, EXIT } from './errors';
import type { Output } from './output/output';

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

/** What a store command's action gets: the server package, its parsed config, where to print. */
export interface StoreCommand {
  server: ServerPackage;
  config: ReturnType<ServerPackage['loadConfig']>;
  out: Output;
  json: boolean;
  /** --init: create the store when there is none. */
  create: boolean;
  /** Says which store (on stderr): once it is open, or before a command that opens it itself. */
  sayStore(): void;
}

/**
 * Runs a command on the server's store (`keys`, `stats import`): loads the server, parses the
 * config, runs `action` (which says which store, on stderr). Bad config is a usage error, a store
 * that does not exist an error; `refusal` turns the command's own input errors into a message.
 */
export async function onServerStore(
  app: CliApp,
  cmd: Command,
  command: string,
  action: (store: StoreCommand) => Promise<void>,
  refusal: (err: unknown, server: ServerPackage) => CliError | undefined = () => undefined,
): Promise<void> {
  const out = app.output();
  const opts = cmd.optsWithGlobals<GlobalOptions & { init?: boolean }>();
  let server: ServerPackage | undefined;
  try {
    server = await loadServer(command);
    const config = server.loadConfig(app.deps.env);
    const where = server.describeStore({ dataDir: config.PROPS_DATA_DIR, databaseUrl: config.PROPS_DATABASE_URL });
    const sayStore = () => out.message(`Store: ${where}`);
    await action({ server, config, out, json: opts.json === true, create: opts.init === true, sayStore });
  } catch (err) {
    const refused = server && refusal(err, server);
    if (refused) app.fail(out, refused);
    else if (server && err instanceof server.ConfigError) app.fail(out, new CliError(err.message, EXIT.usage));
    else if (server && err instanceof server.StoreMissingError) app.fail(out, new CliError(err.message, EXIT.error));
    else app.fail(out, err);
  }
}
