/** The `props` binary: runs the CLI on this process's streams and environment. */
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

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  watchSignal,
});
