// Unit tests of the autocomplete text rules (live/autocomplete/text.ts). Oracle: the rules as written in
// warehouse/docs/address.md (upper case, accents stripped, non-alphanumerics separate words, USPS abbreviations
// both ways, unit designators dropped, the typo rule) and edit-distance-1 strings enumerated by hand.
import { describe, expect, test } from 'vitest';
import { canonical, CANONICAL, displayAddress, LONG_FORMS, SEARCH_ONLY_FORMS, tokens, typoVariants, UNIT_DESIGNATORS, words } from '../../../live/autocomplete/text.ts';
import { STREET_SUFFIXES } from '../../../warehouse/address.ts';

describe('words', () => {
  test('upper case, accents stripped, split on anything but A-Z and 0-9, no empty words', () => {
    expect(words('3526 High Street')).toEqual(['3526', 'HIGH', 'STREET']);
    expect(words("  O'Neil  Café #4, 97-29  ")).toEqual(['O', 'NEIL', 'CAFE', '4', '97', '29']);
    expect(words('Peñasco Señor Ávila')).toEqual(['PENASCO', 'SENOR', 'AVILA']);
    expect(words('--//,,')).toEqual([]);
    expect(words('')).toEqual([]);
    expect(words('a_b')).toEqual(['A', 'B']);
  });
});

describe('canonical forms and tokens', () => {
  test('long forms and variants map to the USPS short form; short forms and other words stay', () => {
    expect(canonical('STREET')).toBe('ST');
    expect(canonical('AVENUE')).toBe('AVE');
    expect(canonical('AV')).toBe('AVE');
    expect(canonical('BOUL')).toBe('BLVD');
    expect(canonical('NORTHWEST')).toBe('NW');
    expect(canonical('ST')).toBe('ST');
    expect(canonical('HIGH')).toBe('HIGH');
    expect(canonical('street')).toBe('street'); // words() upper-cases first; canonical itself is exact
  });

  test('every stored-address suffix (warehouse/address.ts) maps the same way, and the search-only forms add words, never repeat one', () => {
    const stored = Object.entries(STREET_SUFFIXES);
    expect(stored.length).toBeGreaterThan(30);
    for (const [long, short] of stored) expect(CANONICAL.get(long), long).toBe(short);
    for (const [long] of SEARCH_ONLY_FORMS) expect(STREET_SUFFIXES[long], long).toBeUndefined();
    expect(new Set(SEARCH_ONLY_FORMS.map(([long]) => long)).size).toBe(SEARCH_ONLY_FORMS.length);
    expect(CANONICAL.size).toBe(stored.length + SEARCH_ONLY_FORMS.length);
    expect(canonical('STRT')).toBe('ST'); // search-only spellings
    expect(canonical('SAINT')).toBe('ST');
    expect(canonical('CRT')).toBe('CT');
  });

  test('the same address written long, short, with a unit or in another case has the same tokens', () => {
    const want = ['3526', 'HIGH', 'ST', 'N', '4'];
    for (const text of ['3526 High Street North Apt 4', '3526 HIGH ST N #4', '3526 high st. north unit 4', '3526 High Str N Suite 4', '3526 HIGH STREET NORTH APARTMENT 4', '3526 HIGH ST N STE 4', '3526 High St N Un 4']) {
      expect(tokens(text), text).toEqual(want);
    }
  });

  test('only the listed unit designators are dropped', () => {
    expect([...UNIT_DESIGNATORS].sort()).toEqual(['APARTMENT', 'APT', 'STE', 'SUITE', 'UN', 'UNIT']);
    expect(tokens('10 Union Ave Bldg 2')).toEqual(['10', 'UNION', 'AVE', 'BLDG', '2']);
  });

  test('LONG_FORMS lists the mappings that change a word, for prefix expansion', () => {
    const map = new Map(LONG_FORMS);
    expect(map.get('BOULEVARD')).toBe('BLVD');
    expect(map.get('BOUL')).toBe('BLVD');
    expect(map.get('NORTH')).toBe('N');
    expect(map.has('WAY')).toBe(false); // WAY -> WAY changes nothing
    expect(map.has('PARK')).toBe(false);
    expect(LONG_FORMS.length).toBe([...CANONICAL].filter(([l, s]) => l !== s).length);
    for (const [l, s] of LONG_FORMS) expect(l).not.toBe(s);
  });
});

