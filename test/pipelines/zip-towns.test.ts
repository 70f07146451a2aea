// A Connecticut row's guessed zip is one of its own town's ZCTAs (warehouse/docs/market.md "Zips guessed from
// coordinates", 30_market_80_fill_geo.sql), over given rows. The Connecticut sales file names the town (a county
// subdivision), not a Census place: before, a row whose town was no incorporated place took the nearest ZCTA of the
// whole state, and 37 Darien and 8 New Canaan sales landed in Stamford's 06906/06907 (a reviewer's recount). A town's ZCTAs are
// those whose primary county subdivision (us_geo zctas) is the town's, named by the USPS city of one of them (else, when
// exactly one county subdivision has it, by a USPS city holding the town's name as whole words); a town named neither
// way gives no zip. The geography below is Connecticut's (us_geo county subdivisions, Gazetteer points rounded).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run, zipsTable } from '../helpers/market-fixtures.ts';

let ctx: TestContext;

const ct = (zip: string, city: string, lat: number, lng: number) => ({ zip, city, state_code: 'CT', lat, lng });
const ZIPS = [
  ct('06820', 'Darien', 41.0768, -73.4853), ct('06906', 'Stamford', 41.0696, -73.5235), ct('06907', 'Stamford', 41.1008, -73.5206),
  ct('06830', 'Greenwich', 41.0427, -73.6262), ct('06807', 'Cos Cob', 41.053, -73.5935), ct('06831', 'Greenwich', 41.0887, -73.6594),
  ct('06239', 'Danielson', 41.7952, -71.8568), ct('06241', 'Dayville', 41.8534, -71.8479), ct('06243', 'East Killingly', 41.8469, -71.8073),
  ct('06351', 'Jewett City', 41.6077, -71.9397), ct('06371', 'Old Lyme', 41.3594, -72.3221), ct('06376', 'South Lyme', 41.2959, -72.2627),
  ct('06333', 'East Lyme', 41.3813, -72.2283), ct('06340', 'Groton', 41.3538, -72.0424), ct('06355', 'Mystic', 41.3675, -71.9758),
];
// the primary county subdivision of each ZCTA (us_geo zctas.csv)
const TOWNS: Record<string, string> = {
  '06820': '0900118850', '06906': '0900173070', '06907': '0900173070', '06830': '0900133620', '06807': '0900133620',
  '06831': '0900133620', '06239': '0901540500', '06241': '0901540500', '06243': '0901540500', '06351': '0901133900',
  '06371': '0901144210', '06376': '0901157040', '06333': '0901123400', '06340': '0901134250', '06355': '0901134250',
};

beforeAll(async () => {
  ctx = await makeContext();
  await marketTables(ctx);
  await zipsTable(ctx, ZIPS, [
    // Connecticut's incorporated places are no candidates: the town is (Groton city is a part of the town of Groton;
    // Stamford city overlaps Greenwich's 06831)
    { geoid: '0973000', state_code: 'CT', name: 'Stamford', zctas: ['06831', '06906', '06907'] },
    { geoid: '0934180', state_code: 'CT', name: 'Groton', zctas: ['06340'] },
  ], TOWNS);
  const sale = (id: string, town: string, lat: number, lng: number) => ctx.db.run(`insert into sales by name
    select $id as sale_id, 'connecticut' as source, $town as city, 'CT' as state_code, null as zip, date '2022-12-01' as sale_date,
    3150000 as sale_price, 'sfr' as property_type, $lat::double as lat, $lng::double as lng`, { id, town, lat, lng });
  await sale('darien', 'Darien', 41.0920, -73.5103); // 29 Old Oak Rd: nearer 06907's point than 06820's
  await sale('cos-cob', 'Greenwich', 41.0540, -73.5920);
  await sale('greenwich-north', 'Greenwich', 41.0900, -73.6300); // nearer 06831 (overlapped by Stamford city): Greenwich's
  await sale('stamford', 'Stamford', 41.0700, -73.5300);
  await sale('danielson', 'Killingly', 41.8000, -71.8600);
  await sale('jewett-city', 'Griswold', 41.6050, -71.9400);
  await sale('lyme', 'Lyme', 41.3700, -72.3300);
  await sale('mystic', 'Groton', 41.3650, -71.9800);
  await run(ctx, 'pipelines/intermediate/30_market_80_fill_geo.sql');
});
afterAll(() => ctx?.close());

describe("a Connecticut row's guessed zip is its own town's", () => {
  test('the nearest ZCTA of the town: named by its USPS city, with the villages of its county subdivision; else by whole words; else none', async () => {
    expect(await ctx.rows('select sale_id, city, zip, zip_imputed from sales order by sale_id')).toEqual([
      { sale_id: 'cos-cob', city: 'Greenwich', zip: '06807', zip_imputed: true },
      { sale_id: 'danielson', city: 'Killingly', zip: '06239', zip_imputed: true }, // East Killingly names the town
      { sale_id: 'darien', city: 'Darien', zip: '06820', zip_imputed: true }, // not Stamford's 06907
      { sale_id: 'greenwich-north', city: 'Greenwich', zip: '06831', zip_imputed: true },
      { sale_id: 'jewett-city', city: 'Griswold', zip: null, zip_imputed: false }, // no USPS city names Griswold
      { sale_id: 'lyme', city: 'Lyme', zip: null, zip_imputed: false }, // East Lyme, Old Lyme, South Lyme: three towns
      { sale_id: 'mystic', city: 'Groton', zip: '06355', zip_imputed: true }, // the town's, not only Groton city's 06340
      { sale_id: 'stamford', city: 'Stamford', zip: '06906', zip_imputed: true },
    ]);
  });

  test('the premise: without the rule the Darien sale is nearest Stamford\'s 06907', async () => {
    const [row] = await ctx.rows<{ zip: string }>(`select zip from zips where state_code = 'CT'
      order by pow(lat - 41.0920, 2) + pow((lng + 73.5103) * cos(radians(41.0920)), 2) limit 1`);
    expect(row!.zip).toBe('06907');
  });
});
