/**
 * One GET of a book's feed, as a result the caller must look at: the books time out, answer
 * 403 (bot wall), 426 (client too old), 5xx, or send something that is not JSON.
 */

export type FetchFailure =
  | { kind: 'timeout'; message: string }
  | { kind: 'network'; message: string }
  | { kind: 'http'; status: number; message: string }
  | { kind: 'parse'; message: string };

export type FetchResult = { ok: true; body: unknown } | ({ ok: false } & FetchFailure);

/** What a desktop browser sends; the books turn away obvious scripts. */
export function browserHeaders(origin: string): Record<string, string> {
  return {
    accept: 'application/json, text/plain, */*',
    'accept-language': 'en-US,en;q=0.9',
    'user-agent':
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    origin,
    referer: `${origin}/`,
  };
}

export async function fetchJson(
  url: string,
  opts: { timeoutMs: number; headers: Record<string, string>; fetch?: typeof fetch; signal?: AbortSignal },
): Promise<FetchResult> {
  const doFetch = opts.fetch ?? fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let res: Response;
  try {
    res = await doFetch(url, { headers: opts.headers, signal });
  } catch (err) {
    if (timeout.aborted) return { ok: false, kind: 'timeout', message: `no answer within ${opts.timeoutMs} ms` };
    return { ok: false, kind: 'network', message: err instanceof Error ? err.message : String(err) };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (timeout.aborted)
      return { ok: false, kind: 'timeout', message: `body not complete within ${opts.timeoutMs} ms` };
    return { ok: false, kind: 'network', message: err instanceof Error ? err.message : String(err) };
  }
  if (!res.ok) return { ok: false, kind: 'http', status: res.status, message: `HTTP ${res.status}` };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, kind: 'parse', message: `payload is not JSON (${text.length} bytes)` };
  }
}
