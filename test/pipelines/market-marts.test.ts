// Market domain, marts stage: the comps, rehab and investor marts over given canonical rows (rows in -> expected
// mart rows, over a fresh DuckDB with the domain's canonical tables). The rules are in warehouse/docs/market.md.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { marketTables, run } from '../helpers/market-fixtures.ts';

let ctx: TestContext;
beforeEach(async () => { ctx = await makeContext(); await marketTables(ctx); });
afterEach(() => ctx.close());

interface Sale { id: string; zip?: string | null; city?: string; state?: string; date: string; price: number; type?: string; sqft?: number | null;
  arms?: boolean; investor?: boolean | null; parcel?: string | null; listPrice?: number | null; listDate?: string | null; renovated?: number | null;
  /** the arm's-length rule's flags (30_market_45_sale_flags.sql); set `arms: false` beside them */
  reason?: string | null; portfolio?: boolean; duplicate?: boolean; source?: string; unit?: string | null }

async function sales(rows: Sale[]): Promise<void> {
  for (const s of rows) {
    await ctx.db.run(`insert into sales (sale_id, source, parcel_id, city, state_code, zip, sale_date, sale_price, list_price, list_date,
        property_type, sqft, is_arms_length, buyer_is_investor, year_renovated, line, non_arms_length_reason, is_portfolio, is_duplicate, unit)
      values ($id, $source, $parcel, $city, $state, $zip, $date::date, $price, $lp, $ld::date, $type, $sqft, $arms, $inv, $ren, 1, $reason,
        $portfolio, $duplicate, $unit)`, {
      id: s.id, parcel: s.parcel ?? null, city: s.city ?? 'Testville', state: s.state ?? 'WA', zip: s.zip === undefined ? '98103' : s.zip,
      date: s.date, price: s.price, lp: s.listPrice ?? null, ld: s.listDate ?? null, type: s.type ?? 'sfr', sqft: s.sqft === undefined ? 1000 : s.sqft,
      arms: s.arms ?? true, inv: s.investor ?? null, ren: s.renovated ?? null,
      reason: s.reason ?? null, portfolio: s.portfolio ?? false, duplicate: s.duplicate ?? false, source: s.source ?? 'test', unit: s.unit ?? null,
    });
  }
}

const INTERMEDIATE = ['pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
  'pipelines/intermediate/30_market_97_zip_permits.sql', 'pipelines/intermediate/30_market_98_permit_area.sql'];

