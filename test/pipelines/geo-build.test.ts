// Geography: canonical states/counties/cities/zips, the geo marts, coverage and their shards.
// Part 1 runs the real step files over a few given raw rows in an in-memory DuckDB; part 2 reads the shared real build.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { artifactsDir, buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { run as runCoverage } from '../../pipelines/marts/90_mart_coverage.ts';
import { listSteps } from '../../pipelines/steps.ts';
import { shardPath } from '../../warehouse/layout.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { repoPath } from '../helpers/paths.ts';

// ---------- the spec's field lists (interface-v1.md), in the spec's order
const STATE_FIELDS = ['state_code', 'state_name', 'landlord_friendliness_score', 'landlord_friendliness_label', 'foreclosure_type',
  'lien_or_deed', 'interest_rate_pct', 'redemption_period_months'];
const LOOKUP_FIELDS = ['state_code', 'state_name', 'city_name', 'county_name', 'fips_code', 'metro_area', 'market_tier', 'zip_codes',
  'has_city_rent_control', 'has_city_eviction_protections', 'is_investor_active', 'landlord_risk', 'tax_type', 'interest_rate_pct',
  'redemption_period_months'];
const MARKET_FIELDS = ['city_name', 'county_name', 'market_tier', 'is_investor_active', 'has_city_rent_control'];
const COVERAGE_FIELDS = ['addresses', 'regulations', 'regulations_by_category', 'states', 'cities', 'zips', 'counties', 'data_points',
  'last_refreshed', 'meta'];
const CATEGORIES = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure',
  'rent_control', 'tax_deed_lien'];
const TIERS = ['primary', 'secondary', 'tertiary', 'rural'];

// ---------- given rows

type Row = Record<string, string | null>;

/** Creates raw."<name>" like the sources stage does: every column VARCHAR, plus _file and _row. */
async function rawTable(ctx: TestContext, name: string, columns: string[], rows: Row[]): Promise<void> {
  const cols = columns.map((c) => `"${c}" varchar`).join(', ');
  await ctx.db.run(`create or replace table raw."${name}" (${cols}, _file varchar, _row bigint)`);
  for (const [i, r] of rows.entries()) {
    const params: Record<string, unknown> = { file: `${name}.csv`, row: i + 1 };
    columns.forEach((c, j) => { params[`c${j}`] = r[c] ?? null; });
    await ctx.db.run(`insert into raw."${name}" values (${columns.map((_, j) => `$c${j}::varchar`).join(', ')}, $file, $row::bigint)`, params as never);
  }
}

const STATE_COLS = ['Name', 'Code', 'Type', 'FIPS', 'Region ID', 'Region', 'Division ID', 'Division', 'Population', 'Housing Units', 'Land Area', 'Water Area'];
const COUNTY_COLS = ['GEOID', 'GNIS ID', 'Name', 'Short Name', 'State', 'CBSA', 'Metropolitan Division', 'Central', 'Time Zone', 'Time Zone 2',
  'FIPS Class', 'Population', 'Housing Units', 'Land Area', 'Water Area', 'Latitude', 'Longitude'];
const DELINEATION_COLS = ['CBSA Code', 'Metropolitan Division Code', 'CSA Code', 'CBSA Title', 'Metropolitan/Micropolitan Statistical Area',
  'Metropolitan Division Title', 'CSA Title', 'County/County Equivalent', 'State Name', 'FIPS State Code', 'FIPS County Code', 'Central/Outlying County'];
const ACS_COLS = ['geoid', 'NAME', 'B01003_001E', 'B25001_001E'];
const GAZ_PLACE_COLS = ['USPS', 'GEOID', 'GEOIDFQ', 'ANSICODE', 'NAME', 'LSAD', 'FUNCSTAT', 'ALAND', 'AWATER', 'ALAND_SQMI', 'AWATER_SQMI', 'INTPTLAT', 'INTPTLONG'];
const SIMPLEMAPS_COLS = ['city', 'city_ascii', 'state_id', 'state_name', 'county_fips', 'county_name', 'lat', 'lng', 'population', 'density',
  'source', 'military', 'incorporated', 'timezone', 'ranking', 'zips', 'id'];
const HUD_COLS = ['ZIP', 'COUNTY', 'USPS_ZIP_PREF_CITY', 'USPS_ZIP_PREF_STATE', 'RES_RATIO', 'BUS_RATIO', 'OTH_RATIO', 'TOT_RATIO'];
const GEONAMES_COLS = ['country_code', 'zipcode', 'place', 'state', 'state_code', 'province', 'province_code', 'community', 'community_code', 'latitude', 'longitude'];
const GAZ_ZCTA_COLS = ['GEOID', 'GEOIDFQ', 'ALAND', 'AWATER', 'ALAND_SQMI', 'AWATER_SQMI', 'INTPTLAT', 'INTPTLONG'];
const USGEO_ZCTA_COLS = ['ZCTA5', 'Primary County', 'Primary County Subdivision', 'Primary Place', 'Primary Urban Area', 'Population', 'Housing Units',
  'Land Area', 'Water Area', 'Latitude', 'Longitude'];
