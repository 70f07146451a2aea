// Research questions the places and figures of the build must answer honestly, through POST /v1/research/query on a
// real server (port 0) over the shared real build: how fast homes sell in a city (no source records a listing date:
// said first, with the pace of sales the records do show, recomputed here from the warehouse), and a New York City
// neighbourhood named alone (the raw rolling-sales files' NEIGHBORHOOD column: its zips recomputed from them).
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import type { ResearchBody } from '../../../live/research/endpoint.ts';

let srv: TestServer;
let key: string;
const ask = async (query: string): Promise<ResearchBody> => {
  const res = await srv.post('/v1/research/query', { query }, key);
  expect(res.status, query).toBe(200);
  const body = await res.json() as ResearchBody;
  expect(schemaErrors('ResearchAnswer', body)).toEqual([]);
  return body;
};

beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

/** Arm's-length single-family sales of a city (slug) in the 12 months to its latest one, from the warehouse. */
async function twelveMonths(state: string, citySlug: string): Promise<{ n: number; asOf: string }> {
  const [r] = await warehouseRows<{ n: bigint; as_of: string }>(`
    with s as (select sale_date from sales where is_arms_length and state_code = $state and slug(city) = $city and property_type = 'sfr')
    select count(*) filter (where sale_date > (select max(sale_date) from s) - interval 12 month) as n, cast(max(sale_date) as varchar) as as_of from s`,
  { state, city: citySlug });
  return { n: Number(r!.n), asOf: r!.as_of };
}

describe('days on market asked of a city: not in the data, said first, with the pace of sales instead', () => {
  it('Seattle and Denver: no listing dates, no Redfin snapshot near the sales windows; the 12-month sales count', async () => {
    for (const [q, state, city, name] of [
      ['how fast are homes selling in Seattle', 'WA', 'seattle', 'Seattle, WA'],
      ['days on market in Denver', 'CO', 'denver', 'Denver, CO'],
    ] as const) {
      const [dom] = await warehouseRows<{ n: bigint }>(`select count(*) as n from mart_comps where state_code = $state and slug(city) = $city and dom_median is not null`, { state, city });
      expect(Number(dom!.n), q).toBe(0);
      const w = await twelveMonths(state, city);
      expect(w.n, q).toBeGreaterThan(100);
      const r = await ask(q);
      expect(r.answer, q).toMatch(new RegExp(`^${name} has no days-on-market figure: none of its sales records carries a listing date`));
      expect(r.answer, q).toContain(`${name} had ${w.n.toLocaleString('en-US')} arm's-length single-family sales in the 12 months to ${w.asOf}`);
      expect(r.sources.some((s) => s.type === 'sales'), q).toBe(true);
    }
  });
});

/** The zips holding at least 5% of a DOF neighbourhood's rows in the raw NYC rolling-sales files, most first. */
async function rawHoodZips(names: readonly string[]): Promise<string[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const r = await conn.runAndReadAll(`with n as (select "ZIP CODE" as z from read_csv('${path.join(SHARED_DATA, 'nyc-rolling-sales')}/*.csv.gz', all_varchar = true, union_by_name = true)
      where trim("NEIGHBORHOOD") in (${names.map((x) => `'${x}'`).join(', ')}))
      select z from n group by z having count(*) >= 0.05 * (select count(*) from n) order by count(*) desc, z`);
    return r.getRowObjectsJson().map((x) => String(x['z']));
  } finally { conn.closeSync(); inst.closeSync(); }
}

/** A neighbourhood's arm's-length sales of a type in the 12 months to its latest sale (any type), from the warehouse. */
async function hoodWindow(names: readonly string[], type: string): Promise<{ n: number; median: number; asOf: string }> {
  const [r] = await warehouseRows<{ n: bigint; median: number; as_of: string }>(`
    with s as (select s.* from sales s join int_market_neighborhoods h using (sale_id) where s.is_arms_length and h.neighborhood in (${names.map((x) => `'${x}'`).join(', ')})),
    e as (select max(sale_date) as d from s)
    select count(*) as n, median(sale_price) as median, cast((select d from e) as varchar) as as_of from s
    where property_type = $type and sale_date > (select d from e) - interval 12 month`, { type });
  return { n: Number(r!.n), median: r!.median, asOf: r!.as_of };
}

describe('a New York City neighbourhood named alone: its own sales (the DOF NEIGHBORHOOD column) and its zips, said', () => {
  it('median price in Astoria: ASTORIA of Queens, not Astoria, OR; its zips and its sales\' median', async () => {
    const zips = await rawHoodZips(['ASTORIA']);
    expect(zips).toEqual(['11105', '11106', '11103', '11102']);
    const w = await hoodWindow(['ASTORIA'], 'sfr');
    const r = await ask('median price in Astoria');
    expect(r.answer).toMatch(new RegExp(`^Reading "Astoria" as the New York neighbourhood ASTORIA \\(Queens\\), as its sales records name it: its sales lie in zips ${zips.join(', ')}, not Astoria, OR: `));
    expect(r.answer).toContain(`In Astoria (Queens, New York, NY), the median of the ${w.n} arm's-length single-family sales in the 12 months to ${w.asOf} was $${Math.round(w.median).toLocaleString('en-US')}`);
  });

  it('Bushwick (no town of that name) and Williamsburg (the four DOF parts) alone; Madison (Madison, WI: 269,000 people) is never the MADISON of Brooklyn', async () => {
    const bushwick = await ask('Bushwick home prices');
    expect(bushwick.answer).toMatch(/^Reading "Bushwick" as the New York neighbourhood BUSHWICK \(Brooklyn\), as its sales records name it: its sales lie in zips? \d{5}/);
    const parts = ['WILLIAMSBURG-CENTRAL', 'WILLIAMSBURG-EAST', 'WILLIAMSBURG-NORTH', 'WILLIAMSBURG-SOUTH'];
    const zips = await rawHoodZips(parts);
    const w = await hoodWindow(parts, 'sfr');
    const wb = await ask('median price in Williamsburg');
    expect(wb.answer).toMatch(new RegExp(`^Reading "Williamsburg" as the New York neighbourhood ${parts.join(' / ')} \\(Brooklyn\\), as its sales records name it \\(these 4 names' sales summed\\): its sales lie in zips ${zips.join(', ')}, not Williamsburg, VA: `));
    expect(wb.answer).toContain(`the median of the ${w.n} arm's-length single-family sales in the 12 months to ${w.asOf}`);
    expect((await ask('median price in Madison')).answer).not.toMatch(/neighbourhood|Brooklyn/);
  });
});
