// Review 25: Connecticut's head-of-file extract holds every month of 2022-10..2023-09 in part only (its busiest month
// under a quarter of the 2022 file's: no month whole), so (1) a comparison ranks only figures of one period from
// months covered alike (live/research/like-for-like.ts), pooled sides over one window (price-level.ts poolWindows), a
// pooled median says why GET /v1/market/trends gives its months none; (2) a window's months are never called covered
// when none is whole (window-gaps.ts). Expected figures are our own SQL over the raw CT files and the research oracle's
// arm's-length sales (oracle_arms); the pinned clock's shared build.
import { describe, expect, it } from 'vitest';
import { askWithSalesOracle } from '../../helpers/research.ts';
import { windowSalesOracle } from '../../helpers/oracle-research-market.ts';
import { sql } from '../../helpers/oracle-research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { readShard } from '../../helpers/build.ts';
import { trendsBody, type StoredTrends } from '../../../api/market-trends.ts';

const ask = askWithSalesOracle();
const usd = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const CT = (file: string): string => `read_csv('${dataFile(`connecticut-real-estate-sales/${file}`)}', all_varchar = true)`;
const HEAD = CT('Real_Estate_Sales_2001-2022_GL.head9999.csv.gz');
const Y2022 = CT('real_estate_sales_2022-01_2022-09_listyear2021.csv.gz');

/** The raw facts the coverage words rest on: the head file's busiest month of 2022-10..2023-09 is under a quarter of the
 *  2022 file's busiest (a thin extract: no month whole), and the 2022 file holds no row of `town`, or some. */
async function rawCover(town: string): Promise<{ thin: boolean; town2022: number; townHead: number }> {
  const [r] = await rawQuery<{ head: number; y2022: number; town2022: number; town_head: number }>(`
    with h as (select date_trunc('month', strptime("Date Recorded", '%m/%d/%Y')) as m, count(*) as n from ${HEAD}
               where strptime("Date Recorded", '%m/%d/%Y') >= date '2022-10-01' group by 1),
         y as (select date_trunc('month', strptime("Date Recorded", '%m/%d/%Y')) as m, count(*) as n from ${Y2022} group by 1)
    select (select max(n) from h)::int as head, (select max(n) from y)::int as y2022,
           (select count(*) from ${Y2022} where "Town" = '${town}')::int as town2022,
           (select count(*) from ${HEAD} where "Town" = '${town}' and strptime("Date Recorded", '%m/%d/%Y') >= date '2022-10-01')::int as town_head`);
  return { thin: r!.head < 0.25 * r!.y2022, town2022: r!.town2022, townHead: r!.town_head };
}

