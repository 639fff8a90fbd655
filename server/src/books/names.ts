/**
 * Player and team identity across books. One normalization, used by the adapters, the merge
 * and the board routes' fuzzy player search, so a name matches the same way everywhere.
 */

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

/**
 * Lower case, accents stripped, punctuation dropped, generational suffixes (Jr., Sr., II,
 * III, IV, V) removed, whitespace collapsed: "Jaren Jackson Jr." → "jaren jackson".
 */
export function normalizeName(name: string): string {
  let normal = memo.get(name);
  if (normal === undefined) {
    if (memo.size >= MEMO_MAX) memo.clear();
    normal = normalize(name);
    memo.set(name, normal);
  }
  return normal;
}

// Every poll sees the same few thousand names: normalizing each once keeps merges cheap.
const memo = new Map<string, string>();
const MEMO_MAX = 50_000;

function normalize(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1] as string)) words.pop();
  return words.join(' ');
}

/** The key players match on across books: normalized name plus normalized team. */
export function playerKey(name: string, team: string | undefined): string {
  return `${normalizeName(name)}|${team ? normalizeName(team) : ''}`;
}

/** True for a combined entry such as "LeBron James + Anthony Davis": never a real player. */
export function isComboName(name: string): boolean {
  return name.includes(' + ') || /\bcombo\b/i.test(name);
}
