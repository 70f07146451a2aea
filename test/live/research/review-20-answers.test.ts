// The twentieth research review's wrong answers, over the shared real build on the suite's pinned clock (2026-11-21):
// a future year asked of prices read as a forecast (forecast.ts); a month's name or abbreviation never read as a place
// (compare-sides.ts, unfound.ts); expected figures are our own SQL over the raw files
// in ../shared/data (warehouse/docs/market.md: King County's file is arm's-length sales, a row listed twice once).
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { NO_FORECAST } from '../../../live/research/forecast.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { researchData } from '../../helpers/research.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const usd = (v: number): string => `$${Math.round(v).toLocaleString('en-US')}`;
/** The raw King County file's sales (a row listed twice once, prices of $10,000 or more) with their zip and month. */
const KC = `(select zipcode as zip, strftime(strptime(left("date", 8), '%Y%m%d'), '%Y-%m') as m, try_cast(price as double) as price
  from (select distinct * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)) where try_cast(price as double) >= 10000)`;
const inList = (zips: string[]): string => zips.map((z) => `'${z}'`).join(', ');
const ask = async (query: string, context?: Record<string, string>): Promise<string> => (await engine.answer({ query, depth: 'quick', ...(context ? { context } : {}) })).answer;

describe('a year after today asked of prices is a forecast asked', () => {
  it('"how much will Denver prices rise in 2027", "median price in Seattle in 2028": no forecast, then the past trend, never "outside the data"', async () => {
    for (const [q, trend] of [['how much will Denver prices rise in 2027', 'price trend in Denver'], ['median price in Seattle in 2028', 'price trend in Seattle']] as const) {
      const r = await ask(q);
      expect(r, q).toMatch(new RegExp(`^${NO_FORECAST.replace(/[.]/g, '\\.')} `));
      expect(r.slice(NO_FORECAST.length + 1), q).toBe(await ask(trend));
      expect(r, q).not.toMatch(/outside the data/);
    }
    // a past year stays that year's answer
    expect(await ask('median price in Seattle in 2015')).toMatch(/^In Seattle, WA, in 2015 there were/);
  });
});

describe('a month\'s name or abbreviation is never read as a place', () => {
  it('"median price in Seattle Jan 2015 vs Jan 2014", "... jan vs feb 2015", "... Jan. 2015 vs Dec. 2014": the months, and no "place named"', async () => {
    const zips = inList(data.zipsOfCity('Seattle', 'WA'));
    const raw = await rawQuery<{ m: string; n: number; med: number }>(`select m, count(*)::int as n, median(price) as med from ${KC} where zip in (${zips}) and m in ('2014-12', '2015-01', '2015-02') group by m order by m`);
    const [dec, jan, feb] = raw;
    expect(raw.map((r) => r.m)).toEqual(['2014-12', '2015-01', '2015-02']);
    const sale = (r: typeof jan, label: string): string => `In Seattle, WA, in ${label} there were ${r!.n} arm's-length single-family sales, at a median sale price of ${usd(r!.med)}`;
    const cases: [string, string[]][] = [
      ['median price in Seattle Jan 2015 vs Jan 2014', [sale(jan, 'January 2015'), 'I don\'t have single-family sales for Seattle, WA in January 2014']],
      ['Seattle median price jan vs feb 2015', [sale(jan, 'January 2015'), sale(feb, 'February 2015')]],
      ['dec 2014 vs jan 2015 median price in Seattle', [sale(dec, 'December 2014'), sale(jan, 'January 2015')]],
      ['Seattle median price Jan. 2015 vs Dec. 2014', [sale(jan, 'January 2015'), sale(dec, 'December 2014')]],
      ['compare Seattle median price Feb 2015 and Feb 2014', [sale(feb, 'February 2015')]],
      ['median price in Seattle in jan', []],
    ];
    for (const [q, want] of cases) {
      const a = await ask(q);
      for (const w of want) expect(a, q).toContain(w);
      expect(a, q).not.toMatch(/place named|December 2015/);
    }
    // a side that names no place is still said
    expect(await ask('seattle vs gotham median price')).toContain('I could not find a place named "gotham"');
  });
});

