// The reviewer's research questions (findings 2-7 of the fifth research round), answered over the shared real build
// and checked against figures recomputed here from the warehouse's canonical tables (test/helpers/oracle-research-market.ts:
// our own arm's-length rule, never the marts, shards or market.json): a window asked, condo sales without living areas,
// Connecticut's all-residential months, sales counts, foreclosure counts, a zip's county, and what stays missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { DONT_HAVE, researchData } from '../../helpers/research.ts';
import { closeResearchOracle, openResearchOracle, sql } from '../../helpers/oracle-research.ts';
import { cityMonthPpsfOracle, investorOracle, windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let engine: ResearchEngine;
const ask = async (query: string, depth: 'quick' | 'deep' = 'quick', context?: Record<string, string>) =>
  engine.answer({ query, depth, ...(context ? { context } : {}) });
const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const count = (n: number): string => n.toLocaleString('en-US');

beforeAll(async () => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  await openResearchOracle(buildDir());
  await windowSalesOracle({ zip: '98103' }, 'sfr', 12); // makes the oracle's arm's-length table (oracle_arms) the SQL below reads
});
afterAll(() => closeResearchOracle());

describe('finding 2: a window asked, and figures of different months', () => {
  it('answers the median over the months asked, not a stale month called the latest solid one', async () => {
    const w = await windowSalesOracle({ zip: '11215' }, 'sfr', 3);
    expect(w.n).toBeGreaterThanOrEqual(5);
    const r = await ask("What's the median price in 11215 over the last 3 months?");
    expect(r.answer).toContain(`${count(w.n)} arm's-length single-family sales in the 3 months to ${w.asOf}`);
    expect(r.answer).toContain(money(w.median!));
    const deep = await ask("What's the median price in 11215 over the last 3 months?", 'deep');
    expect(deep.answer).not.toMatch(/latest complete month with 20 or more sales/);
    // a borough's window is its own sales (market.json keeps the city parts' windows; the count against its own oracle:
    // review-6.test.ts finding 1), never the whole city's
    const nyc = await windowSalesOracle({ state: 'NY', city: 'New York' }, 'sfr', 6);
    const b = await ask('home prices in Brooklyn over the last 6 months');
    expect(b.answer).toMatch(new RegExp(`^In Brooklyn, NY, the median of the [\\d,]+ arm's-length single-family sales in the 6 months to ${nyc.asOf}`));
    expect(b.answer).not.toContain(`${count(nyc.n)} arm's-length`);
    expect(b.answer).not.toMatch(/none is kept for Brooklyn alone/);
  });

  it('a comparison names each figure\'s month, with that month\'s sales, and says when the months differ', async () => {
    const r = await ask('compare Hartford and New Haven sale prices');
    // each figure names its month and that month's sales, or the recent months pooled (a stale month: windows.test.ts)
    const said = [...r.answer.matchAll(/(Hartford|New Haven), CT \$[\d,]+ \((?:(\d{4}-\d{2}), ([\d,]+) sales?|([\d,]+) sales, (\d+) months to ([\d-]+))\)/g)];
    expect(said.map((m) => m[1])).toEqual(['Hartford', 'New Haven']);
    for (const [, city, month, n, pooled, months, asOf] of said) {
      if (month) {
        const [row] = await sql<{ n: number }>(`select count(*)::int as n from oracle_arms where state_code = 'CT' and lower(city) = lower($city)
          and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = $month`, { city: city!, month: month! });
        expect(row!.n).toBe(Number(n!.replace(/,/g, '')));
      } else {
        const w = await windowSalesOracle({ state: 'CT', city: city! }, 'sfr', Number(months));
        expect([w.n, w.asOf]).toEqual([Number(pooled!.replace(/,/g, '')), asOf]);
      }
    }
    expect(/different (months|periods)/.test(r.answer)).toBe(new Set(said.map((m) => m[2] ?? `${m[5]}|${m[6]}`)).size > 1);
  });
});

describe('finding 3: condo sales without a living area', () => {
  it('says the sales have no area (not that there are fewer than 5), with their median sale price', async () => {
    const w = await windowSalesOracle({ zip: '10023' }, 'condo', 6);
    expect(w.n).toBeGreaterThan(5);
    expect(w.withArea).toBeLessThan(5);
    const r = await ask('condo price per square foot in 10023');
    expect(r.answer).not.toMatch(/fewer than 5/);
    expect(r.answer).toContain(`${count(w.n)} arm's-length condo sales in the 6 months to ${w.asOf}`);
    expect(r.answer).toMatch(/no price per sqft/);
    expect(r.answer).toContain(money(w.median!));
  });

  it('answers "condo prices in 10023" with a condo sale price', async () => {
    const r = await ask('condo prices in 10023');
    expect(r.answer).not.toMatch(DONT_HAVE);
    expect(r.answer).toMatch(/median condo sale price was \$[\d,]+ in \d{4}-\d{2}/);
  });
});

