// The eighteenth research review's misleading answers (E/F, G24, G25: live/research/state-clash.ts, forecast.ts,
// county-years.ts with metro.ts, typeless.ts): a zip or city written with a state it is not in answered without a word
// (or compared with the state written), a future price answered as if known, a county's year said "at least" where the
// metro path has the exact figure, "no condo sales" where the source records no property type. Over the shared real
// build on the suite's pinned clock; figures from the raw King County file in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => { data = researchData(); engine = new ResearchEngine(data, null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const KC = `(select distinct * from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`;
const day = "strptime(left(date, 8), '%Y%m%d')::date";

/** The raw King County file's sales (a row listed twice once) of a zip or of every zip, between two days (inclusive end). */
async function kcSales(where: string): Promise<{ n: number; m: number; a: string; b: string }> {
  const [r] = await rawQuery<{ n: number; m: number; a: string; b: string }>(`select count(*)::int as n, median(price::double) as m,
    min(${day})::varchar as a, max(${day})::varchar as b from ${KC} where ${where}`);
  return r!;
}

describe('E/F: a zip or city written with a state it is not in is said, and answered in its own state', () => {
  it('"how many homes sold in 98103 new york": zip 98103 is in Washington, its own count (the raw file\'s), never New York City\'s', async () => {
    const raw = await kcSales(`zipcode = '98103' and ${day} > date '2014-05-14' and ${day} <= date '2015-05-14'`);
    expect(raw.n).toBe(571);
    const r = await ask('how many homes sold in 98103 new york');
    expect(r).toMatch(/^Reading "98103 new york": zip 98103 is in Washington \(Seattle, WA\), not in New York/);
    expect(r).toContain(`Zip 98103 (Seattle, WA) had ${raw.n} arm's-length single-family sales in the 12 months to 2015-05-14, at a median price of ${usd(raw.m)}`);
    expect(r).not.toMatch(/New York, NY|9,\d{3} sales/);
  });

  it('"median price 11201 wa", "median price in 98103 oregon", "median price in seattle tx": said, never the state\'s answer or "no data"', async () => {
    expect(await ask('median price 11201 wa')).toMatch(/^Reading "11201 wa": zip 11201 is in New York \(Brooklyn, NY\), not in Washington.*: In zip 11201 \(Brooklyn, NY\)/);
    const or = await ask('median price in 98103 oregon');
    expect(or).toMatch(/^Reading "98103 oregon": zip 98103 is in Washington \(Seattle, WA\), not in Oregon.*: In zip 98103 \(Seattle, WA\), the median/);
    expect(or).not.toMatch(/Oregon no data/);
    for (const q of ['median price in seattle tx', 'median price in Seattle TX']) {
      expect(await ask(q), q).toMatch(/^Reading "seattle tx": Seattle is not in Texas \(no place of that name there\), so it is read as Seattle, WA.*: In Seattle, WA, the median/i);
    }
    // a state its place is in, and a word after a city that is no state, change nothing
    expect(await ask('median price in Portland OR')).not.toMatch(/is not in/);
    expect(await ask('seattle or portland median price')).not.toMatch(/is not in/);
  });
});

describe('E/F: a future price asked says plainly that no forecast is made, then the past trend', () => {
  it('"what will prices be in 98103 next year", "will prices in brooklyn go up": no forecast, then the trend answer', async () => {
    for (const [q, trend] of [['what will prices be in 98103 next year', 'price trend in 98103'], ['will prices in brooklyn go up', 'price trend in brooklyn']] as const) {
      const r = await ask(q);
      expect(r, q).toMatch(/^No forecast is made: the service reports recorded sales and their past trend only, never a future price\. /);
      expect(r.replace(/^No forecast is made[^.]*\. The past trend follows\. /, ''), q).toBe(await ask(trend));
    }
    expect(await ask('will I get my deposit back in texas')).not.toMatch(/forecast/);
  });
});