describe('displayAddress', () => {
  test('appends " UNIT <unit>" only when there is a unit', () => {
    expect(displayAddress('3526 HIGH ST', '4B')).toBe('3526 HIGH ST UNIT 4B');
    expect(displayAddress('3526 HIGH ST', null)).toBe('3526 HIGH ST');
    expect(displayAddress('3526 HIGH ST', undefined)).toBe('3526 HIGH ST');
    expect(displayAddress('3526 HIGH ST', '')).toBe('3526 HIGH ST');
  });
});

describe('typoVariants (Damerau-Levenshtein distance 1)', () => {
  test('fewer than 4 characters: none', () => {
    expect(typoVariants('')).toEqual([]);
    expect(typoVariants('ABC')).toEqual([]);
    expect(typoVariants('123')).toEqual([]);
  });

  test('4 characters: only insertions (an omitted character), letters for a letter word', () => {
    const v = typoVariants('HIGH');
    // 5 positions x 26 letters, minus duplicates: inserting c before or after an equal neighbour gives the same string
    const expected = new Set<string>();
    for (let i = 0; i <= 4; i++) for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') expected.add('HIGH'.slice(0, i) + c + 'HIGH'.slice(i));
    expect(new Set(v)).toEqual(expected);
    expect(v.length).toBe(expected.size); // no duplicates
    expect(v).toContain('HIGHS');
    expect(v).toContain('THIGH');
    expect(v).not.toContain('HIG'); // no deletion
    expect(v).not.toContain('HIHG'); // no transposition
    expect(v).not.toContain('HIGX'); // no substitution
    expect(v.every((x) => /^[A-Z]+$/.test(x))).toBe(true);
  });

  test('a digit word gets digit edits only', () => {
    const v = typoVariants('3526');
    expect(v.every((x) => /^[0-9]+$/.test(x))).toBe(true);
    expect(v).toContain('35262');
    expect(v.length).toBe(new Set(v).size);
  });

  test('5+ characters: every edit of distance 1 and nothing else', () => {
    const w = 'MAPLE';
    const v = new Set(typoVariants(w));
    const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const want = new Set<string>();
    for (let i = 0; i <= w.length; i++) for (const c of L) want.add(w.slice(0, i) + c + w.slice(i));
    for (let i = 0; i < w.length; i++) want.add(w.slice(0, i) + w.slice(i + 1));
    for (let i = 0; i + 1 < w.length; i++) want.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
    for (let i = 0; i < w.length; i++) for (const c of L) want.add(w.slice(0, i) + c + w.slice(i + 1));
    want.delete(w);
    expect(v).toEqual(want);
    for (const x of ['MAPL', 'APLE', 'AMPLE', 'MAPEL', 'MAPLX', 'XAPLE', 'MAPLES']) expect(v.has(x), x).toBe(true);
    expect(v.has('MAPLE')).toBe(false);
    expect(v.has('MALPEX')).toBe(false); // two edits
  });

  test('a doubled letter: swapping it is no edit, and the word itself is never a variant', () => {
    const v = typoVariants('ROSSI');
    expect(v).not.toContain('ROSSI');
    expect(v.length).toBe(new Set(v).size);
    expect(v).toContain('RSOSI');
    expect(v).toContain('ROSI'); // deleting either S gives the same string, once
  });

  test('a mixed word (letters and digits) may take either kind of character', () => {
    const v = typoVariants('12TH5');
    expect(v).toContain('12TH55');
    expect(v).toContain('12THX5');
    expect(v).toContain('A2TH5');
    expect(v).toContain('72TH5');
  });
});
