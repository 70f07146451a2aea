// GET /v1/market/trends: the summary's changes against the RAW files (audit h75). Before, the monthly counts and medians
// of the series were recomputed from the raw files (trends-raw-markets.test.ts, h74-market-sample.test.ts), but no test
// recomputed change_3m_pct, change_12m_pct, change_24m_pct, change_end_month or the reasons change_note gives for a null
// change. A seeded sample of zips of each source with zips (King County, Sacramento, NYC, Philadelphia: 12 at random,
// 12 more among those with a month of 20 raw sales of a type), every type,
// months 60 and 12, asked of a real server over the shared build; the changes recomputed by oracle-raw-changes.ts from
// the raw files by market.md "mart_trends" (both ends complete months with 20 sales; the median model), rounded to 1
// decimal (market.md "Rounding in the answers"); a window whose months all fall after the change's end month has every
// change null (review 15, api/market-trends.ts windowSummary). And New York, its boroughs and Philadelphia, every type.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { rawChangeInputs, rawChanges, roundTo, type RawZipMonth } from '../helpers/oracle-raw-changes.ts';
import type { Span } from '../helpers/oracle-complete-month.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 75_001;
const PER_SOURCE = 12;
const BUSY = 12;
const SOURCES = ['king_county', 'sacramento', 'nyc', 'philadelphia'] as const;
const TYPES = ['sfr', 'multi', 'condo', 'land', 'commercial'] as const;
const BACKS = [3, 12, 24] as const;

interface Trends {
  method: string; series: { month: string }[];
  summary: { change_end_month: string | null; change_note: string | null } & Record<string, unknown>;
}

const api = serveSharedBuild('builder', 100_000);
let raw: Awaited<ReturnType<typeof rawChangeInputs>>;
/** source -> the types of its arm's-length sales (any zip, any month) */
const srcTypes = new Map<string, Set<string>>();
const sample = new Map<string, string[]>();

beforeAll(async () => {
  raw = await rawChangeInputs();
  const zipsOf = new Map<string, Set<string>>();
  for (const k of raw.months.keys()) {
    const [src, zip, type] = k.split('|') as [string, string, string];
    (srcTypes.get(src) ?? srcTypes.set(src, new Set()).get(src)!).add(type);
    (zipsOf.get(src) ?? zipsOf.set(src, new Set()).get(src)!).add(zip);
  }
  // per source 12 zips at random and 12 of the busy ones (a type with a month of 20 or more raw sales: the only zips a
  // change can be given for, a minority)
  const busy = new Set([...raw.months].filter(([, ms]) => [...ms.values()].some((m) => m.n >= 20)).map(([k]) => k.split('|').slice(0, 2).join('|')));
  const draw = rng(SEED);
  const pick = (pool: string[], n: number): string[] => {
    const out: string[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(draw() * pool.length), 1)[0]!);
    return out;
  };
  for (const src of SOURCES) {
    const pool = [...zipsOf.get(src) ?? []].filter((z) => /^\d{5}$/.test(z)).sort();
    const random = pick(pool, PER_SOURCE);
    sample.set(src, [...random, ...pick(pool.filter((z) => busy.has(`${src}|${z}`)), BUSY)].sort());
  }
}, 300_000);

/** `zip/<zip>` or `city/<ST>/<slug>` as the query asks it (a borough by its name). */
const query = (market: string): string => {
  const [kind, a, b] = market.split('/') as [string, string, string?];
  return kind === 'zip' ? `zip=${a}` : `city=${encodeURIComponent(b!.replaceAll('-', ' '))}&state=${a}`;
};

async function trends(market: string, type: string, months: number): Promise<Trends | null> {
  const res = await api.get(`/v1/market/trends?${query(market)}&property_type=${type}&months=${months}`);
  if (res.status === 404) return null;
  expect(res.status, `${market} ${type} ${months}`).toBe(200);
  const body = (await res.json()) as Trends;
  expect(schemaErrors('MarketTrends', body)).toEqual([]);
  return body;
}

interface Tally { bad: string[]; changes: number; reasons: number; series: number }

