/**
 * The agent tools over stdio, for `props mcp`: JSON-RPC on stdin/stdout, so everything else
 * (logs, errors) goes to stderr. Resolves when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { PropsApi } from '@propsfeed/contract';
import { createPropsMcpServer } from './server';

export interface StdioOptions {
  stdin?: NodeJS.ReadableStream & { pause(): unknown };
  stdout?: NodeJS.WritableStream;
  /** Where diagnostics go; never stdout, which carries the protocol. */
  stderr?: NodeJS.WritableStream;
}

export async function serveMcpOverStdio(api: PropsApi, opts: StdioOptions = {}): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const stderr = opts.stderr ?? process.stderr;
  const log = (line: string) => stderr.write(`props mcp: ${line}\n`);
  const server = createPropsMcpServer(api, {
    onUnexpected: (err, tool) => log(`${tool}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  const transport = new StdioServerTransport(
    stdin as typeof process.stdin,
    (opts.stdout ?? process.stdout) as typeof process.stdout,
  );
  transport.onerror = (err) => log(`transport: ${err.message}`);
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
