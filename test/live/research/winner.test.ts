// The one rule for a comparison's winner (live/research/ranks.ts, compose.ts verdict): every compared figure ranks
// the places in the direction the question asks (asked.ts readDirection), the winner named with its figure, ties said
// as ties, "of the N with a figure" when a place has none, superlatives for three or more. Figures are recomputed from
// the raw King County file (../shared/data), and the legal scores with the formulas of warehouse/docs/legal.md
// (test/helpers/oracle-research-legal.ts), never from the shards the answer reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { verdict } from '../../../live/research/compose.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import type { Fact } from '../../../live/research/facts.ts';
import { readDirection } from '../../../live/research/asked.ts';
import { RANK, ranks } from '../../../live/research/ranks.ts';
import { buildDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { closeResearchOracle, openResearchOracle } from '../../helpers/oracle-research.ts';
import { friendlinessOf } from '../../helpers/oracle-research-legal.ts';

let engine: ResearchEngine;
const ask = (query: string, depth: 'quick' | 'deep' = 'quick') => engine.answer({ query, depth });
const one = (n: number): string => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, '');

beforeAll(async () => {
  engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
  await openResearchOracle(buildDir());
});
afterAll(() => closeResearchOracle());

/** King County's arm's-length sales per zip in the 12 months to each zip's latest sale, from the raw file: a sale
 *  listed twice counted once, $10,000 or more (the file has no portfolio deeds to leave out). */
async function kcYear(zips: readonly string[]): Promise<Map<string, { n: number; end: string }>> {
  const rows = await rawQuery<{ z: string; n: number; e: string }>(`
    with s as (select distinct id, zipcode as z, strptime("date", '%Y%m%dT%H%M%S')::date as d, price::double as p
               from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
               where zipcode in (${zips.map((z) => `'${z}'`).join(', ')})),
         a as (select * from s where p >= 10000), e as (select z, max(d) as e from a group by z)
    select a.z, count(*)::int as n, e.e::varchar as e from a join e using (z) where a.d > e.e - interval 12 month group by a.z, e.e`);
  return new Map(rows.map((r) => [r.z, { n: Number(r.n), end: r.e }]));
}

describe('a sales count compared (finding 2)', () => {
  it('"which has more sales, 98103 or 98117" is a sales-count comparison naming the winner with both counts', async () => {
    const raw = await kcYear(['98103', '98117']);
    const [a, b] = [raw.get('98103')!, raw.get('98117')!];
    expect(a.n).not.toBe(b.n);
    const more = a.n > b.n ? ['98103', a] as const : ['98117', b] as const;
    const r = await ask('which has more sales, 98103 or 98117');
    expect(r.answer).not.toMatch(/Closest matching rule|legal advice/);
    expect(r.answer).toContain(`zip 98103 (Seattle, WA) ${a.n} sales (12 months to ${a.end})`);
    expect(r.answer).toContain(`zip 98117 (Seattle, WA) ${b.n} sales (12 months to ${b.end})`);
    expect(r.answer).toContain(`so zip ${more[0]} (Seattle, WA) has more sales (${more[1].n})`);
    // the low end asked: the fewer
    const few = await ask('which had fewer sales, 98103 or 98117?');
    const less = a.n < b.n ? ['98103', a] as const : ['98117', b] as const;
    expect(few.answer).toContain(`so zip ${less[0]} (Seattle, WA) has fewer sales (${less[1].n})`);
  });
});

