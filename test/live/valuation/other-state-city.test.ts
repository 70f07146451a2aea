// POST /v1/valuation/estimate with an address typed with a city of another state (review 24): "123 Main St, Miami, FL"
// for Seattle's zip 98103 is valued as zip 98103, and the note names the city and state typed ("Miami, FL"), not
// "the state FL" alone; a country written last ("Miami, FL, USA") hid the state, so no note was given at all. A city
// typed with no state is never said to be another state's (Fremont is a Seattle neighbourhood in 98103 and a city of
// California). Over HTTP on the shared real build; the zip's city and the typed cities from the raw files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

describe('valuation: a city of another state typed with the address', () => {
  let server: TestServer;
  let key: string;
  const notes = async (address: string, zip: string): Promise<string[]> => {
    const res = await fetch(`${server.url}/v1/valuation/estimate`, { method: 'POST', headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ address, zip }) });
    expect(res.status, address).toBe(200);
    return ((await res.json()) as { notes?: string[] }).notes ?? [];
  };
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder', 100_000);
  });
  afterAll(async () => { await server.close(); });

  it('"123 Main St, Miami, FL" (and with ", USA") for 98103: a note naming Miami, FL and the zip used', async () => {
    const [zip] = await rawQuery<{ city: string; state: string }>(`select city, state from read_csv('${dataFile('us-zip-reference/zip_reference.csv.gz')}', all_varchar = true) where zip_code = '98103'`);
    expect(zip).toEqual({ city: 'Seattle', state: 'WA' });
    const miami = await rawQuery<{ s: string }>(`select state_id as s from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) where city = 'Miami' and state_id in ('FL', 'WA') order by 1`);
    expect(miami).toEqual([{ s: 'FL' }]);
    const want = `The address names Miami, FL (a city of another state), but the request's zip 98103 is ${zip!.city}, ${zip!.state}: the answer is for zip 98103; check the zip or the address`;
    // before: "The address names the state FL, ..." and, with ", USA", no note
    for (const a of ['123 Main St, Miami, FL', '123 Main St, Miami, FL, USA', '123 Main St, Miami, Florida, United States']) expect(await notes(a, '98103'), a).toContain(want);
  });

  it('a state alone is still named as the state; a city with no state, or the zip\'s own state, gives no place note', async () => {
    expect((await notes('123 Main St, Florida', '98103')).join(' ')).toContain("The address names the state FL, but the request's zip 98103 is Seattle, WA");
    const fremont = await rawQuery<{ s: string }>(`select state_id as s from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) where city = 'Fremont' and state_id = 'CA'`);
    expect(fremont).toHaveLength(1);
    for (const a of ['123 Main St, Fremont', '123 Main St, Seattle, WA, USA']) expect((await notes(a, '98103')).join(' '), a).not.toContain('The address names');
  });
});
