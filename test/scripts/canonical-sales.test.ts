// scripts/canonical-sales.ts: real sources converted into the canonical sales.csv (README "Canonical format"), the
// unseen-market stand-ins of issue 24. Oracles: the raw files read by DuckDB (read_csv, every value as text) with
// each SOURCE.md rule written again in SQL; and, for King County, the comps the source's own adapter gives in the
// shared real build (the canonical path must hold the same sales). Sacramento's conversion is checked end to end by
// test/live/valuation/eval-sources.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANONICAL_SALES_COLUMNS, KING_COUNTY_FILE, NYC_FOLDER, ZIP_REFERENCE_FILE, writeCanonicalSales } from '../../scripts/canonical-sales.ts';
import { compSetsFromSources } from '../../scripts/eval-avm-sources.ts';
import { openWarehouse, queryRows, type Warehouse } from '../../warehouse/db.ts';
import type { CompSetData } from '../../live/valuation/comps.ts';
import { buildDir } from '../helpers/build.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-canonical-sales-'));
let wh: Warehouse;
const rows = async <T = Record<string, unknown>>(sql: string): Promise<T[]> => {
  const c = await wh.connect();
  try { return await queryRows<T>(c, sql); } finally { c.closeSync(); }
};
const raw = (rel: string): string => `read_csv('${path.join(SHARED_DATA, rel)}', all_varchar = true, header = true)`;
beforeAll(async () => { wh = await openWarehouse(':memory:'); });
afterAll(() => { wh.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

describe('King County as a canonical market', () => {
  const dir = path.join(tmp, 'king_county');
  it('writes every sale, only canonical columns, each value as SOURCE.md says', async () => {
    const conv = writeCanonicalSales('king_county', dir, SHARED_DATA);
    expect(conv).toMatchObject({ rows: 21_613, skipped: 0 });
    const header = fs.readFileSync(conv.file, 'utf8').split('\n', 1)[0]!.split(',');
    expect(header).toEqual([...CANONICAL_SALES_COLUMNS, 'parcel_id', 'lot_sqft', 'quality_grade']); // the 14 required + the optional parcel id, lot and grade
    // each raw sale beside its converted row (a parcel is sold at most once a day: the join is one to one, so n counts
    // both), every column recomputed from the raw values
    const bad = await rows<{ n: number; mismatched: number; no_city: number }>(`
      with r as (select *, strftime(strptime(date, '%Y%m%dT%H%M%S'), '%Y-%m-%d') as iso from ${raw(KING_COUNTY_FILE)}),
           c as (select * from read_csv('${conv.file}', all_varchar = true, header = true)),
           z as (select zip_code, city from ${raw(ZIP_REFERENCE_FILE)})
      select count(*)::int as n, (count(*) filter (where z.city is null))::int as no_city,
        (count(*) filter (where not (
          c.address = 'PARCEL ' || r.id and c.parcel_id = r.id and c.city = z.city and c.state = 'WA' and c.zip = r.zipcode
          and c.sale_price::double = r.price::double and c.property_type = 'sfr'
          and c.beds::double = r.bedrooms::double and c.baths::double = r.bathrooms::double
          and c.sqft::double = r.sqft_living::double and c.year_built::int = r.yr_built::int
          and c.condition = case r.condition when '1' then 'poor' when '2' then 'fair' when '3' then 'good' when '4' then 'good' when '5' then 'excellent' end
          and c.lat::double = r.lat::double and c.lng::double = r.long::double and c.lot_sqft::double = r.sqft_lot::double
          and c.quality_grade::double = r.grade::double)))::int as mismatched
      from r join c on c.parcel_id = r.id and c.sale_date = r.iso left join z on z.zip_code = r.zipcode`);
    expect(bad[0]).toEqual({ n: 21_613, no_city: 0, mismatched: 0 });
  });

  it('through the build, the canonical path holds the same comps as the source own adapter', async () => {
    const [set] = await compSetsFromSources(dir);
    const own = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'comps-king_county.json'), 'utf8')) as CompSetData;
    const sales = (s: CompSetData): string[] => s.price.map((p, i) => [s.zips[s.zip[i]!], s.day[i], p, s.sqft[i], s.year[i], s.cond[i], s.lat[i], s.lng[i]].join('|')).sort();
    expect(set!.source).toBe('canonical');
    expect(set!.price.length).toBe(own.price.length);
    expect(sales(set!)).toEqual(sales(own));
    // the lot and the quality grade (the optional lot_sqft and quality_grade) are the same log_lot and grade features
    // the own adapter reads; view and waterfront are no canonical columns, so not there
    expect(Object.keys(set!.features ?? {}).sort()).toEqual(['grade', 'log_lot']);
    const lots = (s: CompSetData): string[] => s.price.map((p, i) => [s.zips[s.zip[i]!], s.day[i], p, s.sqft[i], s.lat[i], s.lng[i], s.features!['log_lot']![i]?.toFixed(9), s.features!['grade']![i]].join('|')).sort();
    expect(lots(set!)).toEqual(lots(own));
    expect(new Set(set!.key).size).toBe(new Set(own.key).size); // one address key per parcel, as the parcel id is
  }, 1_500_000);
});

