/**
 * `@propsfeed/server/testing`: what the benchmarks and backtests (`bench/`, `@propsfeed/bench`)
 * build from, named in one place. They measure and score the server's parts on their own (the
 * merge, the stream log, the model's fit against known results), so they need more than the
 * public entry (`@propsfeed/server`); this file is the whole of what they may use, and
 * `.dependency-cruiser.cjs` fails on a bench importing any other server file.
 *
 * Workspace only: not built, and left out of the published package's exports (`publishConfig`).
 * Not a stable API: it changes with the server.
 */

export { buildSimApp } from '../test/board-routes/simSetup';
// An app in-process on a board built by hand or on the simulated feed (the server's test kit).
export { buildTestApp } from '../test/helpers/app';
export { buildBoard, type GameSpec, type PropSpec, TestBoardSource } from '../test/helpers/board';
export { launchChromium } from '../test/helpers/chromium';
// The feed without a server: parsing, merging, the stream's bytes and log.
export { ADAPTERS } from './books';
export { playerKey } from './books/names';
export { newSlateLine, type ParseResult, type SlateGame, type SlateLine } from './books/types';
export { backfill } from './feed/backfill';
export { FeedCore } from './feed/core';
export { SILENT_LOGGER } from './feed/logger';
export { BoardMerger, type BookView } from './feed/merge';
// The model the backtests score: game logs, settlement, projections, fair chances and its fit.
export { createGameLogStore } from './history/gameLogs';
export { createSettlementStore, resultOf, type SettledLock } from './history/settlement';
export type { GameLog, GameLogStore } from './history/types';
// The pieces `createApp` is given, for a bench that assembles its own: store, keys, limiters.
export { KeyCache } from './keys/cache';
export { issueKey } from './keys/issue';
export { MemoryLimiter } from './limits/memory';
export { RedisLimiter } from './limits/redis';
export { PropOdds } from './odds';
export { COEFFICIENTS, REAL_COEFFICIENTS, SIMULATED_COEFFICIENTS } from './odds/coefficients';
export { devigMultiplicative, impliedProbability } from './odds/devig';
export { probabilitiesAt } from './odds/distribution';
export { EntryBook } from './odds/entries';
export { estimate, liveFairProbabilities, type PlayerInput, readsOf } from './odds/fair';
export { fitCoefficients, fitLiveScale, type Sample } from './odds/fit';
export { playedShareAt } from './odds/live';
export { type Coefficients, dispersionOf, marketMean, modelFor, seasonMean } from './odds/model';
export { playerInputBefore } from './odds/playerInput';
export { CALIBRATION_BINS, LOG_LOSS_CLAMP, type ProbabilityScores, scoreProbabilities } from './odds/record';
export type { RouteImpl } from './routes/deps';
export { byDateDesc } from './stats/context';
export { parseGameLogCsv, splitCsv } from './stats/csv';
export { projectStat } from './stats/projection';
export { loadSqlite, openDb } from './store/db';
export { openStore } from './store/kyselyStore';
export { connectRedis, redisReady } from './store/redis';
export { StreamEncoder } from './stream/encode';
export { StreamLog } from './stream/log';
export { pastGameLogs } from './upstream/sim';
export { ViewRegistry } from './views';
export { boardChange } from './views/boardChanges';
export { systemClock } from './webhooks/clock';
