// Coverage of a comps window over the shared real build (REII_TEST_ARTIFACTS), warehouse/docs/market.md "Coverage of
// a window" (review 9 #3): Sacramento's file covers one week (2008-05-15..21), so every window of a Sacramento zip
// says so (coverage, note) and none is above low confidence; the windows the files cover whole (NYC's 12 months in
// its second file, King County's windows starting inside its file) keep the count's confidence and no coverage clause;
// Philadelphia's roll covers only 2022-09..11 whole (a quarter of its busiest month: review 15, the trends' rule). The spans are read from the raw files, not from the build. The investor overview's windows (city,
// 3-24 months, ending where the city's sources end) and the rehab score's follow the same rule: Denver's deeds span
// 2018-01-01..2019-07-09.
import { describe, expect, test } from 'vitest';
import { warehouseRows } from '../helpers/build.ts';
import { band } from '../helpers/oracle-market.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

interface Row { zip: string; property_type: string; months: number; comp_count: number; confidence: string; first_day: string; window_end: string; window_days: number; records_start: string; records_end: string; records_days: number; note: string | null }
const rows = (where: string): Promise<Row[]> => warehouseRows<Row>(`
  select zip, property_type, months, comp_count::int as comp_count, confidence, strftime(cast(window_start + 1 as date), '%Y-%m-%d') as first_day,
         strftime(window_end, '%Y-%m-%d') as window_end, window_days, strftime(records_start, '%Y-%m-%d') as records_start,
         strftime(records_end, '%Y-%m-%d') as records_end, records_days, note
  from mart_comps where ${where}`);
const days = (a: string, b: string): number => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000) + 1;

describe('comps: the span of data a window holds', () => {
  test('Sacramento: the raw file spans one week; every window of every zip says so and is low confidence', async () => {
    const [raw] = await rawQuery<{ lo: string; hi: string; zips: number }>(`select min(sale_date_iso)::varchar as lo, max(sale_date_iso)::varchar as hi,
        count(distinct zip)::int as zips from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)`);
    expect([raw!.lo, raw!.hi]).toEqual(['2008-05-15', '2008-05-21']);
    const got = await rows(`zip in (select zip from sales where source = 'sacramento')`);
    expect(got.length).toBeGreaterThan(5 * 22 * 50);
    const problems = got.flatMap((r) => {
      const want = `sales records cover ${raw!.lo} to ${r.window_end < raw!.hi ? r.window_end : raw!.hi} only, `;
      return r.records_start === raw!.lo && r.records_end <= raw!.hi && r.records_days === days(r.records_start, r.records_end)
        && r.window_days === days(r.first_day, r.window_end) && r.confidence === 'low'
        && r.note?.startsWith(`${want}${r.records_days} of the ${r.window_days} days asked`) ? [] : [JSON.stringify(r)];
    });
    expect(problems).toEqual([]);
    // 95823 single-family: 60 comps at 3, 6 and 24 months alike (the same week), 'high' before; the answers now differ
    const z = await rows(`zip = '95823' and property_type = 'sfr' and months in (3, 6, 24) order by months`);
    expect(z.map((r) => [r.comp_count, r.confidence, r.records_days, r.window_days])).toEqual([[60, 'low', 7, 90], [60, 'low', 7, 182], [60, 'low', 7, 731]]);
  });

  test('complete windows do not move: NYC 12 months in its 2023-24 file, King County windows from its first sale on; Philadelphia\'s thin months are not covered', async () => {
    const [kc] = await rawQuery<{ lo: string }>(`select min(strptime("date", '%Y%m%dT%H%M%S'))::date::varchar as lo
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
    const [nyc] = await rawQuery<{ lo: string; hi: string }>(`select min("SALE DATE")::varchar as lo, max("SALE DATE")::varchar as hi
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz')}', all_varchar = true)`);
    expect([kc!.lo, nyc!.lo, nyc!.hi]).toEqual(['2014-05-02', '2023-03-01', '2024-02-29']);
    const sets = {
      king_county: await rows(`zip in (select zip from sales where source = 'king_county') and window_start + 1 >= date '${kc!.lo}'`),
      nyc: await rows(`zip in (select zip from sales where source = 'nyc') and window_start + 1 >= date '${nyc!.lo}' and window_end <= date '${nyc!.hi}'`),
    };
    for (const [name, set] of Object.entries(sets)) {
      expect(set.length, name).toBeGreaterThan(100);
      const moved = set.filter((r) => r.records_days !== r.window_days || r.confidence !== band(r.comp_count) || r.note?.startsWith('sales records cover'));
      expect(moved.map((r) => JSON.stringify(r)), name).toEqual([]);
    }
    // Philadelphia's roll (each parcel's last sale) holds a quarter of its busiest month only in 2022-09..11 (review
    // 15: the trends' volume rule): every window covers those months at most and says so
    const phlMonths = await rawQuery<{ m: string; n: number }>(`select strftime(try_cast(left(sale_date, 10) as date), '%Y-%m') as m, count(*)::int as n
      from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
      where try_cast(sale_price as double) >= 10000 group by 1 order by 1`);
    const busiest = Math.max(...phlMonths.map((r) => r.n));
    expect(phlMonths.filter((r) => r.n >= 0.25 * busiest).map((r) => r.m)).toEqual(['2022-09', '2022-10', '2022-11']);
    const phl = await rows(`zip in (select zip from sales where source = 'philadelphia')`);
    expect(phl.length).toBeGreaterThan(100);
    expect(phl.filter((r) => !(r.records_start >= '2022-09-01' && r.records_end <= '2022-11-30' && r.records_days < r.window_days
      && r.note?.startsWith(`sales records cover ${r.records_start} to ${r.records_end} only, ${r.records_days} of the ${r.window_days} days asked`))).map((r) => JSON.stringify(r))).toEqual([]);
    // a window reaching before the file is not complete: King County 24 months (the file holds 391 of 731 days)
    const [seattle] = await rows(`zip = '98103' and property_type = 'sfr' and months = 24`);
    expect([seattle!.records_start, seattle!.confidence]).toEqual([kc!.lo, 'medium']);
  });
});

describe('investor overview: the span of data a window holds', () => {
  interface Inv { months: number; confidence: string; window_days: number; records_start: string; records_end: string; records_days: number; note: string | null }
  const inv = (slug: string): Promise<Inv[]> => warehouseRows<Inv>(`select months, confidence, window_days, strftime(records_start, '%Y-%m-%d') as records_start,
      strftime(records_end, '%Y-%m-%d') as records_end, records_days, note from mart_investor where city_slug = '${slug}' order by months`);

  test("Denver: 12 months hold the deeds' solid months but July 2019's 9 days (high); 20-24 months are medium and say so", async () => {
    // the one coverage rule (int_market_file_coverage, review 17): the deeds cover with full volume their solid months,
    // 2018-01..2019-06 (July 2019 holds 23 deeds against 1,646 in June 2018); 555 days from the span before, 546 now
    const [span] = await warehouseRows<{ lo: string; hi: string; solid_end: string }>(`with m as (select date_trunc('month', sale_date) as m, count(*) as n
        from sales where source = 'denver' and is_arms_length group by all)
      select strftime(min(sale_date), '%Y-%m-%d') as lo, strftime(max(sale_date), '%Y-%m-%d') as hi,
             (select strftime(last_day(max(m)), '%Y-%m-%d') from m where n >= 0.25 * (select max(n) from m)) as solid_end
      from sales where source = 'denver' and is_arms_length`);
    expect([span!.hi, span!.solid_end]).toEqual(['2019-07-09', '2019-06-30']);
    const all = await inv('denver');
    const by = new Map(all.map((r) => [r.months, r]));
    expect([by.get(12)!.confidence, by.get(12)!.records_days, by.get(12)!.window_days]).toEqual(['high', 356, 365]);
    expect(by.get(12)!.note).toMatch(/^records cover 2018-07-10 to 2019-06-30 only, 356 of the 365 days asked: of the other 9 days, all 9 hold the city's sales from a partial extract/);
    // 20 months: 546 of 607 days (89.9%), under the 90% line: medium (555, high, before)
    expect([by.get(20)!.confidence, by.get(20)!.records_days, by.get(20)!.window_days]).toEqual(['medium', 546, 607]);
    for (const m of [21, 24]) {
      const r = by.get(m)!;
      expect([r.records_start, r.records_end, r.confidence], `${m}`).toEqual([span!.lo, span!.solid_end, 'medium']);
      expect(r.note).toMatch(new RegExp(`^records cover ${span!.lo} to ${span!.solid_end} only, ${r.records_days} of the ${r.window_days} days asked: of the other ${r.window_days - r.records_days} days, 9 hold the city's sales from a partial extract`));
    }
  });

  test('Sacramento: every window says the records cover one week', async () => {
    const all = await inv('sacramento');
    expect(all.length).toBe(22);
    for (const r of all) expect(r.note, `${r.months}`).toMatch(new RegExp(`^records cover 2008-05-15 to 2008-05-21 only, 7 of the ${r.window_days} days asked; `));
  });
});

