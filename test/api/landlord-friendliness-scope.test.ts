// Review 10 #11: Chicago's landlord profile read 93.9 "Very Landlord-Friendly" (Illinois's score, from state law alone)
// with the RLTO beside it and no word that the score ignores it. Every profile now says whose score it is
// (landlord_friendliness_scope "state") and names the local ordinances it does not count (landlord_friendliness_note,
// which opens the summary; the market-risk summary quotes the same sentence). Checked on a real server over the shared
// build for every city of the regulations dataset with its own records, a city where a county ordinance may apply
// (found from the raw simplemaps file and the dataset's own JSON, test/helpers/oracle-geo.ts), a city with none, and
// the state profiles.
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

interface Profile {
  state: string; city: string | null; landlord_friendliness_score: number; landlord_friendliness_label: string;
  landlord_friendliness_scope: string; landlord_friendliness_note: string; summary: string;
  rent_control: { local_overlays: { id: string; title: string }[] };
  landlord_friendliness_uncounted: Uncounted[];
}

async function get<T>(target: string): Promise<T> {
  const res = await srv.get(target, key);
  expect(res.status, target).toBe(200);
  return (await res.json()) as T;
}
const profile = (state: string, city?: string): Promise<Profile> =>
  get<Profile>(`/v1/legal/landlord-profile?${new URLSearchParams(city ? { state, city } : { state })}`);

const title = (r: Reg): string => (r as Reg & { title: string }).title;
const stateName = (st: string): string => facts.get(st)!.state_name;
/** The note's opening: the state's score and label, said to be the state's, from state law alone. */
const opening = (p: Profile): string =>
  `Landlord friendliness: ${p.landlord_friendliness_score}/100 (${p.landlord_friendliness_label}) is ${stateName(p.state)}'s score, from state law alone; `;

const activeLocal = (): Reg[] => regs.filter((r) => r.status === 'active' && r.subcategory === 'local_overlay');
/** Every city with its own active records in the dataset, by state. */
const ownCities = (): { state: string; city: string }[] =>
  [...new Map(activeLocal().filter((r) => r.jurisdiction_level === 'city').map((r) => [`${r.state_code}|${r.city}`, { state: r.state_code, city: r.city! }])).values()];

