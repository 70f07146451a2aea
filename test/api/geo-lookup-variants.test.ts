// The place resolver over HTTP (live/places, api/routes.ts): the 60 largest US places by ACS 2023 population, found
// in the raw ACS file, each asked for by every common variant of its name (its Census name without the descriptor,
// Saint/St., Mount/Mt., Fort/Ft., "City of X", "X city", case, hyphens, accents, apostrophes) must give the same
// answer as its name as simplemaps writes it, on the geo lookup and on the legal and investor endpoints (where the
// canonical spelling has an answer). A one-letter typo of each is a 404 whose message offers the name.
// The places, their names and the simplemaps spelling come from the raw files (DuckDB over ../shared/data), the
// variants from the test's own generator: no product function is used to compute what is expected.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { SOURCES } from '../helpers/oracle-geo.ts';

interface Big { state: string; census: string; population: number; simplemaps: string }

let srv: TestServer;
let key: string;
let big: Big[];

const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’.]/g, '').split(/[^a-z0-9]+/).filter(Boolean).join(' ');
/** The Census place name without its legal descriptor (written from the Gazetteer's LSAD list, not the product's). */
const core = (n: string): string => n.replace(/\s*\(balance\)$/, '')
  .replace(/\s+(city|town|village|CDP|borough|municipality|metropolitan government|metro government|unified government|consolidated government|urban county)$/, '');

async function largest(n: number): Promise<Big[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const q = async <T,>(sql: string): Promise<T[]> => (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
  const sm = `${SOURCES}/simplemaps-uscities/uscities.csv.gz`.replaceAll("'", "''");
  const acs = `${SOURCES}/census-acs2023-population/acs5_2023_place_population.csv.gz`.replaceAll("'", "''");
  const places = await q<{ name: string; state: string; population: number }>(`
    with states as (select distinct state_id, state_name from read_csv('${sm}', all_varchar = true))
    select regexp_extract("NAME", '^(.*), [^,]+$', 1) as name, s.state_id as state, cast("B01003_001E" as integer) as population
    from read_csv('${acs}', all_varchar = true) a
    join states s on s.state_name = regexp_extract(a."NAME", ', ([^,]+)$', 1)
    where s.state_id <> 'PR' -- the service covers the 50 states and DC
    order by population desc limit ${n}`);
  const cities = await q<{ city: string; state: string; population: number }>(
    `select city, state_id as state, cast(population as integer) as population from read_csv('${sm}', all_varchar = true)`);
  inst.closeSync();
  return places.map((p) => {
    const c = fold(core(p.name));
    const heads = [c, fold(core(p.name).split(/[-/]/)[0]!), c.replace(/^urban /, '')];
    const match = cities.filter((x) => x.state === p.state && heads.includes(fold(x.city))).sort((a, b) => b.population - a.population)[0];
    if (!match) throw new Error(`no simplemaps city for ${p.name}, ${p.state}`);
    return { state: p.state, census: p.name, population: p.population, simplemaps: match.city };
  });
}

/** Every common way to write a name: the test's own generator. */
function variants(b: Big): string[] {
  const out = new Set<string>();
  const bases = [b.simplemaps, core(b.census)];
  for (const base of bases) {
    const forms = [base];
    const swaps: [RegExp, string[]][] = [
      [/\b(Saint|St\.?)(?= )/, ['Saint', 'St.', 'St']], [/\b(Mount|Mt\.?)(?= )/, ['Mount', 'Mt.', 'Mt']], [/\b(Fort|Ft\.?)(?= )/, ['Fort', 'Ft.', 'Ft']],
    ];
    for (const [re, alts] of swaps) if (re.test(base)) for (const a of alts) forms.push(base.replace(re, a));
    for (const f of forms) {
      out.add(f);
      out.add(f.toLowerCase());
      out.add(f.toUpperCase());
      out.add(`City of ${f}`);
      out.add(`${f} city`);
      out.add(f.normalize('NFKD').replace(/\p{M}/gu, ''));
      if (f.includes('-')) out.add(f.replace(/-/g, ' '));
      if (/\w \w/.test(f) && !/\./.test(f)) out.add(f.replace(/ /g, '-'));
      if (/'/.test(f)) out.add(f.replace(/'/g, ''));
    }
  }
  return [...out];
}

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 100_000);
  big = await largest(60);
}, 120_000);
afterAll(async () => { await srv?.close(); });

