// A research answer about a city's landlord friendliness quoted the state's score as if it were the city's ("is
// Chicago landlord friendly?" -> Illinois's 93.9, no word of the RLTO). It now says the score is the state's and names
// the local ordinances the city's landlord profile records (its landlord_friendliness_note, the same sentence GET
// /v1/legal/landlord-profile serves: no second copy of the rule), on a real server over the shared build.
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
const profile = async (state: string, city: string): Promise<{ landlord_friendliness_score: number; landlord_friendliness_note: string }> => {
  const res = await srv.get(`/v1/legal/landlord-profile?${new URLSearchParams({ state, city })}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as { landlord_friendliness_score: number; landlord_friendliness_note: string };
};
/** The city's own active local ordinances, read from the regulations dataset's raw JSON. */
const ordinances = (state: string, city: string): string[] => regulationsDataset()
  .filter((r) => r.status === 'active' && r.subcategory === 'local_overlay' && r.jurisdiction_level === 'city' && r.state_code === state && r.city === city)
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
