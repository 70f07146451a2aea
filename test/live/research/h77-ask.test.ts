// Investor questions the h77ask sweep asked over the shared real build on the suite's pinned day, none asked by an
// earlier test (round three): short-term-rental words, neighbourhoods in lower case, period forms, several places,
// price bounds, abbreviations, county and state forms, topics no source holds and legal rules of states held or not.
// Fixed: "airbnb"/"vrbo"/"str"/"vacation rental" read as short-term rental (rental-words.ts; was a generic no-data);
// "capitol hill seattle", "germantown philadelphia" say the neighbourhood is read as the city (place-prefer.ts; the
// city's figure was unsaid, or a bare no-data); Denver's zips said zipless once (asked-notes.ts); two years compared by
// their year medians (period-change.ts; the change said such a median "is not kept" after giving it); a price bound a
// few words after "homes" said not kept (asked.ts; dropped unsaid); "sf median price 98103" single-family (sf-type.ts;
// was San Francisco's no data beside 98103); "bk" Brooklyn (place-words.ts BOROUGHS); "qoq", "mom" read (change-words.ts;
// both answered that no 12-month change exists). Already right, kept so: the rest. Every figure is re-read from the raw
// files through the oracles (test/helpers/oracle-*.ts) or legal-facts.csv, never copied from our own output.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { salesOf } from '../../helpers/oracle-research-periods.ts';
import { compsOracle, windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { openProperties } from '../../helpers/oracle-distress.ts';
import { byState } from '../../helpers/research-questions.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile } from '../../helpers/oracle-raw-comps.ts';
import { rentalWords } from '../../../live/research/rental-words.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const n = (v: number): string => v.toLocaleString('en-US');
const money = (v: number): string => `$${n(Math.round(v))}`;
const pct = (a: number, b: number): string => { const v = Math.round((b / a - 1) * 1000) / 10; return `${v > 0 ? '+' : ''}${v}%`; };
const csv = (st: string, col: string): string => (byState.get(st)?.[col] ?? '').trim();
type Where = { st?: string; city?: string; zip?: string; borough?: number };
const LEGAL_TAIL = 'This is general information from public-law reference data, not legal advice.';
const FILING_SOURCES = "this build's filing sources are Allegheny County mortgage foreclosure filings and Louisville Metro lien foreclosures, and none covers it";
const hood = (words: string, city: string): string => `Reading "${words}" as a neighbourhood of ${city}: we do not resolve neighbourhoods, so the figures are for ${city.split(',')[0]} as a whole: `;

/** A place's latest monthly median said after `lead` as "the median <type> sale price was $X in YYYY-MM (N sales)",
 *  checked against that month's arm's-length sales recomputed. */
async function monthMedianSaid(a: string, lead: string, m: Where, q: string, type = 'sfr'): Promise<void> {
  expect(a.startsWith(lead), `${q}: ${a}`).toBe(true);
  const said = /the median (?:single-family|condo) sale price was \$([\d,]+) in (\d{4}-\d{2}) \(([\d,]+) sales\)/.exec(a.slice(lead.length));
  expect(said, `${q}: ${a}`).not.toBeNull();
  const s = await salesOf(m, type, said![2]!, said![2]!);
  expect([`$${said![1]}`, said![3]], q).toEqual([money(s.median!), n(s.n)]);
}

describe('short-term rentals by another name (fixed)', () => {
  it('"airbnb rules nashville", "vrbo rules nashville", "str rules nashville", "vacation rental rules nashville": Tennessee\'s zoning record, as "short term rental rules nashville"', async () => {
    const want = await asked('short term rental rules nashville');
    expect(want.answer).toMatch(/^Zoning in Tennessee is adopted and enforced by cities, counties .*short-term-rental rules come from the local zoning code/);
    expect(want.sources.length).toBeGreaterThan(0);
    for (const q of ['airbnb rules nashville', 'vrbo rules nashville', 'str rules nashville', 'vacation rental rules nashville', 'are airbnbs allowed in nashville']) {
      const got = await asked(q);
      expect(got.answer, q).toBe(want.answer);
      expect(got.sources, q).toEqual(want.sources);
    }
    // "airbnb" as a verb with the home it lets: the rules, not the home's sale price
    const co = await ask('short term rental rules denver');
    expect(co).toMatch(/^Zoning in Colorado is adopted/);
    expect(await ask('can i airbnb my condo in denver')).toBe(co);
    // a street's "str" and the word elsewhere stay as written
    expect(rentalWords('homes on main str seattle')).toBe('homes on main str seattle');
    expect(rentalWords('123 Main Str Seattle')).toBe('123 Main Str Seattle');
    expect(rentalWords('STR regulations Seattle')).toBe('short term rental regulations Seattle');
  });
});

describe('neighbourhoods in lower case before their city (fixed)', () => {
  it('"capitol hill seattle home prices", "home prices in capitol hill, seattle", "germantown philadelphia home prices": the reading said, the city\'s figure', async () => {
    for (const [q, lead, m] of [
      ['capitol hill seattle home prices', hood('capitol hill', 'Seattle, WA'), { st: 'WA', city: 'Seattle' }],
      ['home prices in capitol hill, seattle', hood('capitol hill', 'Seattle, WA'), { st: 'WA', city: 'Seattle' }],
      ['germantown philadelphia home prices', hood('germantown', 'Philadelphia, PA'), { st: 'PA', city: 'Philadelphia' }],
      ['is park hill denver a good place to invest', hood('park hill', 'Denver, CO'), { st: 'CO', city: 'Denver' }],
    ] as const) await monthMedianSaid(await ask(q), `${lead}In ${m.city}, ${m.st}, `, m, q);
  });

  it('"capitol hill seattle", "germantown philadelphia" alone: the city\'s overview after the reading, not a bare no-data', async () => {
    for (const [q, lead, m] of [
      ['capitol hill seattle', hood('capitol hill', 'Seattle, WA'), { st: 'WA', city: 'Seattle' }],
      ['germantown philadelphia', hood('germantown', 'Philadelphia, PA'), { st: 'PA', city: 'Philadelphia' }],
    ] as const) {
      const a = await ask(q);
      expect(a, q).not.toMatch(/I don't have data that answers this question/);
      await monthMedianSaid(a, `${lead}In ${m.city}, ${m.st}, `, m, q);
    }
    // capitalised, as before: the town elsewhere named
    expect(await ask('Germantown Philadelphia home prices')).toMatch(/^Reading "Germantown" as a neighbourhood of Philadelphia, PA, not Germantown, MD: /);
    // words that are no neighbourhood stay the question's
    expect(await ask('home prices seattle')).toMatch(/^In Seattle, WA, the median single-family sale price/);
  });
});

describe('Denver\'s zips (fixed)', () => {
  it('"most expensive zip in denver": that its sales carry no zip said once, with the count recomputed', async () => {
    const a = await ask('most expensive zip in denver');
    expect(a.match(/carry no zip code in the source/g)?.length, a).toBe(1);
    const w = await windowSalesOracle({ state: 'CO', city: 'Denver' }, 'sfr', 12);
    expect(a).toBe(`I don't have a ranking of the zips of Denver, CO: its ${n(w.n)} arm's-length single-family sales in the 12 months to ${w.asOf} carry no zip code in the source, so no zip has a figure; the city-wide median sale price can be asked instead.`);
    // the note stays where the answer is the city's figure
    expect(await ask('median price by zip denver')).toContain(`No zip of Denver is given or ranked: Denver's ${n(w.n)} arm's-length single-family sales in the 12 months to ${w.asOf} carry no zip code in the source`);
  });
});

describe('two years compared (fixed)', () => {
  it('"seattle median price 2014 vs 2015", "queens home prices 2021 vs 2023": the change of each year\'s median of all its sales', async () => {
    for (const [q, m, y1, y2, where] of [
      ['seattle median price 2014 vs 2015', { st: 'WA', city: 'Seattle' }, '2014', '2015', 'Seattle, WA'],
      ['queens home prices 2021 vs 2023', { borough: 4 }, '2021', '2023', 'Queens, NY'],
    ] as const) {
      const [a, b] = [await salesOf(m, 'sfr', `${y1}-01`, `${y1}-12`), await salesOf(m, 'sfr', `${y2}-01`, `${y2}-12`)];
      const r = await ask(q);
      expect(r, q).toContain(`In ${where}, in ${y1} there were ${n(a.n5)} arm's-length single-family sales`);
      expect(r, q).toContain(`the median sale price of all ${n(a.n)} arm's-length single-family sales of ${y1} the data holds, taken together, was ${money(a.median!)}`);
      expect(r, q).toContain(`the median sale price of each year's sales taken together went from ${money(a.median!)} (${y1}, ${n(a.n)} sales) to ${money(b.median!)} (${y2}, ${n(b.n)} sales) (${pct(a.median!, b.median!)})`);
      expect(r, q).not.toContain('a median over several months together is not kept');
    }
  });
});

describe('a price bound a few words after the homes (fixed)', () => {
  it('"3 bed homes in 98103 under 500k", "homes in 98103 under 500k": the bound said not kept, the zip\'s figure', async () => {
    for (const q of ['3 bed homes in 98103 under 500k', 'homes in 98103 under 500k']) {
      await monthMedianSaid(await ask(q), 'How many sold above or below a price is not kept, only the count and median of all the sales: in zip 98103 (Seattle, WA), ', { zip: '98103' }, q);
    }
    expect(await ask('3 bed homes in 98103 under 500k')).toContain('We do not break sale prices down by bedroom count');
  });
});

describe('abbreviations (fixed)', () => {
  it('"sf median price 98103", "median sf price seattle": single-family, not San Francisco; "sf home prices" stays San Francisco', async () => {
    await monthMedianSaid(await ask('sf median price 98103'), 'Reading "sf" as single-family, not San Francisco, CA: In zip 98103 (Seattle, WA), ', { zip: '98103' }, 'sf');
    await monthMedianSaid(await ask('median sf price seattle'), 'Reading "sf" as single-family, not San Francisco, CA: In Seattle, WA, ', { st: 'WA', city: 'Seattle' }, 'sf');
    expect(await ask('sf home prices')).toMatch(/^We have no single-family sales for a median sale price in San Francisco, CA/);
  });

  it('"bk median price", "median price in bk": Brooklyn', async () => {
    for (const q of ['bk median price', 'median price in bk']) await monthMedianSaid(await ask(q), 'In Brooklyn, NY, ', { borough: 3 }, q);
  });

  it('"qoq price change seattle", "mom price change seattle", "month over month ...": the 3 months\' change, said; never "no 12-month change"', async () => {
    const three = await ask('3 month price change seattle');
    expect(three).toMatch(/^In Seattle, WA, the single-family median-price index changed [+-][\d.]+% over the 3 months to 2015-04/);
    expect(await ask('qoq price change seattle')).toBe(`Reading "qoq" as the price index change over the last 3 months: ${three}`);
    for (const [q, w] of [['mom price change seattle', 'mom'], ['month over month price change seattle', 'month over month']] as const) {
      expect(await ask(q), q).toBe(`Reading "${w}": no month-over-month change is kept (the price index change is kept over 3 to 60 months), so the change over the last 3 months is given: ${three}`);
    }
    expect(await ask('my mom wants to buy in seattle')).not.toContain('month-over-month');
  });

  it('"sfr median price bellevue", "condo prices brooklyn", "philly median sale price" (already right)', async () => {
    await monthMedianSaid(await ask('sfr median price bellevue'), 'Reading "bellevue" as Bellevue, WA (the most populous of 11 US places of that name; name the state for another): In Bellevue, WA, ', { st: 'WA', city: 'Bellevue' }, 'sfr');
    await monthMedianSaid(await ask('condo prices brooklyn'), 'In Brooklyn, NY, ', { borough: 3 }, 'condo', 'condo');
    await monthMedianSaid(await ask('philly median sale price'), 'In Philadelphia, PA, ', { st: 'PA', city: 'Philadelphia' }, 'philly');
  });

  it('"ppsf 98103" (already right): the 6 months\' median price per sqft recomputed', async () => {
    const c = await compsOracle('98103', 'sfr', 6);
    expect(await ask('ppsf 98103')).toMatch(new RegExp(`^In zip 98103 \\(Seattle, WA\\), ${c.n} single-family sales in the 6 months to 2015-05-14 had a median \\$${n(Math.round(c.median!))} per sqft`));
  });

  it('"yoy price change seattle", "dom seattle" (already right): no 12-month change (first sales 2014-05), no days on market, the 12 months\' sales', async () => {
    const [first] = await sql<{ m: string }>(`select strftime(min(sale_date), '%Y-%m') as m from oracle_arms where state_code = 'WA' and lower(city) = 'seattle'`);
    expect(await ask('yoy price change seattle')).toMatch(new RegExp(`^In Seattle, WA, single-family prices have no 12-month change: the data does not reach back that far \\(its first sales are in ${first!.m}\\)`));
    const w = await windowSalesOracle({ state: 'WA', city: 'Seattle' }, 'sfr', 12);
    const dom = await ask('dom seattle');
    expect(dom).toMatch(/^Seattle, WA has no days-on-market figure: none of its sales records carries a listing date/);
    expect(dom).toContain(`Seattle, WA had ${n(w.n)} arm's-length single-family sales in the 12 months to ${w.asOf}, at a median price of ${money(w.median!)}`);
  });
});

describe('periods (already right)', () => {
  it('"seattle home prices ytd", "seattle median price this year", "denver home prices since the crash": the latest figure, the words said not read', async () => {
    for (const [q, w, why] of [['seattle home prices ytd', 'ytd', 'a time counted from today'], ['seattle median price this year', 'this year', 'a time counted from today'], ['denver home prices since the crash', 'since the crash', 'a period named by an event']] as const) {
      const a = await ask(q);
      const m = q.startsWith('denver') ? { st: 'CO', city: 'Denver' } : { st: 'WA', city: 'Seattle' };
      await monthMedianSaid(a, `In ${m.city}, ${m.st}, `, m, q);
      expect(a, q).toContain(`I could not read "${w}" as a period (${why}`);
    }
  });

  it('"seattle home prices last quarter", "past 6 months median price brooklyn", "median price brooklyn last 90 days": the window\'s sales recomputed', async () => {
    const w3 = await windowSalesOracle({ state: 'WA', city: 'Seattle' }, 'sfr', 3);
    expect(await ask('seattle home prices last quarter')).toContain(`In Seattle, WA, the median of the ${n(w3.n)} arm's-length single-family sales in the 3 months to ${w3.asOf} was ${money(w3.median!)}`);
    for (const [q, months, lead] of [['past 6 months median price brooklyn', 6, ''], ['median price brooklyn last 90 days', 3, 'Reading "last 90 days" as the last 3 months (windows are kept in whole months): ']] as const) {
      const [r] = await sql<{ as_of: string; n: number; median: number }>(`with raw as (select 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz' as f, row_number() over () + 1 as line, "BOROUGH" as b
          from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz')}', all_varchar = true)),
        c as (select s.* from oracle_arms s join raw on s.line = raw.line and s.file like '%' || raw.f || '%' where s.source = 'nyc' and raw.b = '3'),
        e as (select max(sale_date) as as_of from c)
        select e.as_of::varchar as as_of, count(*)::int as n, quantile_cont(sale_price, 0.5) as median from c, e
        where property_type = 'sfr' and sale_date > e.as_of - to_months(${months}) and sale_date <= e.as_of group by e.as_of`);
      expect(await ask(q), q).toBe(`${lead}In Brooklyn, NY, the median of the ${n(r!.n)} arm's-length single-family sales in the ${months} months to ${r!.as_of} was ${money(r!.median)}; the latest sales in this source are from 2024-02, over 2 years before 2026-11-21, so this is not a current figure.`);
    }
  });

  it('"seattle median price h1 2015": the half year\'s sales recomputed', async () => {
    const h = await salesOf({ st: 'WA', city: 'Seattle' }, 'sfr', '2015-01', '2015-06');
    expect(await ask('seattle median price h1 2015')).toContain(`In Seattle, WA, in the first half of 2015 (January to June) there were ${n(h.n)} arm's-length single-family sales`);
  });
});

describe('several places, ranks, counties (already right)', () => {
  it('"seattle, bellevue and redmond median price": each city\'s month figure, ranked', async () => {
    const a = await ask('seattle, bellevue and redmond median price');
    const got: { city: string; v: number }[] = [];
    for (const city of ['Seattle', 'Bellevue', 'Redmond']) {
      const m = new RegExp(`${city}, WA \\$([\\d,]+) \\((\\d{4}-\\d{2}), ([\\d,]+) sales\\)`).exec(a);
      expect(m, `${city}: ${a}`).not.toBeNull();
      const s = await salesOf({ st: 'WA', city }, 'sfr', m![2]!, m![2]!);
      expect([`$${m![1]}`, m![3]]).toEqual([money(s.median!), n(s.n)]);
      got.push({ city, v: s.median! });
    }
    const order = [...got].sort((x, y) => y.v - x.v).map((x, i) => `${i + 1}. ${x.city}, WA ${money(x.v)}`).join(', ');
    expect(a).toContain(`in order: ${order}.`);
  });

  it('"cheapest 3 zips in king county", "king county median price past 12 months": each zip\'s 12 months to its own end recomputed', async () => {
    const zips = await sql<{ zip: string; n: number; median: number }>(`with c as (select * from oracle_arms where state_code = 'WA'),
        e as (select zip, max(sale_date) as as_of from c group by zip)
      select c.zip, count(*)::int as n, quantile_cont(c.sale_price, 0.5) as median from c join e using (zip)
      where c.property_type = 'sfr' and c.sale_date > e.as_of - to_months(12) and c.sale_date <= e.as_of group by c.zip having count(*) >= 5 order by median, c.zip`);
    const [a, b, c] = zips;
    const top = zips.at(-1)!;
    const r = await ask('cheapest 3 zips in king county');
    expect(r).toContain(`In King County, WA, ${zips.length} zips had 5 or more arm's-length single-family sales in the 12 months to each zip's own end`);
    expect(r).toMatch(new RegExp(`by median sale price the cheapest are zip ${a!.zip} \\${money(a!.median)} \\(${n(a!.n)} sales to [\\d-]+\\), zip ${b!.zip} \\${money(b!.median)} \\(${n(b!.n)} sales to [\\d-]+\\) and zip ${c!.zip} \\${money(c!.median)} \\(${n(c!.n)} sales to [\\d-]+\\), the most expensive zip ${top.zip} \\${money(top.median)}`));
    const p = await ask('king county median price past 12 months');
    expect(p).toContain(`their median sale prices run from ${money(a!.median)} (zip ${a!.zip}) to ${money(top.median)} (zip ${top.zip})`);
  });

  it('"king co median price", "allegheny co foreclosures", "cook county foreclosures": the county read', async () => {
    expect(await ask('king co median price')).toMatch(/^In King County, WA, \d+ zips have a median of 20 or more single-family sales/);
    const open = (await openProperties([12])).find((p) => p.place === 'Allegheny County' && p.months === 12)!;
    expect(await ask('allegheny co foreclosures')).toMatch(new RegExp(`^In Allegheny County, PA, ${n(open.n)} distressed properties \\(mortgage foreclosure filings`));
    expect(await ask('cook county foreclosures')).toBe(`We have no foreclosure or lien filings for Cook County, IL: ${FILING_SOURCES}.`);
  });

  it('"washington state median price", "colorado median home price": no statewide figure, the one county said', async () => {
    expect(await ask('washington state median price')).toBe('We have no statewide figure for Washington: its sales in this build are those of King County WA house sales 2014-2015 only, in 1 of its 39 counties; ask for a city or zip code there.');
    expect(await ask('colorado median home price')).toBe('We have no statewide figure for Colorado: its sales in this build are those of Denver real property sales and transfers 2018-2019 only, in 1 of its 64 counties; ask for a city or zip code there.');
  });
});

describe('topics no source holds (already right)', () => {
  it('rents, cap rates, crime, schools, mortgage rates, HOA fees, property taxes: said not held, what is held named', async () => {
    for (const [q, what] of [
      ['rent prices seattle', 'we record sales, not rents: no rent levels, rental yields or cap rates'],
      ['cap rate seattle', 'we record sales, not rents: no rent levels, rental yields or cap rates'],
      ['crime rate philadelphia', 'we record no school, crime or neighbourhood-amenity data'],
      ['best schools in bellevue', 'we record no school, crime or neighbourhood-amenity data'],
      ['mortgage rates today', 'we record no mortgage or loan interest rates'],
      ['hoa fees denver', 'we record no HOA, condo or co-op fees or dues'],
      ['property taxes in king county', 'we record tax sale rules (lien or deed, interest rate, redemption period), not property tax rates'],
    ] as const) {
      const a = await ask(q);
      expect(a, q).toContain(`I don't have that: ${what}`);
      expect(a, q).toContain('our research covers landlord-tenant, eviction, foreclosure, tax sale, rent control and adverse possession rules, plus sale prices and trends');
    }
  });
});

describe('legal rules, states held, misspelled and not held (already right)', () => {
  it('Texas, New York, Oregon, Wyoming, Iowa, Georgia: legal-facts.csv\'s own figures', async () => {
    const tx = await ask('eviction process in texas');
    expect(tx).toContain(`In Texas, a landlord must give ${csv('TX', 'eviction_notice_nonpayment_days')} days' notice to pay the rent or move out`);
    expect(tx).toContain(`takes about ${csv('TX', 'eviction_timeline_days_est')} days from the first notice to possession`);
    expect(await ask('security deposit limit in new york')).toBe(`New York caps residential security deposits at ${csv('NY', 'security_deposit_limit_months')} month's rent (last reviewed 2026-11-21). ${LEGAL_TAIL}`);
    expect(csv('OR', 'rent_control_preemption')).toBe('yes');
    expect(await ask('is rent control legal in oregon')).toMatch(/^Oregon law prohibits local rent control/);
    expect(await ask('adverse possession in wyoming')).toContain(`In Wyoming, adverse possession takes ${csv('WY', 'adverse_possession_years')} years`);
    const ia = await ask('tax lien interest rate in iowa');
    expect(ia).toContain(`Iowa is a tax ${csv('IA', 'tax_sale_type')} state; the maximum statutory return is ${csv('IA', 'tax_lien_interest_rate_pct')}%`);
    expect(ia).toContain(`the owner can redeem for ${csv('IA', 'redemption_period_months')} months after the sale`);
    expect(await ask('how long does an eviction take in georgia')).toContain(`in Georgia takes about ${csv('GA', 'eviction_timeline_days_est')} days`);
  });

  it('misspelled states: "flordia", "pennsylvnia", "washingotn" read, said', async () => {
    expect(await ask('eviction notice in flordia')).toMatch(new RegExp(`^Reading "flordia" as Florida \\(the closest state name\\): In Florida, a landlord must give ${csv('FL', 'eviction_notice_nonpayment_days')} business days' notice`));
    expect(await ask('security deposit limit pennsylvnia')).toMatch(new RegExp(`^Reading "pennsylvnia" as Pennsylvania \\(the closest state name\\): Pennsylvania caps residential security deposits at ${csv('PA', 'security_deposit_limit_months')} months' rent`));
    expect(await ask('foreclosure type in washingotn')).toMatch(new RegExp(`^Reading "washingotn" as Washington State .*Mortgage foreclosure in Washington is ${csv('WA', 'foreclosure_type')}:`));
  });

  it('"how many evictions in philadelphia", "eviction rate seattle", "eviction filings in philadelphia": no count held, said, beside the state\'s rules (fixed)', async () => {
    for (const [q, st, name] of [['how many evictions in philadelphia', 'PA', 'Pennsylvania'], ['eviction rate seattle', 'WA', 'Washington'], ['eviction filings in philadelphia', 'PA', 'Pennsylvania']] as const) {
      const a = await ask(q);
      expect(a, q).toMatch(new RegExp(`^In ${name}, a landlord must give ${csv(st, 'eviction_notice_nonpayment_days')} days' notice`));
      expect(a, q).toContain("We record no eviction filings or cases for any place (no court records are loaded), so no count or rate of evictions is given; what is recorded is each state's eviction rules.");
    }
    expect(await ask('eviction process in texas')).not.toContain('We record no eviction filings');
  });

  it('Puerto Rico and Guam, in no row of legal-facts.csv: said not covered', async () => {
    expect(byState.has('PR') || byState.has('GU')).toBe(false);
    expect(await ask('eviction process in puerto rico')).toBe("We don't have data for Puerto Rico: coverage is the 50 states and DC, their cities and zip codes.");
    expect(await ask('security deposit limit in guam')).toBe("We don't have data for Guam: coverage is the 50 states and DC, their cities and zip codes.");
  });
});