describe('review 25: a window of months held in part only is never said covered', () => {
  it('"how many sales in Greenwich CT": no month of its 12 whole, said so (before: "the 12 months of it the source covers")', async () => {
    const raw = await rawCover('Greenwich');
    expect(raw.thin).toBe(true);
    expect(raw.town2022).toBe(0); // no 2022 row: 2022-09 is not covered at all
    expect(raw.townHead).toBeGreaterThan(100);
    const w = await windowSalesOracle({ state: 'CT', city: 'Greenwich' }, 'sfr', 12);
    const a = (await ask('how many sales in Greenwich CT')).answer;
    expect(a).toContain(`Greenwich, CT had ${w.n} arm's-length single-family sales in the 12 months to ${w.asOf} (the source covers none of 2022-09, inside this window, so these sales fall in the 12 months of it the source covers in part only, none whole (2022-10 to 2023-09): `);
    expect(a).not.toMatch(/the 12 months of it the source covers:/);
  });

  it('Bridgeport over 24 months: some months whole (the 2022 file), some in part only, some not at all, each said', async () => {
    const raw = await rawCover('Bridgeport');
    expect(raw.thin && raw.town2022 > 1000).toBe(true);
    // (the count is not checked here: the oracle keeps both copies of the two sales of 2022 the head-of-file extract
    // and the 2022 file both record, 360 Vincellette St and 38 Riverview Dr, where the build keeps one)
    const a = (await ask('how many sales in Bridgeport CT in the last 24 months')).answer;
    expect(a).toMatch(/^Bridgeport, CT had [\d,]+ arm's-length single-family sales in the 24 months to 2023-09-29 \(the source covers none of 2021-09 to 2021-12, inside this window, so these sales fall in the 21 months of it the source covers, 2022-10 to 2023-09 in part only: /);
  });

  it('Bridgeport over 3 months: every month it touches held in part only, and why the trends give them no median', async () => {
    const w = await windowSalesOracle({ state: 'CT', city: 'Bridgeport' }, 'sfr', 3);
    const a = (await ask('median home price in Bridgeport CT')).answer;
    expect(a).toContain(`the median of the ${w.n} arm's-length single-family sales in the 3 months to ${w.asOf} (the source covers every month this window touches, 2023-06 to 2023-09, in part only, none whole: `);
    expect(a).toContain(`was ${usd(w.median!)}`);
    expect(a).toContain('GET /v1/market/trends gives 2023-06 to 2023-09 no monthly median, as each is held in part only');
    // and the trends shard indeed keeps those months' counts with no median
    const s = readShard<{ series: { month: string[]; sales_count: (number | null)[]; median_price: (number | null)[] } }>('market/trends/city/CT/bridgeport/sfr.json');
    for (const m of ['2023-06', '2023-07', '2023-08', '2023-09']) {
      const i = s.series.month.indexOf(m);
      expect(s.series.sales_count[i], m).toBeGreaterThan(0);
      expect(s.series.median_price[i], m).toBeNull();
    }
  });
});

describe('review 25: a comparison ranks only like for like', () => {
  it('"Hartford vs Bridgeport" and "which is more expensive": both pooled over one window, ranked by the raw medians', async () => {
    const [h, b] = [await windowSalesOracle({ state: 'CT', city: 'Hartford' }, 'sfr', 6), await windowSalesOracle({ state: 'CT', city: 'Bridgeport' }, 'sfr', 6)];
    // Hartford's 3 months hold under 20 sales: the shared window is 6 months (before: Hartford 6, Bridgeport 3)
    expect((await windowSalesOracle({ state: 'CT', city: 'Hartford' }, 'sfr', 3)).n).toBeLessThan(20);
    expect(h.n).toBeGreaterThanOrEqual(20);
    const dearer = b.median! > h.median! ? 'Bridgeport, CT' : 'Hartford, CT';
    for (const q of ['Hartford vs Bridgeport', 'which is more expensive, Hartford or Bridgeport']) {
      const a = (await ask(q)).answer;
      expect(a, q).toContain(`Hartford, CT ${usd(h.median!)} (${h.n} sales, 6 months to ${h.asOf})`);
      expect(a, q).toContain(`Bridgeport, CT ${usd(b.median!)} (${b.n} sales, 6 months to ${b.asOf})`);
      expect(a, q).toContain(`so ${dearer} is the more expensive (${usd(Math.max(b.median!, h.median!))}) (each figure is of the 6 months to ${b.asOf}, months the source files hold in part only`);
    }
  });

  it('"Stamford vs Bridgeport median price": a month of the 2022 file beside a pooled window of the extract is not ranked', async () => {
    const b = await windowSalesOracle({ state: 'CT', city: 'Bridgeport' }, 'sfr', 3);
    const a = (await ask('Stamford vs Bridgeport median price')).answer;
    expect(a).toContain(`Bridgeport, CT ${usd(b.median!)} (${b.n} sales, 3 months to ${b.asOf})`);
    expect(a).toMatch(/Stamford, CT \$[\d,]+ \(2022-\d\d, \d+ sales\)/);
    expect(a).toContain(`(not ranked: these figures are of different periods, 2022-`);
    expect(a).not.toMatch(/is the (more expensive|cheaper)/);
  });

  it('"how many sales in Hartford vs Bridgeport over 24 months": one window, months covered differently, so not ranked', async () => {
    const [h, b] = [await windowSalesOracle({ state: 'CT', city: 'Hartford' }, 'sfr', 24), await windowSalesOracle({ state: 'CT', city: 'Bridgeport' }, 'sfr', 24)];
    expect(h.asOf).toBe(b.asOf);
    // Bridgeport's 2022 file covers 2022-01..09 whole; Hartford has no row in it (its months are the extract's only)
    expect((await rawCover('Hartford')).town2022).toBe(0);
    const a = (await ask('how many sales in Hartford vs Bridgeport over 24 months')).answer;
    expect(a).toContain(`Hartford, CT ${h.n} sales (24 months to ${h.asOf})`);
    expect(a).toMatch(/Bridgeport, CT [\d,]+ sales \(24 months to 2023-09-29\)/); // (the oracle's count: see above)
    expect(a).toContain("(not ranked: these figures are of the same period, the 24 months to 2023-09-29, but Hartford, CT's of months the source files hold in part only");
    expect(a).not.toMatch(/has (more|fewer) sales/);
  });

  it('"how many sales in Hartford vs Bridgeport" (12 months): a window touching one day of a whole month is of the extract\'s kind, ranked', async () => {
    const [h, b] = [await windowSalesOracle({ state: 'CT', city: 'Hartford' }, 'sfr', 12), await windowSalesOracle({ state: 'CT', city: 'Bridgeport' }, 'sfr', 12)];
    const a = (await ask('how many sales in Hartford vs Bridgeport')).answer;
    expect(a).toContain(`Hartford, CT ${h.n} sales (12 months to ${h.asOf})`);
    expect(a).toContain(`Bridgeport, CT ${b.n} sales (12 months to ${b.asOf})`);
    expect(a).toContain(`so ${b.n > h.n ? 'Bridgeport' : 'Hartford'}, CT has more sales (${Math.max(b.n, h.n)}) (each figure is of the 12 months to 2023-09-29, months the source files hold in part only`);
  });
});

describe('review 25: a type the 2022 file does not tell apart is not said absent', () => {
  it('"condo prices in Stamford CT": its residential sales of 2022-01..09 carry no subtype, counted as single-family, said', async () => {
    const [raw] = await rawQuery<{ n: number; typed: number }>(`select count(*)::int as n,
        (select count(*) from ${HEAD} where "Town" = 'Stamford' and "Residential Type" = 'Condo' and strptime("Date Recorded", '%m/%d/%Y') >= date '2022-10-01')::int as typed
      from ${Y2022} where "Town" = 'Stamford' and "Property Type" = 'Residential'`);
    expect(raw!.n).toBeGreaterThan(1000); // the 2022 file's residential rows: no subtype column at all
    expect(raw!.typed).toBe(0); // and no typed condo sale of Stamford after it
    const a = (await ask('condo prices in Stamford CT')).answer;
    expect(a).toMatch(/^I don't have that: stamford, CT has no month with 5 or more condo sales in the 60 months to 2022-09-\d\d, too few for a median sale price; but [\d,]+ residential sales of 2022-01 to 2022-09 come from Connecticut's 2022 sales file, which does not tell condo sales from single-family homes/i);
  });
});

describe('review 25: GET /v1/market/trends names the research answer\'s pooled median of its part months', () => {
  it('Bridgeport single-family, 24 months: month_note lists 2022-10..2023-09 and says a pooled median is of such months only', () => {
    const body = trendsBody(readShard<StoredTrends>('market/trends/city/CT/bridgeport/sfr.json'), 24) as { month_note: string | null; series: { month: string; median_price: number | null }[] };
    expect(body.series.filter((m) => m.month >= '2022-10').every((m) => m.median_price === null)).toBe(true);
    expect(body.month_note).toMatch(/^2022-10, 2022-11, .*2023-09: the source files cover these months in part only/);
    expect(body.month_note).toContain('the research answer (POST /v1/research/query) may pool such months\' sales over a window into one median, said to be of months held in part only');
  });
});

describe('review 25: a trend whose latest months are held in part only says its figures end before them', () => {
  it('"price trend in Bridgeport CT": 2022-09 is the latest whole month (the 2022 file ends 2022-09-30), 2022-10..2023-09 in part only', async () => {
    const [r] = await rawQuery<{ last: string }>(`select strftime(max(strptime("Date Recorded", '%m/%d/%Y')), '%Y-%m-%d') as last from ${Y2022} where "Town" = 'Bridgeport'`);
    expect(r!.last).toBe('2022-09-30');
    expect((await rawCover('Bridgeport')).thin).toBe(true);
    const a = (await ask('price trend in Bridgeport CT')).answer;
    expect(a).toContain('2022-09 is the latest month recorded whole with 20 or more sales: 2022-10 to 2023-09, after it, are recorded in part only, with no median or index (as in GET /v1/market/trends)');
  });
});

describe('review 25: a county\'s towns of different periods ranked within their largest like group', () => {
  it('"cheapest towns in Fairfield County CT": the towns of 2022-09 ranked among themselves, by their raw medians', async () => {
    const a = (await ask('cheapest towns in Fairfield County CT')).answer;
    const shown = [...a.matchAll(/([A-Z][\w ]+), CT \$([\d,]+) \(2022-09, (\d+) sales\)/g)].map((m) => ({ town: m[1]!, median: Number(m[2]!.replaceAll(',', '')), n: Number(m[3]) }));
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (const s of shown) {
      const [o] = await sql<{ n: number; median: number }>(`select count(*)::int as n, quantile_cont(sale_price, 0.5) as median from oracle_arms
        where state_code = 'CT' and city = $town and property_type = 'sfr' and strftime(sale_date, '%Y-%m') = '2022-09'`, { town: s.town });
      expect({ town: s.town, n: s.n, median: s.median }).toEqual({ town: s.town, n: o!.n, median: Number(o!.median) });
    }
    const cheapest = shown.reduce((x, y) => (y.median < x.median ? y : x));
    expect(a).toContain(`, so of the ${shown.length} figures of 2022-09, ${cheapest.town}, CT is the cheapest (${usd(cheapest.median)})`);
    expect(a).toContain(`(the others not ranked with these ${shown.length}: these figures are of different periods`);
  });
});

describe('review 25: many runs of months in a window counted, not listed', () => {
  it('"median price in Danbury CT over the last 2 years": the head-of-file extract\'s stray months counted with their first and last', async () => {
    // the head-of-file extract's Danbury rows with no non-use code before the 2022 file: one or two a month
    const stray = await rawQuery<{ m: string }>(`select distinct strftime(strptime("Date Recorded", '%m/%d/%Y'), '%Y-%m') as m from ${HEAD}
      where "Town" = 'Danbury' and "Non Use Code" is null and strptime("Date Recorded", '%m/%d/%Y') between date '2020-09-29' and date '2021-12-31' order by 1`);
    const months = stray.map((r) => r.m);
    // the 2022 file runs to 2022-09-30 (2022-09 whole), Danbury's last row of it is of 2022-09-29 (the window's end)
    const [last] = await rawQuery<{ d: string; file_end: string }>(`select strftime(max(strptime("Date Recorded", '%m/%d/%Y')) filter (where "Town" = 'Danbury'), '%Y-%m-%d') as d,
      strftime(max(strptime("Date Recorded", '%m/%d/%Y')), '%Y-%m-%d') as file_end from ${Y2022}`);
    expect(last).toEqual({ d: '2022-09-29', file_end: '2022-09-30' });
    const a = (await ask('median price in Danbury CT over the last 2 years')).answer;
    expect(a).toContain('in the 24 months to 2022-09-29 (');
    // 25 months touched (2020-09-29 is inside 2020-09): 2022-01..09 whole, the stray months in part only, the rest none
    const none = 25 - 9 - months.length;
    expect(a).toContain(`(the source covers none of ${none} months between 2020-09 and 2021-12, inside this window, so these sales fall in the ${9 + months.length} months of it the source covers, ${months.length} months between ${months[0]} and ${months.at(-1)} in part only: `);
  });
});