describe('a year\'s median ranking names the sales of the medians it gives', () => {
  // since h75 one year is ranked by each place's sales of it together (market.json years), its partial last month
  // (2015-05, the file's last days) among them; before, by the middle of its whole months' medians, 2015-05 said apart
  it('"top zips in Seattle by median price in 2015": zip 98112\'s 2015 sales together, 2015-05 among them', async () => {
    const [y] = await rawQuery<{ n: number; med: number; may: number }>(`select count(*)::int as n, median(price) as med,
      (count(*) filter (where m = '2015-05'))::int as may from ${KC} where zip = '98112' and m like '2015-%'`);
    expect(y!.may).toBeGreaterThan(0);
    const a = await ask('top zips in Seattle by median price in 2015');
    expect(a).toMatch(new RegExp(`\\d\\. zip 98112 ${usd(y!.med).replace('$', '\\$')} \\(${y!.n} sales of 2015 together\\)`));
    expect(a).not.toContain('recorded in part only');
  });
  it('"top 5 cities in King County by median price in 2015": Mercer Island (its one zip, 98040) likewise, its 2015 sales together', async () => {
    const [r] = await rawQuery<{ n: number; med: number }>(`select count(*)::int as n, median(price) as med from ${KC} where zip = '98040' and m like '2015-%'`);
    const a = await ask('top 5 cities in King County by median price in 2015');
    expect(a).toMatch(new RegExp(`\\d\\. Mercer Island ${usd(r!.med).replace('$', '\\$')} \\(${r!.n} sales of 2015 together\\)`));
    expect(a).toContain("by median single-family sale price of each city's sales together in 2015");
  });
});

describe('a city\'s zips ranked by price with no year: every zip left out is said, and the count asked is listed', () => {
  /** Sacramento's file: residential sales of $10,000 or more, a property listed twice on a day once (market.md). */
  const SAC = `(select upper(street) as st, zip, city, sale_date_iso as d from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
    where try_cast(price as double) >= 10000 and "type" = 'Residential' group by all)`;
  it('"top zips in Sacramento by median price": 17 ranked, the 4 zips under 5 sales and the 5 zips outside the city\'s zip list said', async () => {
    const listed = data.zipsOfCity('Sacramento', 'CA');
    const rows = await rawQuery<{ zip: string; n: number }>(`select zip, count(*)::int as n from ${SAC} where city = 'SACRAMENTO' group by zip order by n desc, zip`);
    expect(rows.length).toBe(26);
    const ranked = rows.filter((r) => listed.includes(r.zip) && r.n >= 5), few = rows.filter((r) => listed.includes(r.zip) && r.n < 5);
    const outside = rows.filter((r) => !listed.includes(r.zip));
    expect([ranked.length, few.length, outside.length]).toEqual([17, 4, 5]);
    const a = await ask('top zips in Sacramento by median price');
    expect(a).toContain(`In Sacramento, CA, ${ranked.length} zips had 5 or more arm's-length single-family sales in the 12 months`);
    expect(a).toContain(`; ${few.length} more zips had sales in their windows but fewer than 5, too few for a median, so they are left out`);
    expect(a).toContain(`; ${outside.length} more zips mailed as Sacramento (${outside.map((r) => `${r.zip} ${r.n < 5 ? 'fewer than 5' : r.n} sales`).join(', ')}) are not among the zips of its geo lookup (the Census place's), so they are not ranked`);
  });
  it('"top 5 zips by median price in Seattle": the 5 highest listed with their medians and sales over each zip\'s 12 months to its last sale', async () => {
    const zips = inList(data.zipsOfCity('Seattle', 'WA'));
    const day = `strptime(left("date", 8), '%Y%m%d')::date`;
    const top = await rawQuery<{ zip: string; n: number; med: number }>(`
      with s as (select zipcode as zip, ${day} as d, try_cast(price as double) as price from (select distinct * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
                 where try_cast(price as double) >= 10000 and zipcode in (${zips})),
           e as (select zip, max(d) as last from s group by zip)
      select s.zip, count(*)::int as n, median(price) as med from s join e using (zip) where d > last - interval 12 month group by s.zip having count(*) >= 5 order by med desc, s.zip limit 5`);
    const a = await ask('top 5 zips by median price in Seattle');
    expect(a).toContain(`By zip, highest first (each zip's own figure; no figure is kept for Seattle, WA as a whole): ${top.map((r) => `zip ${r.zip} ${usd(r.med)} (${r.n} sales)`).join('; ')}; and 18 other zips`);
  });
});

