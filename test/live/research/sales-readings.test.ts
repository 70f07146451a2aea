// Sales readings a reviewer flagged (h61sales), over the shared real build on the suite's pinned day, each figure
// recomputed by the research oracle's own SQL over the canonical tables (the arm's-length rule of market.md, never the
// build's flags) or from the raw files of ../shared/data: (F11) a Connecticut town's condo count over months of the
// 2022 file, which has no residential subtype, was "0"; (F6) sales asked month by month ("monthly sales in Seattle 2015",
// "sales per month in Philadelphia") got the year's total or "I don't have data", and a month recorded in part was
// measured a change from the month before while said to measure none; (F14) Denver's June 2019, short in its file, led
// with "the source's files span the whole month"; (F3) zips ranked by sales over the last N months were ranked over 12
// months by their monthly counts, which keep none for a month of 1-4 sales.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;
/** The 2022 file (listyear 2021, recorded 2022-01..2022-09): no Residential Type column. */
const FILE_2022 = '%real_estate_sales_2022-01_2022-09_listyear2021%';

/** A Connecticut town's arm's-length records of the 2022 file counted as single-family (all residential types), in the
 *  12 months to its last arm's-length sale, and its condo sales there (all from the other file). A sale recorded in both
 *  files (same address, day and price) is typed by the other file's copy, so it is not one of the 2022 file's alone. */
async function townWindow(town: string): Promise<{ asOf: string; file: number; condos: number }> {
  const w = await windowSalesOracle({ state: 'CT', city: town }, 'condo', 12);
  const [r] = await sql<{ file: number }>(`select count(*)::int as file from oracle_arms a where a.state_code = 'CT' and lower(a.city) = lower($town)
    and a.file like '${FILE_2022}' and a.property_type = 'sfr' and a.sale_date > $end::date - interval 12 month and a.sale_date <= $end::date
    and not exists (select 1 from sales s where s.source = a.source and s.file <> a.file and s.address = a.address and s.sale_date = a.sale_date and s.sale_price = a.sale_price)`, { town, end: w.asOf });
  return { asOf: w.asOf, file: r!.file, condos: w.n };
}

describe('F11: a Connecticut town\'s condos over months of the 2022 file are never "0"', () => {
  it('condo sales in Guilford CT: the file\'s residential records said, no count of 0', async () => {
    const g = await townWindow('Guilford');
    expect(g.condos).toBe(0); // no condo of the typed file in the window
    expect(g.file).toBeGreaterThan(0);
    // the town's condos, no count asked: no month of 5 condo sales, and the file's records are said to hold them
    expect(await ask('condo sales in Guilford CT')).toContain(`but ${g.file.toLocaleString('en-US')} residential sales of 2022-01 to 2022-09 come from Connecticut's 2022 sales file, which does not tell condo sales from single-family homes`);
    // a count asked: before, "Guilford, CT had 0 arm's-length condo sales in the 12 months to 2022-09-30"
    const a = await ask('how many condo sales in Guilford CT');
    expect(a).not.toMatch(/\b0 arm's-length condo sales/);
    expect(a).toContain('this is not a count of 0');
    expect(a).toContain(`what it records is ${g.file.toLocaleString('en-US')} arm's-length residential sales of all types together`);
  });
  it('a town with condos of the typed file too: the count says it is short of the 2022 file\'s', async () => {
    const s = await townWindow('Stamford');
    expect(s.file).toBeGreaterThan(0);
    const a = await ask('how many condo sales in Stamford CT');
    expect(a).toContain(`besides these, ${s.file.toLocaleString('en-US')} arm's-length residential sales of 2022-01 to 2022-09 come from Connecticut's 2022 sales file`);
    expect(a).toContain('so this figure is short of them');
  });
});

const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** A city's arm's-length single-family sales per month from `from` (YYYY-MM-DD), with their median. */
const cityMonths = (st: string, city: string, from: string): Promise<{ m: string; n: number; med: number }[]> => sql(`
  select strftime(sale_date, '%Y-%m') as m, count(*)::int as n, quantile_cont(sale_price, 0.5) as med from oracle_arms
  where state_code = $st and lower(city) = lower($city) and property_type = 'sfr' and sale_date >= $from::date group by 1 order by 1`, { st, city, from });

/** Each month of 5 or more sales is listed with its count, and its median where one is given. */
function eachListed(a: string, months: { m: string; n: number; med: number }[]): void {
  const list = a.slice(a.indexOf('month by month, the arm\'s-length sales and their median sale price: '));
  expect(list.length, a).toBeLessThan(a.length);
  for (const x of months.filter((r) => r.n >= 5)) {
    const hit = new RegExp(`${x.m} (\\$[\\d,]+ \\()?${x.n.toLocaleString('en-US')} sales`).exec(list);
    expect(hit, `${x.m}: ${list}`).not.toBeNull();
    if (hit![1]) expect(hit![1]).toBe(`${money(Number(x.med))} (`);
  }
}

describe('F6: sales asked month by month list each month', () => {
  it('monthly sales in Seattle 2015: every month of 2015 with its sales', async () => {
    eachListed(await ask('monthly sales in Seattle 2015'), await cityMonths('WA', 'Seattle', '2015-01-01'));
  });
  it('sales per month in Philadelphia (no period): the 12 months to its last month with a sale, never "I don\'t have data"', async () => {
    const months = await cityMonths('PA', 'Philadelphia', '1900-01-01');
    const last = months.at(-1)!.m;
    const twelve = months.filter((x) => x.m > `${Number(last.slice(0, 4)) - 1}${last.slice(4)}`);
    for (const q of ['sales per month in Philadelphia', 'Philadelphia sales by month']) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^In Philadelphia, PA, in the 12 months to ${last} there were ${twelve.filter((x) => x.n >= 5).reduce((s, x) => s + x.n, 0).toLocaleString('en-US')} arm's-length single-family sales`));
      eachListed(a, twelve);
    }
  });
  it('Denver month by month: June 2019, recorded in part, measures no change from May', async () => {
    const a = await ask('monthly sales in Denver');
    const june = /2019-06 [^)]*\)[^;]*/.exec(a.slice(a.indexOf('month by month')))![0];
    expect(june).toContain('recorded in part by its source, no change measured from it');
    expect(june).not.toMatch(/ on 2019-05/);
  });
});

