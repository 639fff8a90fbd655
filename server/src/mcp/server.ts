/**
 * The propsfeed agent tools, resources and prompts on one MCP server (the official v2 SDK),
 * written once against PropsApi: over HTTP the api is the server's in-process one for the
 * authenticated caller, over stdio the SDK. The SDK serves both revisions, 2025-11-25 (with
 * `initialize`) and 2026-07-28 (stateless, `server/discover`), from this one definition.
 */
import { type CacheHint, McpServer } from '@modelcontextprotocol/server';
import type { PropsApi } from '@propsfeed/contract';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import type { UnexpectedErrorHandler } from './result';
import { TOOLS } from './tools';
import { registerTool } from './tools/tool';

export interface PropsMcpServerOptions {
  /** Where errors that are not API answers go; stdio mode must keep them off stdout. */
  onUnexpected?: UnexpectedErrorHandler;
}

export const SERVER_INFO = { name: 'propsfeed', version: '0.1.0' };

const INSTRUCTIONS =
  'propsfeed serves player-prop lines (over/under lines with American odds) merged from PrizePicks and Underdog. ' +
  'Start with list_sports or find_game; get_game_props and scan_props give lines; find_player_props and ' +
  "get_player_context answer questions about one player; get_prop_history and scan_movers (pro tier) show line movement; find_edges and evaluate_slip (pro tier) compare estimated chances with pick'em breakevens; get_track_record shows how those chances have done against results. " +
  "The resources propsfeed://sports, propsfeed://entries and propsfeed://track-record hold the sports this key may use, the pick'em payout tables and the track record.";

/** The lists change only when the server is upgraded: any client, or a shared cache, may keep them ten minutes. */
const LIST_HINT: CacheHint = { ttlMs: 10 * 60_000, cacheScope: 'public' };

export function createPropsMcpServer(api: PropsApi, opts: PropsMcpServerOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    // Nothing here changes while the server runs, so there is nothing to listen for: a
    // subscriptions/listen is acknowledged with no notification types and ends at once.
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
    },
    cacheHints: {
      'server/discover': LIST_HINT,
      'tools/list': LIST_HINT,
      'prompts/list': LIST_HINT,
      'resources/list': LIST_HINT,
      'resources/templates/list': LIST_HINT,
    },
  });
  const onUnexpected = opts.onUnexpected ?? ((err, tool) => console.error(`propsfeed mcp: ${tool}:`, err));
  for (const tool of TOOLS) registerTool(server, tool, api, onUnexpected);
  registerResources(server, api, onUnexpected);
  registerPrompts(server);
  return server;
}