describe('a ranking of three or more places names the whole order, over one period', () => {
  it('"which borough has the highest median price": the five boroughs over the same 12 months to 2024-02-29, each with its median and sales, in order', async () => {
    // NYC's rules (market.md, as review-19-ranks.test.ts): one-family, over $10,000, portfolio deeds out
    const rows = await rawQuery<{ b: string; n: number; med: number }>(`
      with r as (select distinct trim("BOROUGH") as b, trim("BLOCK") as blk, trim("LOT") as lot, upper(trim("ADDRESS")) as addr, trim("ZIP CODE") as zip,
                   upper(coalesce(trim("APARTMENT NUMBER"), '')) as apt, try_cast("SALE DATE" as date) as d,
                   try_cast(replace("SALE PRICE", ',', '') as double) as price, left(trim("BUILDING CLASS CATEGORY"), 2) as cat
                 from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)),
           p as (select *, count(*) over (partition by b, blk, d, price) as kb, count(*) over (partition by b, d, price) as kboro from r where price > 10000),
           a as (select * from p where cat = '01' and kb = 1 and not (kboro > 1 and price % 500 <> 0 and (price + 1) % 1000 <> 0))
      select b, count(*)::int as n, median(price) as med from a where d > date '2023-02-28' and d <= date '2024-02-29' group by b order by med desc`);
    const name: Record<string, string> = { 1: 'Manhattan', 2: 'the Bronx', 3: 'Brooklyn', 4: 'Queens', 5: 'Staten Island' };
    expect(rows.length).toBe(5);
    const a = await ask('which borough has the highest median price');
    expect(a).toContain('no period named, so each borough over the 12 months to its last sale');
    for (const r of rows) expect(a).toContain(`${name[r.b]} (New York, NY) ${usd(r.med)} (${r.n.toLocaleString('en-US')} sales, 12 months to 2024-02-29)`);
    expect(a).toContain(`in order: ${rows.map((r, i) => `${i + 1}. ${name[r.b]} (New York, NY) ${usd(r.med)}`).join(', ')}`);
    expect(a).not.toMatch(/different periods/);
  });
});

describe('a follow-up comparing a place with the context\'s compares both over the context\'s period', () => {
  it('"compare with Kirkland" after {Bellevue, WA, 2015}: Bellevue and Kirkland, each over 2015, never Kirkland\'s latest month alone', async () => {
    const year = async (city: string): Promise<{ n: number; lo: number; hi: number }> => {
      const [r] = await rawQuery<{ n: number; lo: number; hi: number }>(`
        with m as (select m, count(*) as n, median(price) as med from ${KC} where zip in (${inList(data.zipsOfCity(city, 'WA'))}) and m like '2015-%' group by m)
        select sum(n)::int as n, min(med) filter (where m < '2015-05') as lo, max(med) filter (where m < '2015-05') as hi from m`);
      return r!;
    };
    const [b, k] = [await year('Bellevue'), await year('Kirkland')];
    const a = await ask('compare with Kirkland', { city: 'Bellevue', state: 'WA', period: '2015' });
    expect(a).toMatch(/^Reading the follow-up as Bellevue, WA \(the context's place\) compared with Kirkland, WA; the follow-up as the sale prices of Bellevue, WA and Kirkland, WA for 2015/);
    expect(a).toContain(`Bellevue, WA ${b.n} sales in 2015 (2015-01 to 2015-05 only), monthly medians ${usd(b.lo)} to ${usd(b.hi)}`);
    expect(a).toContain(`Kirkland, WA ${k.n} sales in 2015 (2015-01 to 2015-05 only), monthly medians ${usd(k.lo)} to ${usd(k.hi)}`);
    expect(a).not.toMatch(/2015-04 \(\d+ sales\)|investor/);
    // with no context place, or the context's own place named, nothing is added
    expect(await ask('compare with Kirkland')).not.toMatch(/context's place/);
    expect(await ask('compare with Bellevue', { city: 'Bellevue', state: 'WA', period: '2015' })).not.toMatch(/context's place/);
  });
});
