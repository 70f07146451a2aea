// GET /v1/legal/market-legal-risk over a seeded random sample of markets (h77 audit, gap e): values-geo-legal.test.ts
// checks twelve markets chosen by hand; here two cities per state and DC, drawn with a fixed seed (scripts/rng.ts)
// from the raw simplemaps file's cities of 5,000 people or more (the market list's floor, geo.md), with 20 cities an
// active city overlay names and 10 of the counties an active county overlay names drawn likewise, each recomputed by
// the oracle that shares no code with the product (test/helpers/oracle-geo.ts: legal.md's seven weighted component
// risks over ../shared/reference/legal-facts.csv, the state friendliness and the regulations dataset's overlays of
// the city or its county): the score within the rounding of its parts (0.07), the label of its band, the friendliness
// quoted in the summary, and last_reviewed_at the oldest review of the state's and the overlays' records. A part of a
// city (a New York City borough) takes its city's overlays (legal.md) and is left out of the draw.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import {
  friendliness, justCauseRequired, legalRisk, openMarketSample, overlayFor, RawGeo, riskLabel, sqlPath, type Fact, type Reg,
} from '../helpers/oracle-geo.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 77;
const PER_STATE = 2;
const api = serveSharedBuild('pro', 100_000);
let geo: RawGeo;
let facts: Map<string, Fact>;
let regs: Reg[];
let sample: { state: string; city: string }[];

beforeAll(async () => {
  let parts: Map<string, string>;
  let cities: { state: string; city: string }[];
  ({ geo, facts, regs, parts, cities } = await openMarketSample());
  const rows = [...new Map(cities.map((c) => [`${c.state}|${c.city}`, c])).values()]; // each name of a state once
  const rnd = rng(SEED);
  sample = [];
  for (const st of [...facts.keys()].sort()) {
    const pool = rows.filter((r) => r.state === st && !parts.has(`${st}|${r.city}`));
    for (let i = 0; i < PER_STATE && pool.length; i++) sample.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);
  }
  // and, since few random cities have an overlay of their own or their county's, 20 of the cities named by an active
  // city overlay record, and 10 cities of the counties an active county overlay names (the same raw simplemaps rows)
  const active = regs.filter((r) => r.status === 'active' && r.subcategory === 'local_overlay');
  const own = [...new Set(active.filter((r) => r.jurisdiction_level === 'city' && r.city).map((r) => `${r.state_code}|${r.city}`))].sort()
    .filter((k) => rows.some((r) => `${r.state}|${r.city}` === k) && !parts.has(k));
  const counties = new Set(active.filter((r) => r.jurisdiction_level === 'county').map((r) => r.county_fips));
  const inCounty = (await geo.rows<{ state: string; city: string }>(`
    select distinct state_id as state, city from read_csv('${sqlPath('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true)
    where try_cast(population as double) >= 5000 and county_fips in (${[...counties].map((c) => `'${c}'`).join(', ')}) order by 1, 2`))
    .map((r) => `${r.state}|${r.city}`).filter((k) => !own.includes(k) && !parts.has(k));
  for (const [pool, n] of [[own, 20], [inCounty, 10]] as const) {
    const left = [...pool];
    for (let i = 0; i < n && left.length; i++) {
      const [state, city] = left.splice(Math.floor(rnd() * left.length), 1)[0]!.split('|') as [string, string];
      if (!sample.some((x) => x.state === state && x.city === city)) sample.push({ state, city });
    }
  }
}, 120_000);
afterAll(() => geo?.close());

describe(`seeded sample ${SEED}: market legal risk of two cities per state against legal-facts.csv and the regulations`, () => {
  test('every sampled market: score, label, quoted friendliness and last review recomputed', async () => {
    expect(sample.length).toBeGreaterThan(2 * 50 + 1 + 20); // DC's one city of 5,000 or more is Washington
    const bad: string[] = [];
    let overlaid = 0;
    for (const c of sample) {
      const res = await api.get(`/v1/legal/market-legal-risk?state=${c.state}&city=${encodeURIComponent(c.city)}`);
      if (res.status !== 200) { bad.push(`${c.city}, ${c.state}: ${res.status}`); continue; }
      const b = (await res.json()) as { city: string; legal_risk_score: number; legal_risk_label: string; plain_english_summary: string; last_reviewed_at: string };
      const raw = (await geo.simplemapsCity(c.state, c.city))!;
      const f = facts.get(c.state)!;
      const fr = friendliness(f, justCauseRequired(regs, c.state));
      const ov = overlayFor(regs, c.state, raw.city, raw.countyFips, raw.incorporated);
      const exact = legalRisk(f, fr, ov);
      const reviewed = [...regs.filter((r) => r.state_code === c.state && r.status === 'active' && r.jurisdiction_level === 'state'), ...ov.city, ...ov.county]
        .map((r) => r.last_reviewed_at).sort()[0];
      const quoted = /Landlord friendliness: ([\d.]+)\/100 \(([^)]+)\)/.exec(b.plain_english_summary);
      const problems = [
        Math.abs(b.legal_risk_score - exact) > 0.07 ? `score ${b.legal_risk_score}, raw ${exact.toFixed(3)}` : '',
        b.legal_risk_label !== riskLabel(b.legal_risk_score) ? `label ${b.legal_risk_label}` : '',
        !quoted || Math.abs(Number(quoted[1]) - fr.exact) > 0.05 + 1e-9 || quoted[2] !== fr.label ? `friendliness ${quoted?.[0]}, raw ${fr.exact.toFixed(2)} ${fr.label}` : '',
        b.last_reviewed_at !== reviewed ? `last_reviewed_at ${b.last_reviewed_at}, raw ${reviewed}` : '',
      ].filter(Boolean);
      if (ov.city.length + ov.county.length) overlaid++;
      if (problems.length) bad.push(`${c.city}, ${c.state}: ${problems.join('; ')}`);
    }
    expect(bad).toEqual([]);
    console.info(`${sample.length} markets, ${overlaid} with a city or county overlay`);
    expect(overlaid).toBeGreaterThanOrEqual(20);
  }, 300_000);
});
