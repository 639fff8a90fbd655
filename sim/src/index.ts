/**
 * The simulated upstream: a world of games, players and two books' lines that is a pure
 * function of (seed, time), served in PrizePicks' and Underdog's real wire formats, with the
 * truth behind it (final values, the oracle's chances) for the project's own tests and
 * backtests. The server sees it only as an upstream: its URLs (startSimBooks), or its wire
 * payloads at any moment for the backfill's replay.
 */
export { startSimBooks } from './books';
export { pastGameLogs } from './gameLogs';
export { oracle, oracleChances } from './oracle';
export { renderPrizePicks, renderUnderdog } from './render';
export { type SimServer, startSimServer } from './server';
export * from './world';
