/** `props serve`: runs the API server (embedded SQLite and simulated books by default). */
import type { Command } from 'commander';
import type { CliApp } from '../context';
import { intParser } from '../options';
import { loadServer } from '../server';

/**
 * How the user runs this CLI, for the server's "Try it" line: from a clone's sources (the
 * pnpm script, or tsx under a process manager) through the pnpm script; installed, by the
 * name it was run as (`props`, or `propsfeed` from the server package).
 */
export function cliCommand(runningSources: boolean, programName = 'props'): string {
  return runningSources ? 'npx -y pnpm@10 -s props' : programName;
}

export function register(program: Command, app: CliApp): void {
  program
    .command('serve')
    .description('run the propsfeed server (embedded SQLite and simulated books by default)')
    .option('-p, --port <port>', 'listen port (default PROPS_PORT or 8787)', intParser(0, 65535))
    .option(
      '--sim-time <iso>',
      'start the simulated books at this UTC instant, e.g. 2026-11-27T01:30:00Z (default PROPS_SIM_CLOCK, else now)',
    )
    .action(async (opts: { port?: number; simTime?: string }) => {
      const { serve, ConfigError } = await loadServer('serve');
      // The flag is the setting's other spelling: the server's config validates both alike.
      if (opts.simTime !== undefined) process.env.PROPS_SIM_CLOCK = opts.simTime;
      try {
        // Bundled, this module is part of a .js file; from a clone it is this .ts file.
        const cli = cliCommand(import.meta.url.endsWith('.ts'), app.deps.programName);
        await serve({ port: opts.port, cli });
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
