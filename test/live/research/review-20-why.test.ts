// The twentieth research review's refusals that were wrong or gave a false reason: a county's count of a year refused
// though its year figure is kept (county-years.ts), a county that is its city with no figure (county-city.ts), a zip,
// a trend and a partial month given false reasons (zipless.ts, change-reach.ts, trends-fact.ts), a neighbourhood of
// condos said to have no sales (hood-types.ts), a state's Superfund sites refused (state-superfund.ts). Over
// the shared real build on the suite's pinned clock; every figure recomputed here from the raw files in ../shared/data
// (oracle_arms: the arm's-length rule re-derived over the canonical tables, oracle-research-market.ts).
import { describe, expect, it } from 'vitest';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { askWithSalesOracle, researchData } from '../../helpers/research.ts';
import { lookupsOf, ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

const asked = askWithSalesOracle();
const ask = async (query: string): Promise<string> => (await asked(query)).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const KC = `(select distinct * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`;

describe('a county\'s sales count of a year is its whole year\'s where it is kept, never "not summed" (review 20 #1)', () => {
  it('"King County sales count 2015", "King County sales 2015", "how many sales in King County in 2014": the raw file\'s count and median of the year', async () => {
    const years = await rawQuery<{ y: string; n: number; m: number; a: string; b: string }>(`select left(date, 4) as y, count(*)::int as n,
      median(price::double) as m, min(left(date, 8)) as a, max(left(date, 8)) as b from ${KC} where price::double >= 10000 group by 1`);
    const of = (y: string) => years.find((r) => r.y === y)!;
    expect([of('2015').n, of('2014').n]).toEqual([6980, 14633]);
    for (const [q, y] of [['King County sales count 2015', '2015'], ['King County sales 2015', '2015'], ['how many sales in King County in 2014', '2014']] as const) {
      const r = await ask(q);
      const d = (s: string) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
      expect(r, q).toMatch(new RegExp(`^In King County, WA, in ${y} there were ${of(y).n.toLocaleString('en-US')} arm's-length single-family sales \\(`));
      expect(r, q).toContain(`dated ${d(of(y).a)} to ${d(of(y).b)}, at a median sale price of ${usd(of(y).m)} (all of the county's sales of the year together`);
      expect(r, q).not.toMatch(/not summed|don't have/);
    }
    // a month is no year the metro figure keeps: still said kept per city or zip (places-review-9)
    expect(await ask('how many sales in king county in may 2015')).toContain('not summed for King County, WA as a whole');
  });
});

describe('a county that is one place with its city answers as the city, said (review 20 #2)', () => {
  it('"Denver County median price", "... price trend", "... sales count": Denver\'s figures, the county read as the city', async () => {
    // the raw ACS 2023 counts: the City and County of Denver, the same people as county and as place
    const [co] = await rawQuery<{ p: number }>(`select "B01003_001E"::int as p from read_csv('${dataFile('census-acs2023-population/acs5_2023_county_population.csv')}', all_varchar = true) where geoid = '08031'`);
    const [pl] = await rawQuery<{ p: number }>(`select "B01003_001E"::int as p from read_csv('${dataFile('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true) where geoid = '0820000'`);
    expect(co!.p).toBe(pl!.p);
    const reading = `Reading "Denver County" as Denver, CO: the county and the city are one place (the Census counts the same ${co!.p.toLocaleString('en-US')} people in each), so the city's figures are the county's: `;
    const [may] = await sql<{ n: number; m: number }>(`select count(*)::int as n, quantile_cont(sale_price, 0.5) as m from oracle_arms
      where state_code = 'CO' and lower(city) = 'denver' and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = '2019-05'`);
    const price = `the median single-family sale price was ${usd(may!.m)} in 2019-05 (${may!.n.toLocaleString('en-US')} sales)`;
    const r = await ask('Denver County median price');
    expect(r).toMatch(new RegExp(`^${reading.replace(/[().]/g, '\\$&')}In Denver, CO, `));
    expect(r).toContain(price);
    expect(await ask('Denver County price trend')).toContain(`${reading}In Denver, CO, the single-family median-price index changed`);
    const year = await windowSalesOracle({ state: 'CO', city: 'Denver' }, 'sfr', 12);
    expect(await ask('Denver County sales count')).toContain(`${reading}Denver, CO had ${year.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${year.asOf}, at a median price of ${usd(year.median!)}`);
    // the same answers as the city's own
    expect(r.slice(reading.length)).toBe(await ask('Denver median price'));
  });
});

describe('a reason given for no figure is the true one (review 20 #3)', () => {
  it('"median price 06902": most of Stamford\'s sales carry no zip (Connecticut\'s 2022 file records no location), not "no month with 5 sales"', async () => {
    // the raw 2022 file has no Location column; the 2001-2022 file has one
    const cols = async (f: string) => (await rawQuery<{ column_name: string }>(`describe select * from read_csv('${dataFile(`connecticut-real-estate-sales/${f}`)}', all_varchar = true)`)).map((c) => c.column_name);
    expect(await cols('real_estate_sales_2022-01_2022-09_listyear2021.csv.gz')).not.toContain('Location');
    expect(await cols('Real_Estate_Sales_2001-2022_GL.head9999.csv.gz')).toContain('Location');
    // the city's window ends at its last arm's-length sale of any type (windowSalesOracle)
    const win = await windowSalesOracle({ state: 'CT', city: 'Stamford' }, 'sfr', 12);
    // a sale both files record (same address, day and price, of any type in the typed file) is one sale: the 2022 file's
    // copy, with no zip, is not counted again (oracle_arms keeps both: its property key is the address and zip)
    const [w] = await sql<{ n: number; f22: number }>(`with s as (select * from oracle_arms where state_code = 'CT' and lower(city) = 'stamford' and property_type = 'sfr'
        and sale_date > $b::date - to_months(12) and sale_date <= $b::date),
      once as (select * from s where not (file like '%2022-01_2022-09%' and exists (select 1 from oracle_arms g where g.file not like '%2022-01_2022-09%' and g.state_code = 'CT'
        and upper(g.address) = upper(s.address) and g.sale_date = s.sale_date and g.sale_price = s.sale_price)))
      select count(*)::int as n, count(*) filter (where file like '%2022-01_2022-09%')::int as f22 from once`, { b: win.asOf });
    const [z] = await sql<{ n: number }>(`select count(*)::int as n from oracle_arms where state_code = 'CT' and lower(city) = 'stamford' and property_type = 'sfr' and zip is not null`);
    expect(w!.f22 * 2).toBeGreaterThan(w!.n);
    const r = await ask('median price 06902');
    expect(r).toBe(`We have no single-family sale figure for zip 06902 (Stamford, CT): most of Stamford's ${w!.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${win.asOf} carry no zip code in the source (${w!.f22.toLocaleString('en-US')} of them from Connecticut's 2022 sales file, which records no location): its zips hold ${z!.n} in their latest 24 months, too few for a zip's figure; Stamford's city-wide figure can be asked instead ("median sale price in Stamford").`);
  });

  it('"Manhattan price trend": the change ends at the latest month of 20 sales, and 12 months before the last sales fall in the source\'s gap', async () => {
    // each raw file's BOROUGH (1: Manhattan) by its line, joined to the arm's-length sales of that file and line
    const files = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'];
    const raw = files.map((f) => `select '${dataFile(`nyc-rolling-sales/${f}`)}' as file, row_number() over () + 1 as line, "BOROUGH" as b from read_csv('${dataFile(`nyc-rolling-sales/${f}`)}', all_varchar = true)`).join(' union all ');
    const rows = (await sql<{ m: string; n: number }>(`select strftime(s.sale_date, '%Y-%m') as m, count(*)::int as n from oracle_arms s join (${raw}) r on r.file = s.file and r.line = s.line
      where s.source = 'nyc' and r.b = '1' and s.property_type = 'sfr' group by 1 order by 1`)).map((r) => ({ m: r.m, n: Number(r.n) }));
    const end = rows.findLast((r) => r.n >= 20)!;
    const later = rows.filter((r) => r.m > end.m);
    const first = rows[0]!.m;
    expect([end.m, first]).toEqual(['2021-09', '2021-04']);
    const lastMonth = rows.at(-1)!.m;
    // the month 12 before the last month with sales, and the raw files' gap (no file holds 2022-04 to 2023-02)
    const [y, mo] = lastMonth.split('-').map(Number) as [number, number];
    const back = `${y - 1}-${String(mo).padStart(2, '0')}`;
    const spans = await rawQuery<{ a: string; b: string }>(`select min(d) as a, max(d) as b from (select strftime(try_cast("SALE DATE" as date), '%Y-%m') as d, filename as f
      from read_csv('${dataFile('nyc-rolling-sales/*.csv.gz')}', all_varchar = true, filename = true)) group by f order by a`);
    expect(spans.map((x) => [x.a, x.b])).toEqual([['2021-04', '2022-03'], ['2023-03', '2024-02']]);
    expect(back > spans[0]!.b && back < spans[1]!.a).toBe(true);
    const r = await ask('Manhattan price trend');
    expect(r).toContain(`In Manhattan, NY, single-family prices have no 12-month change: a change runs to the latest complete month with 20 or more sales, here ${end.m} (no later month has 20: at most ${Math.max(...later.map((x) => x.n))} a month), and the data does not reach back that far (its first sales are in ${first}); ${back}, 12 months before its last month with sales (${lastMonth}), falls in 2022-04 to 2023-02, months the source files do not cover`);
  });

  it('"Sacramento price trend": its sales are of one month its file holds a few days of, not "no month with 20 sales"', async () => {
    const [s] = await rawQuery<{ n: number; months: number; a: string; b: string }>(`select count(*)::int as n, count(distinct left(sale_date_iso, 7))::int as months,
      min(sale_date_iso) as a, max(sale_date_iso) as b from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      where city = 'SACRAMENTO' and "type" = 'Residential' and price::double >= 10000`);
    expect(s!.months).toBe(1);
    expect(s!.n).toBeGreaterThan(20);
    const r = await ask('Sacramento price trend');
    expect(r).toMatch(new RegExp(`^Sacramento, CA has no complete month to measure a price trend from: its single-family sales all fall in one month, ${s!.b.slice(0, 7)}, recorded in part only \\(a source file starts or ends inside the month; its latest sale is of ${s!.b.slice(0, 10)}\\)`));
    expect(r).not.toMatch(/no month with 20/);
  });
});

describe('a neighbourhood with no single-family sale gives its condo sales, said (review 20 #4)', () => {
  it('"Tribeca median price", "SoHo median price": no one-family house sold there in the 24 months kept, so the condo sales (condominiums only, F7) over its 12 months', async () => {
    const files = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'];
    const raw = files.map((f) => `select '${dataFile(`nyc-rolling-sales/${f}`)}' as file, row_number() over () + 1 as line, trim("NEIGHBORHOOD") as hood from read_csv('${dataFile(`nyc-rolling-sales/${f}`)}', all_varchar = true)`).join(' union all ');
    for (const [q, hood, name] of [['Tribeca median price', 'TRIBECA', 'Tribeca'], ['SoHo median price', 'SOHO', 'Soho']] as const) {
      const [w] = await sql<{ sfr: number; b: string; n: number; m: number }>(`with s as (select s.* from oracle_arms s join (${raw}) r on r.file = s.file and r.line = s.line where s.source = 'nyc' and r.hood = '${hood}'),
        e as (select max(sale_date) as b from s)
        select (select count(*) from s, e where property_type = 'sfr' and sale_date > e.b - to_months(24))::int as sfr, e.b::varchar as b, count(*)::int as n, quantile_cont(sale_price, 0.5) as m
        from s, e where s.property_type = 'condo' and s.sale_date > e.b - to_months(12) group by e.b`);
      expect(w!.sfr, q).toBe(0);
      const r = await ask(q);
      // review 21: each other kind with 5+ sales is given apart (SoHo's multi-family sales too, review-21-windows.test.ts)
      expect(r, q).toContain(`We have no single-family sales of ${name} (Manhattan, New York, NY) in its latest 24 months (to ${w!.b}), so its condo `);
      expect(r, q).toContain(`: in ${name} (Manhattan, New York, NY), the median of the ${w!.n} arm's-length condo sales in the 12 months to ${w!.b} was ${usd(w!.m)}`);
      expect(r, q).not.toContain('include co-op');
    }
    // a type named stays that type's answer, and is no claim that the place has no sales at all
    expect(await ask('Tribeca single-family median price')).not.toContain('We have no sales of Tribeca');
  });
});

describe('Superfund sites of a state are counted by status from the EPA list, never "name a zip" (review 20 #5)', () => {
  it('"Superfund sites in New Jersey": its final and proposed NPL sites as the raw npl_sites.csv counts them, deleted ones not counted', async () => {
    const rows = await rawQuery<{ s: string; n: number }>(`select npl_status as s, count(*)::int as n from read_csv('${dataFile('epa-superfund-sems/npl_sites.csv')}', all_varchar = true) where state = 'NJ' group by 1`);
    const n = (re: RegExp): number => rows.filter((r) => re.test(r.s)).reduce((a, r) => a + Number(r.n), 0);
    const [final, proposed, deleted] = [n(/^Currently on the Final NPL$/), n(/^Proposed/), n(/^Deleted/)];
    expect([final, proposed, deleted]).toEqual([114, 2, 35]);
    const engine = new ResearchEngine(researchData(), null, PINNED_TODAY, lookupsOf(buildDir()));
    for (const q of ['Superfund sites in New Jersey', 'superfund sites in NJ']) {
      const r = await engine.answer({ query: q, depth: 'quick' });
      expect(r.answer, q).toMatch(new RegExp(`^New Jersey has ${final + proposed} Superfund sites on EPA's National Priorities List \\(EPA SEMS, as of \\d{4}-\\d{2}-\\d{2}\\): ${final} final and ${proposed} proposed; sites deleted from the list \\(no further cleanup needed\\) are not counted`));
      expect(r.sources[0]!.citation).toContain('EPA National Priorities List sites of New Jersey');
    }
  });
});
