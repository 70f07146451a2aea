// The stored address form has one rule in two languages: the SQL macros of the market adapters
// (pipelines/intermediate/30_market_00_canonical_tables.sql) and warehouse/address.ts for what callers type.
// Oracle: the SQL itself, run in DuckDB, over the suffix table both claim and over addresses written the ways
// people write them.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { STREET_SUFFIXES, addressKey, normalizeAddress, splitPlace, streetVariants, unitKey } from '../../warehouse/address.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { repoPath } from '../helpers/paths.ts';

const SQL_FILE = 'pipelines/intermediate/30_market_00_canonical_tables.sql';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeContext();
  await runSqlFile(ctx, SQL_FILE);
});
afterAll(() => ctx?.close());

/** A one-column table of the texts, as SQL (quoted literals). */
const valuesOf = (texts: readonly string[]): string => `(values ${texts.map((t) => `('${t.replaceAll("'", "''")}')`).join(', ')})`;

/** The `when 'X' then 'Y'` pairs of the SQL macro street_suffix_abbrev, read from the file. */
function sqlSuffixPairs(): Record<string, string> {
  const sql = fs.readFileSync(repoPath(SQL_FILE), 'utf8');
  const macro = /create or replace macro street_suffix_abbrev\(w\) as([\s\S]*?)end;/.exec(sql)?.[1] ?? '';
  return Object.fromEntries([...macro.matchAll(/when '([A-Z]+)' then '([A-Z]+)'/g)].map((m) => [m[1]!, m[2]!]));
}

describe('street suffixes: one table', () => {
  test('the SQL macro and STREET_SUFFIXES abbreviate the same words the same way', () => {
    const sql = sqlSuffixPairs();
    expect(Object.keys(sql).length).toBeGreaterThan(30);
    const changing = Object.fromEntries(Object.entries(sql).filter(([w, a]) => w !== a)); // PIKE -> PIKE changes nothing
    expect(changing).toEqual(STREET_SUFFIXES);
  });

  test('DuckDB applies every entry as the table says', async () => {
    const words = [...Object.keys(STREET_SUFFIXES), 'PIKE', 'LOOP', 'BROADWAY', 'ST', 'WAY'];
    const rows = await ctx.rows<{ w: string; a: string }>(`select w, street_suffix_abbrev(w) as a from ${valuesOf(words)} t(w) order by w`);
    expect(rows.length).toBe(words.length);
    for (const { w, a } of rows) expect(a, w).toBe(STREET_SUFFIXES[w] ?? w);
  });
});

describe('normalizeAddress equals the SQL normalize_address and address_unit', () => {
  const inputs = [
    '3526 High Street', '  12  oak   avenue  apt 4b ', '12 Oak Ave #4', '12 Oak Ave Unit #4', '12 Oak Ave Suite 200',
    '1 Main St.', '1 Street Road', 'Broadway', '500 n. Elm Avenue', "77 O'Neil Boulevard", '97-29 64th Road',
    '1600 Pennsylvania Avenue NW', '10 Downing St Apt', '22 Elm St No 5', '5 Main St STE 2A', '3 A/B Court',
    '400 Maple Terrace #12-B', '9 Rue de la Paix', '18 Lake Shore Drive Apartment 1701', '2 Smith & Wesson Parkway',
    // a designator running into its unit: only a unit starting with a digit; otherwise the word is the street's
    '12 Oak Ave APT4B', '12 Oak Ave Unit4', '22 Elm St NO5', '10 Greenway North', '108 Northgate', '12 Steeplechase',
    '1 Main Steet', '1234 Nostrand', '8 Littlebrook Rd North', '5 Noble', '9 Oak St Unit B', '9 Oak St Ste # 3',
    // a house number written N/A (NYC lots without one) is no number
    'N/A Radigan Ave', 'n/a Fox Beach Avenue', 'N/A', 'NA Street',
  ];

  test('a word that starts like a designator is no unit; a designator with its unit is', () => {
    expect(normalizeAddress('108 Northgate')).toEqual({ street: '108 NORTHGATE', unit: null });
    expect(normalizeAddress('10 Greenway North')).toEqual({ street: '10 GREENWAY NORTH', unit: null });
    expect(normalizeAddress('12 Steeplechase')).toEqual({ street: '12 STEEPLECHASE', unit: null });
    expect(normalizeAddress('12 Oak Ave APT4B')).toEqual({ street: '12 OAK AVE', unit: '4B' });
    expect(normalizeAddress('9 Oak St Unit B')).toEqual({ street: '9 OAK ST', unit: 'B' });
    expect(normalizeAddress('4265 Webster Avenue, UNIT4').unit).toBe('4');
    expect(normalizeAddress('4265 Webster Avenue, NORTH').unit).toBe(null); // no digit: a word after a comma, not a unit
    expect(normalizeAddress('N/A Radigan Avenue')).toEqual({ street: 'RADIGAN AVE', unit: null });
  });

  test('SQL normalize_unit drops a designator by the same rule', async () => {
    const units = ['APT 4', 'UNIT4', '#12', 'NO 5', 'NORTH', 'STEEPLE', 'PH', 'SUITE #200'];
    const rows = await ctx.rows<{ u: string; n: string | null }>(`select u, normalize_unit(u) as n from ${valuesOf(units)} t(u)`);
    expect(Object.fromEntries(rows.map((r) => [r.u, r.n]))).toEqual({ 'APT 4': '4', UNIT4: '4', '#12': '12', 'NO 5': '5', NORTH: 'NORTH', STEEPLE: 'STEEPLE', PH: 'PH', 'SUITE #200': '200' });
  });

  test('street and unit, input by input', async () => {
    const rows = await ctx.rows<{ a: string; street: string | null; unit: string | null }>(
      `select a, normalize_address(a) as street, address_unit(a) as unit from ${valuesOf(inputs)} t(a)`);
    expect(rows.length).toBe(inputs.length);
    for (const r of rows) {
      const ts = normalizeAddress(r.a);
      expect({ street: ts.street === '' ? null : ts.street, unit: ts.unit }, r.a).toEqual({ street: r.street, unit: r.unit });
    }
  });

  test('the address key joins street and unit the way the canonical tables do', () => {
    expect(addressKey('12 OAK AVE', '4')).toBe('12 OAK AVE #4');
    expect(addressKey('12 OAK AVE', null)).toBe('12 OAK AVE');
  });
});

describe('street variants: a direction in its other form', () => {
  test('the word after the house number, spelled out or abbreviated, gets its other form; the line as typed comes first', () => {
    expect(streetVariants(normalizeAddress('631 E 6th St').street)).toEqual(['631 E 6TH ST', '631 EAST 6TH ST', '631 E 6 ST', '631 EAST 6 ST']);
    expect(streetVariants(normalizeAddress('262 South Hirst Street').street)).toEqual(['262 SOUTH HIRST ST', '262 S HIRST ST']);
    expect(streetVariants('10 NW MARKET ST')).toEqual(['10 NW MARKET ST', '10 NORTHWEST MARKET ST']);
  });
  test('no other form: no direction, or a direction that is the street\'s own name', () => {
    expect(streetVariants('100 MAIN ST')).toEqual(['100 MAIN ST']);
    expect(streetVariants('100 EAST ST')).toEqual(['100 EAST ST']);
    expect(streetVariants('MAIN')).toEqual(['MAIN']);
  });
});

describe('"street, unit": a bare unit after the last comma, as the NYC DOF file writes it', () => {
  test('the unit is read; a city, a state or a zip after a comma is not a unit but the place, left out', () => {
    expect(normalizeAddress('4265 WEBSTER AVENUE, 3F')).toEqual({ street: '4265 WEBSTER AVE', unit: '3F' });
    expect(normalizeAddress('2020 E 41st St, 2-G')).toEqual({ street: '2020 E 41ST ST', unit: '2-G' });
    for (const u of ['12B', 'PH1', 'PHA', 'G30', '149A', '1000', '2-127', 'C18']) expect(normalizeAddress(`1 Main St, ${u}`).unit, u).toBe(u);
    for (const tail of ['Philadelphia', 'PA', '19103', 'Bronx, NY', 'NY 10470']) {
      expect(normalizeAddress(`123 Main St, ${tail}`), tail).toEqual(normalizeAddress('123 Main St'));
      expect(normalizeAddress(`123 Main St, ${tail}`).unit, tail).toBeNull();
    }
    expect(normalizeAddress('1 Main St, Apt 4')).toEqual({ street: '1 MAIN ST', unit: '4' });
  });

  test('units compare without punctuation', () => {
    expect(unitKey('2-G')).toBe(unitKey('2G'));
    expect(unitKey('2 g')).toBe('2G');
    expect(unitKey(null)).toBeNull();
  });

  test('raw NYC "street, unit" addresses (every 10th) read as the NYC adapter stores it (split at the comma, SQL macros)', async () => {
    const dir = path.join(loadSettings({}).sources, 'nyc-rolling-sales');
    const addresses = new Set<string>();
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.csv.gz'))) {
      for (const r of parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, f))), { columns: true }) as Record<string, string>[]) {
        const a = r['ADDRESS']!.trim();
        // the DOF's own comma form with a unit-like tail (a digit in it, not 5 digits: a typed zip); "GARAG" or "N/A"
        // tails are not read as units
        const tail = a.split(',')[1]?.trim() ?? '';
        if (/^[^,]*[A-Z][^,]*, *[A-Z0-9-]{1,6}$/.test(a) && /\d/.test(tail) && !/^\d{5}$/.test(tail)) addresses.add(a);
      }
    }
    expect(addresses.size).toBeGreaterThan(10_000);
    const sample = [...addresses].sort().filter((_, i) => i % 10 === 0); // every 10th: one SQL statement stays quick
    const rows = await ctx.rows<{ a: string; street: string | null; unit: string | null }>(
      `select a, normalize_address(split_part(a, ',', 1)) as street, normalize_unit(split_part(a, ',', 2)) as unit from ${valuesOf(sample)} t(a)`);
    const differ = rows.filter((r) => { const t = normalizeAddress(r.a); return t.street !== r.street || t.unit !== r.unit; });
    expect(differ.slice(0, 5).map((r) => JSON.stringify([r, normalizeAddress(r.a)]))).toEqual([]);
    expect(differ.length).toBe(0);
  });
});

