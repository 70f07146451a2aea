// Bulk export, the minimum cohort rule (warehouse/docs/export.md "What a file holds", market.md mart_comps and
// mart_investor, mart_rehab): the export files of the real build hold no count of a cohort of 1-4 comps, sales, buyers
// or flips, and the numerator of a share where the share is published (rehab sales, investor purchases), the figures rounded as the answers round them, and a small comps cohort dated at its window end; read back from
// every format and set against the warehouse's full-precision marts.
// Investor `distress_filings` are recounted from the raw filing files instead (test/helpers/oracle-distress.ts openFilings).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openWarehouse, queryRows } from '../../warehouse/db.ts';
import { buildDir } from '../helpers/build.ts';
import { openFilings } from '../helpers/oracle-distress.ts';
import { slug } from '../../warehouse/layout.ts';

type Db = Awaited<ReturnType<Awaited<ReturnType<typeof openWarehouse>>['connect']>>;
/** The build's export files beside its warehouse (attached as `wh`): `readers(name)` reads one file in each format,
 *  `file(name)` is its quoted path. */
async function withExports(run: (db: Db, readers: (name: string) => string[], file: (name: string) => string) => Promise<void>): Promise<void> {
  const dir = buildDir();
  const file = (name: string): string => path.join(dir, 'export', name).replaceAll("'", "''");
  const readers = (name: string): string[] => [`read_parquet('${file(`${name}.parquet`)}')`, `read_csv('${file(`${name}.csv`)}', header = true)`, `read_json('${file(`${name}.ndjson`)}', format = 'newline_delimited')`];
  const inst = await openWarehouse(':memory:');
  const db = await inst.connect();
  try {
    await db.run(`attach '${path.join(dir, 'warehouse.duckdb').replaceAll("'", "''")}' as wh (read_only)`);
    await run(db, readers, file);
  } finally {
    db.closeSync();
    inst.close();
  }
}

