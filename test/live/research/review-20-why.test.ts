// The twentieth research review's refusals that were wrong or gave a false reason: a county's count of a year refused
// though its year figure is kept (county-years.ts), ... Over the shared real build on the suite's pinned clock; every
// figure recomputed here from the raw files in ../shared/data.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const ask = async (query: string): Promise<string> => (await engine.answer({ query, depth: 'quick' })).answer;
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
