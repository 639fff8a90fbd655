/** The agent tools, in the order tools/list gives them (a fixed order, so clients may cache the list). */
import { evaluateSlipTool } from './evaluateSlip';
import { findEdgesTool } from './findEdges';
import { findGameTool } from './findGame';
import { findPlayerPropsTool } from './findPlayerProps';
import { getGamePropsTool } from './getGameProps';
import { getPlayerContextTool } from './getPlayerContext';
import { getPropHistoryTool } from './getPropHistory';
import { getTrackRecordTool } from './getTrackRecord';
import { listGamesTool } from './listGames';
import { listSportsTool } from './listSports';
import { scanMoversTool } from './scanMovers';
import { scanPropsTool } from './scanProps';
import type { ToolDef } from './tool';

// biome-ignore lint/suspicious/noExplicitAny: each tool has its own argument and answer types
export const TOOLS: readonly ToolDef<any, any>[] = [
  listSportsTool,
  listGamesTool,
  getGamePropsTool,
  scanPropsTool,
  findGameTool,
  findPlayerPropsTool,
  getPlayerContextTool,
  getPropHistoryTool,
  scanMoversTool,
  findEdgesTool,
  evaluateSlipTool,
  getTrackRecordTool,
];
