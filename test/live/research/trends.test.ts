// Price-trend questions ("are prices going up in 98103?") answered from the trends shards: the change the answer
// states is recomputed here from the shard's stored monthly levels by the documented rule (20 sales at both ends,
// from the latest such month back n months; warehouse/docs/market.md), written out again in this file, and the
// median sale price is the stored month's. A question about price per sqft stays a comps answer.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { buildDir, readShard } from '../../helpers/build.ts';
import { researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { coveredMonth, rawPartialMonths, type Span } from '../../helpers/oracle-complete-month.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

interface Stored { as_of: string; series: { month: string[]; median_price: (number | null)[]; level: (number | null)[]; index_sample_count: number[] } }

/** King County's raw file span (its first and last sale day): a month is complete only when the file covers it whole
 *  (warehouse/docs/market.md, the coverage rule). */
async function kingCountySpan(): Promise<Span> {
  const [span] = await rawQuery<Span>(`select strftime(min(d), '%Y-%m-%d') as first, strftime(max(d), '%Y-%m-%d') as last
    from (select strptime("date", '%Y%m%dT%H%M%S')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`);
  return span!;
}

/** The documented change: from the latest complete month with a level and 20+ sales back `n` months to a complete month
 *  with a level and 20+ sales; complete by the source's span and its raw monthly totals (`partial`: not the market's own
 *  count). */
function change(s: Stored, n: number, span: Span, partial: ReadonlySet<string>): { pct: number | null; end: string | null; price: number | null } {
  const c = s.series;
  const solid = (i: number): boolean => i >= 0 && c.level[i] !== null && c.index_sample_count[i]! >= 20;
  const complete = (i: number): boolean => !partial.has(c.month[i]!) && coveredMonth(c.month[i]!, [span]);
  let last = c.month.length - 1;
  while (last >= 0 && !(solid(last) && complete(last))) last--;
  if (last < 0) return { pct: null, end: null, price: null };
  const pct = solid(last - n) && complete(last - n) ? (Math.exp(c.level[last]! - c.level[last - n]!) - 1) * 100 : null;
  return { pct, end: c.month[last]!, price: c.median_price[last]! };
}
const shown = (x: number): string => `${x > 0 ? '+' : ''}${Math.round(x * 10) / 10}%`;

let engine: ResearchEngine;
let kcSpan: Span;
/** Each source's partial months from its raw files' monthly totals (oracle-complete-month.ts). */
let partials: Map<string, Set<string>>;
beforeAll(async () => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  kcSpan = await kingCountySpan();
  partials = await rawPartialMonths();
});
/** NYC's rolling sales cover each of their months whole (first sale on a month's first days, last on 2024-02-29): its
 *  raw monthly totals alone decide (market.md); the months of its gap (2022-04..2023-02) hold no sale, so no level. */
const COVERED: Span = { first: '0001-01-01', last: '9999-12-31' };

