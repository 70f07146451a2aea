// Geography of the shared real build: the geo shards (/v1/geo/states, /v1/geo/lookup, /v1/geo/markets) and the
// canonical zips table, and GET /v1/coverage/summary against counts made here from the raw files. The same marts and
// shard SQL over given rows: geo-shards.test.ts; the steps that make the canonical tables: geo-steps.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { artifactsDir, buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { repoPath } from '../helpers/paths.ts';
import { CATEGORIES, COVERAGE_FIELDS, LOOKUP_FIELDS, MARKET_FIELDS, STATE_FIELDS } from '../helpers/geo-fields.ts';

const TIERS = ['primary', 'secondary', 'tertiary', 'rural'];

// ---------- the shared real build

describe('geo shards of the real build', () => {
  it('/v1/geo/lookup Seattle, WA: King County 53033, Seattle metro, 98101 among its ZIPs, exact fields', () => {
    const body = readShard<Record<string, unknown>>('geo/lookup/WA/seattle.json');
    expect(Object.keys(body)).toEqual(LOOKUP_FIELDS);
    expect(body).toMatchObject({
      state_code: 'WA', state_name: 'Washington', city_name: 'Seattle', county_name: 'King County', fips_code: '53033',
      metro_area: 'Seattle-Tacoma-Bellevue, WA', market_tier: 'primary', is_investor_active: false,
    });
    expect(body['zip_codes']).toContain('98101');
    expect(Object.keys(body['landlord_risk'] as object)).toEqual(['friendliness_score', 'label']);
    expect(typeof (body['landlord_risk'] as Record<string, unknown>)['friendliness_score']).toBe('number');
    expect(['lien', 'deed', 'hybrid']).toContain(body['tax_type']);
  });

  it('/v1/geo/lookup: has_city_rent_control is true for the cities with a rent control ordinance, false for a preempted one', () => {
    const overlay: [string, string][] = [['CA', 'San Francisco'], ['NY', 'New York'], ['CA', 'Los Angeles'], ['CA', 'Oakland'], ['CA', 'Berkeley'],
      ['DC', 'Washington'], ['MN', 'St. Paul'], ['ME', 'Portland'], ['NJ', 'Jersey City'], ['NJ', 'Newark']];
    for (const [state, city] of overlay) {
      const p = shardPath('geo-lookup', { state, city });
      if (!p.ok) throw new Error(p.reason);
      const file = path.join(buildDir(), 'shards', p.path);
      expect(fs.existsSync(file), `${city}, ${state}: ${p.path} missing from the build`).toBe(true);
      const body = readShard<Record<string, unknown>>(p.path);
      expect(body['city_name'], p.path).toBe(city);
      expect(body['has_city_rent_control'], `${city}, ${state}`).toBe(true);
    }
    expect(readShard<Record<string, unknown>>('geo/lookup/TX/houston.json')['has_city_rent_control']).toBe(false);
  });

  it('OpenAPI: the tax rate and redemption fields of geo states and lookup point to /v1/legal/tax-sale uncertain_fields', () => {
    const schemas = (openApiDocument() as { components: { schemas: Record<string, { properties: Record<string, { description?: string; items?: { properties: Record<string, { description?: string }> } }> }> } }).components.schemas;
    const fields = [schemas['CityLookup']!.properties, schemas['StateList']!.properties['states']!.items!.properties];
    for (const f of fields) {
      for (const k of ['interest_rate_pct', 'redemption_period_months']) {
        expect(f[k]!.description, k).toMatch(new RegExp(`/v1/legal/tax-sale.*uncertain_fields \\(${k}\\)`));
      }
    }
  });

  it('/v1/geo/lookup: Connecticut cities sit in planning regions', () => {
    const body = readShard<Record<string, unknown>>('geo/lookup/CT/hartford.json');
    expect(body['fips_code']).toBe('09110');
    expect(body['county_name']).toBe('Capitol Planning Region');
  });

  it('/v1/geo/states: 50 states (no DC), ordered, exact fields, numbers', () => {
    const body = readShard<{ count: number; states: Record<string, unknown>[] }>('geo/states.json');
    expect(Object.keys(body)).toEqual(['count', 'states']);
    expect(body.count).toBe(50);
    const codes = body.states.map((s) => s['state_code'] as string);
    expect(codes).toHaveLength(50);
    expect(codes).toEqual([...codes].sort());
    expect(codes).not.toContain('DC');
    for (const s of body.states) {
      expect(Object.keys(s)).toEqual(STATE_FIELDS);
      expect(typeof s['landlord_friendliness_score']).toBe('number');
    }
  });

  it('/v1/geo/markets: every state has its shards, more than 5,000 markets overall, population order', async () => {
    const states = await warehouseRows<{ state_code: string }>(`select state_code from states order by state_code`);
    expect(states).toHaveLength(51);
    let total = 0;
    for (const { state_code } of states) {
      const all = readShard<{ state_code: string; count: number; markets: Record<string, unknown>[] }>(`geo/markets/${state_code}/all.json`);
      expect(all.state_code).toBe(state_code);
      expect(all.count).toBe(all.markets.length);
      let tiers = 0;
      for (const tier of TIERS) {
        const t = readShard<{ count: number; markets: { market_tier: string }[] }>(`geo/markets/${state_code}/${tier}.json`);
        expect(t.markets.every((m) => m.market_tier === tier)).toBe(true);
        tiers += t.count;
        expect(readShard<{ count: number }>(`geo/markets/${state_code}/${tier}-active.json`).count).toBe(0);
      }
      expect(tiers).toBe(all.count);
      total += all.count;
    }
    expect(total).toBeGreaterThan(5000);
    const wa = readShard<{ markets: Record<string, unknown>[] }>('geo/markets/WA/all.json');
    expect(Object.keys(wa.markets[0]!)).toEqual(MARKET_FIELDS);
    expect(wa.markets[0]!['city_name']).toBe('Seattle');
    // independent of the mart: geo.md "Markets rule" over the canonical cities table (population >= 5,000, by population then name)
    const pops = await warehouseRows<{ city_name: string }>(`select city_name from cities where state_code = 'WA' and population >= 5000 order by population desc, city_name`);
    expect(wa.markets.map((m) => m['city_name'])).toEqual(pops.map((p) => p.city_name));
  });

  it('/v1/geo/lookup: one shard per city row', async () => {
    // the canonical cities table (not the mart that made the shards): one lookup per city with a slug
    const [{ n }] = (await warehouseRows<{ n: number }>(`select count(*)::integer as n from cities where coalesce(city_slug, '') <> ''`)) as [{ n: number }];
    let files = 0;
    for (const st of fs.readdirSync(path.join(buildDir(), 'shards/geo/lookup'))) {
      files += fs.readdirSync(path.join(buildDir(), 'shards/geo/lookup', st)).filter((f) => f.endsWith('.json')).length;
    }
    expect(files).toBe(n);
    expect(n).toBeGreaterThan(30000);
  });

  it('warehouse: zips 98101 and 06103 are placed in current counties', async () => {
    expect(await warehouseRows(`select zip, city, state_code, county_fips from zips where zip in ('98101', '06103') order by zip`)).toEqual([
      { zip: '06103', city: 'Hartford', state_code: 'CT', county_fips: '09110' },
      { zip: '98101', city: 'Seattle', state_code: 'WA', county_fips: '53033' },
    ]);
  });
});

