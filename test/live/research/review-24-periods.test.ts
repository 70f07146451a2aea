// Review 24's research periods, over the shared real build on the suite's pinned day. (1) Foreclosure and lien filings
// asked for a year or months ("foreclosure filings in Louisville in 2023", "how many foreclosures in Allegheny County in
// 2022") count the filings of those calendar months by kind (distress-periods.ts), name the months the filing file
// covers in part only, and say plainly when the period is outside the file; before, the latest window's pipeline came
// with "not for 2023". (2) A month asked of permits with no year ("permits in May in Nashville") is the latest May the
// place's permit file covers, its year said; with no place the question asks for one; before, the rehab score of the
// latest window came with "not for May", and "permits in may" got a foreclosure record's topic.
// Expected figures re-counted from the raw files in ../shared/data by the adapters' keep rules (SOURCE.md and
// pipelines/intermediate 30_market_30_distress_allegheny.sql, 30_market_31_distress_louisville.sql, the permit
// adapters: test/helpers/oracle-raw-permits.ts): never the code's output.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { ALLEGHENY_FILINGS, filings, LOUISVILLE_FILINGS } from '../../helpers/oracle-distress.ts';
import { CHICAGO, CHICAGO_KIND, NASHVILLE, NASHVILLE_KIND, permitCounts, permitKindList } from '../../helpers/oracle-raw-permits.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const n = (x: number): string => x.toLocaleString('en-US');

describe('review 24 #1: foreclosure and lien filings of a year asked', () => {
  it('"foreclosure filings in Louisville in 2023": outside the file, said plainly with what it covers', async () => {
    const c = await filings(LOUISVILLE_FILINGS, 'year(d) = 2023', 'kind');
    expect(c.all).toBe(0);
    const a = await ask('foreclosure filings in Louisville in 2023');
    expect(a).toContain(`We have no foreclosure or lien filings in 2023 for Louisville, KY: Louisville Metro lien foreclosures covers ${c.first} to ${c.last} (its filing records), none of 2023`);
    expect(a).not.toMatch(/in the pipeline over|not for 2023/);
  });

  it('Louisville in 2015: the year\'s filings by kind; a kind asked leads', async () => {
    const c = await filings(LOUISVILLE_FILINGS, 'year(d) = 2015', 'kind');
    expect(c.all).toBeGreaterThan(0);
    const a = await ask('foreclosure filings in Louisville in 2015');
    expect(a).toContain(`In Louisville, KY, ${n(c.all)} foreclosure and lien filings were made in 2015 (${n(c.of('tax_delinquent'))} tax-delinquent, ${n(c.of('lien_foreclosure'))} non-tax lien), from the filing records of Louisville Metro lien foreclosures`);
    expect(a).not.toMatch(/in part only|not for 2015|in the pipeline over/);
    const k = await filings(LOUISVILLE_FILINGS, 'year(d) = 2014', 'kind');
    expect(await ask('tax delinquent filings in Louisville in 2014')).toContain(`In Louisville, KY, ${n(k.of('tax_delinquent'))} tax-delinquent filings were made in 2014, of ${n(k.all)} foreclosure and lien filings of every kind`);
  });

  it('"how many foreclosures in Allegheny County in 2022": its municipalities\' filings summed, the months of 2022 the file covers named', async () => {
    const c = await filings(ALLEGHENY_FILINGS, 'year(d) = 2022');
    const pgh = await filings(ALLEGHENY_FILINGS, "year(d) = 2022 and muni = 'Pittsburgh'");
    expect(c.last).toBe('2022-08-30'); // SOURCE.md: filings to 2022-08-30, a day before the month's end
    const a = await ask('how many foreclosures in Allegheny County in 2022');
    expect(a).toContain(`In Allegheny County, PA, ${n(c.all)} foreclosure and lien filings were made in 2022 (${n(c.all)} pre-foreclosure), the sum of the `);
    expect(a).toContain(`(most: Pittsburgh ${n(pgh.all)}, `);
    expect(a).toContain(`Allegheny County mortgage foreclosure filings covers ${c.first} to ${c.last}, so of 2022 only 2022-01 to 2022-07, and 2022-08 in part only: not a count of the whole of 2022`);
    expect(a).not.toMatch(/in the pipeline over|not for 2022/);
  });

  it('"foreclosures in Louisville in may": the latest May of the file, said with its year', async () => {
    const c = await filings(LOUISVILLE_FILINGS, 'true', 'kind');
    expect(c.last.slice(0, 7)).toBe('2016-06'); // the latest May is 2016's, covered whole
    const may = await filings(LOUISVILLE_FILINGS, "strftime(d, '%Y-%m') = '2016-05'", 'kind');
    const a = await ask('foreclosures in Louisville in may');
    expect(a).toContain(`In Louisville, KY, ${n(may.all)} foreclosure and lien ${may.all === 1 ? 'filing was' : 'filings were'} made in May 2016 ("may" with no year read as the latest May in the data of the place, which ends in 2016-06)`);
  });

  it('cities compared in a year: their filings ranked as filings, not as distressed properties', async () => {
    const pgh = await filings(ALLEGHENY_FILINGS, "year(d) = 2015 and muni = 'Pittsburgh'");
    const lou = await filings(LOUISVILLE_FILINGS, 'year(d) = 2015', 'kind');
    const [more, top] = pgh.all >= lou.all ? ['Pittsburgh, PA', pgh.all] : ['Louisville, KY', lou.all];
    const a = await ask('foreclosures in Pittsburgh vs Louisville in 2015');
    expect(a).toContain(`Foreclosure and lien filings made: Pittsburgh, PA: ${n(pgh.all)} filings (2015), from Allegheny County mortgage foreclosure filings; Louisville, KY: ${n(lou.all)} filings (2015), from Louisville Metro lien foreclosures, so ${more} has more filings (${n(top)})`);
  });

  it('no year asked: the window\'s pipeline, as before', async () => {
    expect(await ask('foreclosure filings in Louisville')).toMatch(/^In Louisville, KY, \d+ distressed properties \(tax-lien foreclosure and code-enforcement or vacant-property lien foreclosure filings, the only kinds its records hold: no mortgage foreclosure is counted\) are in the pipeline over the 12 months to /);
  });
});

