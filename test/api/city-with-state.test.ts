// A city written with its own state (review 23 #2): `GET /v1/market/trends?city=Seattle, WA&state=WA` answered 404
// "No sfr sales for Seattle, WA, WA". A state after the city's comma that is the `state` sent, or with no `state` sent,
// is read off (the city is the name before the comma); one that contradicts `state` is a 422 naming both (README
// "Errors": parameters that conflict). A name whose part after the comma is no state stays a city's name as written
// (Islamorada, Village of Islands, FL: the raw simplemaps file's own name). Each answer is compared with the city's
// own name asked alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

const get = async (path: string): Promise<[number, Record<string, unknown>]> => { const r = await srv.get(path, key); return [r.status, await r.json() as Record<string, unknown>]; };
const q = encodeURIComponent;

describe('a city written with its state', () => {
  it('trends: "Seattle, WA" with state=WA, with no state, and "Seattle, Washington" answer as city=Seattle&state=WA', async () => {
    const want = await get('/v1/market/trends?city=Seattle&state=WA&property_type=sfr');
    expect(want[0]).toBe(200);
    expect(await get(`/v1/market/trends?city=${q('Seattle, WA')}&state=WA&property_type=sfr`)).toEqual(want);
    expect(await get(`/v1/market/trends?city=${q('Seattle, WA')}&property_type=sfr`)).toEqual(want);
    expect(await get(`/v1/market/trends?city=${q('Seattle , Washington')}&state=WA&property_type=sfr`)).toEqual(want);
  });

  it('geo lookup, investor overview and landlord profile read it the same way', async () => {
    for (const [path, typed, city, state] of [
      ['/v1/geo/lookup', 'Brooklyn, NY', 'Brooklyn', 'NY'], ['/v1/geo/lookup', 'Boise, ID', 'Boise', 'ID'],
      ['/v1/market/investor-overview', 'Philadelphia, Pa.', 'Philadelphia', 'PA'], ['/v1/legal/landlord-profile', 'Seattle, WA', 'Seattle', 'WA'],
    ] as const) {
      const want = await get(`${path}?city=${q(city)}&state=${state}`);
      expect(await get(`${path}?city=${q(typed)}&state=${state}`), `${path} ${typed}`).toEqual(want);
    }
  });

  it('a state after the comma that contradicts state= is a 422 naming both', async () => {
    const [status, body] = await get(`/v1/market/trends?city=${q('Seattle, WA')}&state=OR&property_type=sfr`);
    expect(status).toBe(422);
    const message = 'city "Seattle, WA" names the state WA after its comma, but state=OR: give the city\'s name alone (city=Seattle) with the state it is in';
    expect(body).toEqual({ message: `Validation failed: ${message}`, errors: [{ field: 'city', code: 'conflict', message }] });
    expect((await get(`/v1/geo/lookup?city=${q('Portland, Maine')}&state=OR`))[0]).toBe(422);
  });

  it('a part after the comma that is no state stays the name: Islamorada, Village of Islands, FL', async () => {
    const raw = await rawQuery<{ city: string }>(`select city from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
      where state_id = 'FL' and city like 'Islamorada%'`);
    expect(raw.map((r) => r.city)).toEqual(['Islamorada, Village of Islands']);
    const [status, body] = await get(`/v1/geo/lookup?city=${q('Islamorada, Village of Islands')}&state=FL`);
    expect([status, body['city_name']]).toEqual([200, 'Islamorada, Village of Islands']);
  });
});
