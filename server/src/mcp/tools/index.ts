/** The agent tools, in the order tools/list gives them (a fixed order, so clients may cache the list). */
import { evaluateSlipTool } from './evaluate-slip';
import { findEdgesTool } from './find-edges';
import { findGameTool } from './find-game';
import { findPlayerPropsTool } from './find-player-props';
import { getGamePropsTool } from './get-game-props';
import { getPlayerContextTool } from './get-player-context';
import { getPropHistoryTool } from './get-prop-history';
import { getTrackRecordTool } from './get-track-record';
import { listGamesTool } from './list-games';
import { listSportsTool } from './list-sports';
import { scanMoversTool } from './scan-movers';
import { scanPropsTool } from './scan-props';
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
