/**
 * `@propsfeed/server/history` (workspace only), for the backtests: the stored game logs and
 * settlement (each prop's lines at its game's start, settled by the recorded finals).
 */
export { createGameLogStore } from './gameLogs';
export { createSettlementStore, resultOf, type SettledLock } from './settlement';
export type { GameLog, GameLogStore } from './types';
