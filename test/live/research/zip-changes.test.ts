// A city's zips asked ranked by their price change ("which neighborhoods in Seattle are appreciating fastest", "where are
// prices falling in Brooklyn"): before, the city's own index change alone came back, nothing said of its zips, and "top 5
// zips in King County by price growth" was ranked by price level. Now the zips' own changes are listed, the end asked
// first, or the answer says why there is no list. Expected changes: King County's raw file, per zip and month (the
// trends' documented rule, written out again: from the latest complete month with 20+ sales back 3 months to a complete
// month with 20+ sales, complete by the file's span and its raw monthly totals; oracle-complete-month.ts), never the
// build's shards.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { coveredMonth, rawPartialMonths, type Span } from '../../helpers/oracle-complete-month.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import type { ResearchData } from '../../../live/research/data.ts';

let data: ResearchData;
let engine: ResearchEngine;
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
const shown = (x: number): string => `${x > 0 ? '+' : ''}${Math.round(x * 10) / 10}%`;

/** Each zip's 3-month change from the raw King County file, by the trends' rule, and the month it ends; none where it
 *  has none. */
async function rawChanges(zips: string[]): Promise<Map<string, { pct: number; end: string }>> {
  const rows = await rawQuery<{ zip: string; m: string; n: number; med: number }>(`
    select zipcode as zip, strftime(strptime("date", '%Y%m%dT%H%M%S'), '%Y-%m') as m, count(*)::int as n, median(price::double) as med
    from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
    where zipcode in (${zips.map((z) => `'${z}'`).join(', ')}) group by all`);
  const [span] = await rawQuery<Span>(`select strftime(min(d), '%Y-%m-%d') as first, strftime(max(d), '%Y-%m-%d') as last
    from (select strptime("date", '%Y%m%dT%H%M%S')::date as d from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true))`);
  // the file's partial months, from its total monthly sales (not a zip's own: its winter dip is no file edge)
  const partial = (await rawPartialMonths()).get('king_county')!;
  // the series' 60 months to the file's last month, a month with no sale a count of 0
  const lastMonth = span!.last.slice(0, 7);
  const months = Array.from({ length: 60 }, (_, i) => {
    const d = new Date(Date.UTC(Number(lastMonth.slice(0, 4)), Number(lastMonth.slice(5, 7)) - 60 + i, 1));
    return d.toISOString().slice(0, 7);
  });
  const out = new Map<string, { pct: number; end: string }>();
  for (const zip of zips) {
    const own = new Map(rows.filter((r) => r.zip === zip).map((r) => [r.m, r]));
    const counts = months.map((m) => own.get(m)?.n ?? 0);
    const ok = (i: number): boolean => i >= 0 && counts[i]! >= 20 && !partial.has(months[i]!) && coveredMonth(months[i]!, [span!]);
    let last = months.length - 1;
    while (last >= 0 && !ok(last)) last--;
    if (last >= 3 && ok(last - 3)) out.set(zip, { pct: (own.get(months[last]!)!.med / own.get(months[last - 3]!)!.med - 1) * 100, end: months[last]! });
  }
  return out;
}

/** The changes ranked together: the largest group ending in one month (the latest on a tie), highest first, and the
 *  ends of the others (review 26: a change is ranked only against changes over the same months). */
function ranked(changes: Map<string, { pct: number; end: string }>): { order: [string, number][]; end: string; others: string[] } {
  const n = new Map<string, number>();
  for (const c of changes.values()) n.set(c.end, (n.get(c.end) ?? 0) + 1);
  const [end] = [...n].sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]))[0]!;
  const order = [...changes].filter(([, c]) => c.end === end).map(([z, c]): [string, number] => [z, c.pct]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { order, end, others: [...changes.values()].filter((c) => c.end !== end).map((c) => c.end).sort() };
}

beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
});

