/**
 * Forgiving team matching for find_game and slip legs (`player@team`): official abbreviations ("LAL", "PHO") through the
 * books' team tables, and full names, nicknames, cities, initials and small typos by score.
 */
import type { SportId } from '@propsfeed/contract';
import { distance } from 'fastest-levenshtein';
import { normalizeName } from '../books/names';
import { teamName } from '../books/teams';

/** Scores at or above this count as a match. */
export const MATCH_THRESHOLD = 0.6;

/** A typo of the word: one edit in a word of 4+ letters, two in one of 7+. */
function isTypoOf(query: string, word: string): boolean {
  if (query.length < 4 || word.length < 4) return false;
  return distance(query, word) <= (Math.min(query.length, word.length) >= 7 ? 2 : 1);
}

/** "utd" in "united", "bkn" in "brooklyn": same first letter, the rest in order. */
function isAbbreviationOf(query: string, word: string): boolean {
  if (query.length < 2 || query[0] !== word[0]) return false;
  let at = 0;
  for (const ch of word) if (ch === query[at]) at++;
  return at === query.length;
}

function wordScore(query: string, words: string[]): number {
  if (words.includes(query)) return 0.9;
  if (words.length > 1 && query.length >= 2 && query === words.map((w) => w[0]).join('')) return 0.85;
  if (query.length >= 3 && words.some((w) => w.startsWith(query))) return 0.8;
  if (words.some((w) => isTypoOf(query, w))) return 0.7;
  if (query.length >= 3 && query.length <= 4 && words.some((w) => isAbbreviationOf(query, w))) return 0.6;
  return 0;
}

/** How well a query names one team, from 0 (not at all) to 1 (exactly). */
export function teamScore(query: string, team: string, sport: SportId): number {
  const q = normalizeName(query);
  const t = normalizeName(team);
  if (!q || !t) return 0;
  // An official abbreviation of the sport names exactly one team: no guessing around it.
  const expanded = teamName(sport, query);
  if (expanded !== query.trim()) return normalizeName(expanded) === t ? 1 : 0;
  if (q === t) return 1;
  const words = t.split(' ');
  const queryWords = q.split(' ');
  if (queryWords.length === 1) return wordScore(q, words);
  if (t.includes(q)) return 0.9;
  // Several words: each must name part of the team; the weakest one decides.
  return Math.min(...queryWords.map((w) => wordScore(w, words)));
}

/** How well a query names a game: one team ("lakers") or both ("lakers vs celtics", "BOS @ LAL"). */
export function gameScore(query: string, game: { homeTeam: string; awayTeam: string; sport: SportId }): number {
  const sides = query
    .split(/\s+(?:vs\.?|v\.?|at|@)\s+|\s*@\s*/i)
    .map((s) => s.trim())
    .filter(Boolean);
  const home = (q: string) => teamScore(q, game.homeTeam, game.sport);
  const away = (q: string) => teamScore(q, game.awayTeam, game.sport);
  const [first, second] = sides;
  if (first === undefined) return 0;
  if (second === undefined || sides.length > 2) return Math.max(home(query), away(query));
  return Math.max(Math.min(home(first), away(second)), Math.min(away(first), home(second)));
}