describe('a full address: city, state and zip after commas are the place (review 6 #10)', () => {
  test('the place is left out and its zip read; a unit before it stays', () => {
    expect(normalizeAddress('2251 League St, Philadelphia, PA 19146')).toEqual({ street: '2251 LEAGUE ST', unit: null });
    expect(splitPlace('2251 League St, Philadelphia, PA 19146-1234')).toEqual({ line: '2251 League St', zip: '19146' });
    expect(normalizeAddress('170 West 23rd Street, 4M, New York, NY 10011')).toEqual({ street: '170 WEST 23RD ST', unit: '4M' });
    expect(normalizeAddress('12 Oak Ave Apt 4B, St. Louis, MO')).toEqual({ street: '12 OAK AVE', unit: '4B' });
    expect(splitPlace('1 Main St, PH')).toEqual({ line: '1 Main St, PH', zip: null }); // a penthouse, not a place
    expect(splitPlace('1 Main St')).toEqual({ line: '1 Main St', zip: null });
  });
});

describe('a numbered street with or without its ordinal ending (review 6 #10)', () => {
  test('each form comes with the other; the line as typed first', () => {
    expect(streetVariants(normalizeAddress('343 22 St').street)).toEqual(['343 22 ST', '343 22ND ST']);
    expect(streetVariants('343 22ND ST')).toEqual(['343 22ND ST', '343 22 ST']);
    expect(streetVariants('203 EAST 7 ST')).toEqual(['203 EAST 7 ST', '203 E 7 ST', '203 EAST 7TH ST', '203 E 7TH ST']);
    expect(streetVariants('5 W 111 ST')).toEqual(['5 W 111 ST', '5 WEST 111 ST', '5 W 111TH ST', '5 WEST 111TH ST']);
    expect(streetVariants('1 1 ST')).toEqual(['1 1 ST', '1 1ST ST']);
  });
  test('a number behind a word, before the suffix: "BEACH 43 ST" and "BEACH 43RD ST" (NYC\'s Beach, Bay, Plumb streets)', () => {
    expect(streetVariants(normalizeAddress('564 beach 43 st').street)).toEqual(['564 BEACH 43 ST', '564 BEACH 43RD ST']);
    expect(streetVariants('191 BAY 8TH ST')).toEqual(['191 BAY 8TH ST', '191 BAY 8 ST']);
    expect(streetVariants('10 W BEACH 43 ST')).toEqual(['10 W BEACH 43 ST', '10 WEST BEACH 43 ST', '10 W BEACH 43RD ST', '10 WEST BEACH 43RD ST']);
    expect(streetVariants('100 ROUTE 9')).toEqual(['100 ROUTE 9']); // no suffix after the number
  });
  test('no other form: a number that is no street name, or a wrong ending', () => {
    expect(streetVariants('343 22')).toEqual(['343 22']);
    expect(streetVariants('343 22RD ST')).toEqual(['343 22RD ST']);
    expect(streetVariants('100 MAIN ST')).toEqual(['100 MAIN ST']);
  });
});

