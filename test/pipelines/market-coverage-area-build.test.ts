// Answers that looked covered but were not, against the shared real build (REII_TEST_ARTIFACTS), the expected values
// recomputed from the RAW files with plain DuckDB SQL (this file's and test/helpers/oracle-permit-area.ts'):
// warehouse/docs/market.md "mart_rehab" (Permit source area: a county for Nashville, the city for Chicago; Window), sales "Duplicate" (near copies) and "mart_market_direction" (Too short a span).
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { permitAreaOracle } from '../helpers/oracle-permit-area.ts';

/** Each zip's share of the area its permit source covers, from the raw files (test/helpers/oracle-permit-area.ts). */
async function areaShares(source: string, zips: string[]): Promise<Map<string, number>> {
  const rows = await rawQuery<{ zip: string; share: number }>(permitAreaOracle(source, zips, dataFile)!.sql);
  return new Map(rows.map((r) => [r.zip, Number(r.share)]));
}

describe('a permit source covers its county only (Nashville: Davidson County)', () => {
  test('zips mostly outside Davidson County get no rehab score; a partly covered zip is scored over its covered homes, and says so', async () => {
    const outside = ['37086', '37122', '37015', '37143', '37135', '37027'];
    const partly = ['37080', '37072', '37138'];
    const shares = await areaShares('nashville', [...outside, ...partly]);
    for (const z of outside) expect(shares.get(z), z).toBeLessThan(0.5);
    for (const z of partly) expect(shares.get(z), z).toBeGreaterThanOrEqual(0.5);
    const got = await warehouseRows<{ zip: string; housing_units: number; permits_rehab: number; permit_rate: number | null; note: string | null }>(
      `select zip, housing_units, permits_rehab, permit_rate, note from mart_rehab where months = 12 and zip in (${[...outside, ...partly].map((z) => `'${z}'`).join(', ')})`);
    expect(got.filter((r) => outside.includes(r.zip)).map((r) => r.zip)).toEqual([]);
    for (const z of partly) {
      const r = got.find((x) => x.zip === z);
      expect(r, z).toBeDefined();
      const share = shares.get(z)!;
      expect(r!.permit_rate).toBeCloseTo((r!.permits_rehab * 1000) / (Number(r!.housing_units) * share), 6);
      expect(r!.note).toContain(`the permit source covers Davidson County, TN only, which holds ${Math.round(100 * share)}% of the zip's residential addresses`);
    }
  });

  test("a zip's window ends where its source's records end, not at its own last permit", async () => {
    const [raw] = await rawQuery<{ last: string }>(`
      -- Date_Entered: epoch milliseconds, UTC (the file's SOURCE.md)
      select strftime(max(make_timestamp(try_cast(Date_Entered as bigint) * 1000)::date), '%Y-%m-%d') as last
      from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true)`);
    const rows = await warehouseRows<{ n: bigint; stale: bigint; as_of: string }>(`
      select count(*) as n, count(*) filter (where strftime(as_of, '%Y-%m-%d') <> '${raw!.last}') as stale, strftime(max(as_of), '%Y-%m-%d') as as_of
      from mart_rehab where state_code = 'TN'`);
    expect(raw!.last).toBe('2024-09-19');
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    expect(Number(rows[0]!.stale)).toBe(0);
  });
});

describe('a city-wide permit source covers its city only (Chicago: the City of Chicago, not Cook County)', () => {
  test("each Chicago zip's covered share is its homes inside the city, estimated from the raw Census files", async () => {
    const got = await warehouseRows<{ zip: string; area_name: string; covered_share: number | null }>(
      `select zip, area_name, covered_share from int_market_permit_area where source = 'chicago' order by zip`);
    expect(got.length).toBeGreaterThan(50);
    const want = await areaShares('chicago', got.map((r) => r.zip));
    for (const r of got) {
      expect(r.area_name, r.zip).toBe('the City of Chicago, IL');
      expect(r.covered_share, r.zip).toBeCloseTo(want.get(r.zip)!, 9);
    }
    // the zips the city shares with a suburb: 60633 with Burnham, 60638 with Bedford Park and Forest View
    expect(Math.round(100 * want.get('60633')!)).toBe(71);
    expect(Math.round(100 * want.get('60638')!)).toBe(91);
    expect(got.filter((r) => r.covered_share! < 0.95).map((r) => r.zip)).toEqual(['60633', '60638', '60655']);
  });

  test('a Chicago zip partly outside the city is scored over its homes inside the city, and says so', async () => {
    const zips = ['60633', '60638', '60655'];
    const want = await areaShares('chicago', zips);
    const got = await warehouseRows<{ zip: string; months: number; housing_units: number; permits_rehab: number; permit_rate: number; note: string }>(
      `select zip, months, housing_units, permits_rehab, permit_rate, note from mart_rehab where zip in ('60633', '60638', '60655') and months in (6, 12, 24)`);
    expect(got).toHaveLength(9);
    for (const r of got) {
      const share = want.get(r.zip)!;
      expect(r.permit_rate, r.zip).toBeCloseTo((r.permits_rehab * 1000) / (Number(r.housing_units) * share) / (r.months / 12), 6);
      expect(r.note, r.zip).toContain(`the permit source covers the City of Chicago, IL only, which holds ${Math.round(100 * share)}% of the zip's homes (estimated from the Census 2020 ZCTA-place land and ACS 2023 housing units)`);
    }
  });
});

describe('a sale keyed twice at near-equal prices is one sale (Sacramento 1223 Lamberton Cir)', () => {
  test('the raw pair is one duplicate; 95838 observes no resale and the city direction is null with a note', async () => {
    const pairs = await rawQuery<{ street: string; n: bigint; lo: number; hi: number }>(`
      select upper(trim(street)) as street, count(*) as n, min(try_cast(price as double)) as lo, max(try_cast(price as double)) as hi
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      group by upper(trim(street)), zip, sale_date_iso, beds, baths, sq__ft, type
      having count(*) > 1 and min(try_cast(price as double)) < max(try_cast(price as double))`);
    expect(pairs.map((p) => [p.street, Number(p.n), p.lo, p.hi])).toEqual([['1223 LAMBERTON CIR', 2, 155435, 155500]]);
    const dup = await warehouseRows<{ address: string; sale_price: number; is_duplicate: boolean }>(
      `select address, sale_price, is_duplicate from sales where source = 'sacramento' and is_duplicate and address = '1223 LAMBERTON CIR'`);
    expect(dup).toHaveLength(1);
    const near = await warehouseRows<{ source: string; n: bigint }>(`
      select source, count(*) as n from sales s where is_duplicate
        and exists (select 1 from sales k where k.sale_id = s.duplicate_of and k.sale_price <> s.sale_price) group by 1 order by 1`);
    expect(near.map((r) => [r.source, Number(r.n)])).toEqual([['connecticut', 4], ['sacramento', 1]]);
    const resales = await warehouseRows(`select * from int_market_resales where zip = '95838'`);
    expect(resales).toEqual([]);
    const rehab = await warehouseRows(`select zip from mart_rehab where zip = '95838'`);
    expect(rehab).toEqual([]);
    const dir = await warehouseRows<{ direction: string | null; direction_note: string | null }>(
      `select direction, direction_note from mart_market_direction where market_kind = 'city' and state_code = 'CA' and city_slug = 'sacramento'`);
    expect(dir[0]!.direction).toBeNull();
    expect(dir[0]!.direction_note).toMatch(/^(the records span 2008-05-15 to 2008-05-21 only, 7 days|no rehab event source)/);
  });
});
