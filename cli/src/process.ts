/** Runs the CLI on this process's streams and environment, as `props` or as the server package's `propsfeed`. */
import { runCli } from './program';

/** Ctrl-C ends a `--watch` cleanly; a second Ctrl-C ends the process at once. */
function watchSignal(): AbortSignal {
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    interrupt.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  return interrupt.signal;
}

/**
 * A reader that stops early (`props scan | head -1`) closes the pipe; the output it wanted has
 * arrived, so stop quietly, as other command-line tools do, rather than crash on the write.
 */
function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
}

export async function runOnProcess(programName: string): Promise<void> {
  process.stdout.on('error', endOnClosedPipe);
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    watchSignal,
    programName,
  });
}
