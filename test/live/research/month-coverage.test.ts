// Research says a month the source files do not cover whole as the trends say it (review 21 leftover): it read the
// months a source covers from the manifest's vintage, while GET /v1/market/trends reads the trends mart's per-month
// `covered` flag, so a Connecticut town (vintage "2021-2023", not month-precise) had no uncovered month in research
// ("2021-03 is outside the data") while its trends called 2021-03 not covered. Research now reads the same flag
// (market.json `covered`, live/research/coverage.ts) and the trends' own words (coveredWords). Over the shared real
// build on the suite's pinned clock; the raw rows of the two Connecticut files are read here from ../shared/data.
// Review 24: a market whose sources are all partial extracts says its coverage in one short clause (coverage.ts
// extractCoverWords), its months held in part only counted when they make more than 2 runs (Hartford's 19 made 3).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { coveredOf } from '../../../live/research/month-cover.ts';
import { coveredWords } from '../../../live/research/coverage.ts';
import type { StoredTrends } from '../../../live/research/price-level.ts';
import { CT_RATED } from '../../helpers/oracle-ct.ts';

const ask = askWithSalesOracle();
const GL = dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');
const Y2022 = dataFile('connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz');

/** A town's arm's-length rows per month (YYYY-MM) in the two Connecticut files (a record listed twice once, no Non Use
 *  Code nor assessment-ratio outlier (oracle-ct.ts), $10,000 or more: market.md), and how many of them the 2022 file holds. */
async function townMonths(town: string): Promise<Map<string, { n: number; f22: number }>> {
  const rows = await rawQuery<{ m: string; n: number; f22: number }>(`
    select strftime(strptime("Date Recorded", '%m/%d/%Y'), '%Y-%m') as m, count(*)::int as n, count(*) filter (where filename like '%real_estate_sales_2022-%')::int as f22
    from (select distinct on ("Serial Number", "Date Recorded", "Address", "Sale Amount") *
          from ${CT_RATED})
    where "Town" = '${town}' and coalesce("Non Use Code", '') = '' and not ratio_out and replace("Sale Amount", ',', '')::double >= 10000 group by 1`);
  return new Map(rows.map((r) => [r.m, { n: r.n, f22: r.f22 }]));
}

/** The coverage clause of a Connecticut town from its raw months: the 60 months to its latest; whole, the months the
 *  2022 file (2022-01-01..2022-09-30, Connecticut's SOURCE.md) holds its sales in (one run, or none); in part only, its
 *  other months with sales, counted with their first and last. */
async function extractClause(town: string): Promise<{ clause: string; part: number }> {
  const raw = await townMonths(town);
  const last = [...raw.keys()].sort().at(-1)!;
  const [y, m] = last.split('-').map(Number) as [number, number];
  const first = `${m === 12 ? y - 4 : y - 5}-${String((m % 12) + 1).padStart(2, '0')}`; // 60 months to `last`
  const held = [...raw.entries()].filter(([k]) => k >= first).sort(([a], [b]) => a.localeCompare(b));
  const whole = held.filter(([, r]) => r.f22 > 0).map(([k]) => k);
  const part = held.filter(([, r]) => r.f22 === 0).map(([k]) => k);
  const wholeWords = whole.length ? `${whole[0]} to ${whole.at(-1)}` : 'no month';
  return { part: part.length, clause: `the source files, a partial extract, hold ${wholeWords} whole of the 60 months to ${last}, and ${part.length} ${whole.length ? 'other ' : ''}months between ${part[0]} and ${part.at(-1)} in part only` };
}

/** Avon's raw rows per month (YYYY-MM) in both Connecticut files. */
async function avonMonths(): Promise<Map<string, number>> {
  const rows = await rawQuery<{ m: string; n: number }>(`
    select strftime(strptime(trim("Date Recorded"), '%m/%d/%Y'), '%Y-%m') as m, count(*)::int as n from (
      select "Date Recorded", "Town" from read_csv('${GL}', all_varchar = true)
      union all select "Date Recorded", "Town" from read_csv('${Y2022}', all_varchar = true))
    where trim("Town") = 'Avon' group by 1`);
  return new Map(rows.map((r) => [r.m, r.n]));
}

describe('a month of a market is said uncovered by the trends\' own per-month flag', () => {
  it('Avon, CT: March 2021 (one raw sale, in the head-of-file extract) is not covered whole; February 2021 (none) by no file; both said with the trends\' words', async () => {
    const raw = await avonMonths();
    expect(raw.get('2021-03')).toBe(1);
    expect(raw.get('2021-02')).toBeUndefined();
    const last = [...raw.keys()].sort().at(-1)!;
    // the trends shard of Avon's single-family sales: its covered flag and the words GET /v1/market/trends says it with
    const s = await researchData().shard<StoredTrends>('trends', { state: 'CT', city: 'Avon', property_type: 'sfr' });
    expect(s).not.toBeNull();
    const c = s!.series;
    expect(c.month.at(-1)).toBe(last);
    const covered = coveredOf(c);
    for (const m of ['2021-02', '2021-03']) expect(covered[c.month.indexOf(m)], m).toBe(false);
    const words = coveredWords(c.month, covered);
    expect(words).toMatch(/^the source files cover 2022-01 to 2022-09 of the 60 months to /);
    // the answer says the coverage of Connecticut's partial extract in one clause (review 24: it listed 6 runs of
    // months covered in part only), its numbers from the raw files: 2022-01 to 2022-09 whole, 16 others in part
    const cover = await extractClause('Avon');
    expect(cover.clause).toContain('hold 2022-01 to 2022-09 whole of the 60 months to ');
    const march = (await ask('how many homes sold in Avon CT in March 2021')).answer;
    expect(march).toContain(`I don't have single-family sales for Avon, CT in March 2021: 2021-03 is not covered by the source files (${cover.clause}): they hold part of the month only`);
    expect(march).not.toMatch(/outside the data|cover none of/);
    const february = (await ask('how many homes sold in Avon CT in February 2021')).answer;
    expect(february).toContain(`in February 2021: no file of the source covers that month, so the data has no sales for it at all (${cover.clause})`);
  });

  it('Hartford, CT (no sale in the 2022 file): no month whole, its months held in part only counted, not listed', async () => {
    const cover = await extractClause('Hartford');
    expect(cover.clause).toContain('hold no month whole of the 60 months to ');
    expect(cover.part).toBeGreaterThan(12);
    const r = (await ask('how many sales in Hartford CT in 2020')).answer;
    expect(r).toContain(`in 2020: ${cover.clause}, so 2020 is outside the data`);
    const w = (await ask('median sale price in Hartford CT')).answer;
    // every month the window touches held in part only: said, none called covered (review 25)
    expect(w).toContain(`in part only, none whole: ${cover.clause})`);
    expect(w).not.toMatch(/cover none of the 60 months/);
  });
});
