// The twentieth research review's refusals that were wrong or gave a false reason: a county's count of a year refused
// though its year figure is kept (county-years.ts), a county that is its city with no figure (county-city.ts), ... Over
// the shared real build on the suite's pinned clock; every figure recomputed here from the raw files in ../shared/data
// (oracle_arms: the arm's-length rule re-derived over the canonical tables, oracle-research-market.ts).
import { describe, expect, it } from 'vitest';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { askWithSalesOracle } from '../../helpers/research.ts';

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
