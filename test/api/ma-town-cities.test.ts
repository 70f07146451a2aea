// Massachusetts towns with a city form of government by their plain names (live/places/names.ts plainTownKey,
// warehouse/docs/places.md "Massachusetts' Town cities"): the Census names 13 of them "Weymouth Town city" (Gazetteer
// 2025) and simplemaps names Methuen and Watertown "Methuen Town", "Watertown Town"; before, "Weymouth" was a 404
// ("closest names: Weymouth Town") and research answered "name one in Massachusetts". The towns come from the raw
// Gazetteer and simplemaps files, never from the product.
import { beforeAll, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { SOURCES } from '../helpers/oracle-geo.ts';
import { rawQuery } from '../helpers/oracle-raw-comps.ts';

const api = serveSharedBuild('pro', 100_000);
/** plain name -> the name simplemaps (the build's city names) gives it */
let towns: Map<string, string>;

beforeAll(async () => {
  const gaz = await rawQuery<{ plain: string }>(`select regexp_extract("NAME", '^(.*) Town city$', 1) as plain
    from read_csv('${SOURCES}/census-gazetteer-2025/2025_Gaz_place_national.txt.gz', delim = '|', all_varchar = true)
    where "USPS" = 'MA' and "NAME" like '% Town city'`);
  const sm = await rawQuery<{ city: string }>(`select city from read_csv('${SOURCES}/simplemaps-uscities/uscities.csv.gz', all_varchar = true)
    where state_id = 'MA' and city like '% Town'`);
  towns = new Map([...gaz.map((g) => [g.plain, `${g.plain} Town`] as const), ...sm.map((s) => [s.city.slice(0, -5), s.city] as const)]);
}, 120_000);

async function get(p: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await api.get(p);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('the premise, from the raw files: 13 Gazetteer "Town city" places and simplemaps\' Methuen and Watertown', () => {
  expect(towns.size).toBeGreaterThanOrEqual(15);
  for (const t of ['Weymouth', 'Braintree', 'Franklin', 'Amherst', 'Barnstable', 'Agawam', 'West Springfield', 'Methuen', 'Watertown']) expect(towns.has(t), t).toBe(true);
});

test('each answers the geo lookup by its plain name, the same as by its "Town" name', async () => {
  for (const [plain, named] of towns) {
    const byName = await get(`/v1/geo/lookup?state=MA&city=${encodeURIComponent(named)}`);
    if (byName.status !== 200) continue; // a town the build's cities table does not hold (none in the real build)
    const byPlain = await get(`/v1/geo/lookup?state=MA&city=${encodeURIComponent(plain)}`);
    expect(byPlain.status, plain).toBe(200);
    expect(byPlain.body, plain).toEqual(byName.body);
  }
  expect((await get('/v1/geo/lookup?state=MA&city=Weymouth')).body['city_name']).toBe('Weymouth Town');
});

test('"Watertown" is Watertown, never "Water"; a "Town" name elsewhere is the place\'s own name ("Charles", WV is none)', async () => {
  expect((await get('/v1/geo/lookup?state=MA&city=Water')).status).toBe(404);
  expect((await get('/v1/geo/lookup?state=WV&city=Charles')).status).toBe(404);
  expect((await get('/v1/geo/lookup?state=WV&city=Charles%20Town')).status).toBe(200);
});

test('research reads "Weymouth, MA" as the town, not "name one in Massachusetts"', async () => {
  const res = await api.post('/v1/research/query', { query: 'median sale price in Weymouth, MA' });
  const answer = String(((await res.json()) as { answer: string }).answer);
  expect(answer).not.toMatch(/name one in/);
  expect(answer).toContain('Weymouth Town, MA');
});