describe('the landlord profile says its score is the state\'s and names the local ordinances it does not count', () => {
  test('Chicago: 93.9-style state score, the RLTO named in the note and at the head of the summary', async () => {
    const [il, chicago] = await Promise.all([profile('IL'), profile('IL', 'Chicago')]);
    expect(chicago.landlord_friendliness_score).toBe(il.landlord_friendliness_score); // not adjusted: the state's
    expect(chicago.landlord_friendliness_scope).toBe('state');
    expect(chicago.landlord_friendliness_note).toBe(`${opening(chicago)}it does not count the local ordinance that adds to state law in Chicago: Chicago Residential Landlord and Tenant Ordinance (RLTO).`);
    expect(chicago.summary.startsWith(`Chicago, Illinois landlord profile. ${chicago.landlord_friendliness_note} `)).toBe(true);
    const risk = await get<{ plain_english_summary: string }>('/v1/legal/market-legal-risk?state=IL&city=Chicago');
    expect(risk.plain_english_summary).toContain(chicago.landlord_friendliness_note);
  });

  test('every city with its own records: the note names each of its ordinances', async () => {
    const cities = ownCities();
    expect(cities.length).toBeGreaterThanOrEqual(18);
    const wrong: string[] = [];
    for (const c of cities) {
      const [st, p] = await Promise.all([profile(c.state), profile(c.state, c.city)]);
      const own = activeLocal().filter((r) => r.jurisdiction_level === 'city' && r.state_code === c.state && r.city === c.city);
      const want = `${opening(p)}it does not count the local ${own.length === 1 ? 'ordinance that adds' : 'ordinances that add'} to state law in ${p.city}: `;
      if (p.landlord_friendliness_scope !== 'state' || p.landlord_friendliness_score !== st.landlord_friendliness_score) wrong.push(`${c.city}, ${c.state}: scope or score`);
      if (!p.landlord_friendliness_note.startsWith(want)) wrong.push(`${c.city}, ${c.state}: ${p.landlord_friendliness_note}`);
      for (const r of own) if (!p.landlord_friendliness_note.includes(title(r))) wrong.push(`${c.city}, ${c.state}: note lacks ${title(r)}`);
      if (!p.summary.includes(p.landlord_friendliness_note)) wrong.push(`${c.city}, ${c.state}: summary lacks the note`);
      // the state profile names the city among the places with recorded ordinances
      if (!st.landlord_friendliness_note.startsWith(`${opening(st)}local ordinances it does not count are recorded for `) || !st.landlord_friendliness_note.includes(c.city)) {
        wrong.push(`${c.state} state note: ${st.landlord_friendliness_note}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('a part of a city (Brooklyn) names its city\'s ordinances; a county ordinance that may apply is named as such', async () => {
    const brooklyn = await profile('NY', 'Brooklyn');
    expect(brooklyn.landlord_friendliness_note).toContain('it does not count the local ordinances that add to state law in Brooklyn (part of New York): New York City rent stabilization and rent control; New York City good cause eviction');
    const ela = await geo.simplemapsCity('CA', 'East Los Angeles');
    const ov = overlayFor(regs, 'CA', ela!.city, ela!.countyFips, ela!.incorporated);
    expect(ov.county.map((r) => r.id)).toEqual(['ca-county-los-angeles-rent-stabilization']);
    const p = await profile('CA', 'East Los Angeles');
    expect(p.landlord_friendliness_note).toBe(`${opening(p)}it does not count the county ordinance that may apply in East Los Angeles: ${title(ov.county[0]!)}.`);
  });

  test('a city without a recorded ordinance (Houston) and a state without one (Texas) say so', async () => {
    const [tx, houston] = await Promise.all([profile('TX'), profile('TX', 'Houston')]);
    expect(houston.landlord_friendliness_note).toBe(`${opening(houston)}no local ordinance is recorded for Houston.`);
    expect(tx.landlord_friendliness_note).toBe(`${opening(tx)}no local ordinance is recorded in Texas.`);
    expect(tx.landlord_friendliness_scope).toBe('state');
    expect(activeLocal().some((r) => r.state_code === 'TX')).toBe(false);
  });
});

// The local ordinances a landlord profile's score does not count were only prose: landlord_friendliness_note, which
// research split at "from state law alone; " to name them. The profile now carries them as a list,
// landlord_friendliness_uncounted ({id, jurisdiction_level, jurisdiction_name, category, title}), and the note names
// them from that list. Checked on a real server over the shared build against the overlays recomputed from the raw
// files they come from: the regulations dataset's JSON (warehouse/regulations/local) for the records, simplemaps for
// a city's county and incorporation, us_geo for county names and New York City's boroughs (test/helpers/oracle-geo.ts).
interface Uncounted { id: string; jurisdiction_level: string; jurisdiction_name: string; category: string; title: string }
const rank = (c: string): number => ({ rent_control: 0, eviction: 1 } as Record<string, number>)[c] ?? 2;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** legal.md "Landlord friendliness": a market's list is in the overlays' order, rent control, eviction, then the rest, by id. */
const byCategory = (a: Uncounted, b: Uncounted): number => rank(a.category) - rank(b.category) || cmp(a.id, b.id);
const element = (r: Reg, place: string): Uncounted => ({
  id: r.id, jurisdiction_level: r.jurisdiction_level, jurisdiction_name: place, category: r.category, title: title(r),
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
    const places = [...new Set(want.map((o) => o.jurisdiction_name + (o.jurisdiction_level === 'city' && o.jurisdiction_name === stateName(state) ? ' (the city)' : '')))].sort(cmp);
    expect(p.landlord_friendliness_note.split('from state law alone; ')[1]).toBe(places.length
      ? `local ordinances it does not count are recorded for ${places.join(', ')}.`
      : `no local ordinance is recorded in ${stateName(state)}.`);
  });
});