describe('one direction for every ranked figure', () => {
  it('the question\'s direction is read once: low words, high words, neither or both', () => {
    expect(readDirection('which is cheapest')).toBe('low');
    expect(readDirection('which is more affordable')).toBe('low');
    expect(readDirection('which has fewer sales')).toBe('low');
    expect(readDirection('which is less landlord friendly')).toBe('low');
    expect(readDirection('which has more sales')).toBe('high');
    expect(readDirection('the most expensive of')).toBe('high');
    expect(readDirection('compare 98103 and 98117')).toBeNull();
    expect(readDirection('the cheapest and the most expensive')).toBeNull();
  });

  it('a legal score follows the direction asked: "less landlord friendly" names the lower score', async () => {
    const s = { Ohio: friendlinessOf('OH'), Michigan: friendlinessOf('MI') };
    const low = s.Ohio < s.Michigan ? 'Ohio' : 'Michigan';
    const r = await ask('which is less landlord friendly, ohio or michigan');
    expect(r.answer).toContain(`so ${low} is the less landlord-friendly (${one(s[low])} out of 100)`);
  });

  it('a market figure with no direction word names the higher, with its figure (rehab momentum had no winner)', async () => {
    const r = await ask('compare rehab momentum in 98103 and 98117');
    const vals = [...r.answer.matchAll(/zip (\d{5}) \(Seattle, WA\) ([\d.]+) \(/g)].map((m) => ({ z: m[1]!, v: Number(m[2]) }));
    expect(vals).toHaveLength(2);
    const top = vals.sort((x, y) => y.v - x.v)[0]!;
    expect(r.answer).toContain(`so zip ${top.z} (Seattle, WA) has the higher rehab momentum (${top.v})`);
  });
});

describe('the verdict\'s wording (pure)', () => {
  const data = {} as ResearchData;
  const zips = ['98103', '98117', '98115'].map((zip) => ({ state: 'WA', zip, city: 'Seattle', from: 'query' as const }));
  const fact = (i: number, n: number | null, dir: 'high' | 'low' | null = null, targets = zips): Fact => ({
    intent: 'trends', target: targets[i]!, value: n === null ? null : `$${n}`, sentence: '', detail: [], source: null, confidence: 'high', primary: true, uncertain: null,
    ...(n === null ? {} : ranks({ targets, direction: dir }, n, `$${n}`, RANK.price)),
  });
  it('ties are said as ties: all places, or those tied at the top of three', () => {
    expect(verdict(data, zips.slice(0, 2), [fact(0, 500, null, zips.slice(0, 2)), fact(1, 500, null, zips.slice(0, 2))])).toBe(', so zip 98103 (Seattle, WA) and zip 98117 (Seattle, WA) are tied ($500 each)');
    expect(verdict(data, zips, [fact(0, 500), fact(1, 500), fact(2, 400)])).toBe(', so zip 98103 (Seattle, WA) and zip 98117 (Seattle, WA) are tied highest ($500 each)');
    expect(verdict(data, zips, [fact(0, 500, 'low'), fact(1, 400, 'low'), fact(2, 400, 'low')])).toBe(', so zip 98117 (Seattle, WA) and zip 98115 (Seattle, WA) are tied lowest ($400 each)');
  });
  it('"of the N with a figure" when a place has none; superlatives for three places; nothing with one figure', () => {
    expect(verdict(data, zips, [fact(0, 500, 'low'), fact(1, null), fact(2, 400, 'low')])).toBe(', so zip 98115 (Seattle, WA) is the cheapest of the 2 with a figure ($400)');
    // three or more ranked: the whole order after the winner (review 20)
    expect(verdict(data, zips, [fact(0, 500), fact(1, 600), fact(2, 400)])).toBe(', so zip 98117 (Seattle, WA) is the most expensive ($600); in order: 1. zip 98117 (Seattle, WA) $600, 2. zip 98103 (Seattle, WA) $500, 3. zip 98115 (Seattle, WA) $400');
    expect(verdict(data, zips, [fact(0, 500), fact(1, null), fact(2, null)])).toBe('');
    // both ends asked: each winner, then the order once (review 20: an order after each winner)
    const ends = (i: number, v: number): Fact => ({ ...fact(i, v), moreRanks: [ranks({ targets: zips, direction: 'low' }, v, `$${v}`, RANK.price).ranks!] });
    expect(verdict(data, zips, [ends(0, 500), ends(1, 600), ends(2, 400)])).toBe(', so zip 98117 (Seattle, WA) is the most expensive ($600), and zip 98115 (Seattle, WA) is the cheapest ($400); in order: 1. zip 98117 (Seattle, WA) $600, 2. zip 98103 (Seattle, WA) $500, 3. zip 98115 (Seattle, WA) $400');
  });
});
