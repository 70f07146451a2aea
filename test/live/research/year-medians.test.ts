// One year asked is answered with the median of all of that year's arm's-length sales together (market.json `years`,
// live/research/year-medians-build.ts, said by year-facts.ts), checked against the research oracle's own arm's-length
// sales (oracle_arms, the rule re-derived over the canonical tables; a New York City borough read from the raw
// rolling-sales files' BOROUGH column). Before, every such answer said "a median over all of those sales together is
// not kept". A quarter keeps the monthly medians only and still says so.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { sql } from '../../helpers/oracle-research.ts';

const ask = askWithSalesOracle();
const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const count = (n: number): string => n.toLocaleString('en-US');

/** The year's median clause as the answer says it, from the oracle's sales of the year: the sales of its months with
 *  fewer than 5 (no monthly count kept) said apart. */
async function yearClause(m: Parameters<typeof salesOf>[0], type: string, noun: string, year: number): Promise<string> {
  const o = await salesOf(m, type, `${year}-01`, `${year}-12`);
  expect(o.median).not.toBeNull();
  const thin = o.n - o.n5;
  // 1-4 such sales are said "fewer than 5" (the minimum cohort)
  const said = thin > 0 && thin < 5 ? 'fewer than 5 sales' : `${count(thin)} sales`;
  return `the median sale price of all ${count(o.n)} arm's-length ${noun} sale${o.n === 1 ? '' : 's'} of ${year} the data holds, taken together, was ${money(o.median!)}${thin ? ` (${said} of them in months with fewer than 5 sales, which the monthly counts leave out)` : ''}`;
}

describe('a year asked: the median of its sales together', () => {
  it.each([
    ['median home price seattle 2014', { st: 'WA', city: 'Seattle' }, 'sfr', 'single-family', 2014],
    ['median price 98103 in 2014', { zip: '98103' }, 'sfr', 'single-family', 2014],
    ['condo prices in brooklyn 2023', { borough: 3 }, 'condo', 'condo', 2023],
    ['median sale price queens 2021', { borough: 4 }, 'sfr', 'single-family', 2021],
    ['median price philadelphia 2022', { st: 'PA', city: 'Philadelphia' }, 'sfr', 'single-family', 2022],
    ['median price in bellevue wa since 2015', { st: 'WA', city: 'Bellevue' }, 'sfr', 'single-family', 2015],
  ] as const)('%s', async (query, market, type, noun, year) => {
    const a = (await ask(query)).answer;
    expect(a).toContain(await yearClause(market, type, noun, year));
    expect(a).not.toContain('together is not kept');
  });

  it('Philadelphia 2022 counts the sales of its thin months in the year, and says how many', async () => {
    const o = await salesOf({ st: 'PA', city: 'Philadelphia' }, 'sfr', '2022-01', '2022-12');
    expect(o.n - o.n5).toBeGreaterThan(0); // the raw sample has 2022 months with 1-4 sales (January to April)
    expect((await ask('median price philadelphia 2022')).answer).toContain(`${count(o.n - o.n5)} sales of them in months with fewer than 5 sales`);
  });

  it('a zip whose 2014 thin months hold 1-4 sales says "fewer than 5", never the count (the minimum cohort)', async () => {
    // King County zips whose 2014 months with 1-4 single-family sales hold 1-4 sales in all
    const rows = await sql<{ zip: string }>(`
      with m as (select zip, strftime(sale_date, '%Y-%m') as mo, count(*) as n from oracle_arms
                 where source = 'king_county' and property_type = 'sfr' and year(sale_date) = 2014 and zip is not null group by all)
      select zip from m group by zip having sum(n) filter (where n < 5) between 1 and 4 and sum(n) >= 5 order by zip limit 3`);
    expect(rows.length).toBeGreaterThan(0);
    for (const { zip } of rows) {
      const a = (await ask(`median price ${zip} in 2014`)).answer;
      expect(a, zip).toContain(await yearClause({ zip }, 'sfr', 'single-family', 2014));
      expect(a, zip).toContain('(fewer than 5 sales of them in months with fewer than 5 sales');
    }
  });

  it('each of two years compared gets its own median', async () => {
    const a = (await ask('median price seattle 2014 vs 2015')).answer;
    expect(a).toContain(await yearClause({ st: 'WA', city: 'Seattle' }, 'sfr', 'single-family', 2014));
    expect(a).toContain(await yearClause({ st: 'WA', city: 'Seattle' }, 'sfr', 'single-family', 2015));
  });

  it('two places compared over one year are ranked by each one\'s year median, said so', async () => {
    const a = (await ask('seattle vs bellevue median price 2014')).answer;
    const s = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2014-01', '2014-12'), b = await salesOf({ st: 'WA', city: 'Bellevue' }, 'sfr', '2014-01', '2014-12');
    const [hi, lo] = s.median! > b.median! ? [['Seattle', s], ['Bellevue', b]] as const : [['Bellevue', b], ['Seattle', s]] as const;
    expect(a).toContain(`so ${hi[0]}, WA is the more expensive (${money(hi[1].median!)}, the median of its 2014 sales together)`);
    expect(a).toContain(`${lo[0]}, WA ${count(lo[1].n5)} sales in 2014`);
    expect(a).not.toContain('the middle of its monthly medians');
  });

  it('a quarter keeps the monthly medians and says the months together are not kept', async () => {
    const a = (await ask('median price in seattle q3 2014')).answer;
    const q = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2014-07', '2014-09');
    expect(a).toContain(`in Q3 2014 there were ${count(q.n5)} arm's-length single-family sales`);
    expect(a).toContain('a median over all of those sales together is not kept');
    expect(a).not.toContain('taken together, was');
  });
});
