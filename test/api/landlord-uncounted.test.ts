// The local ordinances a landlord profile's score does not count were only prose: landlord_friendliness_note, which
// research split at "from state law alone; " to name them. The profile now carries them as a list,
// landlord_friendliness_uncounted ({id, jurisdiction_level, jurisdiction_name, category, title}), and the note names
// them from that list. Checked on a real server over the shared build against the overlays recomputed from the raw
// files they come from: the regulations dataset's JSON (warehouse/regulations/local) for the records, simplemaps for
// a city's county and incorporation, us_geo for county names and New York City's boroughs (test/helpers/oracle-geo.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { legalFacts, overlayFor, RawGeo, regulationsDataset, type Fact, type Reg } from '../helpers/oracle-geo.ts';

let srv: TestServer;
let key: string;
let geo: RawGeo;
let regs: Reg[];
let facts: Map<string, Fact>;
beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 10_000);
  geo = await RawGeo.open();
  regs = regulationsDataset();
  facts = legalFacts();
});
afterAll(async () => {
  await srv?.close();
  geo?.close();
});

interface Uncounted { id: string; jurisdiction_level: string; jurisdiction_name: string; category: string; title: string }
interface Profile { state: string; city: string | null; landlord_friendliness_note: string; landlord_friendliness_uncounted: Uncounted[] }

async function profile(state: string, city?: string): Promise<Profile> {
  const res = await srv.get(`/v1/legal/landlord-profile?${new URLSearchParams(city ? { state, city } : { state })}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Profile;
}

const rank = (c: string): number => ({ rent_control: 0, eviction: 1 } as Record<string, number>)[c] ?? 2;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** legal.md "Landlord friendliness": a market's list is in the overlays' order, rent control, eviction, then the rest, by id. */
const byCategory = (a: Uncounted, b: Uncounted): number => rank(a.category) - rank(b.category) || cmp(a.id, b.id);
const element = (r: Reg, place: string): Uncounted => ({
  id: r.id, jurisdiction_level: r.jurisdiction_level, jurisdiction_name: place, category: r.category, title: (r as Reg & { title: string }).title,
});
const countyName = (fips: string | null): string => geo.counties.get(fips ?? '')!.name;
/** The record's place: a city's record is of the city it names, a county's of the county (us_geo's name). */
const placeOf = (r: Reg): string => (r.jurisdiction_level === 'county' ? countyName(r.county_fips) : r.city!);

/** A city's list from the raw files: its own records (its city's, for a borough), else its county's that may apply. */
async function expectedFor(state: string, city: string): Promise<Uncounted[]> {
  const sm = await geo.simplemapsCity(state, city);
  expect(sm, `${city}, ${state} in simplemaps`).not.toBeNull();
  const parent = (await geo.cityParts(state)).get(sm!.city);
  const ov = overlayFor(regs, state, parent ?? city, sm!.countyFips, sm!.incorporated);
  return [...ov.city, ...ov.county].map((r) => element(r, placeOf(r))).sort(byCategory);
}

describe('landlord_friendliness_uncounted: the local ordinances the score does not count, as a list', () => {
  test.each([
    ['IL', 'Chicago', 1],
    ['CA', 'San Francisco', 2],
    ['NY', 'Brooklyn', 2],
    ['CA', 'East Los Angeles', 1],
    ['TX', 'Houston', 0],
  ])('%s %s: the list is the overlays recomputed from the raw files, and the note names exactly its titles', async (state, city, n) => {
    const [p, want] = await Promise.all([profile(state, city), expectedFor(state, city)]);
    expect(want).toHaveLength(n);
    expect(p.landlord_friendliness_uncounted).toEqual(want);
    const clause = p.landlord_friendliness_note.split(`${city}${state === 'NY' ? ' (part of New York)' : ''}: `)[1];
    if (n === 0) expect(p.landlord_friendliness_note.endsWith(`no local ordinance is recorded for ${city}.`)).toBe(true);
    else expect(clause).toBe(`${want.map((o) => o.title).join('; ')}.`);
  });

  test('Chicago: the RLTO, a city ordinance of Chicago', async () => {
    expect((await profile('IL', 'Chicago')).landlord_friendliness_uncounted).toEqual([{
      id: 'il-city-chicago-rlto', jurisdiction_level: 'city', jurisdiction_name: 'Chicago', category: 'landlord_tenant',
      title: 'Chicago Residential Landlord and Tenant Ordinance (RLTO)',
    }]);
  });

  test.each(['IL', 'CA', 'MD', 'NY', 'TX'])('the %s state profile lists every local ordinance of the state, and its note names their places', async (state) => {
    const p = await profile(state);
    const want = regs.filter((r) => r.status === 'active' && r.subcategory === 'local_overlay' && r.state_code === state
      && (r.jurisdiction_level === 'city' || r.jurisdiction_level === 'county'))
      .map((r) => element(r, placeOf(r)))
      .sort((a, b) => cmp(a.jurisdiction_name, b.jurisdiction_name) || byCategory(a, b));
    expect(p.landlord_friendliness_uncounted).toEqual(want);
    const stateName = facts.get(state)!.state_name;
    const places = [...new Set(want.map((o) => o.jurisdiction_name + (o.jurisdiction_level === 'city' && o.jurisdiction_name === stateName ? ' (the city)' : '')))].sort(cmp);
    expect(p.landlord_friendliness_note.split('from state law alone; ')[1]).toBe(places.length
      ? `local ordinances it does not count are recorded for ${places.join(', ')}.`
      : `no local ordinance is recorded in ${stateName}.`);
  });
});
