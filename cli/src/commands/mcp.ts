/**
 * `props mcp`: the propsfeed agent tools for a desktop MCP client, over stdio, calling a
 * propsfeed server through the SDK with the usual key and base URL (flags, PROPS_API_KEY /
 * PROPS_BASE_URL, then `props login`). stdout carries the protocol; messages go to stderr.
 */
import type { Command } from 'commander';
import type { CliApp } from '../context';

export function register(program: Command, app: CliApp): void {
  program
    .command('mcp')
    .description('serve the propsfeed agent tools to an MCP client over stdio (see docs/mcp.md)')
    .action((_opts, cmd: Command) =>
      app.run(cmd, async (ctx) => {
        // The tools alone, not the whole server: a desktop client waits for this process to start.
        const { serveMcpOverStdio } = await import('@propsfeed/server/mcp');
        app.deps.stderr.write('props mcp: serving the propsfeed tools on stdio\n');
        await serveMcpOverStdio(ctx.client);
      }),
    );
}