describe('zips ranked by their price change', () => {
  it('Seattle: the zips whose 3-month changes end in one month, listed highest first, each equal to the raw file\'s; the others said apart', async () => {
    const { order, end, others } = ranked(await rawChanges(data.zipsOfCity('Seattle', 'WA')));
    expect(order.length).toBeGreaterThanOrEqual(3);
    expect(others.length).toBeGreaterThan(0); // 98119's change ends 2014-10: never ranked beside 2015-04's
    for (const q of ['which neighborhoods in Seattle are appreciating fastest', 'zips in Seattle with rising prices']) {
      const a = await ask(q);
      expect(a, q).toContain(`Across ${order.length} zips of Seattle, WA with a single-family price change over the 3 months to ${end}, `);
      expect(a, q).toContain(`; ${others.length} more zips have changes ending in other months (${others[0]} to ${others.at(-1)}), not ranked with these`);
      expect(a, q).toContain(`the changes run from ${shown(order.at(-1)![1])} (zip ${order.at(-1)![0]}) to ${shown(order[0]![1])} (zip ${order[0]![0]})`);
      expect(a, q).toContain(`By zip, highest first (each zip's own figure; no figure is kept for Seattle, WA as a whole): ${order.slice(0, 6).map(([z, v]) => `zip ${z} ${shown(v)}`).join('; ')}`);
    }
    // the low end asked: the same zips, lowest first
    const falling = await ask('where are prices falling in Seattle');
    expect(falling).toContain(`By zip, lowest first (each zip's own figure; no figure is kept for Seattle, WA as a whole): zip ${order.at(-1)![0]} ${shown(order.at(-1)![1])}`);
  });

  it('falls asked where every change ranked is a rise: said; "are falling" alone is read as the change', async () => {
    const { order } = ranked(await rawChanges(data.zipsOfCity('Renton', 'WA')));
    expect(order.length).toBeGreaterThanOrEqual(2);
    expect(order.every(([, v]) => v > 0)).toBe(true); // the raw file's own: Renton's zips all rose
    for (const q of ['which zips in Renton have falling prices', 'which zips in Renton are falling']) {
      const a = await ask(q);
      expect(a, q).toContain(`the changes run from ${shown(order.at(-1)![1])} (zip ${order.at(-1)![0]}) to ${shown(order[0]![1])} (zip ${order[0]![0]})`);
      expect(a, q).toContain('; none of them fell: the smallest rises come first');
    }
  });

  it('"top 5 zips in King County by price growth" ranks the change, not the price level', async () => {
    const { order, end } = ranked(await rawChanges(data.zipsOfCounty('53033')));
    const a = await ask('top 5 zips in King County by price growth');
    expect(a).not.toMatch(/by median sale price the most expensive/);
    expect(a).toContain(`Across ${order.length} zips of King County, WA with a single-family price change over the 3 months to ${end}, `);
    expect(a).toMatch(new RegExp(`By zip, highest first \\(each zip's own figure; no figure is kept for King County, WA as a whole\\): ${order.slice(0, 5).map(([z, v]) => `zip ${z} \\([^)]+\\) ${shown(v).replace('+', '\\+')}`).join('; ')}; and ${order.length - 5} other zips`));
  });

  it('a city whose sales carry no zip (Denver) says so, then gives its own change', async () => {
    const a = await ask('which zips in Denver had the biggest price increase');
    expect(a).toMatch(/^I don't have the zips of Denver, CO ranked by price change: Denver's [\d,]+ arm's-length single-family sales in the 12 months to [\d-]+ carry no zip code in the source/);
    expect(a).toMatch(/In Denver, CO, the single-family median-price index changed [+-][\d.]+% over the 12 months/);
  });

  it('a place where one zip or none has a change says there is no list, never one zip as the answer unsaid', async () => {
    expect(await ask('which zip codes in Queens saw prices drop the most')).toMatch(/^(Of the \d+ zips of Queens \(New York, NY\), only zip \d{5} has single-family price trends \(\d+ zips with sales\), so there is no list to rank|None of the \d+ zips of Queens)/);
    expect(await ask('fastest appreciating neighborhoods in Philadelphia')).toMatch(/^None of the \d+ zips of Philadelphia, PA has single-family price trends to rank \(\d+ zips with sales\): /);
  });

  it('a price level asked of zips stays a price ranking', async () => {
    expect(await ask('which zips in Seattle have the highest prices')).toMatch(/^In Seattle, WA, \d+ zips had 5 or more arm's-length single-family sales in the 12 months/);
  });
});
