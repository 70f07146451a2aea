// One place, one city (h68places), over HTTP on a real server over the shared build. The `cities` table held a Census
// place twice where simplemaps names it otherwise than the Gazetteer: "Saint Anthony" beside "St. Anthony CDP" (IN),
// "De Witt" beside "DeWitt CDP" (NY), "Chesnut Hill" beside "Chestnut Hill CDP" (PA): two cities of one state, so the
// geo lookup answered either spelling with a 404 "names several cities" (IN) or each with its own copy, and the markets
// list named the place twice. Recomputed here from the raw files, not from the build:
// - same name written otherwise: a simplemaps city and a Gazetteer place (with an ACS 2023 population) of the same state
//   whose names are equal once Saint/St., Mount/Mt., Fort/Ft., case, accents, punctuation and blanks are set aside,
//   their points within 2 km, and no place of the state named as simplemaps spells it;
// - same place under another name: a simplemaps city and such a place of the same state with the same population,
//   their points within 1 km, neither name a place's or a city's of the other file in that state.
// Each is one city now: every spelling answers the lookup with the same body, and the markets list has it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { compactKey, placeKey } from '../../live/places/names.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => { srv = await startTestServer(artifactsDir()); key = srv.key('enterprise'); });
afterAll(async () => { await srv?.close(); });

const get = async (path: string): Promise<[number, Record<string, unknown>]> => { const r = await srv.get(path, key); return [r.status, await r.json() as Record<string, unknown>]; };

interface Row { state: string; name: string; lat: number; lng: number; population: number | null; full?: string }
const km = (a: Row, b: Row): number => 111.2 * Math.hypot(a.lat - b.lat, (a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180));
const key2 = (name: string): string => compactKey(placeKey(name));
const slug = (name: string): string => name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

/** Pairs [simplemaps spelling, Census spelling] of one place, by the two rules of the header. */
async function rawPairs(): Promise<{ sameName: [Row, Row][]; samePlace: [Row, Row][] }> {
  const sm = await rawQuery<Row>(`select state_id as state, city as name, lat::double as lat, lng::double as lng, population::bigint::double as population
    from read_csv('${dataFile('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)`);
  const gz = await rawQuery<Row>(`
    with acs as (select geoid, "B01003_001E"::bigint as population from read_csv('${dataFile('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true))
    select g."USPS" as state, g."NAME" as full, regexp_replace(g."NAME", ' (city and borough|city|town|village|borough|CDP|municipality)$', '') as name,
      g."INTPTLAT"::double as lat, trim(g."INTPTLONG")::double as lng, acs.population::double as population
    from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', all_varchar = true, delim = '|') g
    join acs on acs.geoid = g."GEOID" where acs.population is not null`);
  const gzSlugs = new Set(gz.map((g) => `${g.state}|${slug(g.name)}`));
  const smSlugs = new Set(sm.map((s) => `${s.state}|${slug(s.name)}`));
  const gzByState = new Map<string, Row[]>();
  for (const g of gz) (gzByState.get(g.state) ?? gzByState.set(g.state, []).get(g.state)!).push(g);
  const sameName: [Row, Row][] = [];
  const samePlace: [Row, Row][] = [];
  for (const s of sm) {
    if (['PR', 'GU', 'VI', 'AS', 'MP'].includes(s.state)) continue; // the service covers the 50 states and DC
    if (gzSlugs.has(`${s.state}|${slug(s.name)}`)) continue; // matched by its own spelling
    for (const g of gzByState.get(s.state) ?? []) {
      if (key2(g.name) === key2(s.name) && km(s, g) <= 2) sameName.push([s, g]);
      // (a Census name holding simplemaps' as whole words is the same name: "Lexington-Fayette urban county", "Butte-Silver Bow (balance)")
      else if (g.population === s.population && km(s, g) <= 1 && !smSlugs.has(`${g.state}|${slug(g.name)}`) && !`-${slug(g.full!)}-`.includes(`-${slug(s.name)}-`)
        && gz.filter((o) => o.state === g.state && slug(o.name) === slug(g.name)).length === 1) samePlace.push([s, g]);
    }
  }
  return { sameName, samePlace };
}

describe('a Census place simplemaps names otherwise is one city', () => {
  it('the raw files hold such pairs (Saint Anthony / St. Anthony, IN; Chesnut Hill / Chestnut Hill, PA); each spelling answers the lookup with one body', async () => {
    const { sameName, samePlace } = await rawPairs();
    const names = (ps: [Row, Row][]): string[] => ps.map(([s, g]) => `${s.name}/${g.name}, ${s.state}`);
    expect(names(sameName)).toEqual(expect.arrayContaining(['Saint Anthony/St. Anthony, IN', 'De Witt/DeWitt, NY', 'St. Jo/Saint Jo, TX']));
    expect(names(samePlace)).toEqual(expect.arrayContaining(['Chesnut Hill/Chestnut Hill, PA', 'Grovertown/Groverton, IN']));
    expect(sameName.length + samePlace.length).toBeGreaterThanOrEqual(20);
    const bad: string[] = [];
    for (const [s, g] of [...sameName, ...samePlace]) {
      const [a, b] = [await get(`/v1/geo/lookup?city=${encodeURIComponent(s.name)}&state=${s.state}`), await get(`/v1/geo/lookup?city=${encodeURIComponent(g.name)}&state=${g.state}`)];
      if (a[0] !== 200 || b[0] !== 200 || JSON.stringify(a[1]) !== JSON.stringify(b[1])) bad.push(`${s.name} ${a[0]} ${String(a[1]['city_name'] ?? a[1]['message'])} | ${g.name} ${b[0]} ${String(b[1]['city_name'] ?? b[1]['message'])}`);
    }
    expect(bad).toEqual([]);
  });

  it('the markets list names each once (De Witt, NY; On Top of the World, FL; Chestnut Hill, PA: places of 5,000 people or more)', async () => {
    const { sameName, samePlace } = await rawPairs();
    const markets = [...sameName, ...samePlace].filter(([, g]) => (g.population ?? 0) >= 5000);
    expect(markets.map(([s]) => s.state).sort()).toEqual(expect.arrayContaining(['FL', 'NY', 'PA']));
    for (const [s, g] of markets) {
      const [status, body] = await get(`/v1/geo/markets?state=${s.state}`);
      expect(status).toBe(200);
      const listed = (body['markets'] as { city_name: string }[]).filter((m) => [key2(s.name), key2(g.name)].includes(key2(m.city_name)));
      expect(listed.map((m) => m.city_name), `${s.name}/${g.name}`).toHaveLength(1);
    }
  });

  it('two places of a state that are two places stay two (Lake View and Lakeview, AL: 160 km apart)', async () => {
    const [a, b] = [await get('/v1/geo/lookup?city=Lake%20View&state=AL'), await get('/v1/geo/lookup?city=Lakeview&state=AL')];
    expect([a[0], b[0]]).toEqual([200, 200]);
    expect(a[1]['city_name']).not.toBe(b[1]['city_name']);
  });
});
