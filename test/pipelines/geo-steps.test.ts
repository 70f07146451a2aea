// Geography steps over given rows: the staging and intermediate geo steps (pipelines/staging/stg_*,
// pipelines/intermediate/10_geo_*) run over a few raw rows (test/helpers/geo-fixtures.ts) in an in-memory DuckDB:
// canonical states, counties, cities and zips. The rules are documented in warehouse/docs/geo.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { givenGeography, runGeoSteps } from '../helpers/geo-fixtures.ts';

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
      // no simplemaps city: the Census place, by its name without "city"; King holds most of its people (15,000 of 15,750)
      { city_id: '5303180', city_name: 'Auburn', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 87000, population_source: 'acs_place', place_geoid: '5303180', market_tier: 'primary', is_market: true, zip_codes: ['98001', '98092'] },
      // the Columbia County Dayton (2,494 people) wins over the King County one (120); rural: no CBSA
      { city_id: '1840018000', city_name: 'Dayton', state_code: 'WA', county_fips: '53013', county_name: 'Columbia County', metro_area: null, population: 2494, population_source: 'acs_place', place_geoid: '5317000', market_tier: 'rural', is_market: false, zip_codes: [] },
      // no Census place: simplemaps' figure
      { city_id: '1840019999', city_name: 'Fakeville', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 7000, population_source: 'simplemaps', place_geoid: null, market_tier: 'primary', is_market: true, zip_codes: [] },
      // "Lakewood city (balance)": matched on the whole word
      { city_id: '1840019000', city_name: 'Lakewood', state_code: 'WA', county_fips: '53053', county_name: 'Pierce County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 63612, population_source: 'acs_place', place_geoid: '5338038', market_tier: 'primary', is_market: true, zip_codes: ['98499'] },
      // ZCTAs with 10% of their land in the city (98101, 98104; 98199 only touches it) and the PO-box ZIP 98111 (USPS city SEATTLE)
      { city_id: '1840021117', city_name: 'Seattle', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 741440, population_source: 'acs_place', place_geoid: '5363000', market_tier: 'primary', is_market: true, zip_codes: ['98101', '98104', '98111'] },
      { city_id: '1840021093', city_name: 'Spokane', state_code: 'WA', county_fips: '53063', county_name: 'Spokane County', metro_area: 'Spokane-Spokane Valley, WA', population: 229228, population_source: 'acs_place', place_geoid: '5367000', market_tier: 'secondary', is_market: true, zip_codes: ['99201'] },
      // a CDP of 5,000+ (simplemaps has none): a market
      { city_id: '5378225', city_name: 'White Center', state_code: 'WA', county_fips: '53033', county_name: 'King County', metro_area: 'Seattle-Tacoma-Bellevue, WA', population: 16000, population_source: 'acs_place', place_geoid: '5378225', market_tier: 'primary', is_market: true, zip_codes: ['98168'] },
      { city_id: '1840021150', city_name: 'Yakima', state_code: 'WA', county_fips: '53077', county_name: 'Yakima County', metro_area: 'Yakima, WA', population: 96968, population_source: 'acs_place', place_geoid: '5380010', market_tier: 'secondary', is_market: true, zip_codes: [] },
    ]);
    expect(await ctx.rows(`select line::integer as line, detail from meta.rejects where reason = 'duplicate_city_slug'`))
      .toEqual([{ line: 6, detail: 'Dayton, WA (kept id 1840018000)' }]);
  });

  it('places: primary county by the people of its ZCTAs, else by land; the name without its legal descriptor', async () => {
    expect(await ctx.rows(`select place_geoid, plain_name, county_fips, county_source from int_geo_places where place_geoid in ('5303180', '5338038', '5378225') order by 1`)).toEqual([
      { place_geoid: '5303180', plain_name: 'Auburn', county_fips: '53033', county_source: 'population_share' },
      { place_geoid: '5338038', plain_name: 'Lakewood', county_fips: '53053', county_source: 'only_county' },
      { place_geoid: '5378225', plain_name: 'White Center', county_fips: '53033', county_source: 'only_county' },
    ]);
    // without ZCTA populations, the land: 30 of Auburn's 35 square miles are in Pierce
    await ctx.db.run(`update raw."usgeo__zctas" set "Population" = null`);
    await ctx.db.run(`update raw."acs_population__zctas" set "B01003_001E" = null`);
    await runSqlFile(ctx, 'pipelines/intermediate/10_geo_03_places.sql');
    expect(await ctx.rows(`select county_fips, county_source from int_geo_places where place_geoid = '5303180'`))
      .toEqual([{ county_fips: '53053', county_source: 'land_share' }]);
    // a place without an ACS population nor a simplemaps city is not a city
    expect(await ctx.rows(`select count(*)::integer as n from int_geo_places where place_geoid = '5399999'`)).toEqual([{ n: 1 }]);
    await ctx.db.run('delete from meta.rejects');
    await givenGeography(ctx);
    await runGeoSteps(ctx);
    expect(await ctx.rows(`select count(*)::integer as n from cities where place_geoid = '5399999' or city_name = 'Newplace'`)).toEqual([{ n: 0 }]);
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

  it('city parts: a city that is no Census place, in a county a consolidated place covers wholly, is part of that place\'s city', async () => {
    // the given rows: no place covers its county (Seattle is not King County)
    expect(await ctx.rows('select * from int_geo_city_parts')).toEqual([]);
    // Seattle as a consolidated city-county (New York City is five): its land area is King County's
    await ctx.db.run(`update counties set land_area_sqmi = 2115.6 where county_fips = '53033'`);
    await ctx.db.run(`update int_geo_places set land_area_sqmi = 2115.6 where place_geoid = '5363000'`);
    await runSqlFile(ctx, 'pipelines/intermediate/10_geo_04_cities.sql');
    // Fakeville (simplemaps only, King County) becomes a part; Seattle itself and the Census places of King County do not
    expect(await ctx.rows(`select state_code, city_name, county_fips, parent_city_name, parent_place_geoid from int_geo_city_parts`)).toEqual([
      { state_code: 'WA', city_name: 'Fakeville', county_fips: '53033', parent_city_name: 'Seattle', parent_place_geoid: '5363000' },
    ]);
    // 1% short of the county: the county has land outside the place, so nothing in it is a part
    await ctx.db.run(`update int_geo_places set land_area_sqmi = 2115.6 * 0.99 where place_geoid = '5363000'`);
    await runSqlFile(ctx, 'pipelines/intermediate/10_geo_04_cities.sql');
    expect(await ctx.rows('select * from int_geo_city_parts')).toEqual([]);
    await ctx.db.run('delete from meta.rejects');
    await runGeoSteps(ctx);
  });

  it('zips: HUD address-weighted county, CT planning regions, USPS city casing, Gazetteer centroid first', async () => {
    expect(await ctx.rows(`select zip, city, state_code, county_fips, county_name, lat, lng, population::integer as population, is_zcta,
      city_source, county_source, centroid_source from zips where zip in ('06103', '06199', '98101', '98422', '98639', '98999') order by zip`)).toEqual([
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
});
