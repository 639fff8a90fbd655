/**
 * The server's architecture, checked by server/test/architecture.test.ts (`depcruise` runs it
 * by hand too, over server/src, sim and bench). Inside server/src, imports go down the floors of
 * FLOORS (board's types at the ground, the composition root at the top), never up; runtime.ts is
 * the composition root: it chooses implementations (store, limiter, Redis,
 * cluster feed, simulator or real books) from parsed config, and starts and stops every
 * long-lived service over them; app.ts only registers routes over what it is given.
 * The simulator (sim/, @propsfeed/sim) is an upstream of its own: it imports nothing of the
 * server, and the server reaches it through one file, server/src/upstream/sim.ts. The
 * benchmarks and backtests (bench/) see the server only through the entries its package.json
 * exports. server/src never imports server/test.
 */
/**
 * server/src's floors, ground first: a file imports its own floor and those below, never one
 * above. Each entry is a folder or a top-level file (without .ts) of server/src; the
 * architecture test fails on an entry in no floor.
 */
const FLOORS = [
  { name: 'ground', entries: ['board', 'util'], what: "the board's types and its change codec, and small helpers" },
  {
    name: 'engines',
    entries: [
      'config',
      'cors',
      'net',
      'errors',
      'log',
      'store',
      'limits',
      'keys',
      'threads',
      'shutdown',
      'books',
      'history',
      'upstream',
    ],
    what: 'config, stores, limits, keys, the books and the upstream: engines with no view of the board',
  },
  {
    name: 'model',
    entries: ['odds', 'stats'],
    what: 'the model: stat distributions, fair chances, game-log statistics',
  },
  { name: 'feed', entries: ['feed'], what: 'polling, merging into boards, writing history' },
  { name: 'views', entries: ['views', 'stream'], what: "per-tier answers and the stream's events" },
  { name: 'api', entries: ['auth', 'queries', 'webhooks'], what: 'callers, the queries, webhooks' },
  {
    name: 'edges',
    entries: ['routes', 'mcp', 'docs', 'web', 'cluster'],
    what: 'HTTP routes, MCP, pages, the ingest worker and replicas',
  },
  {
    name: 'root',
    entries: ['runtime', 'app', 'main', 'index', 'startup', 'bin'],
    what: 'the composition root and entry points',
  },
];

const entriesPattern = (entries) => `^server/src/(${entries.join('|')})(/|\\.ts$)`;

/**
 * The files server/package.json `exports` names (the public entry, MCP's, and the workspace-only
 * entries the benchmarks and backtests build from): declaring an entry there is what lets
 * bench/ import it.
 */
const declaredEntries = Object.values(require('./server/package.json').exports).map(
  (target) => `server/${target.replace(/^\.\//, '')}`,
);
const exactly = (paths) => `^(${paths.map((path) => path.replaceAll('.', '\\.')).join('|')})$`;

/** One rule per floor: nothing in it imports a floor above. */
function floorRules() {
  return FLOORS.slice(0, -1).map((floor, i) => ({
    name: 'no-lower-into-higher',
    comment: `${floor.what} (floor ${floor.name}) import nothing above: ${FLOORS.slice(i + 1)
      .map((f) => f.name)
      .join(', ')}.`,
    severity: 'error',
    from: { path: entriesPattern(floor.entries) },
    to: { path: entriesPattern(FLOORS.slice(i + 1).flatMap((f) => f.entries)) },
  }));
}

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
    ...floorRules(),
    {
      name: 'src-apart-from-test',
      comment:
        "Nothing in server/src imports server/test: the server's code never depends on its tests; the test kit other programs use has its own entry there (/test-kit).",
      severity: 'error',
      from: { path: '^server/src/' },
      to: { path: '^server/test/' },
    },
    {
      name: 'bench-through-public-entries',
      comment:
        'bench/ imports the server only through the entries server/package.json exports (@propsfeed/server, /model, /feed, /test-kit…), never a file behind them.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^server/', pathNot: exactly(declaredEntries) },
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
// Not a dependency-cruiser option: the floors, for the architecture test's check that every entry has one.
Object.defineProperty(module.exports, 'floors', { value: FLOORS, enumerable: false });
