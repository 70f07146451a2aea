// Row contracts of every source (issue 19), the row-contract step (30_market_44_row_contracts.ts) over given rows:
// dates against the build clock, prices and areas against the bounds table of warehouse/docs/market.md "Row
// contracts" (parsed from the page, not copied), states, zips and coordinates against a tiny hand-written geography.
// The rows run through the real loader and format steps first (test/helpers/canonical-sources.ts), over a fresh DuckDB.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type TestContext, rejectsByFile } from '../helpers/context.ts';
import { HEADER, TODAY, canonicalSources, load, rejectsOf, sale } from '../helpers/canonical-sources.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { REPO } from '../helpers/paths.ts';
import { run as rowContracts } from '../../pipelines/intermediate/30_market_44_row_contracts.ts';

afterAll(removeTmpDirs);

/** The bounds table of warehouse/docs/market.md "Row contracts", read from the page. */
function documentedBounds(): Map<string, { maxPrice: number; minSqft: number; maxSqft: number }> {
  const text = fs.readFileSync(path.join(REPO, 'warehouse', 'docs', 'market.md'), 'utf8');
  const section = text.slice(text.indexOf('## Row contracts'));
  const out = new Map<string, { maxPrice: number; minSqft: number; maxSqft: number }>();
  for (const m of section.matchAll(/^\| `(\w+)` \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$/gm)) {
    const n = (s: string): number => Number(s.replaceAll(',', ''));
    out.set(m[1]!, { maxPrice: n(m[2]!), minSqft: n(m[3]!), maxSqft: n(m[4]!) });
  }
  return out;
}

/** A tiny geography written by hand: WA, OR, CA with a few ZIP centroids, and one HUD pair across a state line. */
async function handGeography(ctx: TestContext): Promise<void> {
  await ctx.db.run(`
    create or replace table states as select * from (values ('WA', '53'), ('OR', '41'), ('CA', '06')) t(state_code, state_fips);
    create or replace table zips (zip varchar, state_code varchar, lat double, lng double);
    insert into zips values ('98101', 'WA', 47.61, -122.33), ('99201', 'WA', 47.66, -117.43), ('99362', 'WA', 46.06, -118.33),
        ('97201', 'OR', 45.51, -122.69), ('95838', 'CA', 38.64, -121.44);
    -- Walla Walla's 99362 reaches into Umatilla County, Oregon (41059)
    create or replace table stg_hud_crosswalk__zip_county as select * from (values ('99362', '53071'), ('99362', '41059'), ('98101', '53033')) t(zip, county_fips);`);
}

// ---------------------------------------------------------------------------------------------------------------

