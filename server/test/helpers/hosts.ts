/**
 * Every host named in a JSON value's strings (URLs with a scheme, and bare names such as
 * `static.prizepicks.com/...`), other than loopback: what a simulated payload or an answer
 * about simulated players must never send an app to.
 */
const URL_HOST = /\b[a-z][a-z0-9+.-]*:\/\/([^/\s"'?#]+)/gi;
const BARE_HOST = /\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|gg|tv|app|dev|us|uk|ca|cdn)\b/gi;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function hostOf(authority: string): string {
  const host = authority.replace(/^.*@/, '').toLowerCase();
  return host.startsWith('[') ? host.replace(/\]:\d+$/, ']') : host.replace(/:\d+$/, '');
}

/** The non-loopback hosts in `value`'s strings (keys too), each once, with where the first was seen. */
export function thirdPartyHosts(value: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(URL_HOST)) {
        const host = hostOf(m[1] ?? '');
        if (!LOOPBACK.has(host) && !found.has(host)) found.set(host, `${path}: ${v}`);
      }
      for (const m of v.replace(URL_HOST, '').matchAll(BARE_HOST)) {
        const host = m[0].toLowerCase();
        if (!found.has(host)) found.set(host, `${path}: ${v}`);
      }
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        walk(k, `${path}{key}`);
        walk(item, `${path}.${k}`);
      }
    }
  };
  walk(value, '$');
  return found;
}