describe('F14: a month its source recorded in part is said partial first', () => {
  it('Denver sales in June 2019', async () => {
    // every Denver record of the file by month of sale: June 2019 is under half of May's (the file ends with deeds
    // recorded 2019-07-10)
    const rows = await sql<{ m: string; n: number }>(`select strftime(sale_date, '%Y-%m') as m, count(*)::int as n from sales
      where state_code = 'CO' and lower(city) = 'denver' and sale_date >= '2019-05-01' group by 1 order by 1`);
    const n = (m: string): number => rows.find((r) => r.m === m)!.n;
    expect(n('2019-06') * 2).toBeLessThan(n('2019-05'));
    const [j] = await cityMonths('CO', 'Denver', '2019-06-01');
    expect(j!.m).toBe('2019-06');
    for (const q of ['Denver sales in June 2019', 'how many homes sold in Denver in June 2019']) {
      const a = await ask(q);
      expect(a.startsWith(`In Denver, CO, June 2019 is a partial month in this data: ${j!.n} arm's-length single-family sales recorded in it, at a median sale price of ${money(Number(j!.med))} (`), a).toBe(true);
      expect(a, q).toContain('so the count is short of the month\'s sales, and no price change is measured from it');
      expect(a, q).not.toContain('span the whole month');
    }
  });
});

describe('F3: zips ranked by sales over their latest months count every sale of the window', () => {
  it('which Bronx zips had the most sales over the last 6 months', async () => {
    // the Bronx's zips (10451-10475) with their arm's-length single-family sales in the 6 months to each one's last sale
    const zips = (await sql<{ zip: string }>(`select distinct zip from oracle_arms where zip between '10451' and '10475' order by 1`)).map((r) => r.zip);
    const rows = (await Promise.all(zips.map(async (zip) => ({ zip, n: (await windowSalesOracle({ zip }, 'sfr', 6)).n })))).filter((r) => r.n >= 5);
    rows.sort((a, b) => b.n - a.n || a.zip.localeCompare(b.zip));
    const a = await ask('which Bronx zips had the most sales over the last 6 months');
    expect(a).toContain('by arm\'s-length single-family sales in the 6 months to each zip\'s own latest sale (');
    expect(a).toContain(`the most of ${rows.length} zips with 5 or more: ${rows.slice(0, 5).map((r, i) => `${i + 1}. zip ${r.zip} (Bronx) ${r.n} sales`).join('; ')}`);
    expect(a).not.toContain('12 months');
  });
});