// ---------- /v1/coverage/summary against counts made here, from the raw files (warehouse/docs/geo.md "mart_coverage")

/** The slug of a name in SQL, as geo.md defines it (accents off, lower case, runs of other characters one hyphen). */
const SLUG = (x: string): string => `trim(regexp_replace(lower(strip_accents(${x})), '[^a-z0-9]+', '-', 'g'), '-')`;
/** geo.md "Which name": the name written otherwise, Saint/Sainte/Mount/Fort as St/Ste/Mt/Ft, case, accents,
 *  punctuation and blanks set aside ("Saint Anthony" = "St. Anthony", "De Witt" = "DeWitt"). */
const KEY = (x: string): string => `regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(lower(strip_accents(${x})),
  '\\bsainte\\b', 'ste', 'g'), '\\bsaint\\b', 'st', 'g'), '\\bmount\\b', 'mt', 'g'), '\\bfort\\b', 'ft', 'g'), '[^a-z0-9]+', '', 'g')`;

/**
 * The geo counts straight from the raw source files, by the definitions of warehouse/docs/geo.md (not the mart's
 * query): the 50 states and DC from us_geo; counties of those 51; the Census places and the simplemaps cities that
 * match none, one per (state, slug); the ZIP
 * universe (HUD, GeoNames with a state, the ZCTAs, USPS Locale Detail, the ZIP reference) placed in a state by the
 * documented precedence (HUD, GeoNames, the ZCTA's county, ZIP reference; USPS Locale for a ZIP only it knows).
 */