describe('research: price trends', () => {
  it('Seattle and its zips: the stated change and median price are the shard\'s, by the rule, for 12 and 6 months', async () => {
    const zips = fs.readdirSync(path.join(buildDir(), 'shards', 'market', 'trends', 'zip')).filter((z) => z.startsWith('981')).slice(0, 12);
    expect(zips.length).toBeGreaterThan(5);
    const asks: [string, string, number | null][] = [['Are home prices going up in Seattle, WA?', 'market/trends/city/WA/seattle/sfr.json', null],
      ...zips.map((z): [string, string, number | null] => [`How have prices changed in ${z} over the last 6 months?`, `market/trends/zip/${z}/sfr.json`, 6]),
      // a rise or a drop asked ("how much did prices rise"): the change too (before review 61, the median price alone)
      ...zips.slice(0, 6).map((z, i): [string, string, number | null] => [`How much did prices ${i % 2 ? 'drop' : 'rise'} in ${z} over the last 6 months?`, `market/trends/zip/${z}/sfr.json`, 6])];
    let stated = 0;
    for (const [q, rel, months] of asks) {
      const want = change(readShard<Stored>(rel), months ?? 12, kcSpan, partials.get('king_county')!);
      const b = await engine.answer({ query: q });
      expect(b.sources.map((s) => s.type), q).toEqual(['trends']);
      if (want.end === null) { expect(b.answer, q).toMatch(/too few for a price trend/); continue; }
      if (want.pct === null) expect(b.answer, q).toContain(`no ${months ?? 12}-month change`);
      else { expect(b.answer, q).toContain(`changed ${shown(want.pct)} over the ${months ?? 12} months to ${want.end}`); stated++; }
      if (want.price !== null) expect(b.answer, q).toContain(`median sale price $${want.price.toLocaleString('en-US')} in ${want.end}`);
    }
    expect(stated).toBeGreaterThan(3); // the case is exercised, not only its refusals
  });

  it('a price level asked ("median home price in 98103"): the median sale price of the latest complete month with 20 sales, recomputed from the raw King County file', async () => {
    // King County's raw sales by zip and month: prices of at least $10,000, a sale recorded twice counted once (the
    // rule market_monthly documents); per zip the latest complete month (the file's span, and no partial month of King
    // County's raw monthly totals: a zip's winter dip is no file edge) with 20 sales, and its median
    const months = await rawQuery<{ zip: string; month: string; n: number; median: number }>(`
      with s as (
        select distinct zipcode as zip, strptime("date", '%Y%m%dT%H%M%S')::date as d, try_cast(price as double) as price, id
        from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))
      select zip, strftime(d, '%Y-%m') as month, count(*)::int as n, median(price) as median from s where price >= 10000 group by all order by zip, month`);
    const raw: typeof months = [];
    for (const zip of new Set(months.map((m) => m.zip))) {
      const own = months.filter((m) => m.zip === zip);
      const at = own.findLast((o) => o.n >= 20 && !partials.get('king_county')!.has(o.month) && coveredMonth(o.month, [kcSpan]));
      if (at) raw.push(at);
    }
    const asks = raw.filter((r) => ['98103', '98115', '98004', '98052', '98118'].includes(r.zip));
    expect(asks.length).toBe(5);
    for (const { zip, month, n, median } of asks) {
      for (const q of [`What is the median home price in ${zip}?`, `how much do houses cost in ${zip}`]) {
        // on the clock of the zip's last sale: the confidence by sales count, not by the data's age (review-6.test.ts)
        const asOf = readShard<Stored>(`market/trends/zip/${zip}/sfr.json`).as_of;
        const b = await new ResearchEngine(engine.data, null, asOf).answer({ query: q });
        expect(b.sources.map((s) => s.type), q).toEqual(['trends']);
        expect(b.answer, q).toContain(`the median single-family sale price was $${median.toLocaleString('en-US')} in ${month} (${n} sales)`);
        expect(b.confidence, q).toBe(n >= 50 ? 'high' : 'medium');
      }
    }
    // a namesake read with no state said is named even when there is nothing to say of it
    const kc = await engine.answer({ query: "How's the Kansas City housing market?" });
    expect(kc.answer).toMatch(/^Reading "Kansas City" as Kansas City, MO \(the most populous of \d+ US places of that name; name the state for another\): /);
    expect(kc.confidence).toBe('low');
    // Denver records no sqft or zip (no comps), but its sales make a city price: answered, not refused
    const denver = await engine.answer({ query: 'What are home prices in Denver right now?' });
    expect(denver.answer).toMatch(/^In Denver, CO, the median single-family sale price was \$[\d,]+ in \d{4}-\d{2} \([\d,]+ sales\)/);
  });

  it('a market asked about as a whole: the price level and the investor overview, each cited; topics we do not record are said, with no source', async () => {
    const seattle = await engine.answer({ query: "How's the Seattle housing market?" });
    const want = readShard<{ series: { month: string[]; median_price: (number | null)[]; sales_count: (number | null)[] } }>('market/trends/city/WA/seattle/sfr.json').series;
    const counts = want.sales_count.map((n) => n ?? 0);
    let at = want.month.length - 1;
    while (at >= 0 && !(counts[at]! >= 20 && want.median_price[at] !== null && !partials.get('king_county')!.has(want.month[at]!))) at--;
    expect(at).toBeGreaterThan(0);
    expect(seattle.answer).toContain(`the median single-family sale price was $${want.median_price[at]!.toLocaleString('en-US')} in ${want.month[at]} (${want.sales_count[at]} sales)`);
    expect(seattle.sources.map((s) => s.type)).toEqual(['trends', 'investor']);
    for (const q of ['property taxes in Texas', 'average rent in Seattle']) {
      const b = await engine.answer({ query: q });
      expect(b.answer, q).toMatch(/^I don't have that: we record /);
      expect(b.sources, q).toEqual([]); // before: a Tyler v. Hennepin record that only shared the word "tax"
      expect(b.confidence, q).toBe('low');
    }
  });

  it('a change without a start month says why: Philadelphia\'s 3-month start has 20+ sales but is incompletely recorded, and the answer says so with its count', async () => {
    const c = readShard<Stored>('market/trends/city/PA/philadelphia/sfr.json').series;
    const counts = c.index_sample_count;
    const partial = partials.get('philadelphia')!;
    let last = c.month.length - 1;
    while (last >= 0 && !(c.level[last] !== null && counts[last]! >= 20 && !partial.has(c.month[last]!))) last--;
    const first = last - 3;
    expect(first).toBeGreaterThanOrEqual(0);
    expect(counts[first]).toBeGreaterThanOrEqual(20); // not the too-few-sales case
    expect(partial.has(c.month[first]!)).toBe(true); // the oracle's own reading: the roll records the start month in part
    const b = await engine.answer({ query: 'How have home prices changed in Philadelphia over the last 3 months?' });
    // review 17: a month the files cover in part only has no index level; the answer says so with its count
    expect(b.answer).toContain(`no 3-month change: ${c.month[first]} is not covered by the source files`);
    expect(b.answer).toContain(`the ${counts[first]!.toLocaleString('en-US')} sales recorded in it are not the month's count`);
    expect(b.answer).not.toMatch(/fewer than 20/);
  });

  it('a New York City borough is answered from its own market (the build keeps one per borough), not New York\'s said to be the whole city\'s', async () => {
    for (const [borough, slug] of [['Brooklyn', 'brooklyn'], ['Queens', 'queens']] as const) {
      const sfr = readShard<Stored>(`market/trends/city/NY/${slug}/sfr.json`).series;
      const want = change({ as_of: '', series: sfr }, 12, COVERED, partials.get('nyc')!);
      const trend = await engine.answer({ query: `Are home prices going up in ${borough}?` });
      expect(trend.sources.map((x) => x.citation), borough).toEqual([expect.stringContaining(`price trend for ${borough}, NY, sfr`)]);
      expect(trend.answer).not.toMatch(/as a whole/);
      if (want.price !== null) expect(trend.answer, borough).toContain(`median sale price $${want.price.toLocaleString('en-US')} in ${want.end}`);
      const inv = readShard<{ as_of: string }>(`market/investor/NY/${slug}/12.json`);
      const investors = await engine.answer({ query: `investor activity in ${borough} NY` });
      expect(investors.answer, borough).toContain(`In ${borough}, NY,`);
      expect(investors.answer).not.toMatch(/as a whole/);
      expect(investors.sources[0]!.citation).toContain(`investor overview for ${borough}, NY, 12 months, as of ${inv.as_of}`);
    }
  });

  it('a state alone asks for a zip or city (one of no sales says none has any, h68ask); price per sqft stays a comps answer', async () => {
    const st = await engine.answer({ query: 'What is the price trend in Texas?' });
    expect(st.confidence).toBe('low');
    expect(st.answer).toMatch(/no sales source of this build has a sale anywhere in it/);
    expect((await engine.answer({ query: 'What is the price trend in Pennsylvania?' })).answer).toMatch(/per zip code or city/);
    const comps = await engine.answer({ query: 'median price per sqft trend in 98103' });
    expect(comps.sources.map((s) => s.type)).toContain('comps');
  });
});
