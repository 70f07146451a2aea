// Autocomplete reads a place after the street ("4324 main st philly", "grand concourse bronx") by the project's one
// place rule (warehouse/address.ts splitPlace over live/places/address-place.ts) and keeps only addresses in it; a query
// that is only a place answers only addresses there (none for a place the build has no address in). Review: the four
// queries below answered [] while the same words without the place found the addresses, and "ft worth", "st louis",
// "washington dc" answered streets of other cities. The addresses and their boroughs are read here from the raw files.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dataFile, marbleHillRaw, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { AutocompleteEngine } from '../../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../../live/autocomplete/index-search.ts';
import { normalizeAddress } from '../../../warehouse/address.ts';

interface RawNyc { borough: string; address: string; zip: string }

let engine: AutocompleteEngine;
let nyc: RawNyc[];
let philly: { address: string; zip: string }[];
let sacramento: { address: string; zip: string }[];
beforeAll(async () => {
  engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
  // every street line of the NYC rolling sales with its borough (1 Manhattan, 2 Bronx, 3 Brooklyn) and zip
  const rows = await rawQuery<{ borough: string; address: string; zip: string }>(`
    select distinct trim("BOROUGH") as borough, trim(split_part("ADDRESS", ',', 1)) as address, trim("ZIP CODE") as zip
    from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
    where "ADDRESS" ilike '%GRAND CONCOURSE%' or "ADDRESS" ilike '%AVENUE B%' or "ADDRESS" ilike '%AVE B%'`);
  nyc = rows.map((r) => ({ ...r, address: normalizeAddress(r.address).street }));
  philly = (await rawQuery<{ address: string; zip: string }>(`
    select trim(location) as address, left(trim(zip_code), 5) as zip
    from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
    where upper(trim(location)) = '4324 MAIN ST'`)).map((r) => ({ ...r, address: normalizeAddress(r.address).street }));
  // every street line of the Sacramento transactions filed under the city of Sacramento, with its zip
  sacramento = (await rawQuery<{ address: string; zip: string }>(`
    select distinct trim(street) as address, trim(zip) as zip
    from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
    where upper(trim(city)) = 'SACRAMENTO'`)).map((r) => ({ ...r, address: normalizeAddress(r.address).street }));
}, 120_000);

const ask = (q: string, limit = 5): AddressMatch[] => {
  const a = engine.answer({ q, limit });
  if (!a.ok) throw new Error(a.message);
  return (a.body as { results: AddressMatch[] }).results;
};
const street = (m: AddressMatch): string => m.address.split(' UNIT ')[0]!;
/** The raw borough of an answered NYC address: the rolling-sales rows of its street line and zip. */
const boroughsOf = (m: AddressMatch): string[] => [...new Set(nyc.filter((r) => r.address === street(m) && r.zip === m.zip).map((r) => r.borough))];

describe('a place after the street', () => {
  test('"4324 main st philly": the Philadelphia address the OPA file names, and only Philadelphia addresses', () => {
    expect(philly.length).toBeGreaterThan(0);
    for (const q of ['4324 main st philly', '4324 Main St Philadelphia', '4324 main st, philadelphia, pa 19127', '4324 main st pa']) {
      const got = ask(q);
      expect(got.map((m) => [street(m), m.zip]), q).toContainEqual([philly[0]!.address, philly[0]!.zip]);
      for (const m of got) expect([m.city, m.state], q).toEqual(['Philadelphia', 'PA']);
    }
  });

  test.each([
    ['grand concourse bronx', '2', 'GRAND CONCOURSE'],
    ['45 avenue b manhattan', '1', '45 AVENUE B'],
    ['8710 avenue b brooklyn', '3', '8710 AVENUE B'],
  ])('"%s": the rolling sales\' address in that borough, every suggestion in that borough', (q, borough, wanted) => {
    const raw = nyc.filter((r) => r.borough === borough && r.address.includes(wanted));
    expect(raw.length, `raw rows of ${wanted} in borough ${borough}`).toBeGreaterThan(0);
    const got = ask(q, 10);
    expect(got.some((m) => raw.some((r) => r.address === street(m) && r.zip === m.zip)), JSON.stringify(got.map(street))).toBe(true);
    for (const m of got) {
      expect(m.state).toBe('NY');
      // an address the rolling sales name: its raw borough is the one asked
      expect(boroughsOf(m).filter((b) => b !== borough), `${m.address} ${m.zip}`).toEqual([]);
    }
    // the same words without the place found it before: they still do
    expect(ask(q.split(' ').slice(0, -1).join(' '), 10).some((m) => raw.some((r) => r.address === street(m) && r.zip === m.zip))).toBe(true);
  });

  test('Marble Hill (zip 10463, the Bronx\'s by USPS): borough 1 in the rolling sales, so Manhattan\'s, not the Bronx\'s', async () => {
    const raw = await marbleHillRaw();
    expect(raw.length).toBeGreaterThan(0);
    for (const r of raw) {
      expect([r.borough, r.zip]).toEqual(['1', '10463']);
      const line = normalizeAddress(r.address).street;
      const mine = (ms: AddressMatch[]): AddressMatch[] => ms.filter((m) => street(m) === line && m.zip === r.zip);
      // as Manhattan's other addresses read: New York, New York County
      for (const q of [line.toLowerCase(), `${line.toLowerCase()} manhattan`, `${line.toLowerCase()} new york ny`]) {
        expect(mine(ask(q, 10)).map((m) => [m.city, m.county]), q).toEqual([['New York', 'New York County']]);
      }
      expect(mine(ask(`${line.toLowerCase()} bronx`, 10)), 'in the Bronx').toEqual([]);
    }
  });

  test('"avenue b nyc": AVENUE B addresses of New York City', () => {
    const got = ask('avenue b nyc');
    expect(got.length).toBe(5);
    for (const m of got) expect([street(m).replace(/^\d+ /, ''), m.city, m.state]).toEqual(['AVENUE B', 'New York', 'NY']);
  });
});