describe('export files of the real build: minimum cohort', () => {
  test('minimum cohort: no count of 1-4 comps or sales in any format, percentiles rounded as the comps answer, a small cohort dated at its window end', async () => {
    await withExports(async (db, readers, f) => {
      for (const reader of readers('comps')) {
        const [r] = await queryRows<Record<string, number>>(db, `select
            -- (a CSV column with no value at all, list_to_sale_ratio since Redfin stands for no window, reads as text: cast)
            count(*) filter (where e.comp_count between 1 and 4 or e.sale_count between 1 and 4)::int as small_counts,
            count(*) filter (where e.comp_count is distinct from (case when m.comp_count >= 5 then m.comp_count end))::int as comp_count,
            count(*) filter (where e.sale_count is distinct from (case when m.sale_count >= 5 then m.sale_count end))::int as sale_count,
            count(*) filter (where e.ppsf_median is distinct from round(m.ppsf_median, 2) or e.ppsf_p25 is distinct from round(m.ppsf_p25, 2)
              or e.ppsf_p75 is distinct from round(m.ppsf_p75, 2))::int as percentiles,
            count(*) filter (where try_cast(e.dom_median as double) is distinct from round(m.dom_median, 1) or abs(try_cast(e.list_to_sale_ratio as double) - round(m.list_to_sale_ratio, 4)) > 1e-9
              or (e.list_to_sale_ratio is null) <> (m.list_to_sale_ratio is null))::int as dom_ratio,
            count(*) filter (where m.comp_count < 5 and e.as_of::date <> m.window_end)::int as small_dated,
            count(*) filter (where m.comp_count < 5 and m.comp_count > 0)::int as small_cohorts
          from ${reader} e join wh.main.mart_comps m using (zip, property_type, months)`);
        expect(r, reader).toEqual({ small_counts: 0, comp_count: 0, sale_count: 0, percentiles: 0, dom_ratio: 0, small_dated: 0, small_cohorts: r!.small_cohorts });
        expect(r!.small_cohorts, 'the real build has cohorts of 1-4 comps').toBeGreaterThan(0);
      }
      const [mm] = await queryRows<{ n: number }>(db, `select count(*)::int as n from read_parquet('${f('market_monthly.parquet')}')
        where sale_count between 1 and 4 or sqft_count between 1 and 4 or dom_count between 1 and 4 or known_buyer_count between 1 and 4 or index_sample_count between 1 and 4
          or (sale_count is null and untyped_count is not null)`);
      expect(mm!.n).toBe(0);
    });
  });

  test('investor: no count of 1-4 sales, buyers or flips in any format, no figure of such a cohort, figures rounded as the investor answer', async () => {
    const counts = ['sales_for_value', 'arms_length_sales', 'known_buyer_sales', 'flips'];
    await withExports(async (db, readers) => {
      for (const reader of readers('investor')) {
        const [r] = await queryRows<Record<string, number>>(db, `select
            count(*) filter (where ${counts.map((c) => `e.${c} between 1 and 4`).join(' or ')})::int as small_counts,
            count(*) filter (where ${counts.map((c) => `e.${c} is distinct from (case when m.${c} >= 5 then m.${c} end)`).join(' or ')})::int as counts,
            -- the rate's numerator is given where the rate is (5+ known buyers), else only at 5 or more
            count(*) filter (where e.investor_purchases is distinct from (case when m.investor_purchase_rate_pct is not null or m.investor_purchases >= 5 then m.investor_purchases end))::int as purchases,
            count(*) filter (where e.sample_count is distinct from (case when m.known_buyer_sales between 1 and 4 then null else m.sample_count end))::int as sample_count,
            count(*) filter (where (e.investor_purchase_rate_pct is not null and m.known_buyer_sales < 5)
              or ((e.flip_velocity_days is not null or e.gross_flip_margin_pct is not null) and m.flips < 5))::int as small_figures,
            count(*) filter (where e.investor_purchase_rate_pct is distinct from round(m.investor_purchase_rate_pct, 1)
              or e.flip_velocity_days is distinct from round(m.flip_velocity_days, 1) or e.gross_flip_margin_pct is distinct from round(m.gross_flip_margin_pct, 1))::int as rounding,
            count(*) filter (where m.sales_for_value between 1 and 4 or m.arms_length_sales between 1 and 4)::int as small_cohorts
          from ${reader} e join wh.main.mart_investor m using (state_code, city_slug, months)`);
        expect(r, reader).toEqual({ small_counts: 0, counts: 0, purchases: 0, sample_count: 0, small_figures: 0, rounding: 0, small_cohorts: r!.small_cohorts });
        expect(r!.small_cohorts, 'the real build has cities with 1-4 sales in a window (Connecticut towns, NYC)').toBeGreaterThan(0);
      }
    });
  });

  test('investor: distress_filings of every city and window, in every format, equal a recount of the open filings from the raw Allegheny and Louisville files', async () => {
    // (h71audit) the export keeps the count at any size (export.md); before, it was only compared with the warehouse's mart
    const raw = new Map((await openFilings(Array.from({ length: 22 }, (_, i) => i + 3))).map((r) => [`${r.state}|${slug(r.city)}|${r.months}`, r.filings]));
    expect(raw.get('PA|pittsburgh|12')).toBeGreaterThan(100);
    await withExports(async (db, readers) => {
      for (const reader of readers('investor')) {
        const rows = await queryRows<{ k: string; n: number }>(db, `select state_code || '|' || city_slug || '|' || months as k, distress_filings::int as n from ${reader}`);
        const bad = rows.filter((r) => r.n !== (raw.get(r.k) ?? 0)).map((r) => `${r.k}: ours ${r.n}, raw ${raw.get(r.k) ?? 0}`);
        const seen = new Set(rows.map((r) => r.k));
        const missing = [...raw].filter(([k, n]) => n > 0 && !seen.has(k)).map(([k, n]) => `${k}: raw ${n}, no row`);
        expect([...bad, ...missing].slice(0, 20), reader).toEqual([]);
        expect(rows.filter((r) => r.n > 0).length, reader).toBeGreaterThan(1000);
      }
    });
  }, 120_000);

  test('rehab: no count of 1-4 sales in any format, no resale share or score of 1-4 sales (market.md mart_rehab); a published share has its count beside it', async () => {
    await withExports(async (db, readers) => {
      for (const reader of readers('rehab')) {
        const [r] = await queryRows<Record<string, number>>(db, `select
            count(*) filter (where e.sales_n between 1 and 4)::int as small_counts,
            -- rehab_sales, the share's numerator, is given where the share is (5+ sales): a share beside a null count let
            -- the count be recomputed (share x sales_n) and told a reader it was hidden
            count(*) filter (where e.sales_n is distinct from (case when m.sales_n >= 5 then m.sales_n end)
              or e.rehab_sales is distinct from (case when m.rehab_sale_share is not null or m.rehab_sales >= 5 then m.rehab_sales end))::int as counts,
            count(*) filter (where e.rehab_sale_share is not null and (e.rehab_sales is null or abs(e.rehab_sale_share * e.sales_n - e.rehab_sales) > 1e-6))::int as share_without_count,
            count(*) filter (where e.sample_count is distinct from (case when m.sales_n between 1 and 4 then null else m.sample_count end))::int as sample_count,
            count(*) filter (where (e.rehab_sale_share is not null or e.resale_score is not null) and m.sales_n < 5)::int as small_figures,
            count(*) filter (where m.rehab_sales between 1 and 4 and m.rehab_sale_share is not null)::int as small_cohorts
          from ${reader} e join wh.main.mart_rehab m using (zip, months)`);
        expect(r, reader).toEqual({ small_counts: 0, counts: 0, share_without_count: 0, sample_count: 0, small_figures: 0, small_cohorts: r!.small_cohorts });
        expect(r!.small_cohorts, 'the real build has windows of 1-4 rehab sales beside a share (King County, NYC)').toBeGreaterThan(0);
      }
    });
  });
});
