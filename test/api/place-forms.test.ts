// Places as people type them (review h67), over HTTP on a real server over the shared build:
// - a zip as a ZIP+4 ("98103-1234", "98103 1234") or with blanks around it was a 400 on every route but research's
//   context; it is now read as its 5 digits on every zip parameter, query and body, and answers as the 5-digit zip;
// - a city written with its state in parentheses, after a blank, with a zip or the country after it ("Seattle (WA)",
//   "Seattle WA", "Seattle, WA 98103", "Seattle, WA, USA", "Washington, D.C.") answered 400 "state is required" or a
//   404; it now answers as the city and state asked alone, and another state after it is never read as the state;
// - a city sent without its state is still a 400, now naming the states where it is a city, read from the raw
//   simplemaps and Census Gazetteer files, the largest first (Portland, Kansas City, Bristol), never a guess;
// - a state written as a name, misspelled or with blanks ("Washington", "Pensylvania", " WA ") is still a 400,
//   naming the code to send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

type Answer = [number, Record<string, unknown>];
const get = async (path: string): Promise<Answer> => { const r = await srv.get(path, key); return [r.status, await r.json() as Record<string, unknown>]; };
const post = async (path: string, body: unknown): Promise<Answer> => { const r = await srv.post(path, body, key); return [r.status, await r.json() as Record<string, unknown>]; };
const q = encodeURIComponent;
/** A valuation answer without what differs between two calls of one address (none should, but for the clock). */
const stable = ([status, body]: Answer): Answer => [status, { ...body, generated_at: undefined }];

/** The states where a raw file names a city of this exact name: simplemaps' `city` and the Gazetteer's place names
 *  with their legal descriptor (the places the build's place table is made of), the largest first by the ACS 2023
 *  population of the Gazetteer place (the build's population source for a Census place). */
async function rawStates(city: string): Promise<{ state: string; population: number }[]> {
  return rawQuery<{ state: string; population: number }>(`
    with sm as (select distinct state_id as state from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) where city = '${city}'),
         gz as (select "USPS" as state, "GEOID" as geoid from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|')
                where regexp_matches("NAME", '^${city} (city|town|village|borough|CDP|municipality)$')),
         acs as (select geoid, "B01003_001E"::bigint as population from read_csv('${dataFile('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true)),
         pop as (select gz.state, max(acs.population) as population from gz left join acs using (geoid) group by 1)
    select coalesce(sm.state, pop.state) as state, coalesce(pop.population, 0)::double as population
    from sm full join pop on pop.state = sm.state order by population desc, state`);
}

describe('a zip as people write it', () => {
  const forms = (zip: string): string[] => [`${zip}-1234`, `${zip} 1234`, ` ${zip}`, `${zip} `];
  it('GET routes: trends, comps, rehab score, location risk and property answer a ZIP+4 or a blank-padded zip as the 5-digit zip', async () => {
    for (const [path, zip] of [['/v1/market/trends?property_type=sfr&zip=', '98103'], ['/v1/market/comps?zip=', '98103'], ['/v1/market/rehab-score?zip=', '19146'],
      ['/v1/location/risk?zip=', '98103'], ['/v1/property?address=2251%20League%20St&zip=', '19146']] as const) {
      const want = await get(`${path}${zip}`);
      expect(want[0], path).toBeLessThan(500);
      for (const form of forms(zip)) expect(await get(`${path}${q(form)}`), `${path}${form}`).toEqual(want);
    }
  });

  it('the valuation body and research context read a ZIP+4 the same way; the answer names the 5-digit zip it read', async () => {
    const want = stable(await post('/v1/valuation/estimate', { zip: '19146', address: '2251 League St' }));
    expect(want[0]).toBe(200);
    for (const zip of forms('19146')) expect(stable(await post('/v1/valuation/estimate', { zip, address: '2251 League St' })), zip).toEqual(want);
    expect(want[1]['zip']).toBe('19146');
  });

  it('what is no zip is still a 400 naming both forms; a zip as a JSON array is a type error, not a format one', async () => {
    for (const bad of ['9810', '981031234', '98103-123', '98103--1234']) {
      const [status, body] = await get(`/v1/market/comps?zip=${q(bad)}`);
      expect(status, bad).toBe(400);
      expect(body['errors'], bad).toEqual([{ field: 'zip', code: 'format', message: 'zip must be a 5-digit ZIP code or a ZIP+4 (12345-6789)' }]);
    }
    const [status, body] = await post('/v1/valuation/estimate', { zip: ['19146'], address: '2251 League St' });
    expect(status).toBe(400);
    expect(body['errors']).toEqual([{ field: 'zip', code: 'type', message: 'zip must be a string of 5 digits, not an array' }]);
  });
});