describe('a query that is only a place', () => {
  test('a place the build has no address in, and no street its words begin, answers []', () => {
    for (const q of ['ft worth', 'fort worth', 'washington dc', 'Fort Worth, TX']) expect(ask(q), q).toEqual([]);
  });
  test('a place that is also a street ("oak park", "st louis"): the streets the words begin, as without the place reading', () => {
    for (const [q, words] of [['oak park', / OAK PARK (AVE|DR)\b/], ['st louis', / ST LOUIS AVE\b/]] as const) {
      // the index's own street matches of the words (no place read), which answered [] before (the place has no address)
      const streets = engine.index.search(q, { limit: 10, state: null, budgetMs: 60_000, noTypo: true }).ids.map((id) => engine.index.match(id));
      expect(streets.length, q).toBe(10);
      const got = ask(q, 10);
      expect(got, q).toEqual(streets);
      for (const m of got) expect(` ${street(m)}`, q).toMatch(words);
    }
    // a third word still reads the street
    expect(ask('oak park av').every((m) => / OAK PARK AVE$/.test(street(m)))).toBe(true);
  });
  test('a place the build has addresses in answers only its addresses', () => {
    for (const [q, city] of [['philadelphia pa', 'Philadelphia'], ['philly pa', 'Philadelphia']] as const) {
      const got = ask(q);
      expect(got.length, q).toBe(5);
      for (const m of got) expect([m.city, m.state]).toEqual([city, 'PA']);
    }
    const bronx = ask('bronx ny', 10);
    expect(bronx.length).toBe(10);
    for (const m of bronx) expect(m.county).toBe('Bronx County');
  });
  test('a one-word nickname is the place, alone or after one street word, as its full name is (review 21: "sacto" answered [])', () => {
    const inSacramento = (m: AddressMatch): boolean => sacramento.some((r) => r.address === street(m) && r.zip === m.zip);
    expect(sacramento.length).toBeGreaterThan(5);
    for (const q of ['sacto', 'Sacto', 'sacramento']) {
      const got = ask(q);
      expect(got.length, q).toBe(5);
      for (const m of got) expect(inSacramento(m), `${q}: ${m.address} ${m.zip}`).toBe(true);
    }
    // one street word, then the nickname: the raw file's BANDALIN WAY address, as with "sacramento"
    const bandalin = sacramento.filter((r) => r.address.includes(' BANDALIN '));
    expect(bandalin.length).toBeGreaterThan(0);
    for (const q of ['bandalin sacto', 'bandalin sacramento']) {
      expect(ask(q, 10).map((m) => [street(m), m.zip]), q).toEqual(expect.arrayContaining(bandalin.map((r) => [r.address, r.zip])));
    }
    // Philadelphia's and Brooklyn's nicknames alone
    for (const m of ask('philly')) expect([m.city, m.state]).toEqual(['Philadelphia', 'PA']);
    expect(ask('philly').length).toBe(5);
    for (const m of ask('bklyn')) expect(m.county).toBe('Kings County');
    expect(ask('bklyn').length).toBe(5);
  });
  test('street words stay street words: one word, and a street suffix or name that is no place', () => {
    expect(ask('washington').every((m) => m.address.includes('WASHINGTON'))).toBe(true);
    expect(ask('washington').length).toBe(5);
    expect(ask('main st').every((m) => / MAIN ST\b|^MAIN ST\b/.test(m.address))).toBe(true);
    expect(ask('grand concourse').length).toBe(5);
    // a street named like a place: the street reading comes first ("100 fort washington" is FORT WASHINGTON AVE)
    expect(street(ask('500 fort washington')[0]!)).toBe('500 FORT WASHINGTON AVE');
  });
});

describe('over HTTP', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); }, 120_000);
  afterAll(async () => { await srv?.close(); });
  test('the server loads the place reading with the build: a place after the street, and a place alone', async () => {
    const key = srv.key('starter');
    const get = async (q: string, extra = ''): Promise<AddressMatch[]> => {
      const res = await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent(q)}${extra}`, key);
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: AddressMatch[] }).results;
    };
    const got = await get('4324 main st philly');
    expect(got.map((m) => [street(m), m.zip])).toContainEqual([philly[0]!.address, philly[0]!.zip]);
    expect(await get('ft worth')).toEqual([]);
    // the state parameter and the place read together: both must hold
    expect(await get('grand concourse bronx', '&state=PA')).toEqual([]);
    expect((await get('grand concourse bronx', '&state=NY')).length).toBe(5);
  });
});
