// GET /v1/geo/lookup over a seeded random sample of cities (h77 audit, gap e): values-geo-legal.test.ts checks eleven
// cities chosen by hand; here 60 drawn with a fixed seed (scripts/rng.ts) from the raw simplemaps file's cities of
// 5,000 people or more that are Census places, each recomputed by the oracle that shares no code with the product
// (test/helpers/oracle-geo.ts, geo-census-oracle.ts: geo.md "cities", the Census place's primary county by people,
// its CBSA's title and tier from the 2023 delineation and ACS county populations, its ZCTAs and USPS ZIPs;
// legal-facts.csv's tax-sale figures; the regulations dataset's city flags). A part of a city (a New York City
// borough) is left out of the draw, as a city whose name two simplemaps rows of the state share.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveSharedBuild } from '../helpers/build.ts';
import { num, openMarketSample, overlayFor, RawGeo, type Fact, type Reg } from '../helpers/oracle-geo.ts';
import { censusPlace, placeZips, primaryCounty } from '../helpers/geo-census-oracle.ts';
import { rng } from '../../scripts/rng.ts';

const SEED = 77;
const N = 60;
const api = serveSharedBuild('pro', 100_000);
let geo: RawGeo;
let facts: Map<string, Fact>;
let regs: Reg[];
let sample: { state: string; city: string }[];

beforeAll(async () => {
  let parts: Map<string, string>;
  let cities: { state: string; city: string }[];
  ({ geo, facts, regs, parts, cities } = await openMarketSample());
  // a city whose name (in any case) is one row of its state alone: the lookup by name is then not a namesake's
  const names = new Map<string, number>();
  for (const c of cities) names.set(`${c.state}|${c.city.toLowerCase()}`, (names.get(`${c.state}|${c.city.toLowerCase()}`) ?? 0) + 1);
  const rows = cities.filter((r) => names.get(`${r.state}|${r.city.toLowerCase()}`) === 1 && facts.has(r.state) && !parts.has(`${r.state}|${r.city}`));
  const rnd = rng(SEED);
  sample = [];
  while (sample.length < N) sample.push(rows.splice(Math.floor(rnd() * rows.length), 1)[0]!);
}, 120_000);
afterAll(() => geo?.close());

describe(`seeded sample ${SEED}: geo lookup of ${N} cities against the raw Census, OMB, simplemaps and legal files`, () => {
  test('county, FIPS, metro, tier, zips, tax-sale figures and city flags', async () => {
    const bad: string[] = [];
    let checked = 0;
    const tiers = new Set<string>();
    for (const c of sample) {
      const raw = (await geo.simplemapsCity(c.state, c.city))!;
      const place = await censusPlace(geo, c.state, raw.city);
      if (!place) continue; // no Census place of that name: geo.md's other rules, not this oracle's
      const fips = await primaryCounty(geo, place);
      const county = geo.counties.get(fips);
      const f = facts.get(c.state)!;
      const ov = overlayFor(regs, c.state, raw.city, fips, raw.incorporated);
      const res = await api.get(`/v1/geo/lookup?state=${c.state}&city=${encodeURIComponent(c.city)}`);
      if (res.status !== 200) { bad.push(`${c.city}, ${c.state}: ${res.status}`); continue; }
      const b = (await res.json()) as Record<string, unknown>;
      const want = {
        state_code: c.state, state_name: f.state_name, city_name: raw.city, county_name: county?.name, fips_code: fips,
        metro_area: county?.metroArea, market_tier: county?.tier, zip_codes: await placeZips(geo, place, raw.city),
        has_city_rent_control: ov.cityRentControl, has_city_eviction_protections: ov.cityEviction, is_investor_active: false,
        tax_type: f.tax_sale_type, interest_rate_pct: num(f.tax_lien_interest_rate_pct), redemption_period_months: num(f.redemption_period_months),
      };
      const got = Object.fromEntries(Object.keys(want).map((k) => [k, b[k]]));
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${c.city}, ${c.state}: api ${JSON.stringify(got)}\n  raw ${JSON.stringify(want)}`);
      checked++;
      tiers.add(String(want.market_tier));
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(50);
    expect(tiers.size).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