const USPS_COLS = ['AREA NAME', 'AREA CODE', 'DISTRICT NAME', 'DISTRICT NO', 'DELIVERY ZIPCODE', 'LOCALE NAME', 'PHYSICAL DELV ADDR', 'PHYSICAL CITY',
  'PHYSICAL STATE', 'PHYSICAL ZIP', 'PHYSICAL ZIP 4'];
const ZIPREF_COLS = ['zip_code', 'state', 'metro', 'county', 'city', 'lat', 'lng', 'zhvi_latest', 'redfin_latest_period_end'];

const state = (Name: string, Code: string, Type: string, FIPS: string, Population: string): Row => ({ Code, Name, Type, FIPS, Population });
const county = (GEOID: string, Name: string, State: string, CBSA: string, lat: string, lng: string): Row =>
  ({ GEOID, Name, 'Short Name': Name.replace(/ (County|Planning Region|Municipio)$/, ''), State, CBSA, Latitude: lat, Longitude: lng, Population: '1' });
const delineation = (cbsa: string, title: string, type: 'Metropolitan' | 'Micropolitan', fips: string): Row => ({
  'CBSA Code': cbsa, 'CBSA Title': title, 'Metropolitan/Micropolitan Statistical Area': `${type} Statistical Area`,
  'FIPS State Code': fips.slice(0, 2), 'FIPS County Code': fips.slice(2), 'County/County Equivalent': 'x', 'Central/Outlying County': 'Central',
});
const acs = (geoid: string, pop: string): Row => ({ geoid, NAME: geoid, B01003_001E: pop, B25001_001E: '1' });
const place = (USPS: string, GEOID: string, NAME: string, lat: string, lng: string): Row => ({ USPS, GEOID, NAME, INTPTLAT: lat, INTPTLONG: lng });
const city = (id: string, name: string, st: string, fips: string, lat: string, lng: string, pop: string, zips: string): Row => ({
  id, city: name, city_ascii: name, state_id: st, county_fips: fips, lat, lng, population: pop, zips, incorporated: 'TRUE', military: 'FALSE', ranking: '3',
});

