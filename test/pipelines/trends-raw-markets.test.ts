// The trends series of New York City, Philadelphia and Connecticut against their RAW files (audit h68): every zip,
// borough, city and town, every property type, every month of the stored 60: the month's arm's-length sales count and
// median sale price recomputed with plain DuckDB over ../shared/data by warehouse/docs/market.md ("Arm's-length rule",
// "market_monthly"), never the build's adapters, flags or marts: NYC and Philadelphia by RAW_MARKET_SALES
// (oracle-raw-comps.ts: types from each file's own codes, NYC's nominal prices of $10,000 or under, portfolio deeds by
// tax block, borough price and Philadelphia's book and page or owner, Philadelphia's sale-to-assessment ratio fences, a
// sale recorded twice counted once), Connecticut by CT_KEPT (oracle-ct.ts: Non Use Codes, the ratio fences per file,
// copies and near copies; a town's month is its `Date Recorded`'s). Before this file only King County's monthly series
// (market-trends.test.ts), Sacramento's and Denver's (test/api/*-raw-oracle.test.ts) were recomputed from raw files.
// Minimum cohort: a month of fewer than 5 sales has no count and no median. A median the shard gives is rounded to
// the dollar (market.md "Rounding in the answers"): within half a dollar.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildDir, readShard } from '../helpers/build.ts';
import { RAW_MARKET_SALES, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { CT_KEPT } from '../helpers/oracle-ct.ts';
import { slug } from '../../warehouse/layout.ts';

const TYPES = ['sfr', 'multi', 'condo', 'land', 'commercial'] as const;
const BOROUGHS: Record<string, string> = { 1: 'Manhattan', 2: 'Bronx', 3: 'Brooklyn', 4: 'Queens', 5: 'Staten Island' };

interface Month { n: number; median: number }
/** market key (`zip/<zip>` or `city/<ST>/<slug>`) -> type -> YYYY-MM -> the raw month. */
type Raw = Map<string, Map<string, Map<string, Month>>>;

function put(raw: Raw, market: string, type: string, month: string, m: Month): void {
  const byType = raw.get(market) ?? raw.set(market, new Map()).get(market)!;
  (byType.get(type) ?? byType.set(type, new Map()).get(type)!).set(month, m);
}

interface Stored { series: { month: string[]; sales_count: (number | null)[]; median_price: (number | null)[] } }

type Series = Stored['series'];
/** A market's stored series of a type: its trends shard's, null where it has none. */
function shardSeries(market: string, type: string): Series | null {
  const rel = `market/trends/${market}/${type}.json`;
  return fs.existsSync(path.join(buildDir(), 'shards', rel)) ? readShard<Stored>(rel).series : null;
}

/** Every month of every stored type of each market against the raw months; the mismatches as words. */
function compare(raw: Raw, read: (market: string, type: string) => Series | null): { bad: string[]; counts: number; medians: number } {
  const bad: string[] = [];
  let counts = 0, medians = 0;
  for (const [market, byType] of raw) {
    for (const type of TYPES) {
      const rawMonths = byType.get(type) ?? new Map<string, Month>();
      const series = read(market, type);
      if (!series) {
        if ([...rawMonths.values()].some((m) => m.n >= 5)) bad.push(`${market} ${type}: no series, raw months of 5+ sales`);
        continue;
      }
      series.month.forEach((month, i) => {
        const w = rawMonths.get(month);
        const n = w && w.n >= 5 ? w.n : null;
        const got = series.sales_count[i] ?? null;
        if (got !== n) bad.push(`${market} ${type} ${month}: sales_count ${got}, raw ${w?.n ?? 0}`);
        else if (n !== null) counts++;
        const med = series.median_price[i] ?? null;
        if (med === null || n === null) return;
        if (Math.abs(med - w!.median) > 0.5 + 1e-9) bad.push(`${market} ${type} ${month}: median_price ${med}, raw ${w!.median} (${n} sales)`);
        else medians++;
      });
    }
  }
  return { bad, counts, medians };
}

let nycPhl: Raw;
let ct: Raw;

beforeAll(async () => {
  nycPhl = new Map();
  const rows = await rawQuery<{ src: string; zip: string; borough: string; type: string; month: string; n: number; median: number; scope: string }>(`${RAW_MARKET_SALES},
    arms as (select src, zip, split_part(block, '-', 1) as borough, type, strftime(d, '%Y-%m') as month, price
             from market where src in ('nyc', 'philadelphia') and not portfolio)
    select 'zip' as scope, src, zip, null as borough, type, month, count(*)::int as n, median(price)::double as median from arms where zip is not null group by all
    union all
    select 'borough', src, null, borough, type, month, count(*)::int, median(price)::double from arms where src = 'nyc' group by all
    union all
    select 'city', src, null, null, type, month, count(*)::int, median(price)::double from arms group by all`);
  for (const r of rows) {
    const market = r.scope === 'zip' ? `zip/${r.zip}`
      : r.scope === 'borough' ? `city/NY/${slug(BOROUGHS[r.borough]!)}`
      : r.src === 'nyc' ? 'city/NY/new-york' : 'city/PA/philadelphia';
    put(nycPhl, market, r.type, r.month, { n: r.n, median: r.median });
  }
  ct = new Map();
  const towns = await rawQuery<{ town: string; type: string; month: string; n: number; median: number }>(`
    select town, type, month, count(*)::int as n, median(price)::double as median from ${CT_KEPT} where type is not null group by all`);
  for (const r of towns) put(ct, `city/CT/${slug(r.town)}`, r.type, r.month, { n: r.n, median: r.median });
}, 180_000);

describe('trends against the raw NYC, Philadelphia and Connecticut files', () => {
  test('every NYC and Philadelphia zip, NYC borough and city, and Philadelphia: each type\'s monthly count and median price', () => {
    const { bad, counts, medians } = compare(nycPhl, shardSeries);
    expect(bad).toEqual([]);
    expect(counts).toBeGreaterThan(5000);
    expect(medians).toBeGreaterThan(5000);
  });

  test('every Connecticut town: each type\'s monthly count and median price', () => {
    const { bad, counts, medians } = compare(ct, shardSeries);
    expect(bad).toEqual([]);
    expect(counts).toBeGreaterThan(1000);
    expect(medians).toBeGreaterThan(500);
  });

  test('the bulk export\'s market_monthly file gives the same counts and medians for every one of those markets', async () => {
    const file = path.join(buildDir(), 'export', 'market_monthly.parquet').replaceAll("'", "''");
    const rows = await rawQuery<{ market: string; type: string; month: string; n: number | null; median: number | null }>(`
      select case when market_kind = 'zip' then 'zip/' || zip else 'city/' || upper(state_code) || '/' || city_slug end as market,
             property_type as type, month_label as month, sales_count::int as n, median_price::double as median
      from read_parquet('${file}') where market_kind = 'zip' or state_code in ('NY', 'PA', 'CT') order by market, type, month_no`);
    const exported = new Map<string, Series>();
    for (const r of rows) {
      const k = `${r.market}|${r.type}`;
      const s = exported.get(k) ?? exported.set(k, { month: [], sales_count: [], median_price: [] }).get(k)!;
      s.month.push(r.month); s.sales_count.push(r.n); s.median_price.push(r.median === null ? null : Math.round(r.median));
    }
    expect(exported.size).toBeGreaterThan(1000);
    const read = (market: string, type: string): Series | null => exported.get(`${market}|${type}`) ?? null;
    for (const raw of [nycPhl, ct]) {
      const { bad, counts } = compare(raw, read);
      expect(bad.slice(0, 40)).toEqual([]);
      expect(counts).toBeGreaterThan(1000);
    }
  });
});
