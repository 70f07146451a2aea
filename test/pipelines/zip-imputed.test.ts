// Zips guessed from coordinates (warehouse/docs/market.md "Zips guessed from coordinates", 30_market_80_fill_geo.sql):
// a row with a point and no zip takes the nearest ZCTA internal point of its state (of its incorporated city's ZCTAs
// when its city is one; of its town's for a Connecticut row, else none), never a PO-box or unique zip.
// The oracle reads the raw files in place: the Census Gazetteer's ZCTA list and internal points (2025), us_geo's
// ZCTA primary county (for the ZCTA's state) and primary county subdivision (a Connecticut town), HUD's USPS city of
// each ZIP, the Chicago permits and Connecticut sales files for the points, and the USPS locale file for the premise
// that a PO-box zip's physical delivery zip is another one.
import { beforeAll, describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Zcta { zip: string; st: string; town: string | null; city: string | null; lat: number; lng: number }
let zctas: Zcta[];
let zctaSet: Set<string>;
/** The ZCTAs the City of Chicago overlaps (us_geo zcta_places, land area > 0), found by the place's name in the raw
 *  places file: a Chicago permit's candidates. */
let chicagoZctas: Set<string>;

beforeAll(async () => {
  zctas = await rawQuery<Zcta>(`
    with hud as (select ZIP as zip, any_value(USPS_ZIP_PREF_CITY) as city
                 from read_csv('${dataFile('hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz')}', all_varchar = true) group by ZIP)
    select g.GEOID as zip, substr(u."Primary County", 1, 2) as st, nullif(u."Primary County Subdivision", '') as town, hud.city,
           g.INTPTLAT::double as lat, g.INTPTLONG::double as lng
    from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', delim = '|', all_varchar = true) g
    join read_csv('${dataFile('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true) u on u.ZCTA5 = g.GEOID
    left join hud on hud.zip = g.GEOID`);
  zctaSet = new Set(zctas.map((z) => z.zip));
  chicagoZctas = new Set((await rawQuery<{ zip: string }>(`
    select zp.ZCTA5 as zip
    from read_csv('${dataFile('usgeo-census-tables/zcta_places.csv.gz')}', all_varchar = true) zp
    join read_csv('${dataFile('usgeo-census-tables/places.csv.gz')}', all_varchar = true) p on p.GEOID = zp."Place GEOID"
    where p.Name = 'City of Chicago' and p.State = 'IL' and zp."Land Area"::double > 0`)).map((r) => r.zip));
});

/** A Connecticut town's ZCTAs (market.md): those of the county subdivision holding a ZCTA whose USPS city is the town's
 *  name, else of the only one holding ZCTAs whose USPS city has the name as whole words; empty when neither names it. */
function townZctas(town: string): Set<string> {
  const ct = zctas.filter((z) => z.st === '09' && z.town !== null && z.city !== null);
  const name = town.toUpperCase();
  let subdivisions = new Set(ct.filter((z) => z.city === name).map((z) => z.town));
  if (!subdivisions.size) {
    const worded = new Set(ct.filter((z) => ` ${z.city} `.includes(` ${name} `)).map((z) => z.town));
    if (worded.size === 1) subdivisions = worded;
  }
  return new Set(ct.filter((z) => subdivisions.has(z.town)).map((z) => z.zip));
}

/** The nearest ZCTA internal point of a state (FIPS) to a point, by the equirectangular distance market.md names;
 *  `among`: only these ZCTAs (those of the row's incorporated city). */
function nearest(lat: number, lng: number, stateFips: string, among?: Set<string>): { zip: string; d: number; second: number } {
  let best = { zip: '', d: Infinity, second: Infinity };
  const k = Math.cos((lat * Math.PI) / 180);
  for (const z of zctas) {
    if (z.st !== stateFips || (among && !among.has(z.zip))) continue;
    const d = Math.hypot(z.lat - lat, (z.lng - lng) * k);
    if (d < best.d) best = { zip: z.zip, d, second: best.d };
    else if (d < best.second) best.second = d;
  }
  return best;
}

describe('zips guessed from coordinates are ZCTAs', () => {
  test('the premise: the Gazetteer lists ~33,000 ZCTAs, and 60695 and 06836 (PO-box zips) are not among them', () => {
    expect(zctaSet.size).toBeGreaterThan(33_000);
    expect(zctaSet.has('60695')).toBe(false);
    expect(zctaSet.has('06836')).toBe(false);
    expect(zctaSet.has('06830')).toBe(true);
  });

  test('every guessed zip of sales, parcels, permits and distress is a ZCTA of the raw Gazetteer list', async () => {
    const rows = await warehouseRows<{ t: string; zip: string; n: number }>(`
      select t, zip, count(*)::int as n from (
        select 'sales' as t, zip from sales where zip_imputed
        union all select 'parcels', zip from parcels where zip_imputed
        union all select 'permits', zip from permits where zip_imputed
        union all select 'distress', zip from distress where zip_imputed
      ) group by all`);
    const guessed = rows.reduce((s, r) => s + r.n, 0);
    expect(guessed, 'Chicago permits and Connecticut sales have guessed zips').toBeGreaterThan(100_000);
    expect(rows.filter((r) => !zctaSet.has(r.zip)).map((r) => `${r.t} ${r.zip}: ${r.n}`)).toEqual([]);
  });

  test('Chicago permit B101054606 (200 W Madison St): the nearest Illinois ZCTA, not 60695', async () => {
    const [raw] = await rawQuery<{ lat: number; lng: number }>(`
      select latitude::double as lat, longitude::double as lng
      from read_csv('${dataFile('chicago-building-permits/chicago_building_permits_2023-01_2026-07.csv.gz')}', all_varchar = true)
      where permit_number = 'B101054606'`);
    const want = nearest(raw!.lat, raw!.lng, '17', chicagoZctas);
    const [row] = await warehouseRows<{ zip: string; zip_imputed: boolean }>(`select zip, zip_imputed from permits where permit_id = 'chicago:B101054606'`);
    expect(row).toEqual({ zip: want.zip, zip_imputed: true });
    expect(row!.zip).not.toBe('60695');
  });

  test('Greenwich, 9 Oak Lane ($2,775,000): 06830, the physical zip the USPS gives its PO-box zip 06836', async () => {
    const [raw] = await rawQuery<{ p: string }>(`
      select Location as p
      from read_csv('${dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')}', all_varchar = true)
      where Town = 'Greenwich' and Address = '9 OAK LANE' and "Sale Amount" = '2775000.00'`);
    const [lng, lat] = /POINT \(([-\d.]+) ([-\d.]+)\)/.exec(raw!.p)!.slice(1).map(Number) as [number, number];
    const want = nearest(lat, lng, '09', townZctas('Greenwich'));
    const [usps] = await rawQuery<{ phys: string }>(`
      select "PHYSICAL ZIP" as phys from read_csv('${dataFile('usps-zip-locale-detail/ZIP_Locale_Detail.csv.gz')}', all_varchar = true)
      where "DELIVERY ZIPCODE" = '06836'`);
    expect(usps!.phys).toBe('06830');
    expect(want.zip).toBe('06830');
    const rows = await warehouseRows<{ zip: string }>(`
      select zip from sales where source like 'connecticut%' and city = 'Greenwich' and address = '9 OAK LN' and sale_price = 2775000`);
    expect(rows.map((r) => r.zip)).toEqual(['06830']);
  });

  test('a Chicago permit takes a ZCTA of Chicago: none of the suburbs\' ZCTAs whose centroids are nearer to some (Oak Park 60302, Evanston 60202)', async () => {
    expect(chicagoZctas.size).toBeGreaterThan(50);
    expect(chicagoZctas.has('60707')).toBe(true); // shared with Elmwood Park: still a candidate
    expect(chicagoZctas.has('60302') || chicagoZctas.has('60202')).toBe(false);
    const rows = await warehouseRows<{ zip: string; n: number }>(`select zip, count(*)::int as n from permits where source = 'chicago' and zip_imputed group by zip`);
    expect(rows.reduce((a, r) => a + r.n, 0)).toBeGreaterThan(100_000);
    expect(rows.filter((r) => !chicagoZctas.has(r.zip)).map((r) => `${r.zip}: ${r.n}`)).toEqual([]);
  });

  test('a sample of 400 Chicago permits: each guessed zip is the nearest ZCTA of Chicago to its point', async () => {
    const rows = await warehouseRows<{ permit_id: string; zip: string; lat: number; lng: number }>(`
      select permit_id, zip, round(lat, 4) as lat, round(lng, 4) as lng from permits
      where source = 'chicago' and zip_imputed order by hash(permit_id) limit 400`);
    expect(rows.length).toBe(400);
    // a point about equally far from two ZCTA points (within 1 m) may take either
    const wrong = rows.map((r) => ({ r, n: nearest(r.lat, r.lng, '17', chicagoZctas) }))
      .filter(({ r, n }) => r.zip !== n.zip && n.second - n.d > 1e-5).map(({ r, n }) => `${r.permit_id} ${r.zip} want ${n.zip}`);
    expect(wrong).toEqual([]);
  });
});

describe("a Connecticut sale's guessed zip is its own town's (a reviewer: Darien and New Canaan sales in Stamford's zips)", () => {
  const GL = () => dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');

  test('Darien, 29 Old Oak Rd, 2022-12-01, $3,150,000: 06820, Darien\'s only ZCTA; the nearest of the state\'s is Stamford\'s 06907', async () => {
    const [raw] = await rawQuery<{ p: string }>(`select Location as p from read_csv('${GL()}', all_varchar = true)
      where Town = 'Darien' and Address = '29 OLD OAK RD' and "Sale Amount" = '3150000.00' and "Date Recorded" = '12/01/2022'`);
    const [lng, lat] = /POINT \(([-\d.]+) ([-\d.]+)\)/.exec(raw!.p)!.slice(1).map(Number) as [number, number];
    expect(nearest(lat, lng, '09').zip).toBe('06907');
    expect([...townZctas('Darien')]).toEqual(['06820']);
    const rows = await warehouseRows<{ zip: string }>(`select zip from sales where source = 'connecticut' and city = 'Darien'
      and address = '29 OLD OAK RD' and sale_date = date '2022-12-01' and sale_price = 3150000`);
    expect(rows.map((r) => r.zip)).toEqual(['06820']);
  });

  test('every Connecticut sale with a point: the nearest of its town\'s ZCTAs, no zip when no ZCTA is its town\'s', async () => {
    const rows = await warehouseRows<{ sale_id: string; city: string; zip: string | null; imputed: boolean; lat: number; lng: number }>(`
      select sale_id, city, zip, zip_imputed as imputed, round(lat, 4) as lat, round(lng, 4) as lng
      from sales where state_code = 'CT' and lat is not null`);
    expect(rows.length).toBeGreaterThan(9_000);
    const wrong: string[] = [];
    let none = 0;
    for (const r of rows) {
      const own = townZctas(r.city);
      if (!own.size) {
        none += 1;
        if (r.zip !== null) wrong.push(`${r.sale_id} ${r.city}: ${r.zip}, want none`);
        continue;
      }
      const n = nearest(r.lat, r.lng, '09', own);
      const tie = n.second - n.d <= 1e-5; // a point about equally far from two ZCTA points (within 1 m) may take either
      if (!r.imputed || (r.zip !== n.zip && !tie)) wrong.push(`${r.sale_id} ${r.city}: ${r.zip} want ${n.zip}`);
    }
    expect(wrong).toEqual([]);
    expect(none, 'Griswold, Lisbon, Lyme and Warren: no USPS city names them').toBeLessThan(200);
  });

  test('no guessed zip is mailed as another town: no Darien or New Canaan sale in 06906/06907 (45 before), none statewide (805 of 7,051 arm\'s-length)', async () => {
    const towns = new Set((await rawQuery<{ t: string }>(`select distinct upper(Town) as t from read_csv('${GL()}', all_varchar = true)`)).map((r) => r.t));
    const usps = new Map(zctas.filter((z) => z.st === '09').map((z) => [z.zip, z.city]));
    const rows = await warehouseRows<{ city: string; zip: string; n: number }>(`select city, zip, count(*)::int as n from sales
      where state_code = 'CT' and zip_imputed group by all`);
    const other = rows.filter((r) => towns.has(usps.get(r.zip) ?? '') && usps.get(r.zip) !== r.city.toUpperCase());
    expect(other.map((r) => `${r.city} in ${r.zip} (${usps.get(r.zip)}): ${r.n}`)).toEqual([]);
    expect(rows.filter((r) => ['06906', '06907'].includes(r.zip) && r.city !== 'Stamford')).toEqual([]);
  });
});
