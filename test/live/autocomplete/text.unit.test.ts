// Unit tests of the autocomplete text rules (live/autocomplete/text.ts). Oracle: the rules as written in
// warehouse/docs/address.md (upper case, accents stripped, non-alphanumerics separate words, USPS abbreviations
// both ways, unit designators dropped, the typo rule) and edit-distance-1 strings enumerated by hand.
import { describe, expect, test } from 'vitest';
import { canonical, CANONICAL, displayAddress, LONG_FORMS, SEARCH_ONLY_FORMS, splitHouseNumber, tokens, typoVariants, UNIT_DESIGNATORS, words } from '../../../live/autocomplete/text.ts';
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
    expect([...UNIT_DESIGNATORS].sort()).toEqual(['APARTMENT', 'APT', 'BLDG', 'BUILDING', 'FLOOR', 'RM', 'ROOM', 'SPACE', 'SPC', 'STE', 'SUITE', 'UN', 'UNIT']);
    expect(tokens('10 Union Ave Bldg 2')).toEqual(['10', 'UNION', 'AVE', '2']);
    expect(tokens('10 Union Ave Room 2')).toEqual(tokens('10 Union Ave #2'));
    expect(tokens('10 Union Ave Fl 2')).toEqual(['10', 'UNION', 'AVE', 'FL', '2']); // FL is also Florida: kept
  });

  test('ordinals spelled out and as numbers are the same token', () => {
    expect(tokens('200 East Ninth')).toEqual(['200', 'E', '9TH']);
    expect(tokens('12 First Avenue')).toEqual(tokens('12 1st Ave'));
    expect(tokens('5 W Twelfth St')).toEqual(['5', 'W', '12TH', 'ST']);
    expect(tokens('5 W Twentieth St')).toEqual(['5', 'W', '20TH', 'ST']);
  });

  test('a house number typed without its space is split; ordinals and lettered numbers are not', () => {
    expect(splitHouseNumber('3526HIGH')).toEqual(['3526', 'HIGH']);
    expect(splitHouseNumber('12OAK')).toEqual(['12', 'OAK']);
    expect(splitHouseNumber('21ST')).toBeNull();
    expect(splitHouseNumber('22ND')).toBeNull();
    expect(splitHouseNumber('12A')).toBeNull();
    expect(splitHouseNumber('HIGH')).toBeNull();
    expect(splitHouseNumber('3526')).toBeNull();
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
  test('no variants of the empty word; a one-character word: substitution and insertion only, never the empty string', () => {
    expect(typoVariants('')).toEqual([]);
    const v = new Set(typoVariants('N'));
    const want = new Set<string>();
    for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') { want.add(c); want.add(`N${c}`); want.add(`${c}N`); }
    want.delete('N');
    expect(v).toEqual(want);
    expect(new Set(typoVariants('7'))).toEqual(new Set([...'0123456789'].flatMap((c) => [c, `7${c}`, `${c}7`]).filter((x) => x !== '7')));
  });

  test('short words take every edit too: HIGH, OAK', () => {
    const v = typoVariants('HIGH');
    const expected = new Set<string>();
    const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i <= 4; i++) for (const c of L) expected.add('HIGH'.slice(0, i) + c + 'HIGH'.slice(i));
    for (let i = 0; i < 4; i++) expected.add('HIGH'.slice(0, i) + 'HIGH'.slice(i + 1));
    for (let i = 0; i < 3; i++) expected.add('HIGH'.slice(0, i) + 'HIGH'[i + 1] + 'HIGH'[i] + 'HIGH'.slice(i + 2));
    for (let i = 0; i < 4; i++) for (const c of L) expected.add('HIGH'.slice(0, i) + c + 'HIGH'.slice(i + 1));
    expected.delete('HIGH');
    expect(new Set(v)).toEqual(expected);
    expect(v.length).toBe(expected.size); // no duplicates
    for (const x of ['HIGHS', 'THIGH', 'HIG', 'HIHG', 'HIGX']) expect(v, x).toContain(x);
    expect(v.every((x) => /^[A-Z]+$/.test(x))).toBe(true);
    expect(typoVariants('OAK')).toContain('OK');
    expect(typoVariants('OAK')).toContain('OKA');
  });

  test('a digit word gets digit edits only', () => {
    const v = typoVariants('3526');
    expect(v.every((x) => /^[0-9]+$/.test(x))).toBe(true);
    expect(v).toContain('35262');
    expect(v).toContain('3562'); // transposition
    expect(v).toContain('352'); // deletion
    expect(v).toContain('4526'); // substitution
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
