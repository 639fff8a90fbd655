/** The `props` command line. */
import { ConfigError, serve } from '@propsfeed/server';
import { Command, InvalidArgumentError } from 'commander';

function portOption(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

export function buildProgram(): Command {
  const program = new Command('props')
    .description('propsfeed: merged player-prop lines from PrizePicks and Underdog')
    .version('0.1.0')
    .exitOverride((err) => {
      process.exit(err.exitCode === 0 ? 0 : 2);
    });

  program
    .command('serve')
    .description('run the propsfeed server (embedded SQLite and simulated books by default)')
    .option('-p, --port <port>', 'listen port (default PROPS_PORT or 8787)', portOption)
    .action(async (opts: { port?: number }) => {
      await serve({ port: opts.port });
    });

  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`props: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`props: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

await main(process.argv);
