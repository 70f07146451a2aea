// Research says a month the source files do not cover whole as the trends say it (review 21 leftover): it read the
// months a source covers from the manifest's vintage, while GET /v1/market/trends reads the trends mart's per-month
// `covered` flag, so a Connecticut town (vintage "2021-2023", not month-precise) had no uncovered month in research
// ("2021-03 is outside the data") while its trends called 2021-03 not covered. Research now reads the same flag
// (market.json `covered`, live/research/coverage.ts) and the trends' own words (coveredWords). Over the shared real
// build on the suite's pinned clock; the raw rows of the two Connecticut files are read here from ../shared/data.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { coveredOf } from '../../../live/research/month-cover.ts';
import { coveredWords } from '../../../live/research/coverage.ts';
import type { StoredTrends } from '../../../live/research/price-level.ts';

const ask = askWithSalesOracle();
const GL = dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');
const Y2022 = dataFile('connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz');

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
    const march = (await ask('how many homes sold in Avon CT in March 2021')).answer;
    expect(march).toContain(`I don't have single-family sales for Avon, CT in March 2021: 2021-03 is not covered by the source files (${words}; `);
    // the months covered in part only are said too: 2021-03 among them (with 2021-04, also one raw sale)
    expect(raw.get('2021-04')).toBe(1);
    expect(march).toMatch(/; [^()]*\b2021-03 to 2021-04\b[^()]* in part only\): they hold part of the month only/);
    expect(march).not.toMatch(/outside the data/);
    const february = (await ask('how many homes sold in Avon CT in February 2021')).answer;
    expect(february).toContain(`in February 2021: no file of the source covers that month, so the data has no sales for it at all (${words}; `);
  });
});
