/** The page: the key form until a key is accepted, then the header's views (board, prop, record, key). */
import { useSignal } from '@preact/signals';
import type { SportId } from '@propsfeed/sdk';
import { useEffect } from 'preact/hooks';
import { stopBoards } from './board';
import { route } from './route';
import { errorText, type Session, session, signIn, signOut, storedKey } from './session';
import { BoardView } from './views/Board';
import { KeyView } from './views/Key';
import { KeyForm } from './views/KeyForm';
import { PropView } from './views/Prop';
import { RecordView } from './views/Record';

/** The sport shown: the one asked for if the key has it, else the key's first. */
function sportOf(s: Session, asked: string | undefined): SportId {
  const enabled = s.sports.filter((x) => x.enabled);
  return (enabled.find((x) => x.id === asked) ?? enabled[0] ?? s.sports[0])?.id ?? 'nba';
}

/** The sport last shown, for the views that have none of their own (record). */
let lastSport: string | undefined;

export function App() {
  const restoring = useSignal(storedKey() !== null);
  const restoreError = useSignal<string | null>(null);

  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    // A key kept from before: checked again (it may have been revoked), not stored anew.
    signIn(key, null)
      .catch((err) => {
        restoreError.value = errorText(err);
      })
      .finally(() => {
        restoring.value = false;
      });
  }, []);

  const s = session.value;
  if (!s) {
    if (restoring.value) return <p>Checking your key…</p>;
    return (
      <main id="main">
        <KeyForm initialError={restoreError.value} />
      </main>
    );
  }
  const r = route.value;
  const sport = sportOf(s, r.view === 'board' ? r.sport : r.view === 'prop' ? r.sport : lastSport);
  lastSport = sport;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">propsfeed</span>
        <nav aria-label="Views">
          <a href={`#/board/${sport}`} aria-current={r.view === 'board' || r.view === 'prop' ? 'page' : undefined}>
            Board
          </a>
          <a href="#/record" aria-current={r.view === 'record' ? 'page' : undefined}>
            Track record
          </a>
          <a href="#/key" aria-current={r.view === 'key' ? 'page' : undefined}>
            Key ({s.me.tier})
          </a>
        </nav>
        <button
          type="button"
          class="link"
          onClick={() => {
            stopBoards();
            signOut();
          }}
        >
          Forget key
        </button>
      </header>
      <main id="main">
        {r.view === 'prop' ? (
          <PropView session={s} sport={sport} eventId={r.eventId} stat={r.stat} player={r.player} />
        ) : r.view === 'record' ? (
          <RecordView session={s} sport={sport} />
        ) : r.view === 'key' ? (
          <KeyView session={s} />
        ) : (
          <BoardView session={s} sport={sport} />
        )}
      </main>
    </>
  );
}