describe('a city written with its state', () => {
  it('in parentheses, after a blank, with a zip or the country after it: the city and state asked alone', async () => {
    for (const [typed, state, city, want] of [
      ['Seattle (WA)', null, 'Seattle', 'WA'], ['Seattle WA', null, 'Seattle', 'WA'], ['Seattle WA', 'WA', 'Seattle', 'WA'],
      ['Seattle Washington', 'WA', 'Seattle', 'WA'], ['Seattle, WA 98103', null, 'Seattle', 'WA'], ['Seattle, WA, USA', null, 'Seattle', 'WA'],
      ['St Louis, Missouri, USA', null, 'St. Louis', 'MO'], ['Washington, D.C.', null, 'Washington', 'DC'], ['Kansas City Kansas', 'KS', 'Kansas City', 'KS'],
      ['Kansas City MO', null, 'Kansas City', 'MO'],
    ] as const) {
      const alone = await get(`/v1/geo/lookup?city=${q(city)}&state=${want}`);
      expect(alone[0], city).toBe(200);
      expect(await get(`/v1/geo/lookup?city=${q(typed)}${state ? `&state=${state}` : ''}`), `${typed} ${state}`).toEqual(alone);
    }
    const trends = await get('/v1/market/investor-overview?city=Seattle&state=WA');
    expect(await get(`/v1/market/investor-overview?city=${q('Seattle WA')}&state=WA`)).toEqual(trends);
  });

  it('another state after the name is never read as the state sent: 422 in parentheses, 404 after a blank', async () => {
    const [status, body] = await get(`/v1/geo/lookup?city=${q('Seattle (OR)')}&state=WA`);
    expect(status).toBe(422);
    expect(body['errors']).toEqual([{ field: 'city', code: 'conflict', message: 'city "Seattle (OR)" names the state OR in parentheses, but state=WA: give the city\'s name alone (city=Seattle) with the state it is in' }]);
    const [s2, b2] = await get(`/v1/geo/lookup?city=${q('Seattle OR')}&state=WA`);
    expect(s2).toBe(404);
    expect(b2['message']).toBe('No city named Seattle OR in WA; closest names: Seattle');
    // a name that is a city as written keeps its own reading: Port Washington, NY is no "Port" in Washington
    expect((await get(`/v1/geo/lookup?city=${q('Port Washington')}&state=NY`))[1]).toMatchObject({ city_name: 'Port Washington', state_code: 'NY' });
  });
});

describe('a city sent without its state: a 400 naming the states it is a city of, never a guess', () => {
  for (const city of ['Portland', 'Kansas City', 'Bristol']) {
    it(`${city}: the states the raw files name it in, the largest first`, async () => {
      const raw = await rawStates(city);
      expect(raw.length).toBeGreaterThan(1);
      for (const path of ['/v1/geo/lookup', '/v1/market/investor-overview', '/v1/market/trends', '/v1/legal/market-legal-risk']) {
        const [status, body] = await get(`${path}?city=${q(city)}`);
        expect(status, path).toBe(400);
        const errors = body['errors'] as { field: string; code: string; message: string }[];
        expect(errors.map((e) => [e.field, e.code]), path).toEqual([['state', 'required']]);
        const m = /^state is required: (.+) is a city of (.+); send the one meant, e\.g\. state=([A-Z]{2})$/.exec(errors[0]!.message);
        expect(m, errors[0]!.message).not.toBeNull();
        expect(m![1]).toBe(city);
        const named = m![2]!.replace(' and ', ', ').split(', ');
        expect(new Set(named), path).toEqual(new Set(raw.map((r) => r.state)));
        expect(m![3]).toBe(raw[0]!.state);
        expect(named[0]).toBe(raw[0]!.state);
      }
      // every state named answers for a city of that name
      for (const r of raw) expect((await get(`/v1/geo/lookup?city=${q(city)}&state=${r.state}`))[0], r.state).toBe(200);
    });
  }

  it('one state: named with the code to send; a nickname names its city; an unknown name stays "state is required"', async () => {
    expect((await get('/v1/geo/lookup?city=Seattle'))[1]['message']).toBe('Bad request: state is required: Seattle is a city of WA; send state=WA');
    expect((await get('/v1/geo/lookup?city=Philly'))[1]['message']).toBe('Bad request: state is required: Philly is read as Philadelphia, PA; send state=PA');
    expect((await get('/v1/geo/lookup?city=Zzqxv'))[1]['message']).toBe('Bad request: state is required');
  });
});

describe('a state written otherwise than as its code', () => {
  it('a name, a misspelling, capitals, blanks: 400 naming the code to send, on every route with a state', async () => {
    for (const [typed, tail] of [['Washington', 'Washington is WA, send WA'], ['WASHINGTON', 'Washington is WA, send WA'],
      ['Washingon', '"Washingon" reads as Washington, WA; send WA'], ['Pensylvania', '"Pensylvania" reads as Pennsylvania, PA; send PA'],
      ['Conneticut', '"Conneticut" reads as Connecticut, CT; send CT']] as const) {
      for (const path of [`/v1/geo/lookup?city=Seattle&state=${q(typed)}`, `/v1/regulations/lookup?state=${q(typed)}`, `/v1/legal/tax-sale?state=${q(typed)}`]) {
        const [status, body] = await get(path);
        expect(status, path).toBe(400);
        expect(body['errors'], path).toEqual([{ field: 'state', code: 'format', message: `state must be a 2-letter state code: ${tail}` }]);
      }
    }
    const [status, body] = await get(`/v1/geo/markets?state=${q(' WA ')}`);
    expect(status).toBe(400);
    expect(body['errors']).toEqual([{ field: 'state', code: 'format', message: 'state must be a 2-letter state code with no blanks around it: send WA' }]);
    // lower case stays the contract's 422 naming the upper-case form
    expect((await get('/v1/geo/lookup?city=Seattle&state=wa'))[0]).toBe(422);
  });
});
