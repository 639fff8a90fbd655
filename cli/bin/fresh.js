/**
 * Whether a clone's built bundle can run in place of its source (cli/bin/props.js): every file
 * of the bundle is there and newer than every source it is made from. A pull, a checkout or an
 * edit makes the source newer until `pnpm install` (or the package's build) runs again.
 */
import { readdirSync, statSync } from 'node:fs';

/** The newest modification time under a file or folder, its installed packages aside (0 when absent). */
export function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name !== 'node_modules') time = Math.max(time, newest(`${path}/${name}`));
  }
  return time;
}

/** `bundle` and `sources` are paths under `repo` (which ends with a slash). */
export function bundleIsFresh(repo, bundle, sources) {
  const built = Math.min(...bundle.map((file) => newest(`${repo}${file}`)));
  return built > 0 && sources.every((source) => newest(`${repo}${source}`) <= built);
}
