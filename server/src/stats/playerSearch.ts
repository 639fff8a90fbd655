/**
 * Forgiving player-name search: "jokic", "nikola jokič", "Jokic N" and "Nikola Jokci" all find
 * Nikola Jokić. Names are compared after the books' one normalization (case, accents,
 * punctuation, Jr./Sr./II/III); each word of the query must match its own word of the name,
 * exactly, as a prefix, or with a small typo. Only the best kind of match counts, so an exact
 * name wins over a prefix of another, and two players tied at the best kind are ambiguous.
 */
import type { SportId } from '@propsfeed/contract';
import { normalizeName } from '../books/names';

/** A player the search may return; `sport` + `playerKey` identifies one. */
export interface SearchablePlayer {
  name: string;
  playerKey: string;
  sport: SportId;
  team?: string;
}

export type PlayerMatch<P extends SearchablePlayer> =
  | { kind: 'found'; player: P }
  | { kind: 'ambiguous'; candidates: P[] }
  | { kind: 'none' };

/** How a name matched, best (lowest) first. */
const MatchKind = { Exact: 0, AllWords: 1, Prefix: 2, Typo: 3 } as const;
type MatchKind = (typeof MatchKind)[keyof typeof MatchKind];

interface Scored<P> {
  player: P;
  kind: MatchKind;
  /** Edit distance summed over typo'd words: fewer typos rank first. */
  distance: number;
}

/** At most this many candidates are listed for an ambiguous name. */
export const MAX_CANDIDATES = 10;

export function searchPlayers<P extends SearchablePlayer>(query: string, players: Iterable<P>): PlayerMatch<P> {
  const normalized = normalizeName(query);
  if (normalized === '') return { kind: 'none' };
  const words = normalized.split(' ');

  let best: Scored<P>[] = [];
  const seen = new Set<string>();
  for (const player of players) {
    const identity = `${player.sport}|${player.playerKey}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    const scored = score(normalized, words, player);
    if (!scored) continue;
    const head = best[0];
    const cmp = head ? scored.kind - head.kind || scored.distance - head.distance : -1;
    if (cmp < 0) best = [scored];
    else if (cmp === 0) best.push(scored);
  }

  if (best.length === 0) return { kind: 'none' };
  if (best.length === 1) return { kind: 'found', player: (best[0] as Scored<P>).player };
  const candidates = best
    .map((s) => s.player)
    .sort((a, b) => a.name.localeCompare(b.name) || (a.team ?? '').localeCompare(b.team ?? ''))
    .slice(0, MAX_CANDIDATES);
  return { kind: 'ambiguous', candidates };
}

/** How a player shows in an ambiguous answer's `candidates`. */
export function candidateLabel(player: SearchablePlayer): string {
  return `${player.name} (${[player.team, player.sport.toUpperCase()].filter(Boolean).join(', ')})`;
}

/** Normalized names by player object: board and log indexes keep their objects, so each name is normalized once. */
interface NormalizedName {
  /** The name as given, to notice a player object renamed in place. */
  source: string;
  name: string;
  parts: NamePart[];
}
const normalizedNames = new WeakMap<SearchablePlayer, NormalizedName>();

function normalizedOf(player: SearchablePlayer): NormalizedName {
  let entry = normalizedNames.get(player);
  if (!entry || entry.source !== player.name) {
    const name = normalizeName(player.name);
    entry = { source: player.name, name, parts: nameParts(name.split(' ')) };
    normalizedNames.set(player, entry);
  }
  return entry;
}

function score<P extends SearchablePlayer>(query: string, words: string[], player: P): Scored<P> | undefined {
  const { name, parts } = normalizedOf(player);
  if (name === query || name.replaceAll(' ', '') === query.replaceAll(' ', '')) {
    return { player, kind: MatchKind.Exact, distance: 0 };
  }
  const best = assignWords(words, parts, 0, new Set());
  return best ? { player, kind: best.kind, distance: best.distance } : undefined;
}

interface Assignment {
  kind: MatchKind;
  distance: number;
}

/** A word of a name, or two neighbours run together ("gilgeousalexander"), and the words it covers. */
interface NamePart {
  text: string;
  covers: number[];
}

function nameParts(nameWords: string[]): NamePart[] {
  const parts = nameWords.map((text, i) => ({ text, covers: [i] }));
  for (let i = 0; i + 1 < nameWords.length; i++) {
    parts.push({ text: `${nameWords[i]}${nameWords[i + 1]}`, covers: [i, i + 1] });
  }
  return parts;
}

/** Matches query words to parts of the name covering distinct words; the best assignment (names are a few words). */
function assignWords(words: string[], parts: NamePart[], i: number, used: Set<number>): Assignment | undefined {
  const word = words[i];
  if (word === undefined) return { kind: MatchKind.AllWords, distance: 0 };
  let best: Assignment | undefined;
  for (const part of parts) {
    if (part.covers.some((j) => used.has(j))) continue;
    const one = matchWord(word, part.text);
    if (!one) continue;
    for (const j of part.covers) used.add(j);
    const rest = assignWords(words, parts, i + 1, used);
    for (const j of part.covers) used.delete(j);
    if (!rest) continue;
    const total = { kind: Math.max(one.kind, rest.kind) as MatchKind, distance: one.distance + rest.distance };
    if (!best || total.kind < best.kind || (total.kind === best.kind && total.distance < best.distance)) best = total;
  }
  return best;
}

function matchWord(word: string, nameWord: string): Assignment | undefined {
  if (word === nameWord) return { kind: MatchKind.AllWords, distance: 0 };
  if (nameWord.startsWith(word)) return { kind: MatchKind.Prefix, distance: 0 };
  const allowed = typoAllowance(word.length);
  if (allowed === 0) return undefined;
  const distance = editDistance(word, nameWord, allowed);
  return distance <= allowed ? { kind: MatchKind.Typo, distance } : undefined;
}

/** Short words must be right; longer ones may carry one typo, long ones two. */
function typoAllowance(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/**
 * Optimal string alignment distance (insert, delete, substitute, swap two neighbours), giving up
 * early: anything above `max` is reported as `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prevPrev[j - 2] as number) + 1);
      }
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return Math.min(prev[b.length] as number, max + 1);
}
