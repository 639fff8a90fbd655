/**
 * `--cpu-prof` for the benchmarks: the serving child runs under `node --cpu-prof`, and its
 * profile is summarised here as a text flame graph's two readings: where the time was spent
 * (self time by function) and which code it was spent under (self time by package or by
 * source file of the app), so a closing note can say what a route costs and why.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a source URL belongs: a package name, a file of the app, or Node's own code. */
function owner(url: string): string {
  if (url === '') return '(native / idle / gc)';
  const pkg = url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node: (Node core)';
  const app = url.match(/\/((?:server|contract|sdk|cli)\/src\/.+)$/);
  return app?.[1] ?? url;
}

const percent = (part: number, all: number) => `${((100 * part) / all).toFixed(1)}%`.padStart(6);

/**
 * Prints the top `top` functions and owners by self time of the server's main thread: the
 * largest profile in `dir` (Node writes one per thread; tsx's loader thread writes a small one).
 */
export function summariseCpuProfile(dir: string, top = 20): void {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) {
    console.log(`no CPU profile was written in ${dir}`);
    return;
  }
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
    busy += us;
    const where = frame.url ? `${owner(frame.url)}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const group = frame.url ? owner(frame.url) : frame.functionName;
    byOwner.set(group, (byOwner.get(group) ?? 0) + us);
  }
  const print = (title: string, rows: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${percent(us, busy)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
    }
  };
  console.log(`\nCPU profile ${join(dir, file)}: ${(busy / 1000).toFixed(0)} ms busy (idle excluded)`);
  print('self time by function', byFunction);
  print('self time by package / app file', byOwner);
}