describe('NYC as a canonical market', () => {
  it('keeps every priced sale with a zip and a known category, typed as the source adapter types it', async () => {
    const conv = writeCanonicalSales('nyc', path.join(tmp, 'nyc'), SHARED_DATA);
    const files = fs.readdirSync(path.join(SHARED_DATA, NYC_FOLDER)).filter((f) => f.endsWith('.csv.gz')).map((f) => `'${path.join(SHARED_DATA, NYC_FOLDER, f)}'`);
    const expected = await rows<{ t: string; n: number }>(`
      with r as (select * from read_csv([${files.join(',')}], all_varchar = true, header = true)),
           typed as (select *, case
              when "BUILDING CLASS CATEGORY" like '01 %' then 'sfr'
              when regexp_matches("BUILDING CLASS CATEGORY", '^(02|03|07|08|11|14) ') then 'multi'
              when regexp_matches("BUILDING CLASS CATEGORY", '^(04|09|10|12|13|15|16|17) ') then 'condo'
              when regexp_matches("BUILDING CLASS CATEGORY", '^(05|31) ') then 'land'
              when regexp_matches("BUILDING CLASS CATEGORY", '^[0-9][0-9] ') then 'commercial' end as t
            from r)
      select t, count(*)::int as n from typed
      where t is not null and try_cast(replace("SALE PRICE", ',', '') as double) > 0 and regexp_full_match(trim("ZIP CODE"), '[0-9]{5}') and trim("ZIP CODE") <> '00000'
      group by t order by t`);
    const got = await rows<{ t: string; n: number }>(`select property_type as t, count(*)::int as n from read_csv('${conv.file}', all_varchar = true, header = true) group by t order by t`);
    expect(got).toEqual(expected);
    expect(conv.rows).toBe(expected.reduce((a, r) => a + r.n, 0));
    expect(conv.reasons['no_price']).toBeGreaterThan(40_000); // SOURCE.md: ~26% of the rows are $0 transfers
    // no point, no beds or baths, no condition: those columns are empty on every row
    const filled = await rows<{ n: number }>(`select count(*)::int as n from read_csv('${conv.file}', all_varchar = true, header = true)
      where coalesce(lat, lng, beds, baths, condition) is not null`);
    expect(filled[0]!.n).toBe(0);
  });

  it('--without: a market whose records lack some columns (an optional one left out, a required one empty)', async () => {
    const conv = writeCanonicalSales('king_county', path.join(tmp, 'kc-without'), SHARED_DATA, ['lot_sqft', 'quality_grade', 'lat', 'lng']);
    expect(fs.readFileSync(conv.file, 'utf8').split('\n', 1)[0]!.split(',')).toEqual([...CANONICAL_SALES_COLUMNS, 'parcel_id']);
    const filled = await rows<{ n: number; sqft: number }>(`select count(*) filter (where coalesce(lat, lng) is not null)::int as n,
      count(sqft)::int as sqft from read_csv('${conv.file}', all_varchar = true, header = true)`);
    expect(filled[0]).toEqual({ n: 0, sqft: 21_613 });
    expect(() => writeCanonicalSales('king_county', path.join(tmp, 'kc-x'), SHARED_DATA, ['grade'])).toThrow(/--without grade/);
  });

  it('refuses a source it cannot convert, naming the ones it can', () => {
    expect(() => writeCanonicalSales('denver', path.join(tmp, 'denver'), SHARED_DATA)).toThrow(/sacramento, king_county, nyc/);
  });
});
