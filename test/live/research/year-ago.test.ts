// Review r16b's year-back findings (B7, B9, C17), over the shared real build on the suite's pinned clock: "compared to
// a year ago" is the 12-month change beside the level, or why there is none; a follow-up naming only a period or a year
// back reads the context's place; "last yr" is the 12 months to the data's latest sale, said. Expected figures are our
// own SQL over the canonical tables (oracle_arms: the arm's-length rule re-derived, oracle-research-market.ts) and the
// raw New York City files (their BOROUGH column).
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle, researchData, withoutCoverage } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { ResearchEngine } from '../../../live/research/endpoint.ts';

const ask = askWithSalesOracle();
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const followUp = (query: string, context: Record<string, string>) => new ResearchEngine(researchData(), null, PINNED_TODAY).answer({ query, depth: 'quick', context });

/** One month's arm's-length sales and median (oracle_arms) of a city or a zip, and the first month of its sales. */
async function monthOf(m: { st?: string; city?: string; zip?: string }, month: string): Promise<{ n: number; median: number; first: string }> {
  const where = m.zip ? `zip = '${m.zip}'` : `state_code = '${m.st}' and lower(city) = lower('${m.city}')`;
  const [r] = await sql<{ n: number; median: number; first: string }>(`select count(*) filter (where strftime(sale_date, '%Y-%m') = $month and property_type = 'sfr')::int as n,
    quantile_cont(sale_price, 0.5) filter (where strftime(sale_date, '%Y-%m') = $month and property_type = 'sfr') as median,
    strftime(min(sale_date), '%Y-%m') as first from oracle_arms where ${where}`, { month });
  return { n: r!.n, median: Number(r!.median), first: r!.first };
}

describe('"compared to a year ago" is the 12-month change, or why there is none', () => {
  it('Seattle and 98125: the level, and no 12-month change since the data starts 2014-05 (raw), as "appreciation yoy" says', async () => {
    const s = await monthOf({ st: 'WA', city: 'Seattle' }, '2015-04');
    const r = await ask('seattle home prices compared to a year ago');
    expect(r.answer).toContain(`the median single-family sale price was ${usd(s.median)} in 2015-04 (${s.n} sales); there is no 12-month index change: the data does not reach back that far (its first sales are in ${s.first})`);
    const z = await monthOf({ zip: '98125' }, '2015-04');
    expect((await ask('98125 median price compared to a year ago')).answer).toContain(`${usd(z.median)} in 2015-04 (${z.n} sales); there is no 12-month index change: the data does not reach back that far (its first sales are in ${z.first})`);
  });
  it('"denver median price compared to last year": the 12-month window and its index change, not the level alone', async () => {
    const w = await windowSalesOracle({ state: 'CO', city: 'Denver' }, 'sfr', 12);
    const r = await ask('denver median price compared to last year');
    expect(withoutCoverage(r.answer)).toContain(`the median of the ${w.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${w.asOf} was ${usd(w.median!)}`);
    expect(r.answer).toMatch(/index changed [+-][\d.]+% over the 12 months to 2019-\d\d/);
  });
});

describe('a follow-up with a period reads the context\'s place', () => {
  it('"Is that higher than a year ago?" {zip 98103}: its level and why no 12-month change', async () => {
    const z = await monthOf({ zip: '98103' }, '2015-04');
    const r = await followUp('Is that higher than a year ago?', { zip: '98103' });
    expect(r.answer).toContain('Reading the follow-up as the sale prices of zip 98103 (the context\'s place)');
    expect(r.answer).toContain(`the median single-family sale price was ${usd(z.median)} in 2015-04 (${z.n} sales); there is no 12-month index change`);
  });
  it('"how does it compare to 2021" {Brooklyn}: Brooklyn\'s 2021 (raw 2021-04..2022-03 file, BOROUGH 3)', async () => {
    const f = dataFile('nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz');
    const [b] = await sql<{ n: number }>(`with raw as (select row_number() over () + 1 as line, "BOROUGH" as b from read_csv('${f}', all_varchar = true))
      select count(*)::int as n from oracle_arms s join raw on s.line = raw.line where s.source = 'nyc' and s.file like '%2021-04_2022-03%'
      and raw.b = '3' and s.property_type = 'sfr' and year(s.sale_date) = 2021`);
    for (const [q, ctx] of [['how does it compare to 2021', { city: 'Brooklyn', state: 'NY' }], ['and compared to 2021?', { city: 'Brooklyn', state: 'NY' }]] as const) {
      const r = await followUp(q, ctx);
      expect(r.answer, q).toContain(`In Brooklyn, NY, in 2021 there were ${b!.n.toLocaleString('en-US')} arm's-length single-family sales`);
    }
  });
});

describe('"last yr" is the 12 months to the data\'s latest sale, said', () => {
  it('"whats the avg sale in philly last yr": the median of the 12 months to Philadelphia\'s latest sale', async () => {
    const w = await windowSalesOracle({ state: 'PA', city: 'Philadelphia' }, 'sfr', 12);
    const r = await ask('whats the avg sale in philly last yr');
    expect(r.answer).toContain('"last yr" as the 12 months to the latest sale of each place\'s data, not the calendar year before today');
    expect(r.answer).toContain('"avg" as the median');
    expect(withoutCoverage(r.answer)).toContain(`the median of the ${w.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${w.asOf} was ${usd(w.median!)}`);
  });
});
