// Research questions the places and figures of the build must answer honestly, through POST /v1/research/query on a
// real server (port 0) over the shared real build: how fast homes sell in a city (no source records a listing date:
// said first, with the pace of sales the records do show, recomputed here from the warehouse).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