async function rawGeoCounts(): Promise<{ states: number; counties: number; cities: number; zips: number }> {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const src = (...p: string[]): string => `'${path.join(loadSettings().sources, ...p).replaceAll("'", "''")}'`;
  try {
    await con.run(`create temp table st as select Code as code, FIPS as fips, Type as type
      from read_csv(${src('usgeo-census-tables', 'states.csv')}, all_varchar = true) where Type in ('state', 'district')`);
    const reader = await con.runAndReadAll(`
      with hud as (select ZIP as zip, arg_max(USPS_ZIP_PREF_STATE, try_cast(TOT_RATIO as double)) as st
                   from read_csv(${src('hud-usps-zip-county-crosswalk', 'ZIP_COUNTY_032023.csv.gz')}, all_varchar = true) group by 1),
           gn as (select zipcode as zip, any_value(nullif(trim(state_code), '')) as st
                  from read_csv(${src('geonames-us-postal-codes', 'zipcodes.us.csv.gz')}, all_varchar = true) group by 1 having st is not null),
           zc as (select z.ZCTA5 as zip, any_value(s.code) as st from read_csv(${src('usgeo-census-tables', 'zctas.csv.gz')}, all_varchar = true) z
                  left join st s on s.fips = left(z."Primary County", 2) group by 1),
           gz as (select GEOID as zip from read_csv(${src('census-gazetteer-2025', '2025_Gaz_zcta_national.txt.gz')}, delim = '|', header = true, all_varchar = true)),
           us as (select "DELIVERY ZIPCODE" as zip, any_value("PHYSICAL STATE") as st
                  from read_csv(${src('usps-zip-locale-detail', 'ZIP_Locale_Detail.csv.gz')}, all_varchar = true) group by 1),
           zr as (select zip_code as zip, any_value(state) as st from read_csv(${src('us-zip-reference', 'zip_reference.csv.gz')}, all_varchar = true) group by 1),
           universe as (select zip from hud union select zip from gn union select zip from zc union select zip from gz union select zip from us union select zip from zr),
           -- geo.md "cities": the Census places with an ACS 2023 population and the simplemaps cities that match none
           -- (same name without the legal descriptor within 80 km, then that name written otherwise within 80 km, else
           -- the name as whole words within 25 km; one city per place; then a city and a place both left, of the same
           -- population within 1 km, named as the place unless another place of the state is), one per (state, slug)
           pl0 as (select g.USPS as st, g.GEOID as geoid, g.INTPTLAT::double as lat, g.INTPTLONG::double as lng, try_cast(a.B01003_001E as bigint) as pop,
                    ${SLUG('g.NAME')} as full_slug,
                    regexp_replace(g.NAME, ' ((city and borough|unified government|consolidated government|metro government|metropolitan government|urban county|city|town|village|borough|CDP|municipality|corporation|comunidad|zona urbana) )?[(]balance[)]$| (city and borough|unified government|consolidated government|metropolitan government|urban county|city|town|village|borough|CDP|municipality|corporation|comunidad|zona urbana)$', '') as plain_name
                  from read_csv(${src('census-gazetteer-2025', '2025_Gaz_place_national.txt.gz')}, delim = '|', all_varchar = true) g
                  join read_csv(${src('census-acs2023-population', 'acs5_2023_place_population.csv.gz')}, all_varchar = true) a on a.geoid = g.GEOID
                  where try_cast(a.B01003_001E as bigint) is not null and g.USPS in (select code from st)),
           pl as (select *, ${SLUG('plain_name')} as plain, ${KEY('plain_name')} as k from pl0),
           sm as (select id, state_id as st, ${SLUG('city')} as slug, ${KEY('city')} as k, lat::double as lat, lng::double as lng, try_cast(population as bigint) as pop
                  from read_csv(${src('simplemaps-uscities', 'uscities.csv.gz')}, all_varchar = true) where state_id in (select code from st)),
           km as (select sm.id, pl.geoid, pl.plain, sm.slug, 111.2 * sqrt(power(sm.lat - pl.lat, 2) + power((sm.lng - pl.lng) * cos(radians(sm.lat)), 2)) as d,
                    case when pl.plain = sm.slug then 0 when pl.k = sm.k then 1 else 2 end as pass
                  from sm join pl on pl.st = sm.st and (pl.plain = sm.slug or pl.k = sm.k or ('-' || pl.full_slug || '-') like ('%-' || sm.slug || '-%'))),
           exact as (select * from km where pass < 2 and d <= 80),
           part as (select * from km where pass = 2 and d <= 25 and id not in (select id from exact)),
           best as (select id, arg_min(geoid, (pass, d)) as geoid, min((pass, d)) as r from (select * from exact union all select * from part) group by id),
           kept1 as (select geoid, arg_min(id, (r, id)) as id from best group by geoid),
           same_place as (select sm.id, pl.geoid, pl.st, pl.plain, sm.slug,
                    111.2 * sqrt(power(sm.lat - pl.lat, 2) + power((sm.lng - pl.lng) * cos(radians(sm.lat)), 2)) as d
                  from sm join pl on pl.st = sm.st and pl.pop = sm.pop
                  where sm.id not in (select id from kept1) and pl.geoid not in (select geoid from kept1)),
           pairs as (select geoid, id, case when (select count(*) from pl o where o.st = p.st and o.plain = p.plain) = 1 then plain else slug end as name_slug
                  from (select *, row_number() over (partition by geoid order by d, id) as a, row_number() over (partition by id order by d, geoid) as b from same_place where d <= 1) p
                  where a = 1 and b = 1),
           kept as (select geoid, id, null as name_slug from kept1 union all select geoid, id, name_slug from pairs),
           city_keys as (select distinct pl.st, coalesce(kept.name_slug, sm.slug, pl.plain) as slug from pl left join kept using (geoid) left join sm on sm.id = kept.id
                         union select st, slug from sm where id not in (select id from kept))
      select
        (select count(*) from st where type = 'state')::int as states,
        (select count(*) from read_csv(${src('usgeo-census-tables', 'counties.csv')}, all_varchar = true) where State in (select code from st))::int as counties,
        (select count(*) from city_keys)::int as cities,
        (select count(*) from universe left join hud using (zip) left join gn using (zip) left join zc using (zip) left join zr using (zip) left join us using (zip)
           where coalesce(hud.st, gn.st, zc.st, zr.st, us.st) in (select code from st))::int as zips`);
    return reader.getRowObjectsJson()[0] as { states: number; counties: number; cities: number; zips: number };
  } finally {
    con.closeSync();
    inst.closeSync();
  }
}

