// Given raw geography rows for the geo steps (warehouse/docs/geo.md): a few states, counties, CBSAs, places, cities and
// ZIPs as the sources stage would load them (raw."<source>__<table>", every column VARCHAR), and the staging and
// intermediate geo steps run over them. Shared by test/pipelines/geo-steps.test.ts and geo-shards.test.ts.
import fs from 'node:fs';
import { runSqlFile, type TestContext } from './context.ts';
import { listSteps } from '../../pipelines/steps.ts';
import { repoPath } from './paths.ts';

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

export async function givenGeography(ctx: TestContext): Promise<void> {
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
    // no simplemaps city: a market under the name people say ("White Center"), county from the crosswalks
    { ...place('WA', '5378225', 'White Center CDP', '47.5085', '-122.3484'), LSAD: '57', ALAND_SQMI: '5' },
    // spans King (most people) and Pierce (most land)
    { ...place('WA', '5303180', 'Auburn city', '47.3000', '-122.2000'), LSAD: '25', ALAND_SQMI: '35' },
    // a 2024 place without an ACS 2023 estimate and no simplemaps city: not a city
    place('WA', '5399999', 'Newplace city', '47.0', '-122.0'),
  ]);
  await rawTable(ctx, 'acs_population__places', [...ACS_COLS, 'state', 'place'], [
    acs('5363000', '741440'), acs('5367000', '229228'), acs('5380010', '96968'), acs('5317000', '2494'), acs('5338038', '63612'),
    acs('0937000', '119970'), acs('1150000', '672079'), acs('5378225', '16000'), acs('5303180', '87000'),
  ]);
  // us_geo's place tables: the county of each place (GNIS), every county a place overlaps, and the 2020 ZCTA crosswalks
  await rawTable(ctx, 'usgeo__places', ['GEOID', 'GNIS ID', 'Name', 'Short Name', 'State', 'County GEOID', 'Urban Area GEOID', 'FIPS Class', 'Population', 'Housing Units', 'Land Area', 'Water Area', 'Latitude', 'Longitude'], [
    ['5363000', '53033'], ['5367000', '53063'], ['5380010', '53077'], ['5317000', '53013'], ['5338038', '53053'], ['0937000', '09110'],
    ['5378225', '53033'], ['5303180', '53053'],
  ].map(([GEOID, c]) => ({ GEOID: GEOID!, 'County GEOID': c! })));
  await rawTable(ctx, 'usgeo__place_counties', ['Place GEOID', 'County GEOID'], [
    ['5363000', '53033'], ['5367000', '53063'], ['5380010', '53077'], ['5317000', '53013'], ['5338038', '53053'], ['0937000', '09110'],
    ['5378225', '53033'], ['5303180', '53033'], ['5303180', '53053'],
  ].map(([p, c]) => ({ 'Place GEOID': p!, 'County GEOID': c! })));
  await rawTable(ctx, 'usgeo__zcta_places', ['ZCTA5', 'Place GEOID', 'Land Area', 'Water Area'], [
    // Seattle: two ZCTAs; 98199 only touches it (0 land)
    ['98101', '5363000', '1'], ['98104', '5363000', '0.9'], ['98199', '5363000', '0'],
    ['06103', '0937000', '1'],
    // White Center: 20% of 98168's land
    ['98168', '5378225', '2'],
    // Auburn: half of King's 98001 (30,000 people), three quarters of Pierce's 98092 (1,000 people); 5% of 98422 (and 0.1% of Auburn's land)
    ['98001', '5303180', '5'], ['98092', '5303180', '30'], ['98422', '5303180', '0.03'],
  ].map(([z, p, l]) => ({ ZCTA5: z!, 'Place GEOID': p!, 'Land Area': l! })));
  await rawTable(ctx, 'usgeo__zcta_counties', ['ZCTA5', 'County GEOID', 'Land Area', 'Water Area'], [
    ['98101', '53033', '1'], ['98104', '53033', '1'], ['98168', '53033', '10'], ['98001', '53033', '10'], ['98092', '53053', '40'],
    ['98422', '53053', '0.6'],
  ].map(([z, c, l]) => ({ ZCTA5: z!, 'County GEOID': c!, 'Land Area': l! })));
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
    // Auburn's ZIPs, each in one county (its residential addresses split the ZIP's people among counties)
    { ZIP: '98001', COUNTY: '53033', USPS_ZIP_PREF_CITY: 'AUBURN', USPS_ZIP_PREF_STATE: 'WA', RES_RATIO: '1', TOT_RATIO: '1' },
    { ZIP: '98092', COUNTY: '53053', USPS_ZIP_PREF_CITY: 'AUBURN', USPS_ZIP_PREF_STATE: 'WA', RES_RATIO: '1', TOT_RATIO: '1' },
    // a Seattle PO-box ZIP (no ZCTA): one of Seattle's zip codes
    { ZIP: '98111', COUNTY: '53033', USPS_ZIP_PREF_CITY: 'SEATTLE', USPS_ZIP_PREF_STATE: 'WA', TOT_RATIO: '1' },
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
    { ZCTA5: '98101', 'Primary County': '53033', Population: '1', 'Land Area': '1' },
    { ZCTA5: '98422', 'Primary County': '53053', 'Land Area': '0.6' },
    // no ACS ZCTA row: us_geo's population
    { ZCTA5: '98999', 'Primary County': '53033', Population: '4321' },
    // the 2020 ZCTA files still have the old Hartford County
    { ZCTA5: '06103', 'Primary County': '09003', Population: '1', 'Land Area': '1' },
    { ZCTA5: '98104', 'Primary County': '53033', Population: '13000', 'Land Area': '1' },
    { ZCTA5: '98168', 'Primary County': '53033', Population: '35000', 'Land Area': '10' },
    { ZCTA5: '98001', 'Primary County': '53033', Population: '30000', 'Land Area': '10' },
    { ZCTA5: '98092', 'Primary County': '53053', Population: '1000', 'Land Area': '40' },
  ]);
  await rawTable(ctx, 'usgeo__zcta_mappings', ['ZIP Code', 'Active ZCTA5'], []);
  await rawTable(ctx, 'acs_population__zctas', [...ACS_COLS, 'zip code tabulation area'], [acs('98101', '16396'), acs('06103', '2845')]);
  await rawTable(ctx, 'usps_locale__zips', USPS_COLS, [{ 'DELIVERY ZIPCODE': '98999', 'LOCALE NAME': 'SOUTH PARK' }]);
  await rawTable(ctx, 'zip_reference__zips', ZIPREF_COLS, [{ zip_code: '98999', state: 'WA', city: 'South Park', county: 'King', lat: '1', lng: '2' }]);
}

export async function runGeoSteps(ctx: TestContext): Promise<void> {
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
