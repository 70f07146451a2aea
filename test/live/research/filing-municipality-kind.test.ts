// A distress question names the municipality the investor overview answers for the same name (review 15 F1,
// live/research/place-prefer.ts distressCity, places.ts): Allegheny County's filings name both Elizabeth Borough (8
// open filings over the 12 months to 2022-08-30) and Elizabeth Township (11); "Elizabeth, PA" is the borough in
// GET /v1/market/investor-overview, and research read it as the township. The counts are recomputed from the raw
// Allegheny file: a property (its PIN, else its case) of a case first filed in the 12 months whose last closing or
// reinstating docket does not close it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { artifactsDir } from '../../helpers/build.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { researchData } from '../../helpers/research.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const CLOSING = ['Discontinued without Prejudice', 'Discontinued with Prejudice', 'Discontinued', 'Discontinuance', 'Settled and Discontinued',
  'Case Settled', 'Dismissed with Prejudice', 'Dismissed without Prejudice', 'Dismissed', 'Order of Court- Case Dismissed', 'Satisfaction',
  'Case Terminated', "Sheriff's Deed"];
const list = (xs: readonly string[]): string => xs.map((x) => `'${x.replaceAll("'", "''")}'`).join(', ');

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro', 1000); });
afterAll(async () => { await srv.close(); });

describe('research names the filing municipality the investor overview names', () => {
  it('Elizabeth, Baldwin and Springdale, PA are the boroughs, as the endpoint; "township" written is the township', async () => {
    const raw = await rawQuery<{ m: string; n: number }>(`
      with r as (select row_number() over () as ln, * from read_csv('${dataFile('allegheny-county-mortgage-foreclosures/foreclosures.csv.gz')}', all_varchar = true)),
      cases as (select case_id, min(filing_date::date) as fd from r group by 1),
      last as (select distinct on (case_id) case_id, docket_type in (${list(CLOSING)}) as closing from r
               where docket_type in (${list([...CLOSING, 'Praecipe to Reinstate'])}) order by case_id, filing_date::date desc, ln desc)
      select municipality as m, count(distinct coalesce(p.pin, 'case:' || p.case_id))::int as n
      from (select distinct case_id, pin, municipality from r) p join cases c using (case_id) left join last l using (case_id)
      where c.fd > date '2022-08-30' - interval 12 month and not coalesce(l.closing, false)
        and municipality in ('Elizabeth Boro', 'Elizabeth Township', 'Baldwin Boro', 'Baldwin Township', 'Springdale Boro', 'Springdale Township')
      group by 1`);
    const want = Object.fromEntries(raw.map((r) => [r.m, r.n]));
    expect(want).toEqual({ 'Elizabeth Boro': 8, 'Elizabeth Township': 11, 'Baldwin Boro': 11, 'Baldwin Township': 7, 'Springdale Boro': 3, 'Springdale Township': 1 });

    const engine = new ResearchEngine(researchData(), null, PINNED_TODAY);
    const cases: [query: string, city: string, raw: string][] = [
      ['How many distressed properties in Elizabeth, PA?', 'Elizabeth', 'Elizabeth Boro'],
      ['How many distressed properties in Elizabeth borough, PA?', 'Elizabeth', 'Elizabeth Boro'],
      ['How many distressed properties in Elizabeth Township, PA?', 'Elizabeth Township', 'Elizabeth Township'],
      ['How many distressed properties in Baldwin, PA?', 'Baldwin', 'Baldwin Boro'],
      ['How many distressed properties in Baldwin township, PA?', 'Baldwin Township', 'Baldwin Township'],
      ['How many distressed properties in Springdale, PA?', 'Springdale', 'Springdale Boro'],
    ];
    for (const [query, city, m] of cases) {
      const res = await srv.get(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=PA&months=12`, key);
      expect(res.status).toBe(200);
      const endpoint = (await res.json()) as { distressed_pipeline_count: number };
      expect(endpoint.distressed_pipeline_count, city).toBe(want[m]);
      const a = await engine.answer({ query, depth: 'quick' });
      expect(a.answer, query).toContain(`In ${city}, PA, ${want[m]} distressed properties`);
    }
  });
});
