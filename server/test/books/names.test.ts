import { describe, expect, it } from 'vitest';
import { isComboName, normalizeName, playerKey } from '../../src/books/names';

describe('normalizeName', () => {
  it('drops case, accents, punctuation and generational suffixes', () => {
    expect(normalizeName('Luka Dončić')).toBe('luka doncic');
    expect(normalizeName('Jaren Jackson Jr.')).toBe('jaren jackson');
    expect(normalizeName('JAREN JACKSON JR')).toBe('jaren jackson');
    expect(normalizeName('Gary Trent Jr')).toBe('gary trent');
    expect(normalizeName('Marvin Bagley III')).toBe('marvin bagley');
    expect(normalizeName('Ken Griffey Sr.')).toBe('ken griffey');
    expect(normalizeName("De'Aaron Fox")).toBe('deaaron fox');
    expect(normalizeName('Shai Gilgeous-Alexander')).toBe('shai gilgeous alexander');
    expect(normalizeName('  A.J.  Brown ')).toBe('aj brown');
  });

  it('keeps a one-word name even when it looks like a suffix', () => {
    expect(normalizeName('II')).toBe('ii');
  });
});

describe('playerKey', () => {
  it('is the normalized name plus the normalized team', () => {
    expect(playerKey('Luka Dončić', 'Dallas Mavericks')).toBe('luka doncic|dallas mavericks');
    expect(playerKey('Luka Doncic', 'DALLAS MAVERICKS')).toBe(playerKey('Luka Dončić', 'Dallas Mavericks'));
    expect(playerKey('Faker', undefined)).toBe('faker|');
  });
});

describe('isComboName', () => {
  it('spots combined entries', () => {
    expect(isComboName('Matthew Stafford + Sam Darnold')).toBe(true);
    expect(isComboName('Sam Darnold')).toBe(false);
  });
});
