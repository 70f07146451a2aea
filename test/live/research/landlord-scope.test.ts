// A research answer about a city's landlord friendliness quoted the state's score as if it were the city's ("is
// Chicago landlord friendly?" -> Illinois's 93.9, no word of the RLTO). It now says the score is the state's and names
// the local ordinances the city's landlord profile records, on a real server over the shared build: the sentence names
// them from the profile's landlord_friendliness_uncounted list (no longer by splitting the note's prose), the deep
// answer quotes the note (the same sentence GET /v1/legal/landlord-profile serves: no second copy of the rule).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { regulationsDataset, type Reg } from '../../helpers/oracle-geo.ts';

let srv: TestServer;
let key: string;
beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 10_000);
});
afterAll(async () => { await srv?.close(); });

const ask = async (query: string, depth: 'quick' | 'deep'): Promise<{ answer: string }> => {
  const res = await srv.post('/v1/research/query', { query, depth }, key);
  expect(res.status, query).toBe(200);
  return (await res.json()) as { answer: string };
};
interface Uncounted { jurisdiction_level: string; jurisdiction_name: string; title: string }
interface Profile { landlord_friendliness_score: number; landlord_friendliness_note: string; landlord_friendliness_uncounted: Uncounted[] }
const profile = async (state: string, city: string): Promise<Profile> => {
  const res = await srv.get(`/v1/legal/landlord-profile?${new URLSearchParams({ state, city })}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Profile;
};
/** The active local ordinances of a city (or county), read from the regulations dataset's raw JSON. */
const ordinances = (state: string, city: string, level: 'city' | 'county' = 'city', countyFips?: string): string[] => regulationsDataset()
  .filter((r) => r.status === 'active' && r.subcategory === 'local_overlay' && r.jurisdiction_level === level && r.state_code === state
    && (level === 'city' ? r.city === city : r.county_fips === countyFips))
  .map((r) => (r as Reg & { title: string }).title);

describe('a city\'s landlord friendliness in research answers', () => {
  it.each([
    ['is Chicago landlord friendly?', 'IL', 'Chicago', 'Illinois'],
    ['how landlord-friendly is Los Angeles', 'CA', 'Los Angeles', 'California'],
  ])('%s: the state\'s score, said to be the state\'s, with the city\'s ordinances named', async (q, state, city, stateName) => {
    const [quick, deep, p] = await Promise.all([ask(q, 'quick'), ask(q, 'deep'), profile(state, city)]);
    const own = ordinances(state, city);
    expect(own.length).toBeGreaterThan(0);
    // quick: one sentence, the score said to be the state's, the city's ordinances named
    for (const r of [quick, deep]) {
      expect(r.answer).toContain(`${stateName} scores ${p.landlord_friendliness_score} out of 100`);
      expect(r.answer).toContain(`that is the state's score, from ${stateName} law alone, not a score of ${city}'s own: it does not count`);
      for (const t of own) expect(r.answer).toContain(t);
    }
    // deep: the profile's own note, word for word
    expect(deep.answer).toContain(p.landlord_friendliness_note);
  });
});

describe('the sentence names the ordinances from the profile\'s landlord_friendliness_uncounted list', () => {
  it.each([
    ['is Chicago landlord friendly?', 'IL', 'Chicago', 'Illinois',
      'it does not count the local ordinance of Chicago: Chicago Residential Landlord and Tenant Ordinance (RLTO)', ordinances('IL', 'Chicago')],
    ['how landlord friendly is East Los Angeles, CA', 'CA', 'East Los Angeles', 'California',
      'it does not count the Los Angeles County ordinance that may apply in East Los Angeles: Los Angeles County (unincorporated) Rent Stabilization and Tenant Protections Ordinance',
      ordinances('CA', '', 'county', '06037')],
    ['is Houston landlord friendly?', 'TX', 'Houston', 'Texas', 'no local ordinance is recorded for Houston', []],
  ])('%s', async (q, state, city, stateName, clause, raw) => {
    const [quick, p] = await Promise.all([ask(q, 'quick'), profile(state, city)]);
    // the list holds the raw dataset's records, and the sentence names each of the list's titles, grouped by their place
    expect(p.landlord_friendliness_uncounted.map((o) => o.title)).toEqual(raw);
    for (const o of p.landlord_friendliness_uncounted) expect(clause).toContain(`${o.jurisdiction_name}${o.jurisdiction_level === 'county' ? ' ordinance that may apply' : ''}`);
    for (const o of p.landlord_friendliness_uncounted) expect(clause).toContain(o.title);
    expect(quick.answer).toContain(`that is the state's score, from ${stateName} law alone, not a score of ${city}'s own: ${clause}`);
  });
});