async function givenGeography(ctx: TestContext): Promise<void> {
  await rawTable(ctx, 'usgeo__states', STATE_COLS, [
    state('Washington', 'WA', 'state', '53', '7740984'),
    state('Connecticut', 'CT', 'state', '09', '3598348'),
    state('District of Columbia', 'DC', 'district', '11', '672079'),
    state('Puerto Rico', 'PR', 'territory', '72', '3254885'),
  ]);
  await rawTable(ctx, 'usgeo__counties', COUNTY_COLS, [
    county('53033', 'King County', 'WA', '42660', '47.49', '-121.83'),
    county('53053', 'Pierce County', 'WA', '42660', '47.05', '-122.13'),
    county('53063', 'Spokane County', 'WA', '44060', '47.62', '-117.40'),
    county('53077', 'Yakima County', 'WA', '49420', '46.46', '-120.74'),
    county('53013', 'Columbia County', 'WA', '', '46.29', '-117.91'),
    county('09110', 'Capitol Planning Region', 'CT', '25540', '41.78', '-72.59'),
    county('11001', 'District of Columbia', 'DC', '47900', '38.90', '-77.02'),
    county('72127', 'San Juan Municipio', 'PR', '41980', '18.41', '-66.06'),
  ]);
  await rawTable(ctx, 'cbsa_delineation__counties', DELINEATION_COLS, [
    delineation('42660', 'Seattle-Tacoma-Bellevue, WA', 'Metropolitan', '53033'),
    delineation('42660', 'Seattle-Tacoma-Bellevue, WA', 'Metropolitan', '53053'),
    delineation('44060', 'Spokane-Spokane Valley, WA', 'Metropolitan', '53063'),
    delineation('49420', 'Yakima, WA', 'Metropolitan', '53077'),
    delineation('25540', 'Hartford-West Hartford-East Hartford, CT', 'Metropolitan', '09110'),
    delineation('47900', 'Washington-Arlington-Alexandria, DC-VA-MD-WV', 'Metropolitan', '11001'),
  ]);
  // Seattle CBSA 2,269,675 + 927,380 = 3.2 M (primary); Spokane 549,690 (secondary); Yakima 256,035 (secondary);
  // Capitol 999,999 (secondary: just below a million); DC 672,079 (secondary); Columbia: no CBSA (rural)
  await rawTable(ctx, 'acs_population__counties', [...ACS_COLS, 'state', 'county'], [
    acs('53033', '2269675'), acs('53053', '927380'), acs('53063', '549690'), acs('53077', '256035'), acs('53013', '3950'),
    acs('09110', '999999'), acs('11001', '672079'),
  ]);
  await rawTable(ctx, 'gazetteer__places', GAZ_PLACE_COLS, [
    place('WA', '5363000', 'Seattle city', '47.6211', '-122.3244'),
    place('WA', '5367000', 'Spokane city', '47.6671', '-117.4331'),
    place('WA', '5380010', 'Yakima city', '46.5923', '-120.5496'),
    // the same name 200 km away (Yakima County) must not be taken for the King County Dayton
    place('WA', '5317000', 'Dayton city', '46.3197', '-117.9783'),
    place('WA', '5338038', 'Lakewood city (balance)', '47.1628', '-122.5299'),
    place('CT', '0937000', 'Hartford city', '41.7660', '-72.6833'),
    place('DC', '1150000', 'Washington city', '38.9047', '-77.0163'),
  ]);
  await rawTable(ctx, 'acs_population__places', [...ACS_COLS, 'state', 'place'], [
    acs('5363000', '741440'), acs('5367000', '229228'), acs('5380010', '96968'), acs('5317000', '2494'), acs('5338038', '63612'),
    acs('0937000', '119970'), acs('1150000', '672079'),
  ]);
  await rawTable(ctx, 'simplemaps__cities', SIMPLEMAPS_COLS, [
    // simplemaps' population of Seattle is the urban area's
    city('1840021117', 'Seattle', 'WA', '53033', '47.6211', '-122.3244', '3555253', '98101 98104 98101'),
    city('1840021093', 'Spokane', 'WA', '53063', '47.6671', '-117.4330', '444000', '99201'),
    city('1840021150', 'Yakima', 'WA', '53077', '46.5923', '-120.5496', '133000', ''),
    city('1840018000', 'Dayton', 'WA', '53013', '46.3197', '-117.9783', '2500', ''),
    city('1840017000', 'Dayton', 'WA', '53033', '47.50', '-121.90', '120', ''),
    city('1840019000', 'Lakewood', 'WA', '53053', '47.1628', '-122.5299', '63000', '98499'),
    city('1840019999', 'Fakeville', 'WA', '53033', '47.40', '-122.00', '7000', ''),
    city('1840004773', 'Hartford', 'CT', '09110', '41.7661', '-72.6834', '969171', '06103 06199'),
    city('1840006060', 'Washington', 'DC', '11001', '38.9047', '-77.0163', '5146120', '20001'),
    city('1630035681', 'San Juan', 'PR', '72127', '18.4037', '-66.0636', '1809800', '00901'),
  ]);
  await rawTable(ctx, 'hud_crosswalk__zip_county', HUD_COLS, [
    { ZIP: '98101', COUNTY: '53033', USPS_ZIP_PREF_CITY: 'SEATTLE', USPS_ZIP_PREF_STATE: 'WA', TOT_RATIO: '1' },
    // split ZIP: most addresses in Pierce
    { ZIP: '98422', COUNTY: '53033', USPS_ZIP_PREF_CITY: 'TACOMA', USPS_ZIP_PREF_STATE: 'WA', TOT_RATIO: '0.3' },
    { ZIP: '98422', COUNTY: '53053', USPS_ZIP_PREF_CITY: 'TACOMA', USPS_ZIP_PREF_STATE: 'WA', TOT_RATIO: '0.7' },
    { ZIP: '98639', COUNTY: '53033', USPS_ZIP_PREF_CITY: 'NORTH BONNEVILLE', USPS_ZIP_PREF_STATE: 'WA', TOT_RATIO: '1' },
    // Connecticut in HUD 2023 Q1: the old Hartford County, which is no county any more
    { ZIP: '06103', COUNTY: '09003', USPS_ZIP_PREF_CITY: 'HARTFORD', USPS_ZIP_PREF_STATE: 'CT', TOT_RATIO: '1' },
    { ZIP: '06199', COUNTY: '09003', USPS_ZIP_PREF_CITY: 'HARTFORD', USPS_ZIP_PREF_STATE: 'CT', TOT_RATIO: '1' },
    { ZIP: '00901', COUNTY: '72127', USPS_ZIP_PREF_CITY: 'SAN JUAN', USPS_ZIP_PREF_STATE: 'PR', TOT_RATIO: '1' },
  ]);
  await rawTable(ctx, 'geonames__zips', GEONAMES_COLS, [
    { zipcode: '98101', place: 'Seattle', state_code: 'WA', province_code: '033', latitude: '47.61', longitude: '-122.33' },
    { zipcode: '98422', place: 'Tacoma', state_code: 'WA', province_code: '053', latitude: '47.29', longitude: '-122.39' },
    // GeoNames has the planning region for 06103 but the old county for the PO-box ZIP 06199
    { zipcode: '06103', place: 'Hartford', state_code: 'CT', province_code: '110', latitude: '41.77', longitude: '-72.67' },
    { zipcode: '06199', place: 'Hartford', state_code: 'CT', province_code: '003', latitude: '41.76', longitude: '-72.68' },
    { zipcode: '09001', place: 'APO AE', state_code: '', province_code: '', latitude: '50.1', longitude: '8.6' },
  ]);
  await rawTable(ctx, 'gazetteer__zctas', GAZ_ZCTA_COLS, [
    { GEOID: '98101', INTPTLAT: '47.610902', INTPTLONG: '-122.336422' },
    { GEOID: '98422', INTPTLAT: '47.290000', INTPTLONG: '-122.390000' },
    { GEOID: '98999', INTPTLAT: '47.400000', INTPTLONG: '-122.200000' },
    { GEOID: '06103', INTPTLAT: '41.765103', INTPTLONG: '-72.670756' },
  ]);
  await rawTable(ctx, 'usgeo__zctas', USGEO_ZCTA_COLS, [
    { ZCTA5: '98101', 'Primary County': '53033', Population: '1' },
    { ZCTA5: '98422', 'Primary County': '53053' },
    // no ACS ZCTA row: us_geo's population
    { ZCTA5: '98999', 'Primary County': '53033', Population: '4321' },
    // the 2020 ZCTA files still have the old Hartford County
    { ZCTA5: '06103', 'Primary County': '09003', Population: '1' },
  ]);
  await rawTable(ctx, 'usgeo__zcta_mappings', ['ZIP Code', 'Active ZCTA5'], []);
  await rawTable(ctx, 'acs_population__zctas', [...ACS_COLS, 'zip code tabulation area'], [acs('98101', '16396'), acs('06103', '2845')]);
  await rawTable(ctx, 'usps_locale__zips', USPS_COLS, [{ 'DELIVERY ZIPCODE': '98999', 'LOCALE NAME': 'SOUTH PARK' }]);
  await rawTable(ctx, 'zip_reference__zips', ZIPREF_COLS, [{ zip_code: '98999', state: 'WA', city: 'South Park', county: 'King', lat: '1', lng: '2' }]);
}

