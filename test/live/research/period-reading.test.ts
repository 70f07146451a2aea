// Review r18's periods (C7-C10, D): a span with ISO months ("between 2014-07 and 2014-09", "2014-10 to 2015-03"), a
// start month ("since october 2014"), a quarter written "1Q15", period words not read (said, never replaced), a month
// with no year, and follow-ups naming a month with the context's period. Over the shared real build on the suite's
// pinned clock; expected figures are our own SQL over the raw King County file in ../shared/data (every record of it is
// an arm's-length single-family sale in the build: its months' counts are the raw rows) and the canonical tables
// (oracle_arms, oracle-research-market.ts) for the other places.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';

const ask = askWithSalesOracle();
const count = (n: number): string => n.toLocaleString('en-US');
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** The raw King County file's sales of a zip from `from` to `to` (YYYY-MM, inclusive): count and median. */
async function kc(zip: string, from: string, to: string): Promise<{ n: number; median: number }> {
  const [r] = await sql<{ n: number; median: number }>(`select count(*)::int as n, quantile_cont(price::double, 0.5) as median
    from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
    where zipcode = $zip and strftime(strptime(left(date, 8), '%Y%m%d'), '%Y-%m') between $from and $to`, { zip, from, to });
  return { n: r!.n, median: Number(r!.median) };
}

describe('a span or a start written with ISO months or a month word is those months (C7-C9)', () => {
  it('"between 2014-07 and 2014-09" is July to September 2014, not all of 2014', async () => {
    const s = await kc('98103', '2014-07', '2014-09'), y = await kc('98103', '2014-01', '2014-12');
    expect(s.n).toBeLessThan(y.n);
    const r = (await ask('median sale price in 98103 between 2014-07 and 2014-09')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), from July to September 2014 there were ${count(s.n)} arm's-length single-family sales (2014-07 to 2014-09)`);
    expect(r).not.toContain(`${count(y.n)} arm's-length`);
  });
  it('"2014-10 to 2015-03" is October 2014 to March 2015, not October 2014 alone', async () => {
    const s = await kc('98103', '2014-10', '2015-03'), oct = await kc('98103', '2014-10', '2014-10');
    const r = (await ask('median price 98103 2014-10 to 2015-03')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), from October 2014 to March 2015 there were ${count(s.n)} arm's-length single-family sales (2014-10 to 2015-03)`);
    expect(r).not.toContain(`in October 2014 there were ${count(oct.n)}`);
  });
  it('"since october 2014" runs from 2014-10 to the data\'s end, not since January 2014', async () => {
    const s = await kc('98103', '2014-10', '2099-12'), all = await kc('98103', '2014-01', '2099-12');
    expect(s.n).toBeLessThan(all.n);
    const r = (await ask('median price in 98103 since october 2014')).answer;
    expect(r).toContain(`In zip 98103 (Seattle, WA), since October 2014 there were ${count(s.n)} arm's-length single-family sales (2014-10 to 2015-05)`);
  });
});
