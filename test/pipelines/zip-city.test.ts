// The city of a row that has a zip and no city (warehouse/docs/market.md "City from zip", 30_market_80_fill_geo.sql,
// int_market_zip_cities): a city whose geo lookup lists the zip (`cities.zip_codes`, what /v1/geo/lookup serves),
// the zip's USPS city when the lookup lists the zip under it, else the incorporated place holding most of the zip's
// land, else the other listed place holding most of it, else (no city lists the zip) the USPS city.
// Before, such a row took the USPS city whatever the lookup said: King County's 98155 (mailed as Seattle, in
// Shoreline and Lake Forest Park) counted in Seattle's market, which Seattle's lookup leaves out.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run, zipsTable, type PlaceZctas } from '../helpers/market-fixtures.ts';

let ctx: TestContext;

// King County's shape (us_geo zcta_places land shares of the real build, in hundredths of the ZCTA's land)
const places: PlaceZctas[] = [
  // Seattle's lookup lists 98103 and 98133 (its share of 98133 is 41%), and the PO-box zip 98111 (HUD: USPS city Seattle)
  { geoid: '5363000', state_code: 'WA', name: 'Seattle', zctas: ['98103', '98133'], land: { '98103': 100, '98133': 41 }, zipCodes: ['98103', '98111', '98133'], population: 750000 },
  { geoid: '5363960', state_code: 'WA', name: 'Shoreline', zctas: ['98133', '98155'], land: { '98133': 58, '98155': 53 }, population: 58000 },
  { geoid: '5338038', state_code: 'WA', name: 'Lake Forest Park', zctas: ['98155'], land: { '98155': 47 }, population: 13000 },
  // Redmond holds 5% of 98053: too little for its lookup to list it (geo.md: 10% of the ZCTA's land or of the place's)
  { geoid: '5357535', state_code: 'WA', name: 'Redmond', zctas: ['98052', '98053'], land: { '98052': 100, '98053': 5 }, zipCodes: ['98052'], population: 77000 },
  { geoid: '5373465', state_code: 'WA', name: 'Union Hill-Novelty Hill', funcstat: 'S', zctas: ['98053'], land: { '98053': 73 }, population: 24000 },
  { geoid: '5301880', state_code: 'WA', name: 'Ames Lake', funcstat: 'S', zctas: ['98053'], land: { '98053': 4 }, population: 1600 },
  // 98059, Renton by mail: mostly unincorporated land (East Renton Highlands, 42%), Renton 23%, Newcastle 15%
  { geoid: '5357745', state_code: 'WA', name: 'Renton', zctas: ['98059'], land: { '98059': 23 }, population: 106000 },
  { geoid: '5348645', state_code: 'WA', name: 'Newcastle', zctas: ['98059'], land: { '98059': 15 }, population: 13000 },
  { geoid: '5320260', state_code: 'WA', name: 'East Renton Highlands', funcstat: 'S', zctas: ['98059'], land: { '98059': 42 }, population: 15000 },
];

beforeAll(async () => {
  ctx = await makeContext();
  await marketTables(ctx);
  const z = (zip: string, city: string, is_zcta = true) => ({ zip, city, state_code: 'WA', lat: 47.6, lng: -122.3, is_zcta });
  await zipsTable(ctx, [
    z('98103', 'Seattle'), z('98133', 'Seattle'), z('98155', 'Seattle'), z('98111', 'Seattle', false), z('98052', 'Redmond'),
    z('98053', 'Redmond'), z('98059', 'Renton'),
    // a rural zip no city lists
    z('98224', 'Baring'),
  ], places);
  const sale = (id: string, zip: string, city: string | null = null) => ctx.db.run(`insert into sales by name
    select $id as sale_id, 'king_county' as source, $city as city, 'WA' as state_code, $zip as zip, date '2015-04-10' as sale_date,
    500000 as sale_price, 'sfr' as property_type`, { id, zip, city });
  for (const zip of ['98103', '98133', '98155', '98111', '98052', '98053', '98059', '98224']) await sale(`kc:${zip}`, zip);
  // a source that names its city keeps it
  await sale('named:98155', '98155', 'Seattle');
  // a canonical permit has neither city nor state: both from its zip
  await ctx.db.run(`insert into permits by name select 'canonical:p1' as permit_id, 'canonical' as source, '1 MAIN ST' as address, '98155' as zip,
    null as city, null as state_code, date '2015-04-10' as issue_date, 'renovation' as permit_type, false as zip_imputed`);
  await ctx.db.run(`insert into distress by name select 'canonical:d1' as distress_id, 'canonical' as source, '98053' as zip,
    null as city, 'WA' as state_code, 'pre_foreclosure' as kind, date '2015-04-10' as filing_date`);
  await ctx.db.run(`insert into parcels by name select 'p1' as parcel_id, 'king_county' as source, '98059' as zip, null as city, 'WA' as state_code`);
  await run(ctx, 'pipelines/intermediate/30_market_80_fill_geo.sql');
});
afterAll(() => ctx?.close());