async function runGeoSteps(ctx: TestContext): Promise<void> {
  for (const f of listSteps(repoPath('pipelines/staging'))) {
    if (/^stg_(usgeo|gazetteer|cbsa_delineation|acs_population|simplemaps|hud_crosswalk|geonames|usps_locale|zip_reference)__/.test(f)) {
      const sql = fs.readFileSync(repoPath('pipelines/staging', f), 'utf8');
      const table = /raw\."([a-z_]+__[a-z_]+)"/.exec(sql)![1]!;
      const exists = await ctx.rows(`select 1 from duckdb_tables() where schema_name = 'raw' and table_name = $t`, { t: table });
      if (exists.length) await ctx.db.run(sql);
    }
  }
  for (const f of listSteps(repoPath('pipelines/intermediate')).filter((f) => f.startsWith('10_geo_'))) {
    await runSqlFile(ctx, `pipelines/intermediate/${f}`);
  }
}

async function givenLegal(ctx: TestContext): Promise<void> {
  await ctx.db.run(`
    create table state_legal as select * from (values
      ('WA', 42.5, 'Tenant-leaning', 'non-judicial', 'deed', null::double, null::double),
      ('CT', 35.0, 'Tenant-leaning', 'judicial', 'lien', 18.0, 6.0),
      ('DC', 20.0, 'Tenant-friendly', 'non-judicial', 'lien', 18.0, 6.0)
    ) t(state_code, landlord_friendliness_score, landlord_friendliness_label, foreclosure_type, lien_or_deed, interest_rate_pct, redemption_period_months);
    create table local_legal as select * from (values
      ('WA', null, 'SEATTLE', false, true),
      ('WA', '53053', null, true, false),
      ('CT', null, 'New Haven', true, true)
    ) t(state_code, county_fips, city, has_city_rent_control, has_city_eviction_protections);`);
}

async function runGeoMarts(ctx: TestContext): Promise<void> {
  for (const f of ['10_mart_geo_cities.sql', '10_mart_geo_markets.sql', '10_mart_geo_states.sql']) await runSqlFile(ctx, `pipelines/marts/${f}`);
}

async function shardRows(ctx: TestContext, family: string): Promise<Record<string, unknown>[]> {
  return ctx.rows(fs.readFileSync(repoPath('pipelines/shards', `${family}.sql`), 'utf8'));
}

