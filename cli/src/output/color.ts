/** Whether to colour, decided once: a terminal, no NO_COLOR, not TERM=dumb, not --json. */
import picocolors from 'picocolors';

export type Colors = ReturnType<typeof picocolors.createColors>;

export function shouldColor(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export function createColors(enabled: boolean): Colors {
  return picocolors.createColors(enabled);
}