describe('letters outside ASCII: accents off and full-width forms as their letters, in both twins (review: "Stöne" read "ST NE")', () => {
  const typed = { '4000 Stöne Way N': '4000 STONE WAY N', '2251 Léague St': '2251 LEAGUE ST', '4000 ＳＴＯＮＥ Way N': '4000 STONE WAY N',
    '12 Ｏａｋ Ａｖｅ ＃４': '12 OAK AVE', '1 Rue Montréal Apt 4É': '1 RUE MONTREAL' };
  test('normalizeAddress and the SQL normalize_address read them as the letters', async () => {
    const rows = await ctx.rows<{ a: string; street: string | null }>(`select a, normalize_address(a) as street from ${valuesOf(Object.keys(typed))} t(a)`);
    for (const r of rows) {
      expect(normalizeAddress(r.a).street, r.a).toBe(typed[r.a as keyof typeof typed]);
      expect(r.street, r.a).toBe(typed[r.a as keyof typeof typed]);
    }
    expect(normalizeAddress('1 Rue Montréal Apt 4É').unit).toBe('4E');
  });
});

describe('a street name spelled as an ordinal, a Queens number without its hyphen (review h18 F3)', () => {
  test('the ordinal in figures, after the forms as typed, then without its ending', () => {
    expect(streetVariants(normalizeAddress('235 East Seventh Street').street)).toEqual(['235 EAST SEVENTH ST', '235 E SEVENTH ST', '235 EAST 7TH ST', '235 E 7TH ST', '235 EAST 7 ST', '235 E 7 ST']);
    expect(streetVariants(normalizeAddress('10 W Ninety-Sixth St').street)).toEqual(['10 W NINETY-SIXTH ST', '10 WEST NINETY-SIXTH ST', '10 W 96TH ST', '10 WEST 96TH ST', '10 W 96 ST', '10 WEST 96 ST']);
    expect(streetVariants('300 BEACH NINETY SIXTH ST')).toEqual(['300 BEACH NINETY SIXTH ST', '300 BEACH 96TH ST', '300 BEACH 96 ST']);
    expect(streetVariants('1 ONE HUNDRED TWENTY FIFTH ST')).toEqual(['1 ONE HUNDRED TWENTY FIFTH ST', '1 125TH ST', '1 125 ST']);
    expect(streetVariants('123 TWENTIETH ST')).toEqual(['123 TWENTIETH ST', '123 20TH ST', '123 20 ST']);
    expect(streetVariants('5 FIRST AVE')).toEqual(['5 FIRST AVE', '5 1ST AVE', '5 1 AVE']);
    expect(streetVariants('5 TWENTY ST')).toEqual(['5 TWENTY ST']); // a cardinal is no ordinal
    expect(streetVariants('FIRST ST')).toEqual(['FIRST ST']); // no house number
  });
  test('in a Queens zip only, the hyphen after the 3rd then the 2nd digit of a 5-digit number (2nd then 3rd of 4), last', () => {
    expect(streetVariants('17541 LINDEN BLVD', '11434')).toEqual(['17541 LINDEN BLVD', '175-41 LINDEN BLVD', '17-541 LINDEN BLVD']);
    expect(streetVariants('9524 86TH ST', '11416')).toEqual(['9524 86TH ST', '9524 86 ST', '95-24 86TH ST', '95-24 86 ST', '952-4 86TH ST', '952-4 86 ST']);
    expect(streetVariants('17541 LINDEN BLVD', '10009')).toEqual(['17541 LINDEN BLVD']);
    expect(streetVariants('17541 LINDEN BLVD')).toEqual(['17541 LINDEN BLVD']);
    expect(streetVariants('175-41 LINDEN BLVD', '11434')).toEqual(['175-41 LINDEN BLVD']);
    expect(streetVariants('564 BEACH 43RD ST', '11691')).toEqual(['564 BEACH 43RD ST', '564 BEACH 43 ST']); // 3 digits
  });
});
