/**
 * The server's architecture, checked by server/test/architecture.test.ts (`depcruise` runs it
 * by hand too, over server/src and sim). Data and imports flow one way:
 *   contract → books → feed → (history, stats) → views → queries → (routes, mcp) → app → main
 * with runtime.ts the composition root: it chooses implementations (store, limiter, Redis,
 * cluster feed, simulator or real books) from parsed config, and starts and stops every
 * long-lived service over them; app.ts only registers routes over what it is given.
 * The simulator (sim/, @propsfeed/sim) is an upstream of its own: it imports nothing of the
 * server, and the server reaches it through one file, server/src/upstream/sim.ts. The
 * benchmarks and backtests (bench/) see the server only through the entries its package.json
 * exports.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle in server/src or sim/src: a cycle makes load order and layering unclear.',
      severity: 'error',
      from: { path: '^(server|sim)/src/' },
      to: { circular: true },
    },
    {
      name: 'sim-apart-from-server',
      comment: 'The simulator is an upstream of its own: nothing in sim/ (sources or tests) imports the server.',
      severity: 'error',
      from: { path: '^sim/' },
      to: { path: '^server/' },
    },
    {
      name: 'sim-through-upstream-entry',
      comment:
        'The server sees the simulator only as an upstream: server/src/upstream/sim.ts is the one file that imports it.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: '^server/src/upstream/sim\\.ts$' },
      to: { path: '^sim/' },
    },
    {
      name: 'no-lower-into-higher',
      comment:
        'Engines, stores and upstreams (limits, keys, upstream, store, books) do not import the feed, the cluster, the queries or the runtime that use them.',
      severity: 'error',
      from: { path: '^server/src/(limits|keys|upstream|store|books)/' },
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
    {
      name: 'bench-through-public-entries',
      comment:
        'bench/ imports the server only through the entries server/package.json exports (@propsfeed/server, /mcp, /testing), never a file behind them.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^server/', pathNot: '^server/src/(index|testing|mcp/stdio)\\.ts$' },
    },
  ],
  options: {
    // server/ whole (its test kit too), sim/ and bench/: a bench reaching into server/test is seen.
    includeOnly: '^(server|sim|bench)/',
    tsPreCompilationDeps: true,
    // Workspace packages (@propsfeed/server, @propsfeed/sim, @propsfeed/contract) resolve by their
    // package.json `exports`, as Node does, so a rule sees where an import of one really lands.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
    doNotFollow: { path: 'node_modules' },
  },
};
