// Can any comps request reach the Redfin days-on-market branch with the real data? (h77 audit, gap b: every sampled
// comps answer had `days_on_market.median` null.) The rule (warehouse/docs/market.md "Days on market / list-to-sale"):
// a Redfin zip row stands for a window only when its 90 days (the three calendar months to `period_end`) lie inside the
// window, its recorded type describes the property type and 5 or more homes sold; a comps window ends at the zip's
// latest arm's-length sale. Read here from the RAW Redfin file and the raw sales files (oracle-raw-comps.ts
// RAW_MARKET_SALES, oracle-ct.ts CT_KEPT, oracle-denver.ts DENVER_DEEDS), never from the warehouse: every usable Redfin
// row begins after the last sale of every sales file (NYC's, 2024-02-29) but two, and those two rows' zips (30330,
// 30357: Atlanta, 2023-09..11 and 2021-10..12, condo) have no sale in any file. So no request reaches the branch; a seeded sample of the zips both files
// hold is asked over HTTP to show the answer's null and its window ending before the zip's first usable Redfin period.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { RAW_MARKET_SALES, dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { CT_KEPT } from '../helpers/oracle-ct.ts';
import { DENVER_DEEDS } from '../helpers/oracle-denver.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 77;
const REDFIN = dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz');
/** Redfin's recorded types and the property types each describes (market.md; land and commercial: none). */
const DESCRIBES: Record<string, string[]> = { 'All Residential': ['sfr', 'condo', 'multi'], 'Single Family Residential': ['sfr'], Townhouse: ['sfr'],
  'Condo/Co-op': ['condo'], 'Multi-Family (2-4 Unit)': ['multi'] };
interface Usable { zip: string; start: string; period_end: string; property_type: string }
let usable: Usable[];
let lastSale: { src: string; last: string }[];
let salesZips: Set<string>;
const api = serveSharedBuild('pro', 100_000);

beforeAll(async () => {
  usable = await rawQuery<Usable>(`
    select zip_code as zip, strftime(date_trunc('month', try_cast(period_end as date)) - interval 2 month, '%Y-%m-%d') as start,
           strftime(try_cast(period_end as date), '%Y-%m-%d') as period_end, property_type
    from read_csv('${REDFIN}', all_varchar = true)
    where try_cast(nullif(median_dom, '') as double) is not null and try_cast(nullif(homes_sold, '') as double) >= 5
      and property_type in (${Object.keys(DESCRIBES).map((t) => `'${t}'`).join(', ')}) and regexp_full_match(zip_code, '[0-9]{5}')`);
  lastSale = [
    ...(await rawQuery<{ src: string; last: string }>(`${RAW_MARKET_SALES} select src, max(d)::varchar as last from market group by src`)),
    ...(await rawQuery<{ src: string; last: string }>(`select 'connecticut' as src, max(day)::varchar as last from ${CT_KEPT}`)),
    ...(await rawQuery<{ src: string; last: string }>(`${DENVER_DEEDS()} select 'denver' as src, max(d)::varchar as last from deeds where arms`)),
  ];
  salesZips = new Set((await rawQuery<{ zip: string }>(`${RAW_MARKET_SALES} select distinct zip from market where zip is not null`)).map((r) => r.zip));
}, 300_000);

describe('comps days on market: no Redfin row can stand for any window of the real data', () => {
  test('the raw files: usable Redfin rows begin after every sales file ends (2024-02-29), but two rows of Atlanta zips no sales file holds', () => {
    expect(lastSale.map((s) => s.src).sort()).toEqual(['connecticut', 'denver', 'king_county', 'nyc', 'philadelphia', 'sacramento']);
    const latest = lastSale.map((s) => s.last).sort().at(-1)!;
    expect(latest).toBe('2024-02-29');
    const early = usable.filter((r) => r.start <= latest);
    expect(usable.length).toBeGreaterThan(10_000);
    expect(early.map((r) => r.zip).sort()).toEqual(['30330', '30357']);
    // neither is a zip of a sales file (a Connecticut zip is 06xxx, a Denver one 80xxx)
    for (const r of early) expect(salesZips.has(r.zip) || /^(06|80)/.test(r.zip), r.zip).toBe(false);
  });

  test('over HTTP: a seeded sample of zips in both files, and the five zips of Redfin\'s pre-2025 rows, answer no days on market, their windows ending before any usable period', async () => {
    const first = new Map<string, string>();
    for (const r of usable) if (!first.has(r.zip) || r.start < first.get(r.zip)!) first.set(r.zip, r.start);
    const both = [...first.keys()].filter((z) => salesZips.has(z)).sort();
    expect(both.length).toBeGreaterThan(100);
    const rnd = rng(SEED);
    const sample = both.map((z) => ({ z, k: rnd() })).sort((a, b) => a.k - b.k).slice(0, 25).map((x) => x.z);
    const bad: string[] = [];
    let answered = 0;
    for (const zip of [...sample, '04017', '30330', '30357', '97425', '98291']) {
      for (const type of ['sfr', 'condo', 'multi']) {
        for (const months of [3, 12, 24]) {
          const path = `/v1/market/comps?zip=${zip}&property_type=${type}&months=${months}`;
          const res = await api.get(path);
          if (res.status === 404) continue;
          const b = (await res.json()) as { days_on_market: unknown; list_to_sale_ratio: number | null; coverage: { window_end: string } };
          if (res.status !== 200) { bad.push(`${path}: ${res.status}`); continue; }
          answered++;
          if (JSON.stringify(b.days_on_market) !== JSON.stringify({ median: null, source: null, redfin: null })) bad.push(`${path}: ${JSON.stringify(b.days_on_market)}`);
          // no raw sales file records a list price, and Redfin's sale-to-list is an average: never the median ratio
          if (b.list_to_sale_ratio !== null) bad.push(`${path}: list_to_sale_ratio ${b.list_to_sale_ratio}`);
          if (!(b.coverage.window_end < first.get(zip)!)) bad.push(`${path}: window to ${b.coverage.window_end}, a usable Redfin period from ${first.get(zip)}`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(answered).toBe(25 * 9);
  }, 300_000);
});
