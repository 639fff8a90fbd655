/** Pieces every board view shows: the free tier's delay banner and the stream's pause button and status. */
import type { BoardStore } from '../board';
import type { Session } from '../session';

export function DelayBanner({ session, delayed }: { session: Session; delayed: boolean }) {
  const seconds = session.me.limits.delaySeconds ?? 0;
  if (!delayed && seconds === 0) return null;
  const minutes = Math.round(seconds / 60);
  return (
    <p class="banner delayed">
      <strong>Delayed {minutes} minutes:</strong> the {session.me.tier} tier sees the board as it stood {minutes}{' '}
      minutes ago. <a href="#/key">What the next tier adds</a>
    </p>
  );
}

const STATE_TEXT = { connecting: 'Connecting…', live: 'Live', paused: 'Paused', error: 'Stopped' } as const;

export function StreamControls({ board }: { board: BoardStore }) {
  const state = board.state.value;
  const paused = state === 'paused';
  return (
    <div class="stream">
      <button
        type="button"
        class="pause"
        aria-pressed={paused}
        onClick={() => (paused || state === 'error' ? board.resume() : board.pause())}
      >
        {paused || state === 'error' ? 'Resume updates' : 'Pause updates'}
      </button>
      <span class={`stream-state ${state}`}>{STATE_TEXT[state]}</span>
      {board.error.value && <span class="error-text">{board.error.value}</span>}
      {/* The one live region: a polite summary of what changed, never the table itself. */}
      <p role="status" class="status">
        {board.status.value}
      </p>
    </div>
  );
}