describe('mart_comps', () => {
  test('percentiles over arm\'s-length comps in a window ending at the zip\'s latest sale; below 5 comps nothing leaks', async () => {
    await sales([
      // zip 98103 sfr: 5 comps within 6 months of the zip's last sale (2015-05-14), one older, one not arm's-length
      { id: 'a', date: '2015-05-14', price: 500000 }, { id: 'b', date: '2015-04-01', price: 400000 }, { id: 'c', date: '2015-03-01', price: 300000 },
      { id: 'd', date: '2015-01-10', price: 200000 }, { id: 'e', date: '2014-11-15', price: 100000 },
      { id: 'f', date: '2014-11-14', price: 900000 },  // exactly 6 months before: outside the 6-month window, inside 7
      { id: 'g', date: '2015-05-01', price: 5000, arms: false },
      { id: 'h', date: '2015-02-01', price: 300000, sqft: null }, // no living area: not a comp
      // condo: 2 comps only (dated at the window end, 2015-05-14, not at their own latest sale: a small cohort gives no date)
      { id: 'i', date: '2015-05-01', price: 300000, type: 'condo' }, { id: 'j', date: '2015-04-01', price: 310000, type: 'condo' },
      // a flagged record after the last arm's-length sale (a $0 transfer) does not move the window end
      { id: 'k', date: '2015-06-30', price: 0, arms: false },
      // a zip whose only records are flagged is no market: no comps rows at all (a 404)
      { id: 'l', zip: '98199', date: '2015-05-01', price: 2500000, arms: false },
    ]);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_comps.sql');
    const rows = await ctx.rows(`select property_type, months, comp_count, sample_count, ppsf_p25, ppsf_median, ppsf_p75, confidence,
        as_of::varchar as as_of, window_end::varchar as window_end, dom_median, list_to_sale_ratio
      from mart_comps where months in (3, 6, 7) and property_type in ('sfr', 'condo') order by property_type, months`);
    expect(rows).toEqual([
      { property_type: 'condo', months: 3, comp_count: '2', sample_count: null, ppsf_p25: null, ppsf_median: null, ppsf_p75: null, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
      { property_type: 'condo', months: 6, comp_count: '2', sample_count: null, ppsf_p25: null, ppsf_median: null, ppsf_p75: null, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
      { property_type: 'condo', months: 7, comp_count: '2', sample_count: null, ppsf_p25: null, ppsf_median: null, ppsf_p75: null, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
      { property_type: 'sfr', months: 3, comp_count: '3', sample_count: null, ppsf_p25: null, ppsf_median: null, ppsf_p75: null, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
      { property_type: 'sfr', months: 6, comp_count: '5', sample_count: '5', ppsf_p25: 200, ppsf_median: 300, ppsf_p75: 400, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
      { property_type: 'sfr', months: 7, comp_count: '6', sample_count: '6', ppsf_p25: 225, ppsf_median: 350, ppsf_p75: 475, confidence: 'low', as_of: '2015-05-14', window_end: '2015-05-14', dom_median: null, list_to_sale_ratio: null },
    ]);
    // one row per zip x type x months 3..24 for all five types of a zip with any sale: a type without comps
    // answers with nothing about the cohort (sample_count null, confidence low) instead of a 404
    expect(await ctx.rows(`select count(*)::int as n, count(distinct months)::int as m, count(distinct property_type)::int as t from mart_comps`))
      .toEqual([{ n: 110, m: 22, t: 5 }]);
    expect(await ctx.rows(`select property_type, comp_count, sample_count, ppsf_median, confidence, window_end::varchar as window_end
      from mart_comps where months = 12 and property_type in ('land', 'multi', 'commercial') order by property_type`)).toEqual(
      ['commercial', 'land', 'multi'].map((t) => ({ property_type: t, comp_count: '0', sample_count: null, ppsf_median: null, confidence: 'low', window_end: '2015-05-14' })));
  });

  test('days on market comes from the sales\' list data, else a Redfin snapshot that may stand for the window (90 days inside it, its recorded type, 5+ homes sold); list-to-sale from the sales only', async () => {
    const listed = ['2015-05-10', '2015-05-01', '2015-04-20', '2015-04-10', '2015-04-01'].map((d, i) => ({
      id: `l${i}`, date: d, price: 100000 * (i + 1), listPrice: 100000 * (i + 1) / (0.96 + i * 0.01), listDate: '2015-03-01' }));
    await sales([...listed,
      ...[0, 1, 2, 3, 4].map((i) => ({ id: `z${i}`, zip: '98105', date: `2015-05-0${i + 1}`, price: 300000 })),
      { id: 'y0', zip: '98107', date: '2015-05-05', price: 300000 }]);
    // 98105, window end 2015-05-05 (first days: 3 months 2015-02-06, 6 months 2014-11-06, 24 months 2013-05-06):
    //   single-family 2015-02-01..04-30 (30 sold): inside 6 and 24 months, not 3; a type-less row (unrecorded: unknown);
    //   condo 2014-12-01..2015-02-28 (8 sold): inside 6 and 24; a later condo row of 4 sold (below the cohort) and one
    //   ending after the window; All Residential 2014-04-01..06-30 (8 sold): inside 24 months only, the latest for multi;
    //   each row's sale-to-list (an average) never the ratio. 98107: a 2025 row only. 98103: its own list data.
    await ctx.db.run(`insert into int_market_redfin_zip values
      ('98105', '2015-04-30', '2025-05', 9, 1.02, 30, 'Single Family Residential'), ('98105', '2015-03-31', '2025-06', 11, 1.0, 30, null),
      ('98105', '2015-02-28', '2025-05', 40, 0.95, 8, 'Condo/Co-op'), ('98105', '2015-03-31', '2025-05', 7, 0.9, 4, 'Condo/Co-op'),
      ('98105', '2015-05-31', '2025-05', 6, 0.9, 50, 'Condo/Co-op'), ('98105', '2014-06-30', '2025-05', 99, 0.5, 8, 'All Residential'),
      ('98107', '2025-05-31', '2025-05', 11, 1.01, 30, 'All Residential'), ('98103', '2015-04-30', '2025-05', 50, 0.9, 5, 'Single Family Residential')`);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_comps.sql');
    const rows = await ctx.rows(`select zip, property_type as t, months as m, dom_median as dom, dom_source, round(list_to_sale_ratio, 4) as r, ratio_source,
        concat_ws(' ', redfin_property_type, redfin_period_start, redfin_period_end, redfin_homes_sold) as redfin
      from mart_comps where (zip = '98105' and property_type in ('sfr', 'condo', 'multi') and months in (3, 6, 24))
        or (months = 6 and (property_type = 'land' or zip <> '98105') and property_type in ('sfr', 'condo', 'land'))
      order by zip, property_type, months`);
    const none = { dom: null, dom_source: null, r: null, ratio_source: null, redfin: '' };
    expect(rows).toEqual([
      { zip: '98103', t: 'condo', m: 6, ...none },
      { zip: '98103', t: 'land', m: 6, ...none },
      { zip: '98103', t: 'sfr', m: 6, dom: 50, dom_source: 'sales', r: 0.98, ratio_source: 'sales', redfin: '' },
      { zip: '98105', t: 'condo', m: 3, ...none },
      { zip: '98105', t: 'condo', m: 6, ...none, dom: 40, dom_source: 'redfin', redfin: 'Condo/Co-op 2014-12-01 2015-02-28 8' },
      { zip: '98105', t: 'condo', m: 24, ...none, dom: 40, dom_source: 'redfin', redfin: 'Condo/Co-op 2014-12-01 2015-02-28 8' },
      { zip: '98105', t: 'land', m: 6, ...none },
      { zip: '98105', t: 'multi', m: 3, ...none },
      { zip: '98105', t: 'multi', m: 6, ...none },
      { zip: '98105', t: 'multi', m: 24, ...none, dom: 99, dom_source: 'redfin', redfin: 'All Residential 2014-04-01 2014-06-30 8' },
      { zip: '98105', t: 'sfr', m: 3, ...none },
      { zip: '98105', t: 'sfr', m: 6, ...none, dom: 9, dom_source: 'redfin', redfin: 'Single Family Residential 2015-02-01 2015-04-30 30' },
      { zip: '98105', t: 'sfr', m: 24, ...none, dom: 9, dom_source: 'redfin', redfin: 'Single Family Residential 2015-02-01 2015-04-30 30' },
      { zip: '98107', t: 'condo', m: 6, ...none },
      { zip: '98107', t: 'land', m: 6, ...none },
      { zip: '98107', t: 'sfr', m: 6, ...none },
    ]);
    // the answer names the source and its period; the ratio's absence says why
    const [note] = await ctx.rows<{ note: string }>(`select note from mart_comps where zip = '98105' and property_type = 'multi' and months = 24`);
    expect(note!.note.split('; ').slice(-2).join('; ')).toBe("no list-to-sale ratio: fewer than 5 comps of the window record a list date and price (Redfin's sale-to-list is an average, not a median: not used for the ratio); "
      + "days on market: the Redfin zip tracker's median for all residential sales of the 90 days 2014-04-01 to 2014-06-30 (8 homes sold, data provided by Redfin)");
  });
});

describe('mart_rehab', () => {
  test('score from permit intensity, permit value and rehab resales; label bands; 30-day trend', async () => {
    await ctx.db.run(`insert into int_market_housing_units values ('37206', 1000)`);
    const permit = (id: string, date: string, type: string, value: number | null) => ctx.db.run(
      `insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation) values ($id, 'test', '37206', 'Nashville', 'TN', $d::date, $t, $v)`,
      { id, d: date, t: type, v: value });
    // 12 months to 2024-09-17: 10 rehab permits worth $100,000 each + 2 new-construction permits
    for (let i = 0; i < 10; i++) await permit(`r${i}`, i < 3 ? '2024-09-01' : i < 4 ? '2024-08-01' : '2024-03-01', i % 2 ? 'renovation' : 'repair', 100000);
    await permit('n1', '2024-09-17', 'new', 500000);
    await permit('n2', '2023-01-01', 'new', 500000);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql');
    const [row] = await ctx.rows<Record<string, number | string>>(`select * from mart_rehab where zip = '37206' and months = 12`);
    // permit rate = 10 per 1,000 units per year -> 100 ln(11)/ln(51); value = $1,000 per unit per year -> 100 ln(1001)/ln(2001)
    const permitScore = (100 * Math.log(11)) / Math.log(51);
    const valueScore = (100 * Math.log(1001)) / Math.log(2001);
    const score = (0.45 * permitScore + 0.35 * valueScore) / 0.8;
    expect(row!['rehab_momentum_score']).toBeCloseTo(score, 1);
    expect(row!['label']).toBe(score >= 80 ? 'Very Hot' : score >= 60 ? 'Hot' : score >= 40 ? 'Active' : 'Warming');
    expect(row!['permits_all']).toBe('11');
    expect(row!['as_of']).toBe('2024-09-17');
    // last 30 days: 3 rehab permits; the 30 before: 1 -> +200%
    expect([row!['trend'], row!['trend_pct'], row!['events_last_30d'], row!['events_prior_30d']]).toEqual(['up', 200, '3', '1']);
    expect(row!['confidence']).toBe('low');
  });

  test('permits without a declared cost are not $0: the value weight is scaled by the declared share, none declared -> no value component', async () => {
    await ctx.db.run(`insert into int_market_housing_units values ('37207', 1000), ('37208', 1000), ('37209', 1000)`);
    const permit = (id: string, zip: string, type: string, value: number | null) => ctx.db.run(
      `insert into permits (permit_id, source, zip, city, state_code, issue_date, permit_type, valuation) values ($id, 'test', $zip, 'Nashville', 'TN', '2024-06-01'::date, $t, $v)`,
      { id, zip, t: type, v: value });
    // 37207: 4 rehab permits, 2 with a declared $50,000, one empty, one $0 (a placeholder, not a cost)
    await permit('a1', '37207', 'renovation', 50000); await permit('a2', '37207', 'repair', 50000);
    await permit('a3', '37207', 'addition', null); await permit('a4', '37207', 'renovation', 0);
    // 37208: 2 rehab permits, none declares a cost
    await permit('b1', '37208', 'renovation', null); await permit('b2', '37208', 'repair', null);
    // 37209: permits but no rehab permit: the rehab spending is a true $0
    await permit('c1', '37209', 'new', 300000);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql');
    const rows = await ctx.rows<Record<string, unknown>>(`select zip, rehab_momentum_score as score, permits_rehab, permits_rehab_valued, rehab_value,
        value_declared_share, value_score from mart_rehab where months = 12 order by zip`);
    const ps = (rate: number): number => (100 * Math.log(1 + rate)) / Math.log(51);
    // 37207: 4 permits per 1,000 units a year; declared $100,000 / 1,000 units = $100 a unit; value weight 0.35 x 2/4
    const v7 = (100 * Math.log(101)) / Math.log(2001);
    const s7 = (0.45 * ps(4) + 0.175 * v7) / (0.45 + 0.175);
    expect(rows).toEqual([
      { zip: '37207', score: Math.round(s7 * 10) / 10, permits_rehab: '4', permits_rehab_valued: '2', rehab_value: 100000, value_declared_share: 0.5, value_score: expect.closeTo(v7, 6) },
      // only the permit intensity is known: the score is that component alone
      { zip: '37208', score: Math.round(ps(2) * 10) / 10, permits_rehab: '2', permits_rehab_valued: '0', rehab_value: 0, value_declared_share: 0, value_score: null },
      { zip: '37209', score: 0, permits_rehab: '0', permits_rehab_valued: '0', rehab_value: 0, value_declared_share: 1, value_score: 0 },
    ]);
    // (counting undeclared costs as $0 at full weight gave 37208 a value score of 0 and dragged it to 0.45/0.8 of this)
  });

  test('a permit whose zip was guessed counts in that zip only within its own city (review 4: O\'Hare in Des Plaines)', async () => {
    await ctx.db.run(`insert into int_market_housing_units values ('60018', 10000), ('60640', 1000)`);
    const permit = (id: string, zip: string, imputed: boolean) => ctx.db.run(
      `insert into permits (permit_id, source, zip, zip_imputed, city, state_code, issue_date, permit_type, valuation) values ($id, 'chicago', $zip, $imp, 'Chicago', 'IL', '2024-06-01'::date, 'renovation', 100000)`,
      { id, zip, imp: imputed });
    // 60018 is Des Plaines (its sales say so); Chicago's airport permits were placed in it by the nearest centroid
    // (the sales run to 06-05, past the permits' 06-01: their source is complete over the direction's windows)
    await sales([1, 2, 3, 4, 5].map((d) => ({ id: `dp${d}`, zip: '60018', city: 'Des Plaines', state: 'IL', date: `2024-06-0${d}`, price: 300000 })));
    for (let i = 0; i < 3; i++) await permit(`ohare${i}`, '60018', true);
    // 60640 is a Chicago zip: its guessed permits count; a permit whose zip was recorded counts wherever it is
    await sales([{ id: 'up1', zip: '60640', city: 'Chicago', state: 'IL', date: '2024-06-01', price: 300000 }]);
    await permit('uptown', '60640', true);
    await permit('recorded', '60018', false);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql');
    const rows = await ctx.rows<Record<string, unknown>>(`select zip, permits_all, rehab_value from mart_rehab where months = 12 order by zip`);
    expect(rows).toEqual([{ zip: '60018', permits_all: '1', rehab_value: 100000 }, { zip: '60640', permits_all: '1', rehab_value: 100000 }]);
    const dir = await ctx.rows<Record<string, unknown>>(`select coalesce(zip, city_slug) as m, events_last_30d + events_prior_30d as n from mart_market_direction order by m`);
    // the city market keeps all five of Chicago's permits; the zips only theirs
    expect(dir).toEqual([{ m: '60018', n: '1' }, { m: '60640', n: '1' }, { m: 'chicago', n: '5' }, { m: 'des-plaines', n: '0' }]);
  });

  test('a zip with only sales is scored from its rehab resales (renovated resales, quick resales at a gain)', async () => {
    await sales([
      { id: 's1', zip: '98118', date: '2015-01-01', price: 200000, parcel: 'p1' },
      { id: 's2', zip: '98118', date: '2015-05-01', price: 300000, parcel: 'p1' },  // resold after 4 months at +50%
      { id: 's3', zip: '98118', date: '2015-03-01', price: 400000, parcel: 'p2', renovated: 2015 },
      ...[4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((i) => ({ id: `s${i}`, zip: '98118', date: '2015-02-01', price: 300000, parcel: `p${i}` })),
    ]);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_market_direction.sql', 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_rehab.sql');
    const [row] = await ctx.rows<Record<string, unknown>>(`select rehab_momentum_score, rehab_sales, sales_n, permit_score, label from mart_rehab where zip = '98118' and months = 12`);
    // 2 rehab sales of 13 -> share 15% -> capped at 100
    expect(row).toEqual({ rehab_momentum_score: 100, rehab_sales: '2', sales_n: '13', permit_score: null, label: 'Very Hot' });
  });
});

describe('mart_investor', () => {
  test('investor purchase rate over known buyers, flip velocity and margin, distressed pipeline, tier', async () => {
    await sales([
      { id: 'i1', zip: null, city: 'Denver', state: 'CO', date: '2019-01-10', price: 200000, investor: true, parcel: 'A' },
      { id: 'i2', zip: null, city: 'Denver', state: 'CO', date: '2019-05-10', price: 300000, investor: false, parcel: 'A' },  // flip: 120 days, +50% (1 of 2)
      { id: 'i3', zip: null, city: 'Denver', state: 'CO', date: '2019-02-01', price: 400000, investor: true, parcel: 'B' },
      { id: 'i4', zip: null, city: 'Denver', state: 'CO', date: '2019-06-01', price: 440000, investor: false, parcel: 'B' },  // flip: 120 days, +10%
      { id: 'i5', zip: null, city: 'DENVER', state: 'CO', date: '2019-07-01', price: 500000, investor: false, parcel: 'C' },
      { id: 'i6', zip: null, city: 'Denver', state: 'CO', date: '2019-07-02', price: 500000, investor: null, parcel: 'D' },   // buyer unknown
      // a nominal sale after the last arm's-length one: counted nowhere, and it does not move the window end
      { id: 'i7', zip: null, city: 'Denver', state: 'CO', date: '2019-07-03', price: 1000, investor: true, parcel: 'E', arms: false },
    ]);
    // a distress source of its own (its window ends at its own latest filing), and one of its boroughs whose last filing was
    // long before: the borough's window is the source's, a true 0 (review 4: Haysville read "1 as of 2014-10-28")
    await ctx.db.run(`insert into distress (distress_id, source, parcel_id, city, state_code, kind, filing_date) values
      ('d1', 'foreclosures', 'X', 'Pittsburgh', 'PA', 'pre_foreclosure', '2022-08-30'), ('d2', 'foreclosures', 'X', 'Pittsburgh', 'PA', 'pre_foreclosure', '2022-07-01'),
      ('d3', 'foreclosures', 'Y', 'Pittsburgh', 'PA', 'pre_foreclosure', '2021-01-01'), ('d4', 'foreclosures', 'H', 'Haysville', 'PA', 'pre_foreclosure', '2014-10-28')`);
    await ctx.db.run(`insert into int_market_city_tiers values ('CO', 'denver', 'Denver', 'primary', 'cities')`);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    const rows = await ctx.rows(`select state_code, city, months, investor_purchase_rate_pct, flip_velocity_days, gross_flip_margin_pct,
        distressed_pipeline_count, platform_active_deals, market_tier, confidence, as_of::varchar as as_of
      from mart_investor where months in (3, 12) order by state_code, city, months`);
    expect(rows).toEqual([
      // no distress source covers Denver: its pipeline is unknown (null), not 0
      // 3 months: 3 known buyers, 2 flips: too few for a rate or a flip figure (minimum cohort 5; the medians over 5
      // flips: market-investor-cohort.test.ts)
      { state_code: 'CO', city: 'Denver', months: 3, investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: null, platform_active_deals: 0, market_tier: 'primary', confidence: 'low', as_of: '2019-07-02' },
      // 2 investor buyers of 5 arm's-length sales with a known buyer
      { state_code: 'CO', city: 'Denver', months: 12, investor_purchase_rate_pct: 40, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: null, platform_active_deals: 0, market_tier: 'primary', confidence: 'low', as_of: '2019-07-02' },
      { state_code: 'PA', city: 'Haysville', months: 3, investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: '0', platform_active_deals: 0, market_tier: 'rural', confidence: 'low', as_of: '2022-08-30' },
      { state_code: 'PA', city: 'Haysville', months: 12, investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: '0', platform_active_deals: 0, market_tier: 'rural', confidence: 'low', as_of: '2022-08-30' },
      { state_code: 'PA', city: 'Pittsburgh', months: 3, investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: '1', platform_active_deals: 0, market_tier: 'rural', confidence: 'low', as_of: '2022-08-30' },
      { state_code: 'PA', city: 'Pittsburgh', months: 12, investor_purchase_rate_pct: null, flip_velocity_days: null, gross_flip_margin_pct: null, distressed_pipeline_count: '1', platform_active_deals: 0, market_tier: 'rural', confidence: 'low', as_of: '2022-08-30' },
    ]);
  });

  test('the purchase rate counts every sale for value: portfolio parcels and price-flagged sales in, duplicates and transfers that are no sale out', async () => {
    await sales([
      // 4 arm's-length sales, 1 by an investor
      { id: 'a1', zip: null, city: 'Denver', state: 'CO', date: '2019-06-01', price: 300000, investor: true, parcel: 'A' },
      { id: 'a2', zip: null, city: 'Denver', state: 'CO', date: '2019-06-02', price: 300000, investor: false, parcel: 'B' },
      { id: 'a3', zip: null, city: 'Denver', state: 'CO', date: '2019-06-03', price: 300000, investor: false, parcel: 'C' },
      { id: 'a4', zip: null, city: 'Denver', state: 'CO', date: '2019-07-01', price: 300000, investor: false, parcel: 'D' },
      // a portfolio deed over 3 parcels bought by an investor: 3 purchases; a sale far below its roll value: 1
      ...['P1', 'P2', 'P3'].map((p) => ({ id: p, zip: null, city: 'Denver', state: 'CO', date: '2019-06-10', price: 900000, investor: true, parcel: p, arms: false, portfolio: true })),
      { id: 'r1', zip: null, city: 'Denver', state: 'CO', date: '2019-06-11', price: 20000, investor: true, parcel: 'R', arms: false, reason: 'assessment_ratio' },
      // no sale for value: a $0 deed, a quit claim, grantor = grantee, and the second copy of a sale recorded twice
      { id: 'n1', zip: null, city: 'Denver', state: 'CO', date: '2019-06-12', price: 0, investor: true, parcel: 'N', arms: false, reason: 'nominal_price' },
      { id: 'n2', zip: null, city: 'Denver', state: 'CO', date: '2019-06-12', price: 250000, investor: true, parcel: 'Q', arms: false, reason: 'deed_type' },
      { id: 'n3', zip: null, city: 'Denver', state: 'CO', date: '2019-06-12', price: 250000, investor: true, parcel: 'S', arms: false, reason: 'related_parties' },
      { id: 'n4', zip: null, city: 'Denver', state: 'CO', date: '2019-06-01', price: 300000, investor: true, parcel: 'A', arms: false, duplicate: true },
      // a portfolio deed after the last arm's-length sale: outside the window, which it does not move
      { id: 'p9', zip: null, city: 'Denver', state: 'CO', date: '2019-07-05', price: 900000, investor: true, parcel: 'Z', arms: false, portfolio: true },
    ]);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    const [row] = await ctx.rows(`select investor_purchase_rate_pct as rate, sales_for_value, arms_length_sales, known_buyer_sales, investor_purchases,
        sample_count, as_of::varchar as as_of from mart_investor where city_slug = 'denver' and months = 3`);
    // (1 + 3 + 1) investor purchases of 4 + 3 + 1 sales for value
    expect(row).toEqual({ rate: 62.5, sales_for_value: '8', arms_length_sales: '4', known_buyer_sales: '8', investor_purchases: '5', sample_count: '8', as_of: '2019-07-01' });
  });

  test('condo flips: a unit-less condo sale counts where its source\'s parcel ids name units, not where one parcel id carries several units', async () => {
    const flip = (src: string, parcel: string, unit: string | null, tag: string) => [
      { id: `${tag}1`, source: src, zip: null, city: 'Denver', state: 'CO', date: '2019-01-10', price: 200000, investor: true, parcel, unit, type: 'condo' },
      { id: `${tag}2`, source: src, zip: null, city: 'Denver', state: 'CO', date: '2019-05-10', price: 260000, investor: false, parcel, unit, type: 'condo' },
    ];
    await sales([
      // 'unitroll' (as Denver): every condo parcel id is a unit, none recorded with a unit: its flip counts
      ...flip('unitroll', 'U1', null, 'u'),
      // 'coops' (as NYC): lot L1 carries apartments 1A and 2B, so its unit-less sales name the building: left out
      ...flip('coops', 'L1', null, 'c'),
      ...flip('coops', 'L1', '1A', 'd'),
      { id: 'e1', source: 'coops', zip: null, city: 'Denver', state: 'CO', date: '2019-02-01', price: 300000, investor: false, parcel: 'L1', unit: '2B', type: 'condo' },
    ]);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    expect(await ctx.rows(`select source, parcel_names_unit from int_market_unit_parcels order by source`)).toEqual([
      { source: 'coops', parcel_names_unit: false }, { source: 'unitroll', parcel_names_unit: true }]);
    expect(await ctx.rows(`select sale_id from int_market_resales where is_investor_flip order by sale_id`)).toEqual([{ sale_id: 'd2' }, { sale_id: 'u2' }]);
    const [row] = await ctx.rows(`select flips from mart_investor where city_slug = 'denver' and months = 12`);
    expect(row).toEqual({ flips: '2' });
  });

  test('no distress source -> pipeline null; confidence counts only sales with a known buyer and filings', async () => {
    // Seattle: 60 arm's-length sales, no buyer names, no filings anywhere; Erie PA: 6 known buyers (a rate needs 5), filings only long ago
    await sales([
      // (two sources: a window ends where its city's sources end)
      ...Array.from({ length: 60 }, (_, i) => ({ id: `s${i}`, source: 'kc', zip: null, city: 'Seattle', state: 'WA', date: '2015-05-01', price: 400000, investor: null })),
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ id: `e${i}`, source: 'erie', zip: null, city: 'Erie', state: 'PA', date: '2022-06-01', price: 150000, investor: i === 0 })),
    ]);
    await ctx.db.run(`insert into distress (distress_id, source, parcel_id, city, state_code, kind, filing_date) values
      ('d1', 'foreclosures', 'X', 'Erie', 'PA', 'pre_foreclosure', '2019-01-01'), ('d2', 'foreclosures', 'Y', 'Erie', 'PA', 'pre_foreclosure', '2022-05-01')`);
    await run(ctx, ...INTERMEDIATE, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    const rows = await ctx.rows(`select city, months, investor_purchase_rate_pct as rate, distressed_pipeline_count as pipeline, confidence, sample_count,
        arms_length_sales, known_buyer_sales from mart_investor where months in (3, 24) order by city, months`);
    expect(rows).toEqual([
      // covered city: a window without filings is a real 0; the 24-month window holds the 2022 filing, not the 2019 one
      { city: 'Erie', months: 3, rate: expect.closeTo(100 / 6, 6), pipeline: '1', confidence: 'low', sample_count: '7', arms_length_sales: '6', known_buyer_sales: '6' },
      { city: 'Erie', months: 24, rate: expect.closeTo(100 / 6, 6), pipeline: '1', confidence: 'low', sample_count: '7', arms_length_sales: '6', known_buyer_sales: '6' },
      // 60 sales, but every figure that needs buyers or filings is unknown: low, not high
      { city: 'Seattle', months: 3, rate: null, pipeline: null, confidence: 'low', sample_count: '0', arms_length_sales: '60', known_buyer_sales: '0' },
      { city: 'Seattle', months: 24, rate: null, pipeline: null, confidence: 'low', sample_count: '0', arms_length_sales: '60', known_buyer_sales: '0' },
    ]);
    // the distress count's window ends where the distress source ends (review 15): without d2 its last filing is
    // 2019-01-01, so the 3 months to 2019-01-01 hold d1, whatever the sales' end (2022-06-01)
    await ctx.db.run(`delete from distress where distress_id = 'd2'`);
    await run(ctx, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    expect(await ctx.rows(`select distressed_pipeline_count as p, strftime(distress_as_of, '%Y-%m-%d') as d from mart_investor where city = 'Erie' and months = 3`))
      .toEqual([{ p: '1', d: '2019-01-01' }]);
    // a covered city's window with no filing reports 0: the source runs to 2022-05-01 (another city's filing), Erie's
    // own last filing is of 2019
    await ctx.db.run(`insert into distress (distress_id, source, parcel_id, city, state_code, kind, filing_date) values ('d3', 'foreclosures', 'Z', 'Scranton', 'PA', 'pre_foreclosure', '2022-05-01')`);
    await run(ctx, 'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_investor.sql');
    expect(await ctx.rows(`select distressed_pipeline_count as p from mart_investor where city = 'Erie' and months = 3`)).toEqual([{ p: '0' }]);
  });
});
