// Review 30's research comparisons and wording (h58res2), over the shared real build on the suite's pinned day, each
// figure recomputed from the raw files of ../shared/data or by the research oracle's own SQL (never the build's
// output): (3) distressed counts, investor shares and comps of different periods, or counting different filings, were
// ranked ("so Pittsburgh, PA has more distressed properties (201)": mortgage filings to 2022-08 beside lien filings to
// 2016-06); (4) a city's "middle zip" figure of an even number of zips was rounded twice and named a zip's; (5) "I
// don't have that: shelton, CT has ...".
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_FILINGS, ALLEGHENY_OPEN, LOUISVILLE_FILINGS } from '../../helpers/oracle-distress.ts';
import { compsOracle, investorOracle, windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { sql } from '../../helpers/oracle-research.ts';

const answer = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await answer(query)).answer;
const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

describe('review 30 #3: figures of different periods or kinds are not ranked', () => {
  it('Pittsburgh vs Louisville foreclosures: mortgage filings beside lien filings, of different periods', async () => {
    const open = ALLEGHENY_OPEN.replace('select p.m, p.pin from', 'select p.m, p.pin, p.case_id from');
    const [p] = await rawQuery<{ n: number }>(`select count(distinct coalesce(pin, 'case:' || case_id))::int as n from ${open} where m = 'Pittsburgh'`);
    const [e] = await rawQuery<{ a: string; l: string }>(`select (select max(d) from ${ALLEGHENY_FILINGS})::varchar as a, (select max(d) from ${LOUISVILLE_FILINGS})::varchar as l`);
    const kinds = (await rawQuery<{ kind: string }>(`select distinct kind from ${LOUISVILLE_FILINGS} order by 1`)).map((r) => r.kind);
    expect(kinds).toEqual(['lien_foreclosure', 'tax_delinquent']); // Louisville's file: liens only, no mortgage foreclosure
    const a = await ask('Pittsburgh vs Louisville foreclosures');
    expect(a).toContain(`Pittsburgh, PA: ${p!.n} distressed properties`);
    expect(a).toContain("(not ranked: these figures count different records, Pittsburgh, PA's mortgage foreclosure filings beside Louisville, KY's tax-lien foreclosure and code-enforcement or vacant-property lien foreclosure filings;");
    expect(a).toContain(`they are of different periods, the 12 months to ${e!.a} and the 12 months to ${e!.l}`);
    expect(a).not.toMatch(/has more distressed|has fewer distressed/);
  });
  it('Pittsburgh vs Penn Hills: one source, one kind, one period, ranked', async () => {
    const open = ALLEGHENY_OPEN.replace('select p.m, p.pin from', 'select p.m, p.pin, p.case_id from');
    const rows = await rawQuery<{ m: string; n: number }>(`select m, count(distinct coalesce(pin, 'case:' || case_id))::int as n from ${open} where m in ('Pittsburgh', 'Penn Hills Township') group by m`);
    const n = (m: string): number => rows.find((r) => r.m === m)!.n;
    const top = n('Pittsburgh') > n('Penn Hills Township') ? `Pittsburgh, PA has more distressed properties (${n('Pittsburgh')})` : `Penn Hills Township, PA has more distressed properties (${n('Penn Hills Township')})`;
    expect(await ask('Pittsburgh vs Penn Hills foreclosures')).toContain(`, so ${top}`);
  });
  it('Denver vs Philadelphia investor purchase rate: 12 months to different days, not ranked', async () => {
    const [d, p] = await Promise.all([investorOracle('CO', 'Denver', 12), investorOracle('PA', 'Philadelphia', 12)]);
    const [dw, pw] = await Promise.all([windowSalesOracle({ state: 'CO', city: 'Denver' }, 'sfr', 12), windowSalesOracle({ state: 'PA', city: 'Philadelphia' }, 'sfr', 12)]);
    const a = await ask('Denver vs Philadelphia investor purchase rate');
    expect(a).toContain(`Denver, CO ${d}% investor purchases`);
    expect(a).toContain(`Philadelphia, PA ${p}% investor purchases`);
    expect(a).toContain(`(not ranked: these figures are of different periods, the 12 months to ${dw.asOf} and the 12 months to ${pw.asOf}`);
    expect(a).not.toContain('has the higher investor share');
  });
  it('98103 vs 19134 price per sqft: 2015 beside 2022, not ranked; 98103 vs 98117, one month, ranked', async () => {
    const [a1, b1, c1] = await Promise.all([compsOracle('98103', 'sfr', 6), compsOracle('19134', 'sfr', 6), compsOracle('98117', 'sfr', 6)]);
    const [aw, bw] = await Promise.all([windowSalesOracle({ zip: '98103' }, 'sfr', 6), windowSalesOracle({ zip: '19134' }, 'sfr', 6)]);
    expect(aw.asOf.slice(0, 7)).not.toBe(bw.asOf.slice(0, 7));
    const far = await ask('Compare 98103 and 19134 price per sqft');
    expect(far).toContain(`zip 98103 (Seattle, WA) ${money(a1.median!)}/sqft (${a1.n} sales)`);
    expect(far).toContain(`zip 19134 (Philadelphia, PA) ${money(b1.median!)}/sqft (${b1.n} sales)`);
    expect(far).toContain('(not ranked: these figures are of different periods, the 6 months to ');
    expect(far).not.toContain('is the more expensive');
    const near = await ask('Compare 98103 and 98117 price per sqft');
    const top = a1.median! > c1.median! ? `zip 98103 (Seattle, WA) is the more expensive per sqft (${money(a1.median!)}/sqft)` : `zip 98117 (Seattle, WA) is the more expensive per sqft (${money(c1.median!)}/sqft)`;
    expect(near).toContain(`, so ${top}`);
  });
});

describe('review 30 #4: the middle of an even number of zips', () => {
  it('Federal Way price per sqft: the mean of its two zips rounded once, not said to be a zip\'s', async () => {
    const figs = (await Promise.all(['98003', '98023'].map((z) => compsOracle(z, 'sfr', 6)))).map((c) => c.median!);
    const a = await ask('Federal Way price per sqft');
    expect(a).toContain('In Federal Way, WA, 2 zips had 5 or more single-family sales');
    expect(a).toContain(`${money((figs[0]! + figs[1]!) / 2)} midway between the two middle zips (their mean)`);
    expect(a).not.toContain('at the middle zip');
  });
});

describe('review 30 #5: a place\'s name after "I don\'t have that:" keeps its capital', () => {
  it('Shelton CT home sales by year', async () => {
    const [m] = await sql<{ most: number }>(`select coalesce(max(n), 0)::int as most from (select count(*) as n from oracle_arms
      where state_code = 'CT' and lower(city) = 'shelton' and property_type = 'sfr' group by date_trunc('month', sale_date))`);
    expect(m!.most).toBeLessThan(5); // no month of 5 single-family sales: the "don't have" answer
    const a = await ask('Shelton CT home sales by year');
    expect(a).toMatch(/^I don't have that: Shelton, CT has no month with 5 or more single-family sales/);
    expect(a).not.toContain('shelton');
  });
  it('a common word still starts in lower case after it', async () => {
    expect(await ask('investor activity in Texas')).toMatch(/^I don't have that: investor activity is reported per city; name a city in Texas/);
  });
});