test("rehab score: King County 98103 (no permit source) 12 months inside the file, 24 months reaching before it say so; no rehab answer above low is short of 90%", async () => {
  // the window ends where the King County file ends (its last sale), not at 98103's own last sale (2015-05-14; market.md mart_rehab "Window")
  const [kc] = await rawQuery<{ lo: string; hi: string }>(`select min(strptime("date", '%Y%m%dT%H%M%S'))::date::varchar as lo,
      max(strptime("date", '%Y%m%dT%H%M%S'))::date::varchar as hi
    from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)`);
  const r = await warehouseRows<{ months: number; records_start: string; records_days: number; window_days: number; note: string | null }>(`
    select months, strftime(records_start, '%Y-%m-%d') as records_start, records_days, window_days, note from mart_rehab where zip = '98103' and months in (12, 24) order by months`);
  // no coverage clause inside the file; both say the score is the resale share alone (no permit source: review r16b #19)
  const resaleOnly = /no building permit source covers this zip: no renovation permit data: the score is the rehab resale share alone \(\d+ of the window's \d+ residential arm's-length sales/;
  expect(r[0]!.note).toMatch(new RegExp(`^${resaleOnly.source}`));
  expect(r[1]!.records_start).toBe(kc!.lo);
  expect(r[1]!.note).toMatch(new RegExp(`^records cover ${kc!.lo} to ${kc!.hi} only, ${r[1]!.records_days} of the ${r[1]!.window_days} days asked; ${resaleOnly.source}`));
  const [bad] = await warehouseRows<{ n: number }>(`select count(*)::int as n from mart_rehab
    where (confidence = 'high' and records_days < 0.9 * window_days) or (confidence = 'medium' and records_days < 0.5 * window_days)`);
  expect(bad!.n).toBe(0);
});
