// A canonical sales file names a sale's city as its county's records do: New York City's name all five boroughs "New
// York" (scripts/canonical-sales.ts --from nyc writes them so). Such a build had no borough market (review 21): trends
// for city=Brooklyn answered 404 and research about Brooklyn answered for all of New York. Each canonical sale of a
// city made of county parts now lies in the part its zip's county is (30_market_48_canonical_city_parts.sql), as the
// native adapter's BOROUGH puts it. A real build over the real geography (symlinks into ../shared/data) of a
// canonical sales.csv written here from the raw NYC rolling-sales rows; every expected count is the raw rows'.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW, PINNED_TODAY } from '../helpers/clock.ts';
import { HEADER, linkGeography } from '../helpers/canonical-sources.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { ResearchData } from '../../live/research/data.ts';
import { ResearchEngine } from '../../live/research/endpoint.ts';

afterAll(removeTmpDirs);

// zips wholly in one borough: Brooklyn's Park Slope, Kensington, Marine Park and Sheepshead Bay, Manhattan's Upper East Side
// The steps the trends and research answers need: the full build's 30,000-file legal shard families took 2 of its 3
// minutes here, and CI's slower host ran past the hook's limit.
const STEPS = ['stg_', '10_geo', '20_legal', '30_market', '10_mart_geo', '30_mart', 'canonical', 'geo-', 'trends', 'live/places', 'live/research',
  'regulations'].join(',');
const ZIPS: Record<string, string> = { '11215': '3', '11218': '3', '11234': '3', '11229': '3', '10021': '1', '10028': '1' };

interface Row { borough: string; address: string; zip: string; sale_date: string; price: number }

describe('a canonical file naming New York City\'s sales "New York" has borough markets', () => {
  let rows: Row[];
  let artifacts: string;
  let dir: string;
  let srv: TestServer;
  beforeAll(async () => {
    // one-family houses and condo units of the four zips sold for $200,000 or more in the 2023-03..2024-02 file, one
    // sale per street line (no copy, no portfolio: each is an arm's-length sale by the one rule)
    rows = await rawQuery<Row>(`
      select trim("BOROUGH") as borough, trim("ADDRESS") as address, trim("ZIP CODE") as zip, cast("SALE DATE" as date)::varchar as sale_date,
             cast(replace("SALE PRICE", ',', '') as double) as price
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz')}', all_varchar = true)
      where trim("ZIP CODE") in (${Object.keys(ZIPS).map((z) => `'${z}'`).join(', ')}) and "BUILDING CLASS CATEGORY" like '01 %'
        and cast(replace("SALE PRICE", ',', '') as double) >= 200000 and trim("ADDRESS") not like '%,%'
      qualify row_number() over (partition by trim("ADDRESS"), trim("ZIP CODE") order by "SALE DATE", "LOT") = 1`);
    for (const r of rows) expect(r.borough, `${r.address} ${r.zip}`).toBe(ZIPS[r.zip]);
    const sources = tmp('reii-canon-parts-src-');
    linkGeography(sources);
    fs.mkdirSync(path.join(sources, 'canonical'));
    fs.writeFileSync(path.join(sources, 'canonical', 'sales.csv'), [HEADER,
      ...rows.map((r) => [r.address, 'New York', 'NY', r.zip, r.sale_date, String(r.price), 'sfr', '', '', '', '', '', '', '', '', ''].join(','))].join('\n') + '\n');
    artifacts = tmp('reii-canon-parts-art-');
    dir = (await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter: STEPS }), log: silentLogger, now: PINNED_NOW })).dir;
    srv = await startTestServer(artifacts);
  }, 900_000);
  afterAll(async () => { await srv?.close(); });

  /** The raw rows of a borough in the 12 months to its latest sale (the research window rule), and that day. */
  const window = (borough: string): { n: number; end: string } => {
    const mine = rows.filter((r) => r.borough === borough);
    const end = mine.map((r) => r.sale_date).sort().at(-1)!;
    const from = new Date(`${end}T00:00:00Z`);
    from.setUTCMonth(from.getUTCMonth() - 12);
    return { n: mine.filter((r) => r.sale_date > from.toISOString().slice(0, 10)).length, end };
  };

  test('trends city=Brooklyn and city=Manhattan answer from their own sales; New York from all of them', async () => {
    const key = srv.key('builder');
    const monthly = async (city: string): Promise<Map<string, number | null>> => {
      const res = await srv.get(`/v1/market/trends?city=${encodeURIComponent(city)}&state=NY&property_type=sfr&months=24`, key);
      expect(res.status, city).toBe(200);
      const body = (await res.json()) as { series: { month: string; sales_count: number | null }[] };
      return new Map(body.series.map((x) => [x.month, x.sales_count]));
    };
    const rawBy = (keep: (r: Row) => boolean): Map<string, number> => {
      const out = new Map<string, number>();
      for (const r of rows.filter(keep)) out.set(r.sale_date.slice(0, 7), (out.get(r.sale_date.slice(0, 7)) ?? 0) + 1);
      return out;
    };
    expect(rows.filter((r) => r.borough === '3').length).toBeGreaterThan(100);
    expect(rows.filter((r) => r.borough === '1').length).toBeGreaterThan(0);
    // each month's count is the raw rows' of that borough (a month of 1-4 sales keeps no count: the minimum cohort of 5)
    for (const [city, keep] of [['Brooklyn', (r: Row) => r.borough === '3'], ['Manhattan', (r: Row) => r.borough === '1'], ['New York', () => true]] as const) {
      const got = await monthly(city);
      for (const [m, n] of rawBy(keep)) expect(got.get(m), `${city} ${m}`).toBe(n >= 5 ? n : null);
    }
  });

  test('research about Brooklyn counts Brooklyn\'s sales, not New York\'s', async () => {
    const engine = new ResearchEngine(ResearchData.fromBuild(dir)!, null, PINNED_TODAY);
    const w = window('3');
    // Manhattan's sales in the same window: New York's count would be more
    expect(window('1').n).toBeGreaterThan(0);
    const a = (await engine.answer({ query: 'how many single-family homes sold in Brooklyn in the last 12 months', depth: 'quick' })).answer;
    expect(a).toContain(`${w.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${w.end}`);
    expect(a).toMatch(/^(In )?Brooklyn, NY/);
  });
});