/** One market's series of a type at 60 and 12 months against the raw recomputation; mismatches go to `t.bad`. */
async function check(t: Tally, src: string, market: string, type: string): Promise<void> {
  const spans: Span[] = raw.spans.get(src)!;
  const partial = raw.partial.get(src) ?? new Set<string>();
  const zip = market.startsWith('zip/') ? market.slice(4) : market;
  const bad = t.bad;
  const all = await trends(market, type, 60);
  const months: ReadonlyMap<string, RawZipMonth> = raw.months.get(`${src}|${zip}|${type}`) ?? new Map();
  if (!all) {
    if (raw.months.has(`${src}|${zip}|sfr`) || months.size) bad.push(`${src} ${zip} ${type}: 404, raw sales`);
    return;
  }
  if (all.method !== 'median') { bad.push(`${zip} ${type}: method ${all.method}`); return; }
  t.series++;
  const grid = all.series.map((m) => m.month);
  const want = rawChanges(grid, months, partial, spans);
  const s = all.summary, note = s.change_note ?? '';
  if (s.change_end_month !== want.end) bad.push(`${zip} ${type}: change_end_month ${s.change_end_month}, raw ${want.end}`);
  for (const b of BACKS) {
    const got = s[`change_${b}m_pct`] as number | null;
    const w = want.pct[b];
    if (w === null) {
      if (got !== null) { bad.push(`${zip} ${type}: change_${b}m_pct ${got}, raw null (${JSON.stringify(want.why[b])})`); continue; }
      if (!note.includes(`change_${b}m_pct`)) bad.push(`${zip} ${type}: change_${b}m_pct null, change_note does not say why: ${note}`);
      const why = want.why[b]!;
      // the first reason the answer gives (api/market-trends.ts: the files' cover, then trends-change-note.ts)
      const at = `change_${b}m_pct is null: ${why.month}, the month it compares with ${want.end},`;
      const words = why.kind === 'uncovered' ? `${at} is not covered by the source files`
        : why.kind === 'thin' ? `${at} has ${why.n!.toLocaleString('en-US')} sale${why.n === 1 ? '' : 's'} in its index sample, fewer than the 20`
        : why.kind === 'partial' ? `${at} is not complete` : why.kind === 'before' ? `change_${b}m_pct is null: ${b} months before ${want.end} is before the 60 months`
        : srcTypes.get(src)!.has(type) ? `no month of the 60 to ${grid.at(-1)} is complete with 20 or more sales`
        // a type no arm's-length sale of the source is of (trends-type-note.ts)
        : `change_3m_pct, change_12m_pct and change_24m_pct are null: the market's sales source records no`;
      if (!note.includes(words)) bad.push(`${zip} ${type}: change_note lacks "${words}": ${note}`);
      t.reasons++;
    } else if (got === null || Math.abs(got - roundTo(w, 1)) > 1e-9) {
      bad.push(`${zip} ${type}: change_${b}m_pct ${got}, raw ${roundTo(w, 1)} (${w})`);
    } else t.changes++;
  }
  // the 12-month window: the changes are the 60's when they end inside it, else all null
  const y = (await trends(market, type, 12))!;
  const inside = want.end !== null && want.end >= grid.at(-12)!;
  for (const b of BACKS) {
    const got = y.summary[`change_${b}m_pct`];
    const w = inside ? all.summary[`change_${b}m_pct`] : null;
    if (got !== w) bad.push(`${zip} ${type} months=12: change_${b}m_pct ${String(got)}, expected ${String(w)} (end ${want.end})`);
  }
}

describe(`seeded sample ${SEED}: trends changes against the raw files`, () => {
  test('the sample: 12 zips of each of the four sources and 12 busy ones', () => {
    expect([...sample.keys()]).toEqual([...SOURCES]);
    for (const [src, zs] of sample) expect(zs, src).toHaveLength(PER_SOURCE + BUSY);
    console.info(`sample ${SEED}: ${JSON.stringify(Object.fromEntries(sample))}`);
  });

  test('every sampled zip and type: change_end_month, each change to 1 decimal, and each null change\'s reason in change_note', async () => {
    const t: Tally = { bad: [], changes: 0, reasons: 0, series: 0 };
    for (const src of SOURCES) for (const zip of sample.get(src)!) for (const type of TYPES) await check(t, src, `zip/${zip}`, type);
    expect(t.bad.slice(0, 40)).toEqual([]);
    expect(t.series).toBeGreaterThan(100);
    expect(t.changes).toBeGreaterThan(15);
    expect(t.reasons).toBeGreaterThan(50);
    console.info(`zips: ${t.series} series, ${t.changes} changes equal, ${t.reasons} null changes with their reason`);
  }, 600_000);

  test('New York, its five boroughs and Philadelphia, every type: the same', async () => {
    const t: Tally = { bad: [], changes: 0, reasons: 0, series: 0 };
    const cities = ['city/NY/new-york', 'city/NY/manhattan', 'city/NY/bronx', 'city/NY/brooklyn', 'city/NY/queens', 'city/NY/staten-island'];
    for (const type of TYPES) {
      for (const c of cities) await check(t, 'nyc', c, type);
      await check(t, 'philadelphia', 'city/PA/philadelphia', type);
    }
    expect(t.bad.slice(0, 40)).toEqual([]);
    expect(t.series).toBe(35);
    expect(t.changes).toBeGreaterThan(20);
    console.info(`cities: ${t.series} series, ${t.changes} changes equal, ${t.reasons} null changes with their reason`);
  }, 600_000);
});
