/** `props serve`: runs the API server (embedded SQLite and simulated books by default). */
import type { Command } from 'commander';
import type { CliApp } from '../context';
import { intParser } from '../options';
import { loadServer } from '../server';

export function register(program: Command, app: CliApp): void {
  program
    .command('serve')
    .description('run the propsfeed server (embedded SQLite and simulated books by default)')
    .option('-p, --port <port>', 'listen port (default PROPS_PORT or 8787)', intParser(0, 65535))
    .action(async (opts: { port?: number }) => {
      const { serve, ConfigError } = await loadServer('serve');
      try {
        await serve({ port: opts.port });
      } catch (err) {
        if (err instanceof ConfigError) {
          app.deps.stderr.write(`${err.message}\n`);
          app.exitCode = 2;
          return;
        }
        app.fail(app.output(), err);
      }
    });
}
