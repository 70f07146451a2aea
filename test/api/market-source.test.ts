// Market answers name their sales source (review 18: Seattle's comps answered as_of 2015-05-12 with no word that its
// records are the 2014-15 King County house-sales file): comps, trends, investor overview and rehab score carry an
// additive `source` ({id, name, vintage} as the build's manifest names the source). Over HTTP on the shared real build;
// the zip's and the city's sales are the raw King County file's (its zipcode column; the file has no city column, so
// Seattle is checked by its own source's zips).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { artifactsDir } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('builder', 100_000); });
afterAll(() => srv.close());

const get = async (q: string): Promise<Record<string, unknown>> => {
  const res = await srv.get(q, key);
  expect(res.status, q).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

describe('the sales source of a market answer', () => {
  test('98103 and Seattle: the King County house-sales file, as its SOURCE.md titles it', async () => {
    const [kc] = await rawQuery<{ n: number; first: string; last: string }>(`select count(*)::int as n, min(left(date, 8)) as first, max(left(date, 8)) as last
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true) where zipcode = '98103'`);
    expect(kc).toMatchObject({ first: '20140502', last: '20150514' });
    expect(kc!.n).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(SHARED_DATA, 'king-county-wa-house-sales', 'SOURCE.md'), 'utf8')).toMatch(/King County/);
    const source = { id: 'king_county', name: 'King County WA house sales 2014-2015', vintage: '2014-05..2015-05' };
    for (const [q, schema] of [
      ['/v1/market/comps?zip=98103&property_type=sfr&months=12', 'CompsSummary'],
      ['/v1/market/trends?zip=98103&property_type=sfr&months=12', 'MarketTrends'],
      ['/v1/market/trends?city=Seattle&state=WA&months=12', 'MarketTrends'],
      ['/v1/market/investor-overview?city=Seattle&state=WA&months=12', 'InvestorOverview'],
    ] as const) {
      const body = await get(q);
      // before: no source field; the investor overview also says which kind of record each source gave (its sales)
      expect(body['source'], q).toEqual(schema === 'InvestorOverview' ? { ...source, kinds: [{ kind: 'sales', id: source.id, vintage: source.vintage }] } : source);
      expect(schemaErrors(schema, body), q).toEqual([]);
    }
  });

  test('a rehab score of a zip with sales names their source; one resting on permits alone (37206) its permit source', async () => {
    const nyc = await get('/v1/market/rehab-score?zip=10044&months=12');
    expect(nyc['source']).toMatchObject({ id: 'nyc', name: 'NYC DOF rolling sales' });
    expect(schemaErrors('RehabScore', nyc)).toEqual([]);
    const [nash] = await rawQuery<{ n: number }>(`select count(*)::int as n from read_csv('${dataFile('nashville-building-permit-applications/building_permits.csv.gz')}', all_varchar = true) where "ZIP" = '37206'`);
    expect(nash!.n).toBeGreaterThan(0);
    const permitsOnly = await get('/v1/market/rehab-score?zip=37206&months=12');
    // before: no source (its vintage from the raw file: test/api/market-record-sources.test.ts)
    expect(permitsOnly['source']).toMatchObject({ id: 'nashville', name: 'Nashville building permit applications', kinds: [{ kind: 'permits', id: 'nashville' }] });
    expect(schemaErrors('RehabScore', permitsOnly)).toEqual([]);
  });
});