describe('review 24 #2: permits of a month asked with no year', () => {
  it('"permits in May in Nashville": the latest May of the permit file, its year said, by kind', async () => {
    const all = await permitCounts(NASHVILLE, NASHVILLE_KIND, "city ilike 'nashville'");
    expect(all.last.slice(0, 7)).toBe('2024-09');
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, "city ilike 'nashville' and strftime(d, '%Y-%m') = '2024-05'");
    const a = await ask('permits in May in Nashville');
    expect(a).toContain(`In Nashville, TN, ${n(c.all)} building permits were applied for in May 2024 ("may" with no year read as the latest May in the data of the place, which ends in 2024-09) (${permitKindList(c)}), from the permit records of Nashville building permit applications`);
    expect(a).not.toMatch(/rehab momentum|not for May/);
  });

  it('"permits in may" with no place: a place asked for, the permit files named with what they cover', async () => {
    const chi = await permitCounts(CHICAGO, CHICAGO_KIND, 'true');
    const nash = await permitCounts(NASHVILLE, NASHVILLE_KIND, 'true');
    const a = await ask('permits in may');
    expect(a).toContain(`I don't have a count of building permits without a place: permits are counted per zip code or city, from the permit records of Chicago building permits (${chi.first} to ${chi.last}) and Nashville building permit applications (${nash.first} to ${nash.last}); name a city or zip code`);
    expect(a).not.toMatch(/foreclosure/);
  });
});

describe('review 24 #3: zips ranked by a year\'s permits', () => {
  it('"which zips in Nashville had the most permits in 2023": each zip\'s permits of 2023 alone, said', async () => {
    const rows = await rawQuery<{ z: string; n: number }>(`select left(zip, 5) as z, count(*)::int as n from ${NASHVILLE} where year(d) = 2023 and zip is not null group by 1 order by 2 desc, 1`);
    const of = (z: string): number => rows.find((r) => r.z === z)?.n ?? 0;
    const a = await ask('which zips in Nashville had the most permits in 2023');
    const m = /^Of the \d+ zips of Nashville, TN with permit records, (\d{5}) had the most building permits in 2023: ((?:\d{5} \([\d,]+\)(?:, )?){5}) \(each zip's permits applied for in 2023 alone, from the permit records of Nashville building permit applications\)/.exec(a);
    expect(m, a).not.toBeNull();
    // every zip named has its 2023 permits; the leader is the zip of Nashville with the most of them in the raw file
    for (const [, z, c] of m![2]!.matchAll(/(\d{5}) \(([\d,]+)\)/g)) expect(Number(c!.replace(/,/g, '')), z).toBe(of(z!));
    expect(m![1]).toBe(rows.find((r) => /^372/.test(r.z))!.z);
    expect(a).not.toMatch(/12 months to|not for 2023/);
  });

  it('a year the file covers in part: its months named; a year outside it: said', async () => {
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, 'true');
    const a = await ask('which zip in Nashville had the most renovation permits in 2021');
    expect(a).toContain(`covers ${c.first} to ${c.last}, so of 2021 only 2021-10 to 2021-12, and 2021-09 in part only: not a count of the whole of 2021`);
    const chi = await permitCounts(CHICAGO, CHICAGO_KIND, 'true');
    expect(await ask('which zips in chicago had the fewest permits in 2022')).toContain(`We have no building permits in 2022 for the zips of Chicago, IL: Chicago building permits covers ${chi.first} to ${chi.last} (their permit records), none of 2022`);
  });
});