describe('geo steps over given rows', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeContext();
    await givenGeography(ctx);
    await runGeoSteps(ctx);
  });
  afterAll(() => ctx.close());

  it('states: the 50 states and DC (not a state), territories rejected', async () => {
    expect(await ctx.rows(`select state_code, state_fips, is_state, population::integer as population from states order by state_code`)).toEqual([
      { state_code: 'CT', state_fips: '09', is_state: true, population: 3598348 },
      { state_code: 'DC', state_fips: '11', is_state: false, population: 672079 },
      { state_code: 'WA', state_fips: '53', is_state: true, population: 7740984 },
    ]);
    const rejects = await ctx.rows(`select source, line::integer as line, reason from meta.rejects where reason = 'territory_out_of_scope' order by source, line`);
    expect(rejects).toEqual([
      { source: 'simplemaps', line: 11, reason: 'territory_out_of_scope' },
      { source: 'usgeo', line: 5, reason: 'territory_out_of_scope' },
      { source: 'usgeo', line: 9, reason: 'territory_out_of_scope' },
    ]);
  });

  it('counties: CBSA title as metro_area, null outside any CBSA, ACS population', async () => {
    expect(await ctx.rows(`select county_fips, county_name, state_code, cbsa_code, metro_area, cbsa_type, population::integer as population
      from counties where county_fips in ('53033', '53013', '09110') order by county_fips`)).toEqual([
      { county_fips: '09110', county_name: 'Capitol Planning Region', state_code: 'CT', cbsa_code: '25540', metro_area: 'Hartford-West Hartford-East Hartford, CT', cbsa_type: 'metro', population: 999999 },
      { county_fips: '53013', county_name: 'Columbia County', state_code: 'WA', cbsa_code: null, metro_area: null, cbsa_type: null, population: 3950 },
      { county_fips: '53033', county_name: 'King County', state_code: 'WA', cbsa_code: '42660', metro_area: 'Seattle-Tacoma-Bellevue, WA', cbsa_type: 'metro', population: 2269675 },
    ]);
    expect(await ctx.rows(`select cbsa_code, population::integer as population, county_count from int_geo_cbsas where cbsa_code = '42660'`))
      .toEqual([{ cbsa_code: '42660', population: 2269675 + 927380, county_count: 2 }]);
  });

  it('cities: place population over simplemaps urban-area figure, tier by CBSA population, dedupe by slug', async () => {
    const rows = await ctx.rows(`select city_id, city_name, state_code, county_fips, county_name, metro_area, population::integer as population,
      population_source, place_geoid, market_tier, is_market, zip_codes from cities order by state_code, city_slug`);
    expect(rows).toEqual([
      { city_id: '1840004773', city_name: 'Hartford', state_code: 'CT', county_fips: '09110', county_name: 'Capitol Planning Region', metro_area: 'Hartford-West Hartford-East Hartford, CT', population: 119970, population_source: 'acs_place', place_geoid: '0937000', market_tier: 'secondary', is_market: true, zip_codes: ['06103', '06199'] },
      { city_id: '1840006060', city_name: 'Washington', state_code: 'DC', county_fips: '11001', county_name: 'District of Columbia', metro_area: 'Washington-Arlington-Alexandria, DC-VA-MD-WV', population: 672079, population_source: 'acs_place', place_geoid: '1150000', market_tier: 'secondary', is_market: true, zip_codes: ['20001'] },
      // the Columbia County Dayton (2,494 people) wins over the King County one (120); rural: no CBSA
      { city_id: '1840018000', city_name: 'Dayton', state_code: 'WA', county_fips: '53013', county_name: 'Columbia County', metro_area: null, population: 2494, population_source: 'acs_place', place_geoid: '5317000', market_tier: 'rural', is_market: false, zip_codes: [] },
      // no Census place: simplemaps' figure
      { city_id: '1840019999', city_name: 'Fakeville', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 7000, population_source: 'simplemaps', place_geoid: null, market_tier: 'primary', is_market: true, zip_codes: [] },
      // "Lakewood city (balance)": matched on the whole word
      { city_id: '1840019000', city_name: 'Lakewood', state_code: 'WA', county_fips: '53053', county_name: 'Pierce County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 63612, population_source: 'acs_place', place_geoid: '5338038', market_tier: 'primary', is_market: true, zip_codes: ['98499'] },
      { city_id: '1840021117', city_name: 'Seattle', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 741440, population_source: 'acs_place', place_geoid: '5363000', market_tier: 'primary', is_market: true, zip_codes: ['98101', '98104'] },
      { city_id: '1840021093', city_name: 'Spokane', state_code: 'WA', county_fips: '53063', county_name: 'Spokane County', metro_area: 'Spokane-Spokane Valley, WA', population: 229228, population_source: 'acs_place', place_geoid: '5367000', market_tier: 'secondary', is_market: true, zip_codes: ['99201'] },
      { city_id: '1840021150', city_name: 'Yakima', state_code: 'WA', county_fips: '53077', county_name: 'Yakima County', metro_area: 'Yakima, WA', population: 96968, population_source: 'acs_place', place_geoid: '5380010', market_tier: 'secondary', is_market: true, zip_codes: [] },
    ]);
    expect(await ctx.rows(`select line::integer as line, detail from meta.rejects where reason = 'duplicate_city_slug'`))
      .toEqual([{ line: 6, detail: 'Dayton, WA (kept id 1840018000)' }]);
  });

  it('cities: tier thresholds at 1,000,000 and 250,000 CBSA people, micro areas tertiary', async () => {
    await ctx.db.run(`update int_geo_cbsas set population = 1000000 where cbsa_code = '25540'`);
    await ctx.db.run(`update int_geo_cbsas set population = 249999 where cbsa_code = '49420'`);
    await ctx.db.run(`update counties set cbsa_type = 'micro' where cbsa_code = '44060'`);
    await ctx.db.run(`update int_geo_cbsas set cbsa_type = 'micro', population = 60000 where cbsa_code = '44060'`);
    await runSqlFile(ctx, 'pipelines/intermediate/10_geo_04_cities.sql');
    expect(await ctx.rows(`select city_name, market_tier from cities where city_name in ('Hartford', 'Yakima', 'Spokane') order by city_name`)).toEqual([
      { city_name: 'Hartford', market_tier: 'primary' },
      { city_name: 'Spokane', market_tier: 'tertiary' },
      { city_name: 'Yakima', market_tier: 'tertiary' },
    ]);
    // back to the given rows for the next tests
    await ctx.db.run('delete from meta.rejects');
    await runGeoSteps(ctx);
  });

  it('zips: HUD address-weighted county, CT planning regions, USPS city casing, Gazetteer centroid first', async () => {
    expect(await ctx.rows(`select zip, city, state_code, county_fips, county_name, lat, lng, population::integer as population, is_zcta,
      city_source, county_source, centroid_source from zips order by zip`)).toEqual([
      // HUD says 09003 (old Hartford County): GeoNames carries the planning region
      { zip: '06103', city: 'Hartford', state_code: 'CT', county_fips: '09110', county_name: 'Capitol Planning Region', lat: 41.765103, lng: -72.670756, population: 2845, is_zcta: true, city_source: 'usps_preferred', county_source: 'geonames', centroid_source: 'gazetteer_zcta' },
      // PO-box ZIP, every source has the old county: the nearest city's county
      { zip: '06199', city: 'Hartford', state_code: 'CT', county_fips: '09110', county_name: 'Capitol Planning Region', lat: 41.76, lng: -72.68, population: null, is_zcta: false, city_source: 'usps_preferred', county_source: 'nearest_city', centroid_source: 'geonames' },
      { zip: '98101', city: 'Seattle', state_code: 'WA', county_fips: '53033', county_name: 'King County', lat: 47.610902, lng: -122.336422, population: 16396, is_zcta: true, city_source: 'usps_preferred', county_source: 'hud', centroid_source: 'gazetteer_zcta' },
      { zip: '98422', city: 'Tacoma', state_code: 'WA', county_fips: '53053', county_name: 'Pierce County', lat: 47.29, lng: -122.39, population: null, is_zcta: true, city_source: 'usps_preferred', county_source: 'hud', centroid_source: 'gazetteer_zcta' },
      // HUD only, upper case and unknown to GeoNames and simplemaps: title case; no centroid known
      { zip: '98639', city: 'North Bonneville', state_code: 'WA', county_fips: '53033', county_name: 'King County', lat: null, lng: null, population: null, is_zcta: false, city_source: 'usps_preferred', county_source: 'hud', centroid_source: null },
      // ZCTA only: USPS locale city, ZCTA county, Gazetteer centroid (not the ZIP reference's)
      { zip: '98999', city: 'South Park', state_code: 'WA', county_fips: '53033', county_name: 'King County', lat: 47.4, lng: -122.2, population: 4321, is_zcta: true, city_source: 'usps_locale', county_source: 'zcta', centroid_source: 'gazetteer_zcta' },
    ]);
    expect(await ctx.rows(`select source, reason, detail from meta.rejects where reason = 'military_or_territory_zip'`))
      .toEqual([{ source: 'geonames', reason: 'military_or_territory_zip', detail: '09001 APO AE' }]);
  });

  describe('marts and shards', () => {
    beforeAll(async () => {
      await givenLegal(ctx);
      await runGeoMarts(ctx);
    });

    it('geo-states: only is_state rows, spec fields in order, numbers as numbers', async () => {
      const [row] = await shardRows(ctx, 'geo-states');
      const body = JSON.parse(String(row!['body'])) as { count: number; states: Record<string, unknown>[] };
      expect(body.count).toBe(2);
      expect(body.states.map((s) => s['state_code'])).toEqual(['CT', 'WA']);
      for (const s of body.states) expect(Object.keys(s)).toEqual(STATE_FIELDS);
      expect(body.states[0]).toEqual({ state_code: 'CT', state_name: 'Connecticut', landlord_friendliness_score: 35, landlord_friendliness_label: 'Tenant-leaning', foreclosure_type: 'judicial', lien_or_deed: 'lien', interest_rate_pct: 18, redemption_period_months: 6 });
    });

    it('geo-lookup: legal overlays by city slug (county rules do not set city flags), one shard per city', async () => {
      const rows = await shardRows(ctx, 'geo-lookup');
      expect(rows.map((r) => `${String(r['state'])}/${String(r['city'])}`).sort()).toEqual(
        ['CT/Hartford', 'DC/Washington', 'WA/Dayton', 'WA/Fakeville', 'WA/Lakewood', 'WA/Seattle', 'WA/Spokane', 'WA/Yakima']);
      const get = (c: string): Record<string, unknown> => JSON.parse(String(rows.find((r) => r['city'] === c)!['body'])) as Record<string, unknown>;
      const seattle = get('Seattle');
      expect(Object.keys(seattle)).toEqual(LOOKUP_FIELDS);
      expect(seattle).toEqual({
        state_code: 'WA', state_name: 'Washington', city_name: 'Seattle', county_name: 'King County', fips_code: '53033',
        metro_area: 'Seattle-Tacoma-Bellevue, WA', market_tier: 'primary', zip_codes: ['98101', '98104'],
        has_city_rent_control: false, has_city_eviction_protections: true, is_investor_active: false,
        landlord_risk: { friendliness_score: 42.5, label: 'Tenant-leaning' }, tax_type: 'deed', interest_rate_pct: null, redemption_period_months: null,
      });
      // a county rule (Pierce) is not a city ordinance of Lakewood; a CBSA-less county has an empty metro_area string
      expect(get('Lakewood')['has_city_rent_control']).toBe(false);
      expect(get('Dayton')['metro_area']).toBe('');
      expect(get('Spokane')['has_city_rent_control']).toBe(false);
    });

    it('geo-markets: every state x tier x investor_active, population order, empty active lists', async () => {
      const rows = await shardRows(ctx, 'geo-markets');
      expect(rows).toHaveLength(3 * 5 * 2);
      const body = (st: string, tier: string, active: string | null): { state_code: string; count: number; markets: Record<string, unknown>[] } => {
        const r = rows.find((x) => x['state'] === st && x['tier'] === tier && x['investor_active'] === active)!;
        return JSON.parse(String(r['body'])) as { state_code: string; count: number; markets: Record<string, unknown>[] };
      };
      const all = body('WA', 'all', null);
      expect(all.count).toBe(5);
      // Dayton (2,494 people) is below the 5,000 market threshold
      expect(all.markets.map((m) => m['city_name'])).toEqual(['Seattle', 'Spokane', 'Yakima', 'Lakewood', 'Fakeville']);
      for (const m of all.markets) expect(Object.keys(m)).toEqual(MARKET_FIELDS);
      expect(Object.keys(all)).toEqual(['state_code', 'count', 'markets']);
      expect(body('WA', 'primary', null).markets.map((m) => m['city_name'])).toEqual(['Seattle', 'Lakewood', 'Fakeville']);
      expect(body('WA', 'rural', null)).toEqual({ state_code: 'WA', count: 0, markets: [] });
      expect(body('WA', 'all', 'true')).toEqual({ state_code: 'WA', count: 0, markets: [] });
    });

    it('coverage: counts only existing tables, every category key, ISO build time', async () => {
      await ctx.db.run(`create table regulations as select * from (values
        ('r1', 'eviction', 'active'), ('r2', 'eviction', 'active'), ('r3', 'zoning', 'active'), ('r4', 'zoning', 'expired'), ('r5', 'rent_control', 'pending')
      ) t(id, category, status)`);
      await runCoverage(ctx);
      const [row] = await shardRows(ctx, 'coverage');
      const body = JSON.parse(String(row!['body'])) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(COVERAGE_FIELDS);
      // data_points by hand (geo.md: rows of every main table but int_* and mart_coverage), from the given rows:
      // states 3 (CT, DC, WA) + counties 7 (PR rejected) + cities 8 + zips 6 + mart_geo_cities 8 + mart_geo_markets 7
      // (5 WA cities of 5,000+, Hartford, Washington) + mart_geo_states 2 (no DC) + state_legal 3 + local_legal 3 + regulations 5
      const expectedPoints = 3 + 7 + 8 + 6 + 8 + 7 + 2 + 3 + 3 + 5;
      expect(body).toEqual({
        addresses: 0, regulations: 3,
        regulations_by_category: Object.fromEntries(CATEGORIES.map((c) => [c, c === 'eviction' ? 2 : c === 'zoning' ? 1 : 0])),
        states: 2, cities: 8, zips: 6, counties: 7, data_points: expectedPoints,
        last_refreshed: '2026-11-21T06:00:00.000Z', meta: { cached: true },
      });
      expect(Object.keys(body['regulations_by_category'] as object)).toEqual(CATEGORIES);
    });

    it('coverage: addresses counts the rows autocomplete can find (recorded zip, point, county, city, state), once the table exists', async () => {
      await ctx.db.run(`create table addresses as select * from (values
        ('98103', false, 47.6, -122.3, 'King', 'Seattle', 'WA'),          -- findable
        ('98103', null,  47.6, -122.3, 'King', 'Seattle', 'WA'),          -- findable (flag unknown = recorded)
        ('11204', false, 40.6, -73.9,  'Kings', 'New York', 'NY'),        -- findable
        ('60614', true,  41.9, -87.6,  'Cook', 'Chicago', 'IL'),          -- guessed zip
        (null,    false, 41.7, -72.6,  'Capitol', 'Hartford', 'CT'),      -- no zip
        ('98103', false, null, null,   'King', 'Seattle', 'WA'),          -- no point
        ('98103', false, 47.6, -122.3, null,   'Seattle', 'WA'),          -- no county
        ('98103', false, 47.6, -122.3, 'King', null,      'WA')           -- no city
      ) t(zip, zip_imputed, lat, lng, county, city, state_code)`);
      await runCoverage(ctx);
      expect(await ctx.rows(`select addresses::integer as addresses from mart_coverage`)).toEqual([{ addresses: 3 }]);
    });
  });
});

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