/** Active records per category, read straight from the authored dataset files (warehouse/regulations/{states,local}/*.json). */
function activeRegulations(): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(CATEGORIES.map((c) => [c, 0]));
  for (const sub of ['states', 'local']) {
    const dir = repoPath('warehouse/regulations', sub);
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      for (const r of JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { category: string; status: string }[]) {
        if (r.status === 'active') out[r.category] = (out[r.category] ?? 0) + 1;
      }
    }
  }
  return out;
}

describe('GET /v1/coverage/summary against independent counts', () => {
  let srv: TestServer;
  beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
  afterAll(async () => { await srv?.close(); });

  it('states, counties, cities and zips equal the raw files; regulations the dataset; findable addresses and data_points recounted', async () => {
    const res = await srv.get('/v1/coverage/summary');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(COVERAGE_FIELDS);
    const raw = await rawGeoCounts();
    // the documented figures (geo.md): 50 states, 3,144 counties, 31,826 cities (31,853 before one place was one city:
    // h68places), 40,979 zips
    expect(raw).toEqual({ states: 50, counties: 3144, cities: 31826, zips: 40979 });
    const regs = activeRegulations();
    // addresses (address.md "Merge rule"), recounted from the candidate rows: one per street line + unit + zip, where
    // a zip-less or guessed-zip row borrows the single recorded zip of the same street line, unit, city and state, and
    // otherwise keeps city + state as its place (a guessed zip is never a place); street lines without a letter are
    // not addresses (the SQL's rule)
    const [addr] = await warehouseRows<{ n: number }>(`
      with c as (select * from int_address_candidates where regexp_matches(address, '[A-Z]')),
      recorded as (
        select address, coalesce(unit, '') as u, upper(city) as cu, state_code, count(distinct zip) as zips, min(zip) as zip
        from c where zip is not null and not zip_imputed group by all),
      keyed as (
        select c.address, coalesce(c.unit, '') as u,
               case when c.zip is not null and not c.zip_imputed then c.zip
                    when r.zips = 1 then r.zip
                    else upper(c.city) || ',' || c.state_code end as place
        from c left join recorded r on r.address = c.address and r.u = coalesce(c.unit, '') and r.cu = upper(c.city) and r.state_code = c.state_code
        where (c.zip is not null and not c.zip_imputed) or r.zips = 1 or (c.city is not null and c.state_code is not null))
      select count(distinct (address, u, place))::int as n from keyed`);
    // the addresses table holds every merged address; the summary counts only those the address endpoints can find:
    // a point, a city and a state (address.md "Autocomplete index"; a zip or county not recorded is answered as "")
    const [known] = await warehouseRows<{ n: number; findable: number }>(`select count(*)::int as n,
      (count(*) filter (where lat is not null and lng is not null and city is not null and state_code is not null))::int as findable from addresses`);
    expect(known!.n).toBe(addr!.n);
    const index = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'autocomplete', 'meta.json'), 'utf8')) as { records: number };
    expect(index.records).toBe(known!.findable);
    // data_points: rows of every base table of schema main but int_* helpers and mart_coverage, counted one by one
    const tables = (await warehouseRows<{ t: string }>(`select table_name as t from information_schema.tables
      where table_schema = 'main' and table_type = 'BASE TABLE' and table_catalog = current_database()`)).map((r) => r.t)
      .filter((t) => !t.startsWith('int_') && t !== 'mart_coverage');
    expect(tables).toEqual(expect.arrayContaining(['states', 'counties', 'cities', 'zips', 'sales', 'regulations', 'addresses', 'mart_location_risk']));
    const counts = await warehouseRows<{ n: number }>(tables.map((t) => `select count(*)::int as n from "${t}"`).join(' union all '));
    const points = counts.reduce((a, c) => a + c.n, 0);
    expect(body).toEqual({
      addresses: known!.findable,
      regulations: Object.values(regs).reduce((a, b) => a + b, 0),
      regulations_by_category: regs,
      ...raw,
      data_points: points,
      last_refreshed: PINNED_NOW.toISOString(),
      meta: { cached: true },
    });
    expect(Object.keys(body['regulations_by_category'] as object)).toEqual(CATEGORIES);
    expect(body['addresses']).toBeGreaterThan(150_000);
    expect(body['addresses']).toBeLessThan(addr!.n);
  });
});
