/**
 * `@propsfeed/server/stats` (workspace only), for the backtests on real results: game logs read
 * from CSV, newest first, and the projection of a stat from them.
 */
export { byDateDesc } from './context';
export { parseGameLogCsv, splitCsv } from './csv';
export { projectStat } from './projection';
