/**
 * The propsfeed agent tools on one MCP server, written once against PropsApi: over HTTP
 * the api is the server's in-process one for the authenticated caller, over stdio the SDK.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PropsApi } from '@propsfeed/contract';
import type { UnexpectedErrorHandler } from './result';
import type { ToolContext } from './tools/context';
import { registerEvaluateSlip } from './tools/evaluate-slip';
import { registerFindEdges } from './tools/find-edges';
import { registerFindGame } from './tools/find-game';
import { registerFindPlayerProps } from './tools/find-player-props';
import { registerGetGameProps } from './tools/get-game-props';
import { registerGetPlayerContext } from './tools/get-player-context';
import { registerGetPropHistory } from './tools/get-prop-history';
import { registerGetTrackRecord } from './tools/get-track-record';
import { registerListGames } from './tools/list-games';
import { registerListSports } from './tools/list-sports';
import { registerScanMovers } from './tools/scan-movers';
import { registerScanProps } from './tools/scan-props';

export interface PropsMcpServerOptions {
  /** Where errors that are not API answers go; stdio mode must keep them off stdout. */
  onUnexpected?: UnexpectedErrorHandler;
}

const INSTRUCTIONS =
  'propsfeed serves player-prop lines (over/under lines with American odds) merged from PrizePicks and Underdog. ' +
  'Start with list_sports or find_game; get_game_props and scan_props give lines; find_player_props and ' +
  "get_player_context answer questions about one player; get_prop_history and scan_movers (pro tier) show line movement; find_edges and evaluate_slip (pro tier) compare estimated chances with pick'em breakevens; get_track_record shows how those chances have done against results.";

export function createPropsMcpServer(api: PropsApi, opts: PropsMcpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'propsfeed', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  const ctx: ToolContext = {
    server,
    api,
    onUnexpected: opts.onUnexpected ?? ((err, tool) => console.error(`propsfeed mcp: ${tool}:`, err)),
  };
  const tools = [
    registerListSports,
    registerListGames,
    registerGetGameProps,
    registerScanProps,
    registerFindGame,
    registerFindPlayerProps,
    registerGetPlayerContext,
    registerGetPropHistory,
    registerScanMovers,
    registerFindEdges,
    registerEvaluateSlip,
    registerGetTrackRecord,
  ];
  for (const register of tools) register(ctx);
  return server;
}
