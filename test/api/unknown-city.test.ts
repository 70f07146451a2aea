// A city-keyed answer for a name the build knows no city by says so (with the closest names when there are some);
// a real city without data says only that its data is missing (review 10 #10: "No sfr sales for Zzqx, WA" read as a
// real city without sales).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, readShard } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let srv: TestServer;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); });
afterAll(async () => { await srv.close(); });
const message = async (p: string): Promise<[number, string]> => {
  const res = await srv.get(p, srv.key('enterprise'));
  return [res.status, ((await res.json()) as { message: string }).message];
};

describe('unknown city names on city-keyed routes', () => {
  test('a name no city of the state has: 404 saying so, on trends, investor, legal risk and landlord profile', async () => {
    for (const [p, lead] of [
      ['/v1/market/trends?city=Zzqx&state=WA', 'No sfr sales for Zzqx, WA'],
      ['/v1/market/investor-overview?city=Zzqx&state=WA', 'No investor data for Zzqx, WA'],
      ['/v1/legal/market-legal-risk?city=Zzqx&state=WA', 'No legal risk data for Zzqx, WA'],
      ['/v1/legal/landlord-profile?city=Zzqx&state=WA', 'No landlord profile for Zzqx, WA'],
    ] as const) {
      expect(await message(p), p).toEqual([404, `${lead}: no city of that name in WA is known to this build`]);
    }
  });
  test('a misspelt name: the same, with the closest names', async () => {
    const [status, msg] = await message('/v1/market/trends?city=Seatle&state=WA');
    expect(status).toBe(404);
    expect(msg).toMatch(/^No sfr sales for Seatle, WA: no city of that name in WA is known to this build; closest names: Seattle\b/);
  });
  test('a town the market knows but the Census does not as a place (Fairfield, CT): the 404 says where it is known', async () => {
    expect((await srv.get('/v1/market/investor-overview?city=Fairfield&state=CT', srv.key('enterprise'))).status).toBe(200);
    const note = "Fairfield, CT is known to this build's market endpoints from its sales or filings";
    for (const p of ['/v1/geo/lookup?city=Fairfield&state=CT', '/v1/legal/market-legal-risk?city=Fairfield&state=CT']) {
      const [status, msg] = await message(p);
      expect(status, p).toBe(404);
      expect(msg, p).toContain(note);
      expect(msg, p).not.toContain('no city of that name in CT is known to this build');
    }
  });
  test('the endpoints it names are those that answer it: Mt. Lebanon, PA (filings, no sales) is not said known to the trends refusing it (review 17 J)', async () => {
    const overview = await srv.get('/v1/market/investor-overview?city=Mt.%20Lebanon&state=PA', srv.key('enterprise'));
    expect(overview.status).toBe(200);
    const [status, msg] = await message('/v1/market/trends?city=Mt.%20Lebanon&state=PA&months=12');
    expect(status).toBe(404);
    expect(msg).toContain("Mount Lebanon Township, PA is known to this build's market endpoints from its sales or filings (/v1/market/investor-overview)");
    expect(msg).not.toContain('/v1/market/trends');
    // a town with sales is known to both (Fairfield, CT: the Connecticut sales file)
    const [, geo] = await message('/v1/geo/lookup?city=Fairfield&state=CT');
    expect(geo).toContain('(/v1/market/trends, /v1/market/investor-overview)');
  });
  test('a real city of the build without the data: only the data is said missing', async () => {
    const spokane = readShard<{ city_name: string }>('geo/lookup/WA/spokane.json');
    expect(spokane.city_name).toBe('Spokane');
    // no sales source covers Spokane: said so, not "No sfr sales" (which read as no sales happening)
    const [status, text] = await message('/v1/market/trends?city=Spokane&state=WA');
    expect(status).toBe(404);
    expect(text).toMatch(/^No sales source covers Spokane, WA: /);
  });
});