describe('finding 4: Connecticut\'s 2022 file has no residential subtype', () => {
  it('says a Stamford "single-family" figure of those months is all residential sales', async () => {
    const r = await ask('average sale price of homes in Stamford CT');
    const month = /in (\d{4}-\d{2}) \(/.exec(r.answer)?.[1];
    expect(month).toBeDefined();
    const [row] = await sql<{ n: number }>(`select count(*)::int as n from sales where state_code = 'CT' and lower(city) = 'stamford'
      and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = $month and file in (select distinct file from stg_connecticut__sales_2022)`, { month: month! });
    // the note is said exactly when the month holds records of that file
    expect(/all residential sales/.test(r.answer)).toBe(row!.n > 0);
    expect(row!.n).toBeGreaterThan(0);
    expect(r.confidence).toBe('low');
  });
});

describe('finding 5: answerable questions answered', () => {
  it('counts the homes sold in a zip or a city over the window asked (12 months for "last year")', async () => {
    for (const [q, m] of [['How many single family homes sold in 98103 in the last 12 months?', { zip: '98103' }],
      ['How many homes sold in zip 98052 in the last year?', { zip: '98052' }],
      ['How many homes sold in Seattle last year?', { state: 'WA', city: 'Seattle' }]] as const) {
      const w = await windowSalesOracle(m, 'sfr', 12);
      const r = await ask(q);
      expect(r.answer, q).toContain(`${count(w.n)} arm's-length single-family sales in the 12 months to ${w.asOf}`);
    }
  });

  it('answers price questions phrased plainly, by zip pair, "tell me about" and "cheaper than"', async () => {
    for (const q of ['how much is a house in bellevue wa', 'how much is a 3 bedroom house in bellevue wa', 'Compare 98103 and 98117',
      // (19103, Center City, sells condominium units: its few single-family sales give no monthly median)
      'Is 19147 cheaper than 19146?', 'Tell me about 19146', 'tell me about Philly']) {
      const r = await ask(q);
      expect(r.answer, q).not.toMatch(/I don't have data that answers this question/);
      expect(r.answer, q).toMatch(/\$[\d,]+/);
    }
    expect((await ask('how much is a 3 bedroom house in bellevue wa')).answer).toMatch(/not break sale prices down by bedroom/);
  });

  it('reads LLC buyers as the investor share, and gives a city\'s price per sqft from its own monthly figure', async () => {
    const rate = await investorOracle('CO', 'Denver', 12);
    expect(rate).not.toBeNull();
    const llc = (await ask('What percent of Denver buyers are LLCs?')).answer;
    expect(llc).toContain(`${rate}%`);
    expect(llc).toMatch(/LLCs alone are not counted apart/);
    const p = await cityMonthPpsfOracle('CO', 'Denver', 'sfr');
    expect(p).not.toBeNull();
    for (const q of ['What is the average price per square foot in Denver CO?', 'Denver price per sqft']) {
      expect((await ask(q)).answer, q).toContain(`${money(p!.median)} per sqft in ${p!.month}`);
    }
  });

  it('compares the zips of a county named for a per-zip topic, and names the highest', async () => {
    // every zip of King County (53033) by the gazetteer's county, its sfr comps over the 6 months to its latest sale
    const [top] = await sql<{ zip: string; median: number }>(`
      with z as (select zip from zips where county_fips = '53033'),
      e as (select a.zip, max(a.sale_date) as window_end from oracle_arms a join z using (zip) group by a.zip)
      select s.zip, quantile_cont(s.sale_price / s.sqft, 0.5) as median
      from oracle_arms s join e using (zip)
      where s.property_type = 'sfr' and s.sqft > 0 and s.sale_date > e.window_end - interval 6 month
      group by s.zip having count(*) >= 5 order by median desc limit 1`);
    const r = await ask('Which zip in King County has the highest price per square foot?');
    expect(r.answer).toContain(`to ${money(top!.median)} (zip ${top!.zip})`);
    expect(r.answer).toMatch(/^In King County, WA, \d+ zips/);
  });

  it('ranks the cities whose sales carry buyer names by investor purchase rate, and says the others are unknown', async () => {
    // the cities with any arm's-length sale of a known buyer (the rate is unknown elsewhere), by our own classifier's flags
    const cities = await sql<{ st: string; city: string }>(`select distinct state_code as st, city from oracle_arms
      where buyer_is_investor is not null and city is not null order by 1, 2`);
    expect(cities.length).toBeGreaterThan(0);
    const rates = await Promise.all(cities.map(async (c) => ({ ...c, rate: await investorOracle(c.st, c.city, 12) })));
    rates.sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1));
    const r = await ask('Which city has the highest investor purchase rate?');
    expect(r.answer).toContain(`known only for the ${cities.length} ${cities.length === 1 ? 'city' : 'cities'} whose sales records carry buyer names`);
    expect(r.answer).toContain(`the highest is ${rates[0]!.city}, ${rates[0]!.st} ${rates[0]!.rate}%`);
    expect(r.answer).toMatch(/every other city's share is unknown/);
  });

  it('a ranking of places it does not hold says what is missing, not "name a state"', async () => {
    for (const q of ['Which state has the highest median home price?', 'Which city has the most rehab activity?']) {
      const r = await ask(q);
      expect(r.answer, q).toMatch(/don't have a ranking of cities or zips/);
      expect(r.answer, q).not.toMatch(/name a state/);
    }
  });
});

describe('finding 6: the figure asked, or that it is missing', () => {
  it('says days on market is not recorded for a King County zip', async () => {
    const [row] = await sql<{ n: number }>(`select count(list_date)::int as n from sales where zip = '98103'`);
    expect(row!.n).toBe(0);
    expect((await ask('days on market in 98103')).answer).toMatch(/no days-on-market figure/);
  });

  it('answers foreclosure and lien counts from the distress filings', async () => {
    for (const [q, st, city] of [['foreclosure pipeline in Pittsburgh', 'PA', 'Pittsburgh'], ['How many foreclosures are in Pittsburgh?', 'PA', 'Pittsburgh'],
      ['How many lien foreclosures in Louisville KY?', 'KY', 'Louisville']] as const) {
      // distinct properties with a filing in the 12 months to the end of the sources covering the city, not closed by
      // then (market.md mart_investor: a Louisville case sold at the commissioner sale after the window end still counts)
      const [row] = await sql<{ n: number }>(`
        with d as (select source, filing_date, status, status_date, coalesce(source || ':' || parcel_id, source || ':' || address || '|' || coalesce(zip, ''), distress_id) as k
                   from distress where state_code = $st and lower(city) = lower($city)),
        e as (select max(filing_date) as as_of from distress where source in (select source from d))
        select count(distinct k)::int as n from d, e where filing_date > e.as_of - interval 12 month
          and (status is distinct from 'closed' or status_date > e.as_of)`, { st, city });
      const r = await ask(q);
      expect(r.answer, q).toContain(`${count(row!.n)} distressed properties`);
      expect(r.answer, q).not.toMatch(/^Mortgage foreclosure in/);
    }
  });

  it('answers the county of a zip from the geography', async () => {
    const [row] = await sql<{ f: string }>(`select county_fips as f from zips where zip = '19103'`);
    const r = await ask('What county is 19103 in?');
    expect(r.answer).toContain(`Philadelphia County, Pennsylvania (county FIPS ${row!.f})`);
  });

  it('says why a flip margin is missing; permit counts are counted (review 22: review-22-counts.test.ts)', async () => {
    const [f] = await sql<{ n: number }>(`select count(*)::int as n from int_market_resales where is_investor_flip and state_code = 'PA' and lower(city) = 'philadelphia'`);
    const r = await ask('What is the flip margin in Philadelphia?');
    if (f!.n === 0) expect(r.answer).toMatch(/no flip margin/);
    else expect(r.answer).toMatch(/gross margin|no flip margin/);
    expect((await ask('Which Chicago zip has the most renovation permits?')).answer).toMatch(/^Of the \d+ zips of Chicago, IL with permit records, \d{5} had the most renovation\/alteration permits/);
  });
});

describe('finding 7: a territory as the context state', () => {
  it('says Puerto Rico is outside coverage rather than asking for a place', async () => {
    const r = await ask('eviction notice', 'quick', { state: 'PR' });
    expect(r.answer).toMatch(/Puerto Rico/);
    expect(r.answer).toMatch(/coverage is the 50 states and DC/);
  });
});

describe('review 2, F7: New York condo figures are condominiums only, co-ops left out', () => {
  it("Queens' condo month counts no co-op sale (no more sales than the raw file's condominium and unit rows hold), and says no co-op note", async () => {
    // the note is New York's: every New York sale is the NYC rolling-sales file's
    expect(await sql<{ source: string }>(`select distinct source from sales where state_code = 'NY'`)).toEqual([{ source: 'nyc' }]);
    const a = await ask('Queens median condo price');
    const m = /median condo sale price was \$[\d,]+ in (\d{4})-(\d{2}) \(([\d,]+) sales\)/.exec(a.answer);
    expect(m, a.answer).not.toBeNull();
    const [, y, mo, n] = m!;
    // condominium classes (04 condo in elevator buildings ... 16 condos 2-10 unit mixed use) and the rows that may sell a
    // unit (11 billing lots, 02, 03, 07, 08, 14 rental buildings), at a market price; co-ops (09, 10, 17) apart
    const [raw] = await rawQuery<{ condos: number; coops: number }>(`
      select count(*) filter (where left("BUILDING CLASS CATEGORY", 2) in ('04', '12', '13', '15', '16', '11', '02', '03', '07', '08', '14'))::int as condos,
             count(*) filter (where left("BUILDING CLASS CATEGORY", 2) in ('09', '10', '17'))::int as coops
      from read_csv('${dataFile('nyc-rolling-sales/*.csv.gz')}', all_varchar = true)
      where BOROUGH = '4' and "SALE DATE" like '${y}-${mo}-%' and try_cast("SALE PRICE" as double) > 10000`);
    expect(raw!.coops).toBeGreaterThan(0);
    expect(Number(n!.replace(/,/g, ''))).toBeLessThanOrEqual(raw!.condos);
    expect(a.answer).not.toMatch(/include co-op/);
  });
});