describe('row contracts of every source (30_market_44_row_contracts.ts)', () => {
  test('dates against the build clock and 1900, prices and areas against the documented bounds of each type', async () => {
    const bounds = documentedBounds();
    expect([...bounds.keys()].sort()).toEqual(['commercial', 'condo', 'land', 'multi', 'sfr']);
    const { ctx } = await load(canonicalSources({ 'sales.csv': `${HEADER}\n` }));
    try {
      await handGeography(ctx);
      // rows as an adapter would insert them (any source): the documented bound itself is inside, just past it is not
      const rows: [string, string, string, number, number | null, string][] = []; // address, type, date, price, sqft, expected
      let n = 0;
      const add = (type: string, date: string, price: number, sqft: number | null, expected: string): void => { rows.push([`${++n} T ST`, type, date, price, sqft, expected]); };
      for (const [type, b] of bounds) {
        add(type, '2024-01-05', b.maxPrice, b.minSqft, 'kept');
        add(type, '2024-01-05', b.maxPrice * 1.01, 1000, 'out_of_range sale_price');
        add(type, '2024-01-05', 300000, b.maxSqft, 'kept');
        add(type, '2024-01-05', 300000, b.maxSqft + 1, 'out_of_range sqft');
        if (b.minSqft > 1) add(type, '2024-01-05', 300000, b.minSqft - 1, 'out_of_range sqft');
      }
      add('sfr', TODAY, 300000, 1000, 'kept');                       // the build's own day
      add('sfr', '2099-01-01', 300000, 1000, 'date_in_future sale_date');
      add('sfr', '1899-12-31', 300000, 1000, 'date_before_1900 sale_date');
      add('sfr', '1900-01-01', 300000, 1000, 'kept');
      add('sfr', '2024-01-05', 0, 1000, 'kept');                     // a recorded $0 transfer: flagged later, not rejected
      add('sfr', '2024-01-05', -1, 1000, 'out_of_range sale_price');
      add('sfr', '2024-01-05', Infinity, 1000, 'out_of_range sale_price');
      await ctx.db.run(`insert into sales by name select * from (values ${rows.map(([a, t, d, p, s], i) =>
        `('x:${i}', 'anysource', '${a}', 'Seattle', 'WA', '98101', date '${d}', ${Number.isFinite(p) ? p : `'infinity'::double`}, '${t}', ${s ?? 'null'}, true, '/data/x.csv', ${i + 2})`).join(', ')})
        t(sale_id, source, address, city, state_code, zip, sale_date, sale_price, property_type, sqft, is_arms_length, file, line)`);
      await ctx.db.run(`insert into meta.source_files values ('anysource', 'sales', 'x.csv', 'x', 0, ${rows.length})`);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      const got = await rejectsOf(ctx, `source = 'anysource'`);
      const expected = rows.map(([, , , , , e], i) => ({ line: i + 2, e })).filter((r) => r.e !== 'kept');
      expect(got.map((r) => ({ line: r.line, e: `${r.rule} ${r.column}` }))).toEqual(expected);
      const kept = await ctx.rows<{ line: number }>(`select line::int as line from sales order by line`);
      expect(kept.map((r) => r.line)).toEqual(rows.map((_, i) => i + 2).filter((l) => rows[l - 2]![5] === 'kept'));
    } finally { ctx.close(); }
  });

  test('states, zips and coordinates against the geography: unknown_state, unknown_zip, zip_not_in_state, outside_state', async () => {
    const lines = [HEADER,
      sale({ address: '1 OK ST' }),                                               // 2 ok: 98101 WA, inside WA's box
      sale({ address: '2 A ST', state: 'ZZ' }),                                   // 3 unknown_state
      sale({ address: '3 A ST', zip: '98199' }),                                  // 4 unknown_zip (not in the hand zips)
      sale({ address: '4 A ST', state: 'CA', lat: '38.6', lng: '-121.4' }),        // 5 zip_not_in_state: 98101 is WA
      sale({ address: '5 A ST', state: 'OR', zip: '99362', lat: '', lng: '' }),   // 6 ok: HUD puts 99362 in Oregon too
      sale({ address: '6 A ST', lat: '45.60', lng: '-120.0' }),                   // 7 ok: inside WA's box (45.56 = 46.06 - 0.5)
      sale({ address: '7 A ST', lat: '45.50', lng: '-120.0' }),                   // 8 outside_state: 45.50 < 46.06 - 0.5 = 45.56
      sale({ address: '8 A ST', lat: '48.0', lng: '-116.90' }),                   // 9 outside_state: -116.90 > -117.43 + 0.5 = -116.93
      sale({ address: '9 A ST', lat: '91', lng: '-120.0' }),                      // 10 out_of_range lat
      sale({ address: '10 A ST', sale_date: '2099-06-01' }),                      // 11 date_in_future
    ];
    const { ctx } = await load(canonicalSources({
      'sales.csv': lines.join('\n') + '\n',
      'permits.csv': 'address,zip,issue_date,permit_type,valuation,lat,lng\n1 A ST,98101,2024-01-02,renovation,5000,47.6,-122.3\n2 A ST,98101,2024-01-02,renovation,5000,38.6,-121.4\n3 A ST,98101,2024-01-02,renovation,6000000000,,\n',
    }));
    try {
      await handGeography(ctx);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      const got = await rejectsByFile(ctx);
      expect(got).toEqual([
        { file: 'permits.csv', line: 4, rule: 'out_of_range', column_name: 'valuation', value: '6000000000' },
        { file: 'sales.csv', line: 3, rule: 'unknown_state', column_name: 'state', value: 'ZZ' },
        { file: 'sales.csv', line: 4, rule: 'unknown_zip', column_name: 'zip', value: '98199' },
        { file: 'sales.csv', line: 5, rule: 'zip_not_in_state', column_name: 'zip', value: '98101 (state CA)' },
        { file: 'sales.csv', line: 11, rule: 'date_in_future', column_name: 'sale_date', value: '2099-06-01' },
      ]);
      // coordinates may be empty in the canonical format: wrong ones are nulled (both) and the row kept, a meta.repairs row
      expect(await ctx.rows(`select regexp_extract(file, '[^/]+$') as file, line::int as line, rule, detail from meta.repairs order by file, line`)).toEqual([
        { file: 'permits.csv', line: 3, rule: 'nulled_outside_state', detail: 'lat,lng=38.6,-121.4 (WA) -> null' },
        { file: 'sales.csv', line: 8, rule: 'nulled_outside_state', detail: 'lat,lng=45.5,-120 (WA) -> null' },
        { file: 'sales.csv', line: 9, rule: 'nulled_outside_state', detail: 'lat,lng=48,-116.9 (WA) -> null' },
        { file: 'sales.csv', line: 10, rule: 'nulled_out_of_range', detail: 'lat=91 -> null' },
      ]);
      expect(await ctx.rows(`select line::int as line, lat, lng from sales order by line`)).toEqual([
        { line: 2, lat: 47.6, lng: -122.3 }, { line: 6, lat: null, lng: null }, { line: 7, lat: 45.6, lng: -120 },
        { line: 8, lat: null, lng: null }, { line: 9, lat: null, lng: null }, { line: 10, lat: null, lng: null }]);
      expect(await ctx.rows(`select line::int as line, lat from permits order by line`)).toEqual([{ line: 2, lat: 47.6 }, { line: 3, lat: null }]);
      // the boxes: each state's ZIP centroid extent and 0.5 degree on each side (hand-computed from the zips above)
      expect(await ctx.rows(`select state_code, round(min_lat, 2) as a, round(max_lat, 2) as b, round(min_lng, 2) as c, round(max_lng, 2) as d from int_contract_state_boxes where state_code = 'WA'`))
        .toEqual([{ state_code: 'WA', a: 45.56, b: 48.16, c: -122.83, d: -116.93 }]);
    } finally { ctx.close(); }
  });

  test('without the geography the reference rules are skipped with a warning; the others still apply', async () => {
    const { ctx, warnings } = await load(canonicalSources({ 'sales.csv': [HEADER, sale({ state: 'ZZ' }), sale({ address: '2 A ST', sale_date: '2099-01-01' })].join('\n') + '\n' }));
    try {
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      expect(warnings.some((w) => w.includes('no geography'))).toBe(true);
      expect((await rejectsOf(ctx)).map(({ line, rule }) => [line, rule])).toEqual([[3, 'date_in_future']]);
    } finally { ctx.close(); }
  });
});
