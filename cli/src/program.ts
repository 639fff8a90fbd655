/** The `props` program: global options and every command, registered in one place. */
import { Command, CommanderError, Option } from 'commander';
import * as completion from './commands/completion';
import * as doctor from './commands/doctor';
import * as edges from './commands/edges';
import * as entries from './commands/entries';
import * as evaluateSlip from './commands/evaluateSlip';
import * as gameProps from './commands/gameProps';
import * as games from './commands/games';
import * as keys from './commands/keys';
import * as login from './commands/login';
import * as mcp from './commands/mcp';
import * as me from './commands/me';
import * as movement from './commands/movement';
import * as playerContext from './commands/playerContext';
import * as playerProps from './commands/playerProps';
import * as propHistory from './commands/propHistory';
import * as results from './commands/results';
import * as scan from './commands/scan';
import * as serve from './commands/serve';
import * as sports from './commands/sports';
import * as stats from './commands/stats';
import * as stream from './commands/stream';
import * as trackRecord from './commands/trackRecord';
import * as webhooks from './commands/webhooks';
import { CliApp, type CliDeps } from './context';
import { EXIT } from './errors';
import { printableLines } from './output/printable';

export const VERSION = '0.1.0';

/**
 * Every command, in help order. To add one: write `commands/<name>.ts` exporting
 * `register(program, app)`, import it above, and add it here. A command that sends one request
 * and renders the answer is declared with `requestCommand`, which makes its `register` (see
 * `commands/sports.ts`); one that does more writes its own (see `commands/doctor.ts`).
 */
const COMMANDS: { register(program: Command, app: CliApp): void }[] = [
  sports,
  games,
  gameProps,
  scan,
  playerProps,
  playerContext,
  propHistory,
  movement,
  entries,
  edges,
  evaluateSlip,
  stream,
  webhooks,
  results,
  trackRecord,
  me,
  login,
  doctor,
  keys,
  stats,
  serve,
  mcp,
  completion,
];

/**
 * Commands renamed after their route (the contract key, kebab-cased) → their new name. The old
 * name still runs, with a one-line notice on stderr, for one release (see CHANGELOG.md).
 */
export const DEPRECATED_COMMANDS: ReadonlyMap<string, string> = new Map([
  ['game', 'game-props'],
  ['player', 'player-props'],
  ['context', 'player-context'],
  ['history', 'prop-history'],
  ['movers', 'movement'],
  ['slip', 'evaluate-slip'],
  ['record', 'track-record'],
  ['watch', 'stream'],
  ['webhooks add', 'webhooks create'],
  ['webhooks rm', 'webhooks delete'],
  ['webhooks retry', 'webhooks retry-delivery'],
  ['webhooks rotate', 'webhooks rotate-secret'],
]);

/** The command at `path` (its words after `props`), or undefined. */
function commandAt(program: Command, path: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of path) command = command?.commands.find((c) => c.name() === word);
  return command;
}

/** A command's words after `props` (`webhooks create`). */
function pathOf(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

function addDeprecatedNames(program: Command, stderr: CliDeps['stderr']): void {
  const parents = new Set<Command>();
  for (const [old, name] of DEPRECATED_COMMANDS) {
    const command = commandAt(program, name.split(' '));
    command?.alias(old.split(' ').at(-1) as string);
    if (command?.parent) parents.add(command.parent);
  }
  for (const parent of parents)
    parent.hook('preSubcommand', (_, sub) => {
      const typed = [pathOf(parent), parent.args[0]].filter(Boolean).join(' ');
      if (DEPRECATED_COMMANDS.has(typed))
        stderr.write(`\`props ${typed}\` is deprecated and goes in the next release: use \`props ${pathOf(sub)}\`\n`);
    });
}

export function buildProgram(app: CliApp): Command {
  const program = new Command(app.deps.programName ?? 'props')
    .description('propsfeed: player-prop lines from PrizePicks and Underdog, merged')
    .version(VERSION)
    .addOption(new Option('--api-key <key>', 'API key (default: PROPS_API_KEY, then `props login`)'))
    .addOption(new Option('--base-url <url>', 'server address (default: PROPS_BASE_URL, then `props login`)'))
    .option('--json', "print the API's JSON as it came")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run `props --help` for usage)')
    .configureOutput({
      writeOut: (s) => app.deps.stdout.write(s),
      writeErr: (s) => app.deps.stderr.write(s),
      // A usage error quotes the argument or option it refuses, which came from elsewhere.
      outputError: (s, write) => write(printableLines(s)),
    })
    .exitOverride();
  for (const command of COMMANDS) command.register(program, app);
  addDeprecatedNames(program, app.deps.stderr);
  return program;
}

/** Runs the CLI and answers its exit code (0 ok, 1 error, 2 usage, 4 auth); never calls process.exit. */
export async function runCli(argv: string[], deps: CliDeps): Promise<number> {
  const app = new CliApp(deps);
  try {
    await buildProgram(app).parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    app.fail(app.output(), err);
  }
  return app.exitCode;
}