describe('G24: a county asked a year gives the exact figure its metro area\'s year gives, where the county holds all of it', () => {
  it('"median home price in King County in 2014": the raw file\'s 14,633 sales at $450,000, as "seattle metro median price 2014"', async () => {
    const raw = await kcSales(`${day} between date '2014-01-01' and date '2014-12-31'`);
    expect(raw.n).toBe(14633);
    const r = await ask('median home price in King County in 2014');
    expect(r).toMatch(new RegExp(`^In King County, WA, in 2014 there were ${raw.n.toLocaleString('en-US')} arm's-length single-family sales \\(months held: 2014-05 to 2014-12;`));
    expect(r).toContain(`dated ${raw.a} to ${raw.b}, at a median sale price of ${usd(raw.m)}`);
    expect(r).not.toMatch(/at least|no figure kept as a whole/);
    expect(await ask('seattle metro median price 2014')).toContain(`there were ${raw.n.toLocaleString('en-US')} arm's-length single-family sales, dated ${raw.a} to ${raw.b}, at a median sale price of ${usd(raw.m)}`);
  });

  it('a county sharing its metro\'s figure with others keeps its zips\' list ("Sacramento County in 2008")', async () => {
    expect(await ask('median price in sacramento county in 2008')).toMatch(/^Sacramento County, CA has no figure kept as a whole in 2008/);
  });
});

describe('G25: a property type asked of a market whose source records none is said so, never "no condo sales"', () => {
  it('"how many condos sold in 98004": King County\'s file has no type column, so condo sales cannot be told apart', async () => {
    const cols = await rawQuery<{ column_name: string }>(`select column_name from (describe select * from ${KC})`);
    expect(cols.length).toBeGreaterThan(10);
    expect(cols.filter((c) => /type|class|use/i.test(c.column_name))).toEqual([]);
    for (const [q, where] of [['how many condos sold in 98004', 'zip 98004 (Bellevue, WA)'], ['condo median price in seattle', 'Seattle, WA']] as const) {
      const r = await ask(q);
      expect(r, q).toMatch(new RegExp(`^We have no condo figures for ${where.replace(/[()]/g, '\\$&')}: its sales source \\(King County WA house sales[^)]*\\) records no property type`));
      expect(r, q).not.toMatch(/We have no condo sales|too few for a median/);
    }
    // a source that records types keeps its answer (Greenwich's condos, the Connecticut file)
    expect(await ask('how many condos sold in Greenwich CT')).toMatch(/^Greenwich, CT had \d+ arm's-length condo sales/);
  });
});

describe('E/F: both halves of a question answered, never the first alone', () => {
  it('"did prices go up in bellevue from q3 2014 to q1 2015": both quarters, each as asked alone', async () => {
    const r = await ask('did prices go up in bellevue from q3 2014 to q1 2015');
    for (const q of ['q3 2014', 'q1 2015']) {
      const own = /In Bellevue, WA, in (Q\d \d{4}) there were ([\d,]+) arm's-length single-family sales \((\d{4}-\d{2}) to (\d{4}-\d{2})\)/.exec(await ask(`prices in bellevue ${q}`))!;
      expect(r, q).toContain(own[0]);
    }
    expect(r).toMatch(/From Q3 2014 to Q1 2015, arm's-length sales went from/);
  });

  it('"denver condos vs single family median": the condo and the single-family median, each as asked alone', async () => {
    const r = await ask('denver condos vs single family median');
    for (const type of ['condo', 'single-family']) {
      const own = new RegExp(`In Denver, CO, the median ${type} sale price was \\$[\\d,]+ in \\d{4}-\\d{2} \\([\\d,]+ sales\\)`).exec(await ask(`denver ${type} median price`))!;
      expect(r, type).toContain(own[0]);
    }
    // a type the source cannot tell apart is said, beside the one it can (King County: review 18 G25)
    const kc = await ask('condo vs single family prices in 98103');
    expect(kc).toMatch(/We have no condo figures for zip 98103 \(Seattle, WA\): its sales source .* records no property type/);
    expect(kc).toMatch(/In zip 98103 \(Seattle, WA\), the median single-family sale price was/);
    expect(kc).not.toMatch(/could not find a place/);
  });
});