/**
 * The geo counts straight from the raw source files, by the definitions of warehouse/docs/geo.md (not the mart's
 * query): the 50 states and DC from us_geo; counties of those 51; simplemaps cities, one per (state, slug); the ZIP
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
           universe as (select zip from hud union select zip from gn union select zip from zc union select zip from gz union select zip from us union select zip from zr)
      select
        (select count(*) from st where type = 'state')::int as states,
        (select count(*) from read_csv(${src('usgeo-census-tables', 'counties.csv')}, all_varchar = true) where State in (select code from st))::int as counties,
        (select count(distinct (state_id, trim(regexp_replace(lower(strip_accents(city)), '[^a-z0-9]+', '-', 'g'), '-')))
           from read_csv(${src('simplemaps-uscities', 'uscities.csv.gz')}, all_varchar = true) where state_id in (select code from st))::int as cities,
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
    // the documented figures (geo.md): 50 states, 3,144 counties, 30,906 cities, 40,979 zips
    expect(raw).toEqual({ states: 50, counties: 3144, cities: 30906, zips: 40979 });
    const regs = activeRegulations();
    // addresses (address.md "Merge rule"), recounted from the candidate rows: one per street line + unit + zip, where
    // a zip-less or guessed-zip row borrows the single recorded zip of the same street line, unit, city and state, a
    // zip-less row keeps city + state as its place; street lines without a letter are not addresses (the SQL's rule)
    const [addr] = await warehouseRows<{ n: number }>(`
      with c as (select * from int_address_candidates where regexp_matches(address, '[A-Z]')),
      recorded as (
        select address, coalesce(unit, '') as u, upper(city) as cu, state_code, count(distinct zip) as zips, min(zip) as zip
        from c where zip is not null and not zip_imputed group by all),
      keyed as (
        select c.address, coalesce(c.unit, '') as u,
               case when c.zip is not null and not c.zip_imputed then c.zip
                    when r.zips = 1 then r.zip
                    else coalesce(c.zip, upper(c.city) || ',' || c.state_code) end as place
        from c left join recorded r on r.address = c.address and r.u = coalesce(c.unit, '') and r.cu = upper(c.city) and r.state_code = c.state_code
        where c.zip is not null or (c.city is not null and c.state_code is not null))
      select count(distinct (address, u, place))::int as n from keyed`);
    // the addresses table holds every merged address; the summary counts only those the address endpoints can find:
    // a recorded zip (not a guess), a point, a county, a city and a state (address.md "Autocomplete index")
    const [known] = await warehouseRows<{ n: number; findable: number }>(`select count(*)::int as n,
      (count(*) filter (where zip is not null and zip_imputed is distinct from true and lat is not null and lng is not null
                         and county is not null and city is not null and state_code is not null))::int as findable from addresses`);
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
