/** `props login`: checks a key against the server, then stores key and base URL for later commands. */
import type { KeyInfo } from '@propsfeed/contract';
import { PropsFeed } from '@propsfeed/sdk';
import type { Command } from 'commander';
import { configPath, resolveConnection, type StoredConfig, writeStoredConfig } from '../config';
import type { CliApp, GlobalOptions } from '../context';
import { CliError, EXIT } from '../errors';
import type { Output } from '../output/output';
import { toJson } from '../output/output';
import { readSecret } from '../secret';

export interface LoginDeps {
  out: Output;
  json: boolean;
  /** The key from --api-key, else asked for (hidden) or read from piped stdin. */
  key: () => Promise<string>;
  baseUrl: string;
  verify: (apiKey: string, baseUrl: string) => Promise<KeyInfo>;
  save: (config: StoredConfig) => Promise<string>;
  /** PROPS_API_KEY, which later commands send instead of the stored key. */
  envKey?: string;
}

export async function runLogin(deps: LoginDeps, opts: { verify: boolean }): Promise<void> {
  const apiKey = (await deps.key()).trim();
  if (!/^pf_[0-9A-Za-z]{32}$/.test(apiKey)) {
    throw new CliError(
      'That is not a propsfeed API key: keys look like pf_ followed by 32 letters and digits.',
      EXIT.usage,
    );
  }
  const info = opts.verify ? await deps.verify(apiKey, deps.baseUrl) : undefined;
  const path = await deps.save({ apiKey, baseUrl: deps.baseUrl });
  if (deps.json) {
    deps.out.stdout.write(toJson(info ?? { keyPrefix: apiKey.slice(0, 8), baseUrl: deps.baseUrl }));
  }
  const who = info
    ? `a ${info.tier} key (${info.keyPrefix}…, "${info.label}")`
    : `key ${apiKey.slice(0, 8)}… (not checked)`;
  deps.out.message(`Logged in to ${deps.baseUrl} with ${who}. Saved to ${path}.`);
  if (deps.envKey && deps.envKey !== apiKey) {
    // Later commands would still send the variable's key, not the one just stored.
    deps.out.message('PROPS_API_KEY is set and wins over the stored key: `unset PROPS_API_KEY` to use this one.');
  }
}

export function register(program: Command, app: CliApp): void {
  program
    .command('login')
    .description('check an API key and store it (and --base-url) for later commands')
    .option('--no-verify', 'store the key without asking the server (e.g. while it is down)')
    .addHelpText('after', '\nThe key comes from --api-key, else a hidden prompt, else the first line of stdin.')
    .action(async (opts: { verify: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const out = app.output();
      try {
        const { baseUrl } = await resolveConnection(globals, app.deps.env);
        await runLogin(
          {
            out,
            json: globals.json === true,
            key: async () =>
              globals.apiKey ?? readSecret(app.deps.stdin ?? process.stdin, app.deps.stderr, 'API key: '),
            baseUrl,
            verify: (apiKey, url) =>
              new PropsFeed({
                apiKey,
                baseUrl: url,
                maxRetries: 0,
                ...(app.deps.fetch ? { fetch: app.deps.fetch } : {}),
              }).me(),
            save: (config) => writeStoredConfig(config, app.deps.env),
            ...(app.deps.env.PROPS_API_KEY ? { envKey: app.deps.env.PROPS_API_KEY } : {}),
          },
          opts,
        );
      } catch (err) {
        app.fail(out, err, { keySource: 'login' });
        if (app.exitCode === EXIT.auth) out.message(`Nothing was saved; ${configPath(app.deps.env)} is unchanged.`);
      }
    });
}
