import { describe, expect, it } from 'vitest';
import { playerKey } from '../../src/books/names';
import { candidateLabel, editDistance, type SearchablePlayer, searchPlayers } from '../../src/stats/playerSearch';

function player(name: string, team: string, sport: SearchablePlayer['sport'] = 'nba'): SearchablePlayer {
  return { name, team, sport, playerKey: playerKey(name, team) };
}

const jokic = player('Nikola Jokić', 'Denver Nuggets');
const jjj = player('Jaren Jackson Jr.', 'Memphis Grizzlies');
const mikal = player('Mikal Bridges', 'New York Knicks');
const miles = player('Miles Bridges', 'Charlotte Hornets');
const lebron = player('LeBron James', 'Los Angeles Lakers');
const jalen = player('Jalen Williams', 'Oklahoma City Thunder');
const jaylin = player('Jaylin Williams', 'Oklahoma City Thunder');
const sga = player('Shai Gilgeous-Alexander', 'Oklahoma City Thunder');
const roster = [jokic, jjj, mikal, miles, lebron, jalen, jaylin, sga];

function found(query: string) {
  const match = searchPlayers(query, roster);
  return match.kind === 'found' ? match.player.name : match.kind;
}

describe('searchPlayers', () => {
  it('finds a player whatever the case, accents, punctuation or suffix', () => {
    expect(found('jokic')).toBe('Nikola Jokić');
    expect(found('nikola jokič')).toBe('Nikola Jokić');
    expect(found('NIKOLA JOKIC')).toBe('Nikola Jokić');
    expect(found('Jokic N')).toBe('Nikola Jokić');
    expect(found('Jokic, Nikola')).toBe('Nikola Jokić');
    expect(found('jaren jackson')).toBe('Jaren Jackson Jr.');
    expect(found('Jaren Jackson Jr')).toBe('Jaren Jackson Jr.');
    expect(found('shai gilgeous alexander')).toBe('Shai Gilgeous-Alexander');
    expect(found('gilgeousalexander')).toBe('Shai Gilgeous-Alexander');
  });

  it('finds a player by a unique prefix', () => {
    expect(found('jok')).toBe('Nikola Jokić');
    expect(found('nik jok')).toBe('Nikola Jokić');
    expect(found('lebr')).toBe('LeBron James');
  });

  it('finds a player through a small misspelling', () => {
    expect(found('Nikola Jokci')).toBe('Nikola Jokić');
    expect(found('lebron jmaes')).toBe('LeBron James');
    expect(found('jokich')).toBe('Nikola Jokić');
  });

  it('prefers an exact name over another that the query is a prefix or typo of', () => {
    expect(found('Jalen Williams')).toBe('Jalen Williams');
    expect(found('Jaylin Williams')).toBe('Jaylin Williams');
  });

  it('answers ambiguous with every player tied at the best match, sorted by name', () => {
    const match = searchPlayers('bridges', roster);
    expect(match).toEqual({ kind: 'ambiguous', candidates: [mikal, miles] });
    if (match.kind === 'ambiguous') {
      expect(match.candidates.map(candidateLabel)).toEqual([
        'Mikal Bridges (New York Knicks, NBA)',
        'Miles Bridges (Charlotte Hornets, NBA)',
      ]);
    }
    expect(searchPlayers('williams', roster)).toEqual({ kind: 'ambiguous', candidates: [jalen, jaylin] });
  });

  it('keeps two players of one name on different teams apart', () => {
    const twin = player('Nikola Jokić', 'Utah Jazz');
    expect(searchPlayers('jokic', [jokic, twin, jokic])).toEqual({ kind: 'ambiguous', candidates: [jokic, twin] });
  });

  it('answers none when no player is close', () => {
    expect(searchPlayers('wembanyama', roster)).toEqual({ kind: 'none' });
    expect(searchPlayers('jok x', roster)).toEqual({ kind: 'none' });
    expect(searchPlayers('...', roster)).toEqual({ kind: 'none' });
    // Short words must be spelled right: "jak" is neither a prefix nor an allowed typo of "jokic".
    expect(searchPlayers('jak', roster)).toEqual({ kind: 'none' });
  });
});

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and swaps, capped above max', () => {
    expect(editDistance('jokci', 'jokic', 2)).toBe(1);
    expect(editDistance('jokich', 'jokic', 2)).toBe(1);
    expect(editDistance('jmaes', 'james', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3);
  });
});
