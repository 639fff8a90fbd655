/**
 * The API key and what it opens: the key lives in sessionStorage (this tab) unless the user
 * ticks "remember" (localStorage); it is sent only in the Authorization header, never in a URL.
 */
import { signal } from '@preact/signals';
import { type KeyInfo, PropsFeed, type Sport } from '@propsfeed/sdk';

const STORAGE_KEY = 'propsfeed.apiKey';

export interface Session {
  client: PropsFeed;
  me: KeyInfo;
  sports: Sport[];
}

export const session = signal<Session | null>(null);

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeKey(key: string, remember: boolean): void {
  try {
    forgetKey();
    (remember ? localStorage : sessionStorage).setItem(STORAGE_KEY, key);
  } catch {
    // Storage refused (private mode, quota): the key lasts as long as the page.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
  } catch {}
}

export function clientFor(apiKey: string): PropsFeed {
  return new PropsFeed({ apiKey, baseUrl: location.origin, maxRetries: 1 });
}

/** Checks the key against /me and /sports; keeps it only when the server accepts it. Throws the SDK's error otherwise. */
export async function signIn(apiKey: string, remember: boolean | null): Promise<Session> {
  const client = clientFor(apiKey);
  const [me, sports] = await Promise.all([client.me(), client.sports()]);
  if (remember !== null) storeKey(apiKey, remember);
  const next = { client, me, sports: sports.sports };
  session.value = next;
  return next;
}

export function signOut(): void {
  forgetKey();
  session.value = null;
}

/** One sentence for an error the SDK threw. */
export function errorText(err: unknown): string {
  const e = err as { status?: number; code?: string; message?: string };
  if (e.code === 'invalid_api_key' || e.code === 'missing_api_key') {
    return `That key was not accepted: ${e.message ?? 'the server does not know it'}. Check it and try again.`;
  }
  if (e.code === 'connection_error' || e.code === 'timeout') return `The server did not answer: ${e.message}`;
  return e.message ?? String(err);
}