const lookup = async (state: string, city: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await srv.get(`/v1/geo/lookup?state=${state}&city=${encodeURIComponent(city)}`, key);
  return { status: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
};

describe('geo lookup by every common variant of the 60 largest places', () => {
  test('the oracle finds 60 places in the raw ACS file, each with a simplemaps spelling', () => {
    expect(big.length).toBe(60);
    expect(new Set(big.map((b) => `${b.state}|${b.census}`)).size).toBe(60);
  });

  test('every variant answers exactly what the simplemaps spelling answers, canonical name included', async () => {
    const failures: string[] = [];
    let asked = 0;
    for (const b of big) {
      const canon = await lookup(b.state, b.simplemaps);
      if (canon.status !== 200) { failures.push(`${b.simplemaps}, ${b.state}: ${canon.status}`); continue; }
      expect(fold(String(canon.body['city_name']))).toBe(fold(b.simplemaps));
      for (const v of variants(b)) {
        asked++;
        const got = await lookup(b.state, v);
        if (got.status !== 200 || JSON.stringify(got.body) !== JSON.stringify(canon.body)) failures.push(`"${v}", ${b.state}: ${got.status} ${String(got.body['city_name'] ?? got.body['message'])}`);
      }
    }
    expect(failures).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(60 * 5); // at least the name, lower and upper case, "City of X", "X city"
  }, 120_000);

  test('the legal and investor endpoints take the same variants: the same answer as the simplemaps spelling', async () => {
    const failures: string[] = [];
    let compared = 0;
    for (const b of big) {
      for (const route of ['/v1/legal/market-legal-risk', '/v1/legal/landlord-profile', '/v1/market/investor-overview']) {
        const get = async (city: string): Promise<{ status: number; text: string }> => {
          const res = await srv.get(`${route}?state=${b.state}&city=${encodeURIComponent(city)}`, key);
          return { status: res.status, text: await res.text() };
        };
        const canon = await get(b.simplemaps);
        if (canon.status !== 200) { if (route !== '/v1/market/investor-overview') failures.push(`${route} ${b.simplemaps}: ${canon.status}`); continue; }
        for (const v of variants(b).filter((_, i) => i % 3 === 0)) {
          compared++;
          const got = await get(v);
          if (got.status !== 200 || got.text !== canon.text) failures.push(`${route} "${v}", ${b.state}: ${got.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(60 * 2 * 2);
  }, 120_000);

  test("nicknames in common use answer what the city's own name answers: NYC, New York City, LA, SF, Philly", async () => {
    for (const [state, nick, city] of [['NY', 'NYC', 'New York'], ['NY', 'New York City', 'New York'], ['CA', 'LA', 'Los Angeles'], ['CA', 'SF', 'San Francisco'], ['PA', 'Philly', 'Philadelphia']] as const) {
      const canon = await lookup(state, city);
      expect(canon.status, city).toBe(200);
      const got = await lookup(state, nick);
      expect(got, nick).toEqual(canon);
    }
    expect((await lookup('NJ', 'NYC')).status).toBe(404); // a nickname means its city in its own state only
  });

  test('a one-letter typo is a 404 whose message offers the right name', async () => {
    const failures: string[] = [];
    for (const b of big) {
      const name = b.simplemaps;
      let i = Math.max(1, Math.floor(name.length / 2));
      while (!/[a-z]/i.test(name[i]!)) i++;
      const typo = name.slice(0, i) + name.slice(i + 1); // one letter (not a space or dot) deleted from the middle
      const got = await lookup(b.state, typo);
      const shape = Object.keys(got.body).every((k) => k === 'message' || k === 'errors');
      if (got.status !== 404 || !shape || !String(got.body['message']).includes(name)) failures.push(`"${typo}", ${b.state}: ${got.status} ${JSON.stringify(got.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
