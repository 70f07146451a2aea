// Every Census place of 5,000+ people is a market (warehouse/docs/geo.md "cities", "Markets rule"), graded on the shared
// real build's shards against figures computed here from the raw files (DuckDB read_csv over ../shared/data), not from
// the product's tables: the per-state count of Census places of 5,000+ (ACS 2023 place population) against the
// /v1/geo/markets lists, and the 60 largest places' county, FIPS, metro and zips against the documented rules
// ("Primary county", "Zip codes") written out again here.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { nameKey, RawGeo, sqlPath } from '../helpers/oracle-geo.ts';
import { largestPlaces, placeZips, primaryCounty, type CensusPlace } from '../helpers/geo-census-oracle.ts';

let geo: RawGeo;
beforeAll(async () => { geo = await RawGeo.open(); });
afterAll(() => geo?.close());

interface Lookup { city_name: string; county_name: string; fips_code: string; metro_area: string; market_tier: string; zip_codes: string[] }
const lookupPath = (state: string, city: string): string => `geo/lookup/${state}/${nameKey(city)}.json`;

/** us_geo states.csv: FIPS -> USPS code of the 50 states and DC. */
async function stateCodes(): Promise<Map<string, string>> {
  const rows = await geo.rows<{ fips: string; code: string }>(`select FIPS as fips, Code as code
    from read_csv('${sqlPath('usgeo-census-tables/states.csv')}', all_varchar = true) where Type in ('state', 'district')`);
  return new Map(rows.map((r) => [r.fips, r.code]));
}

describe('every Census place of 5,000+ people is a market', () => {
  it('per state, the /v1/geo/markets count is within 5% of the ACS 2023 count of places of 5,000+ (50 states and DC)', async () => {
    const codes = await stateCodes();
    const acs = await geo.rows<{ state: string; n: number }>(`select state, count(*)::integer as n
      from read_csv('${sqlPath('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true)
      where try_cast(B01003_001E as bigint) >= 5000 group by state`);
    const census = new Map<string, number>();
    for (const r of acs) if (codes.has(r.state)) census.set(codes.get(r.state)!, r.n);
    expect(census.size).toBe(51);
    const off: string[] = [];
    let worst = { state: '', pct: 0 };
    for (const [state, n] of census) {
      const m = readShard<{ count: number }>(`geo/markets/${state}/all.json`).count;
      const pct = (100 * (m - n)) / n;
      if (Math.abs(pct) > Math.abs(worst.pct)) worst = { state, pct };
      if (Math.abs(m - n) > 0.05 * n) off.push(`${state}: ${m} markets, Census ${n} (${pct.toFixed(1)}%)`);
    }
    expect(off).toEqual([]);
    console.log(`per-state markets vs Census places of 5,000+: worst ${worst.state} ${worst.pct.toFixed(1)}%`);
  });

  it('the Census places the issue names are markets and lookups: Toms River NJ, Cheektowaga NY, Brookline MA, West Hartford CT', async () => {
    const named: [string, string, string][] = [['NJ', 'Toms River', 'Toms River CDP'], ['NY', 'Cheektowaga', 'Cheektowaga CDP'],
      ['MA', 'Brookline', 'Brookline CDP'], ['CT', 'West Hartford', 'West Hartford CDP']];
    for (const [state, city, census] of named) {
      const [g] = await geo.rows<{ n: string }>(`select NAME as n from read_csv('${sqlPath('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}',
        delim = '|', all_varchar = true) where USPS = '${state}' and NAME = '${census}'`);
      expect(g, `the Gazetteer lists ${census}, ${state}`).toBeDefined();
      expect(readShard<Lookup>(lookupPath(state, city)).city_name).toBe(city);
      const list = readShard<{ markets: { city_name: string }[] }>(`geo/markets/${state}/all.json`);
      expect(list.markets.map((m) => m.city_name), state).toContain(city);
    }
  });
});

// ---------- the 60 largest places: county by people (else land), FIPS, metro, zips, from the raw crosswalks

describe('the 60 largest US cities: county, FIPS, metro, tier and zips from the raw files', () => {
  let big: CensusPlace[];
  beforeAll(async () => {
    big = await largestPlaces(geo, 60);
  });

  it('all four right for every one of the 60; New York is Kings County', async () => {
    expect(big).toHaveLength(60);
    const wrong: string[] = [];
    let right = 0;
    for (const p of big) {
      // the lookup's name for the place: its row of the canonical table, found by GEOID (the values are graded below)
      const [row] = await warehouseRows<{ city_name: string }>(`select city_name from cities where place_geoid = $g`, { g: p.geoid });
      if (!row) { wrong.push(`${p.name}, ${p.state}: no city`); continue; }
      // the name is the Census name's own words ("Nashville" of "Nashville-Davidson metropolitan government (balance)")
      if (!`-${nameKey(p.name)}-`.includes(`-${nameKey(row.city_name)}-`)) wrong.push(`${p.name}: named ${row.city_name}`);
      const file = lookupPath(p.state, row.city_name);
      if (!fs.existsSync(path.join(buildDir(), 'shards', file))) { wrong.push(`${p.name}: no ${file}`); continue; }
      const body = readShard<Lookup>(file);
      const fips = await primaryCounty(geo, p);
      const county = geo.counties.get(fips);
      const want = { fips_code: fips, county_name: county?.name, metro_area: county?.metroArea, market_tier: county?.tier, zip_codes: await placeZips(geo, p, row.city_name) };
      const got = { fips_code: body.fips_code, county_name: body.county_name, metro_area: body.metro_area, market_tier: body.market_tier, zip_codes: body.zip_codes };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${p.name}, ${p.state}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      else right += 1;
      expect(body.zip_codes.length, `${p.name} has zip codes`).toBeGreaterThan(0);
    }
    expect(wrong).toEqual([]);
    expect(right).toBe(60);
    const ny = readShard<Lookup>('geo/lookup/NY/new-york.json');
    expect({ fips: ny.fips_code, county: ny.county_name }).toEqual({ fips: '36047', county: 'Kings County' });
  });

  it('the cases are not vacuous: several of the 60 span counties, and people and land pick different counties for New York', async () => {
    const multi = await geo.rows<{ n: number }>(`select count(distinct "Place GEOID")::integer as n
      from read_csv('${sqlPath('usgeo-census-tables/place_counties.csv.gz')}', all_varchar = true)
      where "Place GEOID" in (${big.map((p) => `'${p.geoid}'`).join(', ')})
      group by "Place GEOID" having count(*) > 1`);
    expect(multi.length).toBeGreaterThan(10);
    // by land alone New York would be Queens (the largest borough by area)
    const [byLand] = await geo.rows<{ c: string }>(`select GEOID as c from read_csv('${sqlPath('usgeo-census-tables/counties.csv')}', all_varchar = true)
      where GEOID in ('36005', '36047', '36061', '36081', '36085') order by "Land Area"::double desc limit 1`);
    expect(byLand?.c ?? '').not.toBe('36047');
  });
});
