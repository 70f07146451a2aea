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