describe('review 24 #4: investor windows name the months their sales files do not cover', () => {
  it('Denver\'s investor share over 24 months: the months before its file said, as its sales count says them', async () => {
    const [f] = await rawQuery<{ a: string; b: string }>(`select min(d)::varchar as a, max(d)::varchar as b from (
      select coalesce(try_strptime(trim(SALE_YEAR) || lpad(trim(SALE_MONTHDAY), 4, '0'), '%Y%m%d'), strptime(RECEPTION_DATE, '%Y%m%d'))::date as d
      from read_csv('${dataFile('denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz')}', all_varchar = true))`);
    const a = await ask('investor activity in Denver over the last 24 months');
    const m = /investors bought [\d.]+% of the homes sold in the 24 months to (\d{4}-\d{2}-\d{2}) \(the source covers none of (\S+) to (\S+), inside this window, so these sales fall in the (\d+) months of it the source covers/.exec(a);
    expect(m, a).not.toBeNull();
    const [, asOf, from, to, held] = m!;
    expect(asOf!.slice(0, 7)).toBe(f!.b.slice(0, 7)); // the window ends in the file's last month
    // (asOf - 24 months, asOf]: its first month (the start day before that month's last) to the month before the file's first
    const start = new Date(Date.UTC(Number(asOf!.slice(0, 4)), Number(asOf!.slice(5, 7)) - 1 - 24, 1));
    const first = new Date(Date.UTC(Number(f!.a.slice(0, 4)), Number(f!.a.slice(5, 7)) - 2, 1));
    const ym = (d: Date): string => d.toISOString().slice(0, 7);
    expect([from, to]).toEqual([ym(start), ym(first)]);
    // the months it covers: the file's first month to the window's last
    const mi = (s: string): number => Number(s.slice(0, 4)) * 12 + Number(s.slice(5, 7));
    expect(Number(held)).toBe(mi(asOf!) - mi(f!.a) + 1);
  });
});

describe('review 24 #4: metro windows and years name the months no sales file covers', () => {
  /** The months (YYYY-MM) with a sale row in NYC's raw rolling-sales files, and their last sale day. */
  async function nycMonths(): Promise<{ months: Set<string>; last: string }> {
    const files = ['nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc_rolling_sales_2023-03_2024-02.csv.gz'].map((f) => `'${dataFile(`nyc-rolling-sales/${f}`)}'`);
    const rows = await rawQuery<{ m: string; d: string }>(`select strftime(cast("SALE DATE" as date), '%Y-%m') as m, max(cast("SALE DATE" as date))::varchar as d
      from read_csv([${files.join(', ')}], all_varchar = true) group by 1 order by 1`);
    return { months: new Set(rows.map((r) => r.m)), last: rows.at(-1)!.d };
  }
  const runOf = (ms: string[]): string => `${ms[0]} to ${ms.at(-1)}`;
  const monthsFrom = (a: string, n: number): string[] => Array.from({ length: n }, (_, i) => { const d = new Date(Date.UTC(Number(a.slice(0, 4)), Number(a.slice(5, 7)) - 1 + i, 1)); return d.toISOString().slice(0, 7); });

  it('the New York metro\'s 24 months: the rolling-sales gap said, not hidden behind the sales\' first and last dates', async () => {
    const nyc = await nycMonths();
    expect(nyc.last).toBe('2024-02-29');
    // (2022-02-28, 2024-02-29]: 2022-02's last day is the start, so its months are 2022-03 to 2024-02, the last the window's own
    const window = monthsFrom('2022-03', 23);
    const out = window.filter((m) => !nyc.months.has(m));
    expect(out.length).toBeGreaterThan(0);
    const a = await ask('how many homes sold in the NYC metro in the last 24 months');
    expect(a).toContain(`in the 24 months to ${nyc.last} (the source files cover none of ${runOf(out)}, inside this window, so these sales fall in the ${24 - out.length} months of it they cover: NYC DOF rolling sales covers 2021-04 to 2022-03 and 2023-03 to 2024-02) there were `);
  });

  it('the New York metro in 2022: the months of 2022 no file covers said', async () => {
    const nyc = await nycMonths();
    const out = monthsFrom('2022-01', 12).filter((m) => !nyc.months.has(m));
    const a = await ask('how many homes sold in the new york metro in 2022');
    expect(a).toContain(`in 2022 (the source files cover none of ${runOf(out)}, inside 2022, so these sales fall in the ${12 - out.length} months of it they cover: `);
  });
});