describe('a row with a zip and no city takes a city whose geo lookup lists the zip', () => {
  test('the USPS city when the lookup lists the zip under it, else the incorporated place with most of its land, else a listed CDP, else the USPS city', async () => {
    expect(await ctx.rows(`select sale_id, city, state_code from sales order by sale_id`)).toEqual([
      { sale_id: 'kc:98052', city: 'Redmond', state_code: 'WA' },
      // Redmond's 5% is no listing: the census-designated place with most of the land
      { sale_id: 'kc:98053', city: 'Union Hill-Novelty Hill', state_code: 'WA' },
      // mostly unincorporated, but Renton's lookup lists it and the mail says Renton
      { sale_id: 'kc:98059', city: 'Renton', state_code: 'WA' },
      { sale_id: 'kc:98103', city: 'Seattle', state_code: 'WA' },
      // a PO-box zip Seattle's lookup lists
      { sale_id: 'kc:98111', city: 'Seattle', state_code: 'WA' },
      // Shoreline holds more of 98133's land, but Seattle's lookup lists it and the mail says Seattle
      { sale_id: 'kc:98133', city: 'Seattle', state_code: 'WA' },
      // mailed as Seattle, not in Seattle's lookup: the incorporated place with most of its land
      { sale_id: 'kc:98155', city: 'Shoreline', state_code: 'WA' },
      { sale_id: 'kc:98224', city: 'Baring', state_code: 'WA' },
      { sale_id: 'named:98155', city: 'Seattle', state_code: 'WA' },
    ]);
    expect(await ctx.rows(`select zip, city, city_rule from int_market_zip_cities order by zip`)).toEqual([
      { zip: '98052', city: 'Redmond', city_rule: 'usps_city' },
      { zip: '98053', city: 'Union Hill-Novelty Hill', city_rule: 'place' },
      { zip: '98059', city: 'Renton', city_rule: 'usps_city' },
      { zip: '98103', city: 'Seattle', city_rule: 'usps_city' },
      { zip: '98111', city: 'Seattle', city_rule: 'usps_city' },
      { zip: '98133', city: 'Seattle', city_rule: 'usps_city' },
      { zip: '98155', city: 'Shoreline', city_rule: 'incorporated_place' },
      { zip: '98224', city: 'Baring', city_rule: 'usps_unlisted' },
    ]);
  });

  test('permits, distress and parcels take the same city; a permit without a state takes its zip\'s', async () => {
    expect(await ctx.rows(`select permit_id, city, state_code from permits`)).toEqual([{ permit_id: 'canonical:p1', city: 'Shoreline', state_code: 'WA' }]);
    expect(await ctx.rows(`select distress_id, city from distress`)).toEqual([{ distress_id: 'canonical:d1', city: 'Union Hill-Novelty Hill' }]);
    expect(await ctx.rows(`select parcel_id, city from parcels`)).toEqual([{ parcel_id: 'p1', city: 'Renton' }]);
  });

  test('every city filled from a zip is a city whose lookup lists that zip, but for a zip no city lists', async () => {
    const off = await ctx.rows(`
      select s.sale_id, s.city, s.zip from sales s
      join cities c on c.state_code = s.state_code and c.city_slug = slug(s.city)
      where s.sale_id like 'kc:%' and not list_contains(c.zip_codes, s.zip)`);
    expect(off).toEqual([]);
  });
});
