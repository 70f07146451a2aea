// A month with no sale at all between a sales file's solid months (warehouse/docs/market.md "Coverage of a window"):
// review 21's canonical file of NYC's two rolling-sales years (no row in 2022-04..2023-02) read 549 of 549 days covered
// at 18 months, confidence high, and "2022-12 has 0 sales" in the trends, where the native build (two files) says the
// months are not covered. A dip is a season, but an empty month is a hole in the file when the file's typical month
// makes 0 improbable: Poisson chance of 0 at a quarter of the file's median month under 1% (a median of 19 sales a
// month and more); a tiny county's empty month (8 a month) stays a true 0. Over a small canonical folder through the
// sources stage, the canonical adapter and the arm's-length flags, then the coverage, comps and trends steps, in DuckDB.
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, sale } from '../helpers/canonical-sources.ts';
import { run } from '../helpers/market-fixtures.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { run as runTrends } from '../../pipelines/marts/30_mart_market_trends.ts';
import type { TestContext } from '../helpers/context.ts';

afterAll(removeTmpDirs);

const month = (from: string, k: number): string => { const d = new Date(`${from}-01T00:00:00Z`); d.setUTCMonth(d.getUTCMonth() + k); return d.toISOString().slice(0, 7); };
const months = (from: string, n: number): string[] => Array.from({ length: n }, (_, k) => month(from, k));

/** A canonical sales.csv with `perMonth` sfr sales in each month of `filled` (days 1..28, one address each, zip 98101). */
function file(filled: string[], perMonth: number): string {
  const lines = filled.flatMap((m, k) => Array.from({ length: perMonth }, (_, i) =>
    sale({ address: `${k * 100 + i + 1} PINE ST`, sale_date: `${m}-${String(1 + (i % 28)).padStart(2, '0')}`, sale_price: String(500000 + 100 * i), buyer_name: `BUYER ${k} ${i}`, seller_name: `SELLER ${k} ${i}` })));
  return [HEADER, ...lines].join('\n') + '\n';
}

async function build(csv: string): Promise<TestContext> {
  const { ctx } = await load(canonicalSources({ 'sales.csv': csv }));
  await run(ctx, 'pipelines/intermediate/30_market_45_sale_flags.sql', 'pipelines/intermediate/30_market_92_resales.sql', 'pipelines/intermediate/30_market_95_zip_names.sql',
    'pipelines/marts/30_mart_00_market_file_coverage.sql', 'pipelines/marts/30_mart_comps.sql', 'pipelines/marts/30_mart_market_monthly.sql');
  await runTrends(ctx);
  return ctx;
}

const coveredMonths = (ctx: TestContext): Promise<{ month: string; covered: boolean; n: number | null }[]> => ctx.rows(`select month_label as month, covered, sales_count::int as n
  from market_monthly where market_kind = 'zip' and zip = '98101' and property_type = 'sfr' order by month_no`);

describe('an empty month between solid months', () => {
  test('of a file of 40 sales a month (two years, eleven empty months between): not covered, in comps, trends and the vintage', async () => {
    const first = months('2021-04', 12), second = months('2023-03', 12), hole = months('2022-04', 11);
    const ctx = await build(file([...first, ...second], 40));
    try {
      expect(await ctx.rows(`select count(*)::int as n from sales where is_arms_length`)).toEqual([{ n: 24 * 40 }]);
      // the file's last sale is 2024-02-28; the 18-month window reaches back into the hole, and only the second year is
      // covered: 2023-03-01..2024-02-28, 365 days (before: every day of the window, 549 of 549, confidence high)
      const [c18] = await ctx.rows<{ lo: string; hi: string; days: number; asked: number; n: number; confidence: string; note: string }>(`select strftime(records_start, '%Y-%m-%d') as lo,
        strftime(records_end, '%Y-%m-%d') as hi, records_days::int as days, window_days::int as asked, sample_count::int as n, confidence, note
        from mart_comps where zip = '98101' and property_type = 'sfr' and months = 18`);
      expect(c18).toMatchObject({ lo: '2023-03-01', hi: '2024-02-28', days: 365, n: 12 * 40 });
      expect(c18!.asked).toBeGreaterThan(365);
      expect(c18!.confidence).not.toBe('high');
      expect(c18!.note).toContain(`sales records cover 2023-03-01 to 2024-02-28 only, 365 of the ${c18!.asked} days asked`);
      const m = await coveredMonths(ctx);
      expect(m.filter((x) => hole.includes(x.month)).map((x) => x.covered)).toEqual(hole.map(() => false));
      expect(m.filter((x) => x.covered).map((x) => x.month)).toEqual([...first, ...second]);
      // the source's months as the manifest and the answers' source.vintage say them (the research reads them there)
      expect(await ctx.rows(`select source, vintage from int_market_source_vintage`)).toEqual([{ source: 'canonical', vintage: '2021-04..2022-03, 2023-03..2024-02' }]);
    } finally { ctx.close(); }
  });

  // the threshold: a quarter of the median month, Poisson chance of 0 under 1% (exp(-n/4) < 0.01: n >= 19)
  for (const [perMonth, covered] of [[8, true], [18, true], [19, false]] as const) {
    test(`of a file of ${perMonth} sales a month: ${covered ? 'covered, a true 0' : 'not covered'}`, async () => {
      const filled = months('2023-01', 12).filter((m) => m !== '2023-06');
      const ctx = await build(file(filled, perMonth));
      try {
        const june = (await coveredMonths(ctx)).find((x) => x.month === '2023-06');
        expect(june?.covered ?? false).toBe(covered);
        expect(await ctx.rows(`select vintage from int_market_source_vintage`)).toEqual([{ vintage: covered ? '2023-01..2023-12' : '2023-01..2023-05, 2023-07..2023-12' }]);
      } finally { ctx.close(); }
    });
  }
});
