/**
 * `props keys create | list | revoke`: key administration on the server's own store
 * (PROPS_DATA_DIR or PROPS_DATABASE_URL), whether or not a server is running.
 */
import { MAX_SCAN_LIMIT, TIERS, type Tier } from '@propsfeed/contract';
import type { KeyInputField } from '@propsfeed/server';
import { type Command, Option } from 'commander';
import type { CliApp } from '../context';
import { CliError, EXIT } from '../errors';
import { intParser } from '../options';
import { formatCount } from '../output/format';
import { type Output, toJson } from '../output/output';
import { printable } from '../output/printable';
import { cell } from '../output/table';
import { onServerStore } from '../server';

/** The flag of `props keys create` that sets each input a key can be refused for. */
const FLAG_OF: Record<KeyInputField, string> = {
  tier: '--tier',
  label: '--label',
  rpm: '--rpm',
  rpd: '--rpd',
  scanLimit: '--scan-limit',
};

/** The part of the server's KeyAdmin these commands use. */
export interface KeyAdminPort {
  create(input: { tier: Tier; label: string; rpm?: number; rpd?: number; scanLimit?: number }): Promise<{
    key: string;
    keyPrefix: string;
    tier: Tier;
    label: string;
    limits: { requestsPerMinute: number; requestsPerDay: number; scanLimit: number };
  }>;
  list(): Promise<
    {
      keyPrefix: string;
      tier: Tier;
      label: string;
      createdAt: string;
      revokedAt: string | null;
      limits: { requestsPerMinute: number; requestsPerDay: number; scanLimit: number };
    }[]
  >;
  revoke(prefix: string): Promise<boolean>;
}

export interface CreateOptions {
  tier: Tier;
  label: string;
  rpm?: number;
  rpd?: number;
  scanLimit?: number;
}

export async function runKeysCreate(admin: KeyAdminPort, out: Output, json: boolean, opts: CreateOptions) {
  const created = await admin.create(opts);
  if (json) return void out.stdout.write(toJson(created));
  if (!out.terminal) return void out.stdout.write(`${created.key}\n`);
  const { limits } = created;
  out.stdout.write(
    `Created a ${created.tier} key "${printable(created.label)}". It is shown only now; keep it somewhere safe:\n\n` +
      `  ${out.c.bold(created.key)}\n\n` +
      out.note(
        `${formatCount(limits.requestsPerMinute)}/min · ${formatCount(limits.requestsPerDay)}/day · scans up to ${formatCount(limits.scanLimit)} rows`,
      ),
  );
}

export async function runKeysList(admin: KeyAdminPort, out: Output, json: boolean) {
  const keys = await admin.list();
  if (json) return void out.stdout.write(toJson(keys));
  const rows = keys.map((k) => [
    cell(k.keyPrefix),
    cell(k.tier),
    cell(k.label),
    cell(k.createdAt.slice(0, 16).replace('T', ' '), k.createdAt),
    cell(k.revokedAt ? out.c.red('revoked') : out.c.green('active'), k.revokedAt ?? ''),
    cell(formatCount(k.limits.requestsPerMinute), String(k.limits.requestsPerMinute)),
    cell(formatCount(k.limits.requestsPerDay), String(k.limits.requestsPerDay)),
  ]);
  const columns = [
    { header: 'prefix' },
    { header: 'tier' },
    { header: 'label', min: 10 },
    { header: 'created (utc)' },
    { header: 'state' },
    { header: 'per min', align: 'right' as const },
    { header: 'per day', align: 'right' as const },
  ];
  const active = keys.filter((k) => !k.revokedAt).length;
  out.stdout.write(out.table(columns, rows) + out.note(`${keys.length} keys, ${active} active`));
}

export async function runKeysRevoke(admin: KeyAdminPort, out: Output, prefix: string) {
  if (!(await admin.revoke(prefix))) {
    throw new CliError(`No active key has the prefix ${prefix}. Run \`props keys list\` to see them.`);
  }
  out.message(`Revoked ${prefix}. Servers refuse it within a second.`);
}

/**
 * Opens the server's key store, runs one action, closes it; store and input errors become
 * messages. Says which store it opened (on stderr), and opens only one that exists unless
 * `--init` asks for a new one: a key made in a store no server reads is a key that never works.
 */
async function withAdmin(
  app: CliApp,
  cmd: Command,
  action: (admin: KeyAdminPort, out: Output, json: boolean) => Promise<void>,
) {
  await onServerStore(
    app,
    cmd,
    'keys',
    async ({ server, config, out, json, create, sayStore }) => {
      const admin = await server.openKeyAdmin(config, { create });
      sayStore();
      try {
        await action(admin, out, json);
      } finally {
        await admin.close();
      }
    },
    (err, server) =>
      err instanceof server.KeyInputError
        ? new CliError(`${FLAG_OF[err.field]}: ${err.problem}`, EXIT.usage)
        : undefined,
  );
}

const INIT_HELP = 'create the store if there is none yet (otherwise an unknown store is refused)';

export function register(program: Command, app: CliApp): void {
  const keys = program
    .command('keys')
    .description("manage API keys in the server's store (PROPS_DATA_DIR or PROPS_DATABASE_URL)");
  keys
    .command('create')
    .description('make a key; it is printed once')
    .addOption(new Option('--tier <tier>', 'tier of the key').choices(TIERS).makeOptionMandatory())
    .requiredOption('--label <label>', 'who or what the key is for')
    .option('--rpm <n>', 'enterprise: requests per minute', intParser(1, 1_000_000_000))
    .option('--rpd <n>', 'enterprise: requests per day', intParser(1, 1_000_000_000))
    .option('--scan-limit <n>', `enterprise: scan row cap (at most ${MAX_SCAN_LIMIT})`, intParser(1, MAX_SCAN_LIMIT))
    .option('--init', INIT_HELP)
    .action((opts: CreateOptions, cmd: Command) =>
      withAdmin(app, cmd, (admin, out, json) => runKeysCreate(admin, out, json, opts)),
    );
  keys
    .command('list')
    .description('every key, revoked ones included')
    .option('--init', INIT_HELP)
    .action((_opts, cmd: Command) => withAdmin(app, cmd, (admin, out, json) => runKeysList(admin, out, json)));
  keys
    .command('revoke')
    .description('revoke the active key with this prefix')
    .argument('<prefix>', 'the key prefix shown by `props keys list`, e.g. pf_a1B2c')
    .action((prefix: string, _opts, cmd: Command) =>
      withAdmin(app, cmd, (admin, out) => runKeysRevoke(admin, out, prefix)),
    );
}
