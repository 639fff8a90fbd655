/**
 * The server's architecture, checked by server/test/architecture.test.ts (`depcruise` runs it
 * by hand too). Data and imports flow one way:
 *   contract → board → books → feed → (history, stats) → views → queries → (routes, mcp) → app → main
 * with board/ (the board's types and its change codec) the ground floor every other module stands on,
 * and runtime.ts the wiring that chooses implementations (store, limiter, Redis, cluster feed,
 * simulator or real books) from parsed config.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle in server/src: a cycle makes load order and layering unclear.',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'board-is-ground-floor',
      comment:
        "The board's types and its change codec (server/src/board/) import nothing else in server/src: every floor above builds on them.",
      severity: 'error',
      from: { path: '^server/src/board/' },
      to: { path: '^server/src/', pathNot: '^server/src/board/' },
    },
    {
      name: 'derived-below-feed',
      comment:
        'What the feed builds on (books, odds, stats, history) does not import the feed: they read the board from board/.',
      severity: 'error',
      from: { path: '^server/src/(books|odds|stats|history)/' },
      to: { path: '^server/src/feed/' },
    },
    {
      name: 'no-lower-into-higher',
      comment:
        'Engines and stores (limits, keys, sim, store, books) do not import the feed, the cluster, the queries or the runtime that use them.',
      severity: 'error',
      from: { path: '^server/src/(limits|keys|sim|store|books)/' },
      to: { path: '^server/src/(cluster/|runtime\\.ts$|feed/|queries/)' },
    },
    {
      name: 'board-below-queries',
      comment:
        'The board and what derives from it (books, feed, history, stats, odds, views) do not import the API layers above them.',
      severity: 'error',
      from: { path: '^server/src/(books|feed|history|stats|odds|views)/' },
      to: { path: '^server/src/(queries|routes|mcp|auth|cluster)/|^server/src/(app|main|runtime|index)\\.ts$' },
    },
    {
      name: 'queries-below-edges',
      comment: 'Queries do not import the edges that call them (routes, MCP) or the app.',
      severity: 'error',
      from: { path: '^server/src/queries/' },
      to: { path: '^server/src/(routes|mcp)/|^server/src/(app|main|runtime|index)\\.ts$' },
    },
    {
      name: 'edges-below-app',
      comment: 'Routes and MCP tools do not import the app, main or the runtime wiring.',
      severity: 'error',
      from: { path: '^server/src/(routes|mcp)/' },
      to: { path: '^server/src/(app|main|runtime|index)\\.ts$' },
    },
  ],
  options: {
    includeOnly: '^server/src/',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
