/** Asks for the API key once: kept for this tab, or in this browser when "remember" is ticked. Never put in a URL. */
import { useSignal } from '@preact/signals';
import { errorText, signIn } from '../session';

export function KeyForm({ initialError }: { initialError?: string | null }) {
  const key = useSignal('');
  const remember = useSignal(false);
  const busy = useSignal(false);
  const error = useSignal<string | null>(initialError ?? null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const value = key.value.trim();
    if (!value) {
      error.value = 'Enter an API key: `props serve` prints a demo key per tier on its first start.';
      return;
    }
    busy.value = true;
    error.value = null;
    try {
      await signIn(value, remember.value);
    } catch (err) {
      error.value = errorText(err);
    } finally {
      busy.value = false;
    }
  };
  return (
    <section class="key-form" aria-labelledby="key-form-title">
      <h1 id="key-form-title">propsfeed board</h1>
      <p>
        Enter an API key. <code>props serve</code> prints one per tier on its first start; anyone can get a free one
        from <code>POST /api/v1/keys</code> (see <a href="/docs">the API reference</a>).
      </p>
      <form onSubmit={submit} action="#">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="pf_…"
          value={key.value}
          onInput={(e) => (key.value = e.currentTarget.value)}
          aria-describedby={error.value ? 'key-error' : undefined}
          aria-invalid={error.value ? true : undefined}
        />
        <label class="remember">
          <input
            type="checkbox"
            checked={remember.value}
            onChange={(e) => (remember.value = e.currentTarget.checked)}
          />{' '}
          Remember on this browser (otherwise the key is forgotten when the tab closes)
        </label>
        <button type="submit" disabled={busy.value}>
          {busy.value ? 'Checking…' : 'Open the board'}
        </button>
        {error.value && (
          <p id="key-error" class="error-text" role="alert">
            {error.value}
          </p>
        )}
      </form>
    </section>
  );
}
