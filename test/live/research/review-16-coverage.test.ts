// Review 16, research: a change whose start month the source files do not cover says so with the months they cover,
// never "0 sales" (live/research/month-cover.ts), and every figure given over Connecticut's 2022 file (no residential
// subtype) says it is all residential sales, also when the change asked has none (trends-fact.ts). Expected figures
// are our own SQL over the raw files in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { CT_RATED } from '../../helpers/oracle-ct.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;

const NYC = ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'];
const CT22 = dataFile('connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz');
const CTGL = dataFile('connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');
const month = (col: string): string => `strftime(try_strptime(${col}, '%m/%d/%Y'), '%Y-%m')`;

/** The months of each NYC file (first and last sale month) as the answer names them, and the rows dated 2022-04..2023-02. */
async function nycSpans(): Promise<{ words: string; gapRows: number }> {
  const spans = await rawQuery<{ a: string; b: string }>(NYC.map((f) => `select strftime(min(try_cast("SALE DATE" as date)), '%Y-%m') as a, strftime(max(try_cast("SALE DATE" as date)), '%Y-%m') as b from read_csv('${dataFile(f)}', all_varchar = true)`).join(' union all ') + ' order by a');
  const [gap] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv([${NYC.map((f) => `'${dataFile(f)}'`).join(', ')}], all_varchar = true)
    where try_cast("SALE DATE" as date) between date '2022-04-01' and date '2023-02-28'`);
  return { words: spans.map((s) => `${s.a} to ${s.b}`).join(' and '), gapRows: gap!.n };
}

describe('a change from a month the source files do not cover', () => {
  it('Queens single-family and zip 11201 condo, 12 months: 2023-02 is in the gap between NYC\'s two files, not "0 sales"', async () => {
    const { words, gapRows } = await nycSpans();
    expect(words).toBe('2021-04 to 2022-03 and 2023-03 to 2024-02');
    expect(gapRows).toBe(0); // the files hold no row of 2022-04..2023-02: unrecorded, not empty
    for (const q of ['How have single-family prices changed in Queens, NY over the last 12 months?', 'How have condo prices changed in zip 11201 over the last 12 months?']) {
      const a = await ask(q);
      expect(a, q).toContain(`prices have no 12-month change: 2023-02 is not covered by the source files (the source files cover ${words} of the 60 months to 2024-02): no sale of it is recorded, which is not a count of 0 sales`);
      expect(a, q).not.toMatch(/had 0 sales/);
    }
  });

  it('New Canaan and Stamford, CT: 2021-09 is before the 2022 file and the head-of-file extract is thin, not "0 sales" or "1 sale"', async () => {
    // the 2022 file spans 2022-01-01..2022-09-30; the head-of-file extract's busiest month holds under a quarter of the
    // 2022 file's busiest (the build's coverage rule), so the towns' covered months are the 2022 file's
    const [span] = await rawQuery<{ a: string; b: string }>(`select ${month('min("Date Recorded")')} as a, max(${month('"Date Recorded"')}) as b from read_csv('${CT22}', all_varchar = true)`);
    const busiest = async (f: string): Promise<number> => (await rawQuery<{ n: number }>(`select max(n)::int as n from (select ${month('"Date Recorded"')} as m, count(*) as n from read_csv('${f}', all_varchar = true) group by all)`))[0]!.n;
    expect(await busiest(CTGL)).toBeLessThan(0.25 * await busiest(CT22));
    const words = `${span!.a} to ${span!.b}`;
    expect(words).toBe('2022-01 to 2022-09');
    const rows = await rawQuery<{ town: string; n: number }>(`select "Town" as town, count(*)::int as n from read_csv('${CTGL}', all_varchar = true)
      where ${month('"Date Recorded"')} = '2021-09' and "Town" in ('New Canaan', 'Stamford') group by all`);
    expect(rows.find((r) => r.town === 'New Canaan')).toBeUndefined(); // none at all in 2021-09
    expect(rows.find((r) => r.town === 'Stamford')!.n).toBeGreaterThan(0); // a few stray rows (2; 1 a residential sale)
    const canaan = await ask('How have home prices changed in New Canaan, CT?');
    expect(canaan).toContain(`prices have no 12-month change: 2021-09 is not covered by the source files (the source files cover ${words} of the 60 months to 2023-09): no sale of it is recorded, which is not a count of 0 sales`);
    const stamford = await ask('How have home prices changed in Stamford, CT?');
    expect(stamford).toContain(`prices have no 12-month change: 2021-09 is not covered by the source files (the source files cover ${words} of the 60 months to 2022-09): the 1 sale recorded in it is not the month's count`);
    for (const a of [canaan, stamford]) expect(a).not.toMatch(/had \d+ sales?, fewer than 20/);
  });
});

describe('figures of Connecticut\'s 2022 file are said to be all residential sales when the change asked is null', () => {
  it('New Canaan: the 2022-09 median and the 3-month change (2022-06 to 2022-09) are all residential sales', async () => {
    // the 2022 file's residential rows (it has no subtype), $10,000 or more, no assessment-ratio outlier (oracle-ct.ts), a
    // row recorded twice counted once
    const raw = await rawQuery<{ m: string; n: number; median: number }>(`select m, count(*)::int as n, median(p) as median from (
        select distinct ${month('"Date Recorded"')} as m, "Address", "Date Recorded", replace("Sale Amount", ',', '')::double as p
        from ${CT_RATED} where filename like '%real_estate_sales_2022-%' and not ratio_out and "Town" = 'New Canaan' and "Property Type" = 'Residential')
      where p >= 10000 and m in ('2022-06', '2022-09') group by all order by m`);
    const [jun, sep] = raw;
    expect(sep).toMatchObject({ m: '2022-09', n: 33, median: 1130000 });
    const change = (100 * (sep!.median / jun!.median - 1)).toFixed(1);
    const a = await ask('How have home prices changed in New Canaan, CT?');
    expect(a).toContain(`median sale price $${sep!.median.toLocaleString('en-US')} in 2022-09 (${sep!.n} sales); other windows: 3 months ${change}% (all of these sales come from Connecticut's 2022 sales file, which does not tell single-family homes from condos and 2-4 family houses: these figures are for all residential sales of those records)`);
  });
});
