/**
 * `props stats import <file.csv>`: player game logs into the server's store (PROPS_DATA_DIR or
 * PROPS_DATABASE_URL), for player context and projections. A file with any bad row imports
 * nothing and lists every problem with its line (exit 2).
 */
import type { Command } from 'commander';
import type { CliApp } from '../context';
import { CliError, EXIT } from '../errors';
import { type Output, toJson } from '../output/output';
import { onServerStore } from '../server';

/** The server's importer, as this command uses it. */
export type GameLogImporter = (file: string) => Promise<{ file: string; rows: number; imported: number }>;

/** Problems listed before "and N more". */
export const MAX_LISTED_PROBLEMS = 20;

export async function runStatsImport(importGameLogs: GameLogImporter, out: Output, json: boolean, file: string) {
  const result = await importGameLogs(file);
  if (json) return void out.stdout.write(toJson(result));
  const present = result.rows - result.imported;
  out.stdout.write(
    `Imported ${result.imported} row${result.imported === 1 ? '' : 's'} from ${result.file} into the game logs` +
      (present > 0 ? ` (${present} of ${result.rows} were already there).\n` : '.\n'),
  );
}

/** The import's refusal as one message: the problems, at most MAX_LISTED_PROBLEMS of them. */
export function describeImportProblems(message: string, errors: string[]): string {
  const listed = errors.slice(0, MAX_LISTED_PROBLEMS).map((e) => `  ${e}`);
  if (errors.length > MAX_LISTED_PROBLEMS) listed.push(`  … and ${errors.length - MAX_LISTED_PROBLEMS} more`);
  return [`${message}; nothing was imported:`, ...listed].join('\n');
}

export function register(program: Command, app: CliApp): void {
  const stats = program.command('stats').description('player game logs for context and projections');
  stats
    .command('import')
    .description(
      'import game logs from a CSV file (columns: date,sport,player,team,opponent,home_away,stat,value; see docs/server.md)',
    )
    .argument('<file.csv>', 'the CSV file')
    .option('--init', 'create the store if there is none yet (otherwise an unknown store is refused)')
    .action((file: string, _opts, cmd: Command) =>
      onServerStore(
        app,
        cmd,
        'stats import',
        ({ server, config, out, json, create, sayStore }) => {
          sayStore();
          return runStatsImport((f) => server.importGameLogCsv(f, config, { create }), out, json, file);
        },
        (err, server) =>
          err instanceof server.CsvImportError
            ? new CliError(describeImportProblems(err.message, err.errors), EXIT.usage)
            : undefined,
      ),
    );
}
