// A neighbourhood asked as a city (live/places/resolver.ts, warehouse/docs/places.md "Neighbourhoods and boroughs
// asked as cities"): "Queens Village" was the whole borough of Queens (its trailing "Village" taken off: 249 sales in
// 2024-02 where the raw records name 15 in Queens Village), "Greenwich Village" the village of Greenwich, Washington
// County, and "Flushing", "Woodside", "Far Rockaway" (the city the property and autocomplete answers give) "no city of
// that name". Each city endpoint now says what the name is: a neighbourhood of its borough, the borough to ask. The
// neighbourhoods and their boroughs come from the raw NYC rolling-sales files (NEIGHBORHOOD, BOROUGH columns; SOURCE.md
// codes 1 Manhattan ... 5 Staten Island), never from the product.
import { beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { SOURCES } from '../helpers/oracle-geo.ts';
import { rawQuery } from '../helpers/oracle-raw-comps.ts';

const BOROUGH: Record<string, string> = { 1: 'Manhattan', 2: 'Bronx', 3: 'Brooklyn', 4: 'Queens', 5: 'Staten Island' };
/** The names asked and the raw NEIGHBORHOOD values each stands for (the name, or the name before a hyphen). */
const ASKED = ['Queens Village', 'Greenwich Village', 'Flushing', 'Woodside', 'Far Rockaway'];

const api = serveSharedBuild('pro', 100_000);
let boroughOf: Map<string, string>;

beforeAll(async () => {
  const files = `'${SOURCES}/nyc-rolling-sales/*.csv.gz'`;
  const rows = await rawQuery<{ n: string; b: string }>(`select distinct upper(trim("NEIGHBORHOOD")) as n, cast("BOROUGH" as varchar) as b
    from read_csv(${files}, all_varchar = true, union_by_name = true)`);
  boroughOf = new Map();
  for (const asked of ASKED) {
    const up = asked.toUpperCase();
    const boroughs = new Set(rows.filter((r) => r.n === up || r.n.startsWith(`${up}-`)).map((r) => BOROUGH[r.b]!));
    if (boroughs.size === 1) boroughOf.set(asked, [...boroughs][0]!);
  }
}, 120_000);

async function get(pathAndQuery: string): Promise<{ status: number; message: string; body: Record<string, unknown> }> {
  const res = await api.get(pathAndQuery);
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, message: String(body['message'] ?? ''), body };
}

test('the premise, from the raw files: each name is a neighbourhood of one borough in the NYC sales records', () => {
  expect(Object.fromEntries(boroughOf)).toEqual({
    'Queens Village': 'Queens', 'Greenwich Village': 'Manhattan', Flushing: 'Queens', Woodside: 'Queens', 'Far Rockaway': 'Queens',
  });
});

describe('a neighbourhood asked as a city is a 404 naming it and its borough, on every city endpoint', () => {
  const routes = [
    (c: string) => `/v1/geo/lookup?state=NY&city=${encodeURIComponent(c)}`,
    (c: string) => `/v1/market/trends?state=NY&city=${encodeURIComponent(c)}&months=12`,
    (c: string) => `/v1/market/investor-overview?state=NY&city=${encodeURIComponent(c)}`,
    (c: string) => `/v1/legal/market-legal-risk?state=NY&city=${encodeURIComponent(c)}`,
  ];
  for (const asked of ASKED) {
    test(asked, async () => {
      for (const route of routes) {
        const r = await get(route(asked));
        expect(r.status, route(asked)).toBe(404);
        expect(r.message, route(asked)).toContain(`${asked} is no city: it is a neighbourhood of ${boroughOf.get(asked)}, New York City`);
        expect(r.message, route(asked)).toContain(`ask city=${boroughOf.get(asked)}`);
      }
    });
  }
});

test('a borough with a municipality\'s word is no place ("Manhattan City", "Brooklyn Town"); "Bronx borough" is the borough', async () => {
  for (const [asked, borough] of [['Manhattan City', 'Manhattan'], ['Brooklyn Town', 'Brooklyn']] as const) {
    for (const p of [`/v1/geo/lookup?state=NY&city=${encodeURIComponent(asked)}`, `/v1/market/trends?state=NY&city=${encodeURIComponent(asked)}&months=12`]) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.message, p).toContain(`${borough} is a borough of New York City`);
    }
  }
  const bronx = await get('/v1/geo/lookup?state=NY&city=Bronx%20borough');
  expect(bronx.status).toBe(200);
  expect(bronx.body['city_name']).toBe('Bronx');
});

test('a municipality\'s word after a city\'s own name still answers the city ("Seattle city", "New York city")', async () => {
  for (const [state, asked, city] of [['WA', 'Seattle city', 'Seattle'], ['NY', 'New York city', 'New York'], ['NY', 'Greenwich', 'Greenwich']] as const) {
    const r = await get(`/v1/geo/lookup?state=${state}&city=${encodeURIComponent(asked)}`);
    expect(r.status, asked).toBe(200);
    expect(r.body['city_name'], asked).toBe(city);
  }
});
