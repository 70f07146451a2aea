// City nicknames the research reader already knew but typed city names did not (a reviewer's leftover): "Pgh",
// "Phila"/"Phila.", "N.Y.C.", "S.F.", "KC"/"KCMO" and "KCK" now name their city on every endpoint that reads a typed
// city (live/places/nicknames.ts CITY_NICKNAMES, the one list both read): the geo lookup's and the investor overview's
// `city=` answer as the city's own name does, and autocomplete keeps a typed "phila" to Philadelphia's addresses.
// Each city is checked to be in the raw Census gazetteer of its state; the Philadelphia address is the OPA file's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { normalizeAddress } from '../../warehouse/address.ts';
import { CITY_ALIASES } from '../../live/research/place-words.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('pro'); });
afterAll(async () => { await srv?.close(); });

/** [nickname as typed, the city's own name, its state] */
const NICKNAMES: [string, string, string][] = [
  ['Pgh', 'Pittsburgh', 'PA'], ['pgh', 'Pittsburgh', 'PA'], ['Phila', 'Philadelphia', 'PA'], ['Phila.', 'Philadelphia', 'PA'],
  ['NYC', 'New York', 'NY'], ['N.Y.C.', 'New York', 'NY'], ['S.F.', 'San Francisco', 'CA'], ['SF', 'San Francisco', 'CA'],
  ['KC', 'Kansas City', 'MO'], ['KCMO', 'Kansas City', 'MO'], ['KCK', 'Kansas City', 'KS'], ['KC', 'Kansas City', 'KS'],
  ['Big Apple', 'New York', 'NY'], ['the lou', 'St. Louis', 'MO'], ['Nashvegas', 'Nashville', 'TN'], ['Music City', 'Nashville', 'TN'],
  ['Derby City', 'Louisville', 'KY'], ['Chi-town', 'Chicago', 'IL'], ['Motown', 'Detroit', 'MI'], ['Beantown', 'Boston', 'MA'],
  ['Mile High City', 'Denver', 'CO'], ['Emerald City', 'Seattle', 'WA'], ['Charm City', 'Baltimore', 'MD'], ['Sactown', 'Sacramento', 'CA'],
];

const get = async (path: string): Promise<[number, unknown]> => { const r = await srv.get(path, key); return [r.status, await r.json()]; };

describe('city nicknames on the endpoints that read a typed city', () => {
  it('the raw gazetteer has each city in its state', async () => {
    const gaz = await rawQuery<{ n: string; s: string }>(`select "NAME" as n, "USPS" as s from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|')`);
    // a consolidated city's Census name carries its government after the city's ("Nashville-Davidson metropolitan government (balance)")
    for (const [, city, state] of NICKNAMES) expect(gaz.some((g) => g.s === state && (g.n === `${city} city` || g.n.startsWith(`${city}-`) || g.n.startsWith(`${city}/`))), `${city}, ${state}`).toBe(true);
  });

  it.each(NICKNAMES)('geo lookup city=%s answers as city=%s, %s', async (nick, city, state) => {
    const want = await get(`/v1/geo/lookup?city=${encodeURIComponent(city)}&state=${state}`);
    expect(want[0]).toBe(200);
    expect(await get(`/v1/geo/lookup?city=${encodeURIComponent(nick)}&state=${state}`)).toEqual(want);
  });

  it('a nickname names no city of another state', async () => {
    for (const [nick, state] of [['Pgh', 'OH'], ['KCK', 'MO'], ['Phila', 'NY']]) {
      expect((await srv.get(`/v1/geo/lookup?city=${encodeURIComponent(nick!)}&state=${state}`, key)).status, `${nick} ${state}`).toBe(404);
    }
  });

  it('the investor overview reads city=Pgh, Phila, KCMO as the city (the same answer, 200 or its 404 naming the city)', async () => {
    for (const [nick, city, state] of [['Pgh', 'Pittsburgh', 'PA'], ['Phila', 'Philadelphia', 'PA'], ['KCMO', 'Kansas City', 'MO'], ['N.Y.C.', 'New York', 'NY']] as const) {
      const want = await get(`/v1/market/investor-overview?city=${encodeURIComponent(city)}&state=${state}`);
      expect(await get(`/v1/market/investor-overview?city=${encodeURIComponent(nick)}&state=${state}`), nick).toEqual(want);
    }
  });

  it('autocomplete: "4324 main st phila" is the OPA file\'s Philadelphia address, and only Philadelphia addresses; "pgh" none of them', async () => {
    const raw = (await rawQuery<{ address: string; zip: string }>(`
      select trim(location) as address, left(trim(zip_code), 5) as zip
      from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)
      where upper(trim(location)) = '4324 MAIN ST'`)).map((r) => [normalizeAddress(r.address).street, r.zip]);
    expect(raw.length).toBeGreaterThan(0);
    for (const q of ['4324 main st phila', '4324 Main St Phila., PA']) {
      const [status, body] = await get(`/v1/address/autocomplete?q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
      const results = (body as { results: { address: string; zip: string; city: string; state: string }[] }).results;
      expect(results.map((m) => [m.address.split(' UNIT ')[0], m.zip]), q).toContainEqual(raw[0]);
      for (const m of results) expect([m.city, m.state], q).toEqual(['Philadelphia', 'PA']);
    }
    // "pgh" is Pittsburgh: never Philadelphia's 4324 Main St read as a typo (what it answered before)
    const [status, body] = await get(`/v1/address/autocomplete?q=${encodeURIComponent('4324 main st pgh')}`);
    expect(status).toBe(200);
    for (const m of (body as { results: { city: string; state: string }[] }).results) expect([m.city, m.state]).toEqual(['Pittsburgh', 'PA']);
  });

  it('research reads the same nicknames in question text from the same list', () => {
    const read = (q: string): [string, string][] => CITY_ALIASES.filter(([re]) => re.test(q)).map(([, c, s]) => [c, s]);
    expect(read('median price in Pgh')).toEqual([['Pittsburgh', 'PA']]);
    expect(read('median price in Phila.')).toEqual([['Philadelphia', 'PA']]);
    expect(read('rent in KCK')).toEqual([['Kansas City', 'KS']]);
    expect(read('rent in KCMO')).toEqual([['Kansas City', 'MO']]);
    expect(read('price trend in the Big Apple')).toEqual([['New York', 'NY']]);
    expect(read('foreclosures in the Lou')).toEqual([['St. Louis', 'MO']]);
    expect(read('median price in Nashvegas')).toEqual([['Nashville', 'TN']]);
    expect(read('homes in Lou Gehrig Park')).toEqual([]);
  });

  it('a research question naming a city by its nickname answers as the city named (review 31: "no place named")', async () => {
    const ask = async (query: string): Promise<string> => {
      const r = await srv.post('/v1/research/query', { query }, key);
      expect(r.status, query).toBe(200);
      return ((await r.json()) as { answer: string }).answer;
    };
    for (const [nick, city] of [['the Big Apple', 'New York City'], ['Nashvegas', 'Nashville, TN'], ['the Emerald City', 'Seattle, WA'], ['Beantown', 'Boston, MA']]) {
      const want = await ask(`median home price in ${city}`);
      expect(want).not.toMatch(/could not find a place/);
      expect(await ask(`median home price in ${nick}`), nick).toBe(want);
    }
  });
});
