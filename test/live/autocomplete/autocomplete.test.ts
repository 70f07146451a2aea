// Address autocomplete: the addresses table (merge rule over given rows), the index and its matching rules, hit rates
// of real address prefixes (clean and with one typo) over the shared real build, the time budget, and the HTTP route.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../../helpers/context.ts';
import { placeZctaTables } from '../../helpers/market-fixtures.ts';
import { artifactsDir, buildDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { run as runIndexStep } from '../../../live/autocomplete/build.ts';
import autocomplete, { AutocompleteEngine, budgetMs, type AutocompleteInput } from '../../../live/autocomplete/endpoint.ts';
import type { AddressMatch } from '../../../live/autocomplete/index-search.ts';
import type { LiveInstance } from '../../../warehouse/live.ts';
import { tokens, typoVariants } from '../../../live/autocomplete/text.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

interface Body { query: string; results: AddressMatch[] }

function body(inst: LiveInstance<AutocompleteInput> | AutocompleteEngine, input: AutocompleteInput): Body {
  const a = inst instanceof AutocompleteEngine ? inst.answer(input) : inst.handle(input);
  if (a instanceof Promise || !a.ok) throw new Error(`not an answer: ${JSON.stringify(a)}`);
  return a.body as Body;
}

const h = (s: string): number => crypto.createHash('md5').update(s).digest().readUInt32LE(0);

// ---------------------------------------------------------------- text rules

describe('autocomplete text rules', () => {
  it('maps abbreviations both ways and drops unit designators', () => {
    expect(tokens('3526 High Street, Apt #4')).toEqual(['3526', 'HIGH', 'ST', '4']);
    expect(tokens('12 North Oak Avenue Unit 2B')).toEqual(['12', 'N', 'OAK', 'AVE', '2B']);
    expect(tokens('12 n. oak ave #2b')).toEqual(['12', 'N', 'OAK', 'AVE', '2B']);
    expect(tokens('1 W. Boulevard Pl')).toEqual(['1', 'W', 'BLVD', 'PL']);
  });
  it('generates edit-distance-1 variants for words of any length', () => {
    expect(typoVariants('OAK')).toContain('OK');
    const v = typoVariants('HIGHLAND');
    expect(v).toContain('HIHGLAND'); // transposition
    expect(v).toContain('HIGLAND'); // deletion
    expect(v).toContain('HIGHLANDS'); // insertion
    expect(v).toContain('HIGHLAMD'); // substitution
    expect(typoVariants('WILLOW').every((x) => /^[A-Z]+$/.test(x))).toBe(true); // letters for a word of letters
  });
});

// ---------------------------------------------------------------- given rows -> addresses -> index

describe('addresses table and index over given rows', () => {
  let ctx: TestContext;
  let inst: LiveInstance<AutocompleteInput>;
  beforeAll(async () => {
    ctx = await makeContext();
    await runSqlFile(ctx, 'pipelines/intermediate/30_market_00_canonical_tables.sql');
    await ctx.db.run(`
      create table zips (zip varchar, city varchar, state_code varchar, county_fips varchar, county_name varchar, lat double, lng double,
                         is_zcta boolean default true, centroid_source varchar default 'gazetteer_zcta');
      insert into zips by name select * from (values ('95838', 'Sacramento', 'CA', '06067', 'Sacramento County', 38.64, -121.44),
                              ('10075', 'New York', 'NY', '36061', 'New York County', 40.7734, -73.9563),
                              ('06111', 'Newington', 'CT', '09110', 'Capitol Planning Region', 41.68, -72.73),
                              ('37206', 'Nashville', 'TN', '47037', 'Davidson County', 36.18, -86.74),
                              ('37207', 'Nashville', 'TN', '47037', 'Davidson County', 36.23, -86.76))
        t(zip, city, state_code, county_fips, county_name, lat, lng);
      create table counties (county_fips varchar, county_name varchar, state_code varchar);
      insert into counties values ('06067', 'Sacramento County', 'CA'), ('36061', 'New York County', 'NY'),
                                  ('09110', 'Capitol Planning Region', 'CT'), ('47037', 'Davidson County', 'TN');`);
    const sale = (id: string, src: string, addr: string, unit: string | null, city: string, st: string, zip: string | null, date: string,
      beds: number | null, baths: number | null, sqft: number | null, lat: number | null, lng: number | null) =>
      ctx.db.run(`insert into sales by name select $id as sale_id, $src as source, normalize_address($addr) as address, $unit as unit, $city as city,
        $st as state_code, $zip as zip, $date::date as sale_date, 100000 as sale_price, 'sfr' as property_type, $beds::double as beds,
        $baths::double as baths, $sqft::double as sqft, $lat::double as lat, $lng::double as lng, true as is_arms_length, 'f' as file, 2 as line`,
      { id, src, addr, unit, city, st, zip, date, beds, baths, sqft, lat, lng } as never);
    await sale('s1', 'sacramento', '3526 High Street', null, 'Sacramento', 'CA', '95838', '2008-05-21', 2, 1, 836, 38.631913, -121.434879);
    await sale('s2', 'nyc', '200 EAST 79TH ST', '2C', 'New York', 'NY', '10075', '2023-05-01', null, null, null, null, null);
    await sale('s3', 'connecticut', '11 BELLVIEW RD', null, 'Branford', 'CT', null, '2022-06-16', null, null, null, null, null);
    await sale('s4', 'connecticut', '50 HEMLOCK ST', null, 'Newington', 'CT', '06111', '2023-06-06', null, null, null, 41.689626, -72.741974);
    await sale('s5', 'connecticut', '50 Hemlock Street', null, 'Newington', 'CT', null, '2022-03-01', null, null, null, null, null);
    // the operator's parcel roll repeats the Sacramento address with newer and more complete facts (no point)
    await ctx.db.run(`insert into parcels by name select 'p1' as parcel_id, 'canonical' as source, '3526 HIGH ST' as address, 'Sacramento' as city,
      'CA' as state_code, '95838' as zip, 3 as beds, 2 as baths, 1000 as sqft, date '2010-01-01' as last_sale_date`);
    // zero facts mean unknown
    await ctx.db.run(`insert into parcels by name select 'p2' as parcel_id, 'canonical' as source, normalize_address('12 North Oak Avenue') as address,
      'Nashville' as city, 'TN' as state_code, '37206' as zip, 0 as beds, 0 as baths, 0 as sqft, 36.181 as lat, -86.741 as lng`);
    await ctx.db.run(`insert into permits by name select 'n1' as permit_id, 'nashville' as source, '12 NORTH OAK AVE' as address, '37206' as zip,
      'Nashville' as city, 'TN' as state_code, date '2024-01-05' as issue_date, 'renovation' as permit_type, 36.1812 as lat, -86.7411 as lng`);
    // zip-less rows with points (Chicago permits, Connecticut GL sales): the fill step guesses the nearest centroid.
    // The same Oak Ave address with a point nearer 37207: its guess gives way to the recorded 37206.
    await ctx.db.run(`insert into permits by name select 'c1' as permit_id, 'chicago' as source, '12 NORTH OAK AVE' as address, null as zip,
      'Nashville' as city, 'TN' as state_code, date '2024-02-01' as issue_date, 'repair' as permit_type, 36.229 as lat, -86.759 as lng`);
    await ctx.db.run(`insert into permits by name select 'c2' as permit_id, 'chicago' as source, '99 LONELY LN' as address, null as zip,
      'Nashville' as city, 'TN' as state_code, date '2024-02-01' as issue_date, 'repair' as permit_type, 36.231 as lat, -86.761 as lng`);
    await sale('s6', 'connecticut', '7 GUESSED WAY', null, 'Newington', 'CT', null, '2023-01-02', null, null, null, 41.681, -72.731);
    // no incorporated places: each guess is the nearest ZCTA of the row's state, of its town's for a Connecticut row
    // (06111's county subdivision, which its USPS city names Newington)
    await placeZctaTables(ctx, [], { '06111': '0900352140' });
    await runSqlFile(ctx, 'pipelines/intermediate/30_market_80_fill_geo.sql');
    await runSqlFile(ctx, 'pipelines/intermediate/50_address_00_unit_sqft.sql');
    await runSqlFile(ctx, 'pipelines/intermediate/50_address_01_candidates.sql');
    await runSqlFile(ctx, 'pipelines/intermediate/50_address_09_addresses.sql');
    await runIndexStep(ctx);
    inst = await autocomplete.load({ dir: ctx.paths.build, buildId: 'test', asOf: '', settings: loadSettings() });
  });
  afterAll(() => ctx?.close());

  it('merges the same address + unit + zip across sources, facts from the most complete then most recent row', async () => {
    const rows = await ctx.rows<Record<string, unknown>>(`select address, unit, zip, county, lat, lng, beds, baths, sqft, sources, location_source,
      source_rows::integer as n from addresses order by address`);
    const high = rows.find((r) => r['address'] === '3526 HIGH ST')!;
    expect(high).toMatchObject({ zip: '95838', county: 'Sacramento County', beds: 3, baths: 2, sqft: 1000, sources: ['canonical', 'sacramento'],
      lat: 38.631913, lng: -121.434879, location_source: 'address', n: 2 });
    const hemlock = rows.filter((r) => r['address'] === '50 HEMLOCK ST');
    expect(hemlock).toHaveLength(1); // the zip-less row took the single zip known for the same address in the same town
    expect(hemlock[0]).toMatchObject({ zip: '06111', n: 2 });
  });

  it('falls back to the zip centroid for a point, keeps addresses without a point out of the index, and never turns 0 into a fact', async () => {
    const rows = await ctx.rows<Record<string, unknown>>(`select address, unit, zip, lat, lng, beds, baths, sqft, location_source from addresses order by address`);
    expect(rows.find((r) => r['address'] === '200 EAST 79TH ST')).toMatchObject({ unit: '2C', lat: 40.7734, lng: -73.9563, location_source: 'zip_centroid' });
    expect(rows.find((r) => r['address'] === '11 BELLVIEW RD')).toMatchObject({ zip: null, lat: null, location_source: null });
    expect(rows.find((r) => r['address'] === '12 NORTH OAK AVE')).toMatchObject({ beds: null, baths: null, sqft: null });
    expect(body(inst, { q: '11 bellview', limit: 5 }).results).toEqual([]);
    const meta = JSON.parse(fs.readFileSync(path.join(ctx.paths.build, 'live', 'autocomplete', 'meta.json'), 'utf8')) as { records: number; left_out: Record<string, number> };
    // given: 6 addresses with a point (4 with a recorded zip, 2 with a guessed one); 11 BELLVIEW RD has neither
    expect(meta.records).toBe(6);
    expect(meta.left_out).toEqual({ no_point: 1 });
  });

  it('never keeps a guessed zip: a recorded zip of the same address wins, else the address is found with zip ""', async () => {
    const rows = await ctx.rows<Record<string, unknown>>(`select address, zip, zip_imputed, sources, county from addresses
      where address in ('12 NORTH OAK AVE', '99 LONELY LN', '7 GUESSED WAY') order by address`);
    // the county of a zip-less address: its city's, when every zip of that city (given zips table) lies in one county
    expect(rows).toEqual([
      { address: '12 NORTH OAK AVE', zip: '37206', zip_imputed: false, sources: ['canonical', 'chicago', 'nashville'], county: 'Davidson County' },
      { address: '7 GUESSED WAY', zip: null, zip_imputed: true, sources: ['connecticut'], county: 'Capitol Planning Region' },
      { address: '99 LONELY LN', zip: null, zip_imputed: true, sources: ['chicago'], county: 'Davidson County' },
    ]);
    // the given rows' own point, city and state; zip "" (not recorded: address.md), never the nearest centroid's
    expect(body(inst, { q: '99 lonely', limit: 5 }).results).toEqual([{ address: '99 LONELY LN', city: 'Nashville', state: 'TN', zip: '', zip_imputed: false,
      county: 'Davidson County', lat: 36.231, lng: -86.761, location_source: 'address', beds: null, baths: null, sqft: null, property_id: null }]);
    expect(body(inst, { q: '7 guessed way', limit: 5 }).results.map((r) => [r.zip, r.county, r.lat])).toEqual([['', 'Capitol Planning Region', 41.681]]);
    expect(body(inst, { q: '12 n oak', limit: 5 }).results.map((r) => r.zip)).toEqual(['37206']);
  });

  it('answers with the spec fields, the query echoed, and null facts as null', () => {
    const b = body(inst, { q: '3526 HIGH', limit: 5 });
    expect(b.query).toBe('3526 HIGH');
    expect(b.results[0]).toEqual({ address: '3526 HIGH ST', city: 'Sacramento', state: 'CA', zip: '95838', zip_imputed: false, county: 'Sacramento County',
      lat: 38.631913, lng: -121.434879, location_source: 'address', beds: 3, baths: 2, sqft: 1000, property_id: null }); // no properties table in these given rows
    expect(schemaErrors('AutocompleteResults', b)).toEqual([]);
    const oak = body(inst, { q: '12 n oak', limit: 5 }).results[0]!;
    expect(oak).toMatchObject({ address: '12 NORTH OAK AVE', beds: null, baths: null, sqft: null });
    expect(body(inst, { q: '200 e 79th st apt 2c', limit: 5 }).results[0]).toMatchObject({ address: '200 EAST 79TH ST UNIT 2C', county: 'New York County' });
    // an NYC row has no coordinates: its point is the centroid of its zip, and the answer says so
    expect(body(inst, { q: '200 e 79th st apt 2c', limit: 5 }).results[0]).toMatchObject({ lat: 40.7734, lng: -73.9563, location_source: 'zip_centroid' });
  });

  it('answers 404 for a build without the index', async () => {
    const none = await autocomplete.load({ dir: path.join(ctx.paths.build, 'nowhere'), buildId: 'x', asOf: '', settings: loadSettings() });
    const a = await none.handle({ q: 'abc', limit: 5 });
    expect(a.ok).toBe(false);
    expect(a.ok === false && a.code).toBe('no_data');
  });
});

// ---------------------------------------------------------------- the real build

interface Sample { address: string; unit: string | null; zip: string; state_code: string; source: string }

/** What a person types for an address: the first two words + half of the third; for a unit, the first three words
 *  whole and then the unit (every unit of a building shares the street line, so the unit is what tells them apart). */
function prefixOf(address: string, unit: string | null = null): string {
  const w = address.split(' ');
  if (unit) return `${w.slice(0, 3).join(' ')} ${unit}`;
  if (w.length >= 3) return `${w[0]} ${w[1]} ${w[2]!.slice(0, Math.ceil(w[2]!.length / 2))}`;
  if (w.length === 2) return `${w[0]} ${w[1]!.slice(0, Math.max(2, Math.ceil(w[1]!.length / 2)))}`;
  return w[0]!;
}

/** One deterministic edit in the longest word of 5+ characters (null when there is none). */
function withTypo(q: string, seed: number): string | null {
  const ws = q.split(' ');
  let i = -1;
  ws.forEach((x, j) => { if (/^[A-Z]+$/.test(x) && x.length >= 5 && (i < 0 || x.length > ws[i]!.length)) i = j; });
  if (i < 0) return null;
  const x = ws[i]!;
  const p = 1 + ((seed >>> 3) % (x.length - 2)); // an inner position
  const letter = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[(seed >>> 8) % 26]!;
  let y: string;
  switch (seed % 4) {
    case 0: y = x.slice(0, p) + (letter === x[p] ? 'Q' : letter) + x.slice(p + 1); break; // substitution
    case 1: y = x.slice(0, p) + x[p + 1] + x[p] + x.slice(p + 2); break; // transposition
    case 2: y = x.length >= 6 ? x.slice(0, p) + x.slice(p + 1) : x.slice(0, p) + letter + x.slice(p); break; // deletion (6+) / insertion
    default: y = x.slice(0, p) + letter + x.slice(p); // insertion
  }
  if (y === x) return null;
  ws[i] = y;
  return ws.join(' ');
}

describe('autocomplete over the real build', () => {
  let engine: AutocompleteEngine;
  let samples: Sample[];
  beforeAll(async () => {
    // Which addresses are found is checked here with a budget no busy machine spends; what the 25 ms budget gives
    // up when it runs out is checked on its own below (budgetMs: 0).
    engine = AutocompleteEngine.fromDir(path.join(buildDir(), 'live', 'autocomplete'), 60_000);
    // 400 indexed addresses spread over the sources (deterministic: ordered by a hash of the id)
    const rows = await warehouseRows<Sample & { rn: number }>(`
      select address, unit, zip, state_code, sources[1] as source,
             row_number() over (partition by sources[1] order by md5(address_id || ':sample')) as rn
      from addresses
      where zip is not null and not zip_imputed and lat is not null and county is not null and city is not null
      qualify rn <= 100
      order by md5(address_id || ':order')`);
    samples = rows.slice(0, 400);
  });

  // the display address of address.md ("the street line plus UNIT <unit>"), written here rather than taken from the code
  const displayAddress = (address: string, unit: string | null): string => (unit ? `${address} UNIT ${unit}` : address);
  // a hit is the expected address record itself: street line with its unit (or none) and its zip; another unit of
  // the building or the same street line in another zip is a miss
  const hit = (results: AddressMatch[], s: Sample): boolean =>
    results.some((r) => r.address === displayAddress(s.address, s.unit) && r.zip === s.zip && r.state === s.state_code);
  const expected = (s: Sample): string => `${displayAddress(s.address, s.unit)} ${s.zip}`;
  // the default limit (the route's default, 5) is what the hit rates are measured with
  const top5 = (q: string): AddressMatch[] => {
    const r = body(engine, { q }).results;
    expect(r.length).toBeLessThanOrEqual(5);
    return r;
  };

  it('answers 5 results by default', () => {
    expect(body(engine, { q: 'main st' }).results).toHaveLength(5);
  });

  it('finds 95% of real address prefixes (first two words + part of the third; units typed) in the top 5', () => {
    const set = samples.slice(0, 200);
    expect(new Set(set.map((s) => s.source)).size).toBeGreaterThanOrEqual(4);
    expect(set.filter((s) => s.unit).length).toBeGreaterThan(0);
    const misses: string[] = [];
    let found = 0;
    for (const s of set) {
      const q = prefixOf(s.address, s.unit);
      if (hit(top5(q), s)) found++; else misses.push(`${q} -> ${expected(s)}`);
    }
    const rate = found / set.length;
    console.log(`autocomplete clean prefixes: ${found}/${set.length} = ${(100 * rate).toFixed(1)}% in the top 5; misses: ${misses.slice(0, 12).join('; ')}`);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it('finds 95% of real address prefixes with one typo in a longer word in the top 5', () => {
    const set: [Sample, string][] = [];
    for (const s of samples) {
      const q = withTypo(prefixOf(s.address, s.unit), h(s.address));
      if (q) set.push([s, q]);
      if (set.length === 200) break;
    }
    expect(set.length).toBeGreaterThanOrEqual(100);
    let found = 0;
    const misses: string[] = [];
    for (const [s, q] of set) {
      if (hit(top5(q), s)) found++; else misses.push(`${q} -> ${expected(s)}`);
    }
    const rate = found / set.length;
    console.log(`autocomplete one-typo prefixes: ${found}/${set.length} = ${(100 * rate).toFixed(1)}% in the top 5; misses: ${misses.slice(0, 12).join('; ')}`);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it('reads a last word that is a real token as typed, not as a misspelt long form of a street type', () => {
    // "123 main": no 123 MAIN ... is indexed, so the typo tier runs. MAIN is a street-name token; one edit makes it
    // SAIN, which begins SAINT (-> ST), and that reading had answered every "123 ... ST" (123 JORALEMON ST). Each
    // result must now carry, beside its house number, a word MAIN or one edit of it begins (AINSLIE, MARION ...).
    const street = (r: AddressMatch): string[] => tokens(r.address).filter((t) => !/^\d/.test(t));
    const nearMain = new Set(['MAIN', ...typoVariants('MAIN')]);
    const r = body(engine, { q: '123 main', limit: 5 }).results;
    expect(r.length).toBeGreaterThan(0);
    for (const x of r) {
      const named = street(x).filter((t) => !['ST', 'AVE', 'RD', 'PL', 'DR', 'N', 'S', 'E', 'W'].includes(t));
      expect(named.some((t) => [...nearMain].some((v) => t.startsWith(v))), x.address).toBe(true);
    }
    expect(r.some((x) => street(x).includes('MAIN'))).toBe(true);
  });

  it('matches house number + street prefix, street without number, city and zip words', () => {
    expect(body(engine, { q: '3526 HIGH', limit: 5 }).results[0]?.address).toBe('3526 HIGH ST');
    const street = body(engine, { q: 'high st sacr', limit: 10 }).results;
    expect(street.length).toBeGreaterThan(0);
    expect(street.every((r) => r.address.includes('HIGH ST') && r.city.startsWith('Sacr'))).toBe(true);
    const zip = body(engine, { q: '19103', limit: 5 }).results;
    expect(zip).toHaveLength(5);
    expect(zip.every((r) => r.zip === '19103')).toBe(true);
    const city = body(engine, { q: 'philadelphia', limit: 5 }).results;
    expect(city.every((r) => r.city === 'Philadelphia')).toBe(true);
  });

  it('ranks records whose words stand in the order typed first: "Saint Edwards" is ST EDWARDS ST before EDWARDS ST', () => {
    // both kinds of record match both words ("Saint" is ST); only the order tells them apart. ("Saint Louis" was the
    // example until a query that is only a place name answered that place's addresses: St. Louis, place.test.ts.)
    const inOrder = (r: AddressMatch): boolean => / (?:ST|SAINT) EDWARDS /.test(` ${r.address} `);
    const r = body(engine, { q: 'Saint Edwards', limit: 10 }).results;
    // the 8 records with both words as typed; EDWARDS is a place name (Edwards, CO, MS, NY), never typo-corrected
    // (review 17 H), so the two typo fills 27 and 76 ST EDWARD LN are gone
    expect(r.length).toBe(8);
    expect(r.filter(inOrder).length).toBeGreaterThan(0);
    const firstOther = r.findIndex((x) => !inOrder(x));
    if (firstOther >= 0) expect(r.slice(firstOther).every((x) => !inOrder(x))).toBe(true);
    // the reverse order typed puts LOUIS ST first
    expect(body(engine, { q: 'edwards st', limit: 3 }).results.every((x) => / EDWARDS ST( |$)/.test(` ${x.address}`))).toBe(true);
  });

  it('ignores case and punctuation and maps abbreviations both ways', () => {
    const a = body(engine, { q: '3526 high street', limit: 5 }).results[0];
    const b = body(engine, { q: '3526, High-St.', limit: 5 }).results[0];
    expect(a?.address).toBe('3526 HIGH ST');
    expect(b?.address).toBe('3526 HIGH ST');
    // the data spells EAST out: the abbreviation finds it too
    const e = body(engine, { q: '200 E 79th St', limit: 10 }).results;
    expect(e.some((r) => r.address.startsWith('200 EAST 79TH ST'))).toBe(true);
    const unit = body(engine, { q: '200 east 79th street apt 2c', limit: 5 }).results[0];
    expect(unit?.address).toBe('200 EAST 79TH ST UNIT 2C');
    expect(body(engine, { q: '200 E 79TH ST #2C', limit: 5 }).results[0]?.address).toBe('200 EAST 79TH ST UNIT 2C');
  });

  it('scopes to a state and honours limit', () => {
    const pa = body(engine, { q: 'main st', limit: 10, state: 'PA' }).results;
    expect(pa.length).toBeGreaterThan(0);
    expect(pa.every((r) => r.state === 'PA')).toBe(true);
    expect(body(engine, { q: 'main st', limit: 10, state: 'NY' }).results.every((r) => r.state === 'NY')).toBe(true);
    expect(body(engine, { q: '3526 high', limit: 5, state: 'NY' }).results.some((r) => r.address === '3526 HIGH ST')).toBe(false);
    expect(body(engine, { q: 'main st', limit: 1 }).results).toHaveLength(1);
    expect(body(engine, { q: 'main st', limit: 10 }).results).toHaveLength(10);
    expect(body(engine, { q: 'main st', limit: 5, state: 'WY' }).results).toEqual([]);
  });

  it('echoes the query, answers schema-valid bodies and null (never 0) facts', () => {
    for (const q of ['3526 HIGH', 'main st', '19103', '200 e 79th', 'nashvile', '  odd   spacing  ']) {
      const b = body(engine, { q, limit: 10 });
      expect(b.query).toBe(q);
      expect(schemaErrors('AutocompleteResults', b)).toEqual([]);
      for (const r of b.results) for (const f of ['beds', 'baths', 'sqft'] as const) expect(r[f]).not.toBe(0);
    }
    const nyc = body(engine, { q: '200 east 79th', limit: 5 }).results;
    expect(nyc[0]?.beds).toBeNull();
  });

  it('degrades to the exact street-line prefix when the time budget is spent', () => {
    const full = engine.index.search('3526 HIGH', { limit: 5, budgetMs: 60_000 });
    expect(full.mode).toBe('full');
    const cheap = engine.index.search('3526 HIGH', { limit: 5, budgetMs: 0 });
    expect(cheap.mode).toBe('exact_prefix');
    expect(cheap.ids.map((id) => engine.index.match(id).address)).toContain('3526 HIGH ST');
    expect(cheap.ids).toEqual(engine.index.exactPrefix('3526 HIGH', 5));
    // a typo needs the full search: past the budget nothing is invented
    const typo = engine.index.search('3526 HIHGLAND', { limit: 5, budgetMs: 0 });
    expect(typo.ids).toEqual([]);
    const viaAnswer = engine.answer({ q: '200 east 79th st', limit: 5 }, 0);
    expect(viaAnswer.ok && (viaAnswer.body as Body).results.every((r) => r.address.startsWith('200 EAST 79TH ST'))).toBe(true);
    // the answer says it was cut short, so an empty list is not read as "no such address" (review 5B)
    const cut = engine.answer({ q: '3526 HIHGLAND', limit: 5 }, 0);
    expect(cut.ok && cut.body).toEqual({ query: '3526 HIHGLAND', results: [], complete: false });
    const whole = engine.answer({ q: '3526 high', limit: 5 }, 60_000);
    expect(whole.ok && (whole.body as { complete: boolean }).complete).toBe(true);
  });

  it('takes its time budget from the server settings (autocompleteBudgetMs): a number >= 0, else 25 ms', async () => {
    expect(budgetMs({ autocompleteBudgetMs: '40' })).toBe(40);
    expect(budgetMs({ autocompleteBudgetMs: '0' })).toBe(0);
    for (const bad of ['', 'soon', '-1', 'Infinity']) expect(budgetMs({ autocompleteBudgetMs: bad }), bad).toBe(25);
    expect(budgetMs(loadSettings({}, {}))).toBe(25);
    // words in any order need the full search: with the budget set to 0 the loaded module answers the street-line
    // prefix tier only, which has nothing for them
    const q = { q: 'high 3526 sacr', limit: 5 };
    expect(body(engine, q).results.map((r) => r.address)).toContain('3526 HIGH ST');
    const spent = await autocomplete.load({ dir: buildDir(), buildId: 'b', asOf: '', settings: loadSettings({ autocompleteBudgetMs: '0' }) });
    expect(body(spent, q).results).toEqual([]);
    // a place after the street: the street-line prefix within that place (place.test.ts), still said to be cut short
    const placed = spent.handle({ q: '3526 high sacramento', limit: 5 });
    expect(placed instanceof Promise || !placed.ok ? null : placed.body).toMatchObject({ results: [expect.objectContaining({ address: '3526 HIGH ST' })], complete: false });
  });
});

describe('GET /v1/address/autocomplete', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv?.close(); });

  it('answers a normal query and rejects a too-short q', async () => {
    const key = srv.key('starter');
    const res = await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent('3526 high')}&limit=3`, key);
    expect(res.status).toBe(200);
    const b = (await res.json()) as Body;
    expect(schemaErrors('AutocompleteResults', b)).toEqual([]);
    expect(b.query).toBe('3526 high');
    expect(b.results[0]?.address).toBe('3526 HIGH ST');
    expect(b.results.length).toBeLessThanOrEqual(3);
    // without limit: the default of 5 (a building with many units: the street-line prefix tier alone fills it)
    const dflt = await srv.get(`/v1/address/autocomplete?q=${encodeURIComponent('200 east 79th st')}`, key);
    expect(dflt.status).toBe(200);
    expect(((await dflt.json()) as Body).results).toHaveLength(5);
    const short = await srv.get('/v1/address/autocomplete?q=ab', key);
    expect(short.status).toBe(422);
    expect(schemaErrors('Problem', await short.json())).toEqual([]);
  });
});
