// Values, not shapes, over HTTP for the geo and legal endpoints: one real server over the shared build, non-default
// and edge parameter values, every figure graded against an oracle that does not share code with the product
// (test/helpers/oracle-geo.ts): the raw Census / OMB / simplemaps files read in place with DuckDB read_csv,
// ../shared/reference/legal-facts.csv, the authored regulations dataset as its own JSON files, and the formulas of
// warehouse/docs/geo.md and legal.md written out again from their prose. The market list's membership
// (population >= 5,000) is read from the warehouse's canonical `cities` table, not from mart_geo_markets, and each
// population there is checked against the raw ACS / simplemaps figure it came from.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  friendliness, friendlinessLabel, justCauseRequired, legalFacts, legalRisk, nameKey, noticeDayType, num, overlayFor, RawGeo,
  regulationsDataset, riskLabel, sqlPath, squatterRisk, timeline, type Fact, type Friendliness, type Reg,
} from '../helpers/oracle-geo.ts';
import { censusPlace, placeZips, primaryCounty } from '../helpers/geo-census-oracle.ts';

let srv: TestServer;
let key: string;
let geo: RawGeo;
let facts: Map<string, Fact>;
let regs: Reg[];

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 100_000); // pro includes the starter (geo) group; a high per-minute limit for the batches below
  geo = await RawGeo.open();
  facts = legalFacts();
  regs = regulationsDataset();
});
afterAll(async () => {
  await srv?.close();
  geo?.close();
});

async function getJson<T>(pathAndQuery: string): Promise<T> {
  const res = await srv.get(pathAndQuery, key);
  const text = await res.text();
  expect(res.status, `${pathAndQuery}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as T;
}

const fact = (st: string): Fact => {
  const f = facts.get(st);
  if (!f) throw new Error(`legal-facts.csv has no row for ${st}`);
  return f;
};
const friendlinessOf = (st: string): Friendliness => friendliness(fact(st), justCauseRequired(regs, st));
/** API scores are rounded to one decimal; the oracle keeps the exact weighted mean. */
const near = (api: number, exact: number, tol = 0.05 + 1e-9): boolean => typeof api === 'number' && Math.abs(api - exact) <= tol;
const q = (params: Record<string, string | undefined>): string =>
  Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join('&');

describe('the oracle reads its sources as documented', () => {
  // Guards the oracle, not the product: the day types derived from the CSV notes are the ones SCHEMA.md lists.
  test('notice day types derived from legal-facts.csv notes: business AL CA FL GA HI UT, judicial NV', () => {
    const by = (t: string): string[] => [...facts.values()].filter((f) => noticeDayType(f) === t).map((f) => f.state_code).sort();
    expect(by('business')).toEqual(['AL', 'CA', 'FL', 'GA', 'HI', 'UT']);
    expect(by('judicial')).toEqual(['NV']);
    expect(facts.size).toBe(51);
  });
});

// ------------------------------------------------------------------------------------------------ /v1/geo/states

interface StateSummary {
  state_code: string; state_name: string; landlord_friendliness_score: number; landlord_friendliness_label: string;
  foreclosure_type: string; lien_or_deed: string; interest_rate_pct: number | null; redemption_period_months: number | null;
}

describe('GET /v1/geo/states', () => {
  test('the 50 states (no DC): legal fields equal legal-facts.csv, friendliness recomputed from legal.md, label in its band', async () => {
    const body = await getJson<{ count: number; states: StateSummary[] }>('/v1/geo/states');
    const expectedCodes = [...facts.keys()].filter((c) => c !== 'DC').sort();
    expect(body.count).toBe(50);
    expect(body.states.map((s) => s.state_code).sort()).toEqual(expectedCodes);
    const wrong: string[] = [];
    for (const s of body.states) {
      const f = fact(s.state_code);
      const fr = friendlinessOf(s.state_code);
      const got = { state_name: s.state_name, foreclosure_type: s.foreclosure_type, lien_or_deed: s.lien_or_deed, interest_rate_pct: s.interest_rate_pct, redemption_period_months: s.redemption_period_months };
      const want = { state_name: f.state_name, foreclosure_type: f.foreclosure_type, lien_or_deed: f.tax_sale_type, interest_rate_pct: num(f.tax_lien_interest_rate_pct), redemption_period_months: num(f.redemption_period_months) };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${s.state_code}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      const score = s.landlord_friendliness_score;
      if (!(score >= 0 && score <= 100) || !near(score, fr.exact)) wrong.push(`${s.state_code}: score ${score}, expected ${fr.exact.toFixed(3)}`);
      if (s.landlord_friendliness_label !== friendlinessLabel(score) || s.landlord_friendliness_label !== fr.label) wrong.push(`${s.state_code}: label ${s.landlord_friendliness_label} for ${score}, expected ${fr.label}`);
    }
    expect(wrong).toEqual([]);
    // the bands are exercised: the answer spans more than two labels
    expect(new Set(body.states.map((s) => s.landlord_friendliness_label)).size).toBeGreaterThanOrEqual(4);
  });
});

// ------------------------------------------------------------------------------------------------ /v1/geo/lookup

interface CityLookup {
  state_code: string; state_name: string; city_name: string; county_name: string; fips_code: string; metro_area: string;
  market_tier: string; zip_codes: string[]; has_city_rent_control: boolean; has_city_eviction_protections: boolean;
  is_investor_active: boolean; landlord_risk: { friendliness_score: number; label: string }; tax_type: string;
  interest_rate_pct: number | null; redemption_period_months: number | null; rate_basis: string | null;
}

const LOOKUPS: { state: string; city: string; why: string; multiCounty?: boolean }[] = [
  { state: 'WA', city: 'Seattle', why: 'primary metro; city eviction protections without rent control' },
  { state: 'TX', city: 'houston', why: 'multi-county city (Harris, Fort Bend, Montgomery...), sent in lower case', multiCounty: true },
  { state: 'NY', city: 'NEW YORK', why: 'five-county city whose primary county (by people) is Kings, sent in upper case; rent control', multiCounty: true },
  { state: 'CT', city: 'Hartford', why: 'Connecticut: the county is a 2022 planning region' },
  { state: 'CA', city: 'San Francisco', why: 'city rent control and eviction protections' },
  { state: 'MD', city: 'Takoma Park', why: 'small city (about 17,000) with its own rent control' },
  { state: 'MD', city: 'Rockville', why: 'a county ordinance (Montgomery) does not set the city flags' },
  { state: 'MN', city: 'St. Paul', why: 'rent control; a name with a period' },
  { state: 'CO', city: 'canon city', why: 'accent-insensitive (Cañon City); a micropolitan county: tertiary' },
  { state: 'MT', city: 'Jordan', why: 'a town of a few hundred outside every CBSA: rural, metro ""' },
  { state: 'DC', city: 'Washington', why: 'DC: not in /geo/states but in lookup; rent control' },
];

describe('GET /v1/geo/lookup', () => {
  test.each(LOOKUPS)('$city, $state ($why): county, FIPS, metro, tier and zips from the raw files; flags from the dataset', async (c) => {
    const raw = await geo.simplemapsCity(c.state, c.city);
    expect(raw, `simplemaps has ${c.city}, ${c.state}`).not.toBeNull();
    // geo.md "cities": the Census place's primary county (by people) and its ZCTAs and USPS ZIPs, the simplemaps spelling
    const place = await censusPlace(geo, c.state, raw!.city);
    expect(place, `the Gazetteer has ${c.city}, ${c.state}`).not.toBeNull();
    const fips = await primaryCounty(geo, place!);
    const county = geo.counties.get(fips);
    expect(county, `us_geo has county ${fips}`).toBeDefined();
    if (c.multiCounty) expect((await geo.placeCounties(c.state, raw!.city)).length, 'the premise: the Census place spans several counties').toBeGreaterThan(1);
    const f = fact(c.state);
    const fr = friendlinessOf(c.state);
    const ov = overlayFor(regs, c.state, raw!.city, fips, raw!.incorporated);
    const body = await getJson<CityLookup>(`/v1/geo/lookup?${q({ city: c.city, state: c.state })}`);
    // additive (geo.md "mart_geo_cities"): a city whose parts are each a county (the raw files' city parts) names them all
    const parents = new Set((await geo.cityParts(c.state)).values());
    const partCounties = parents.has(raw!.city) ? (await geo.placeCounties(c.state, raw!.city)).map((x) => ({ county_name: geo.counties.get(x)!.name, fips_code: x })) : null;
    expect({ ...body, landlord_risk: undefined }).toEqual({
      state_code: c.state,
      state_name: f.state_name,
      city_name: raw!.city,
      county_name: county!.name,
      fips_code: fips,
      part_counties: partCounties,
      metro_area: county!.metroArea,
      market_tier: county!.tier,
      zip_codes: await placeZips(geo, place!, raw!.city),
      has_city_rent_control: ov.cityRentControl,
      has_city_eviction_protections: ov.cityEviction,
      is_investor_active: false, // geo.md: no community (user activity) data yet
      landlord_risk: undefined,
      tax_type: f.tax_sale_type,
      interest_rate_pct: num(f.tax_lien_interest_rate_pct),
      redemption_period_months: num(f.redemption_period_months),
      // additive (geo.md "Tax sale rate basis"): how to read the rate, the state's tax-sale record's basis; null for deed states
      rate_basis: f.tax_sale_type === 'deed' ? null : stateRecords(c.state).find((r) => r.subcategory === 'tax_sale')!.structured_data['rate_basis'],
    });
    expect(near(body.landlord_risk.friendliness_score, fr.exact), `friendliness ${body.landlord_risk.friendliness_score} vs ${fr.exact}`).toBe(true);
    expect(body.landlord_risk.label).toBe(fr.label);
  });

  test('the cases cover what they claim: rent control and not, several tiers, a metro-less county', async () => {
    const seen = await Promise.all(LOOKUPS.map(async (c) => {
      const raw = (await geo.simplemapsCity(c.state, c.city))!;
      return { tier: geo.counties.get(raw.countyFips)!.tier, rc: overlayFor(regs, c.state, raw.city, raw.countyFips).cityRentControl };
    }));
    expect(new Set(seen.map((s) => s.tier))).toEqual(new Set(['primary', 'tertiary', 'rural']));
    expect(new Set(seen.map((s) => s.rc))).toEqual(new Set([true, false]));
  });
});

// ------------------------------------------------------------------------------------------------ /v1/geo/markets

interface MarketEl { city_name: string; county_name: string; market_tier: string; is_investor_active: boolean; has_city_rent_control: boolean }
interface MarketList { state_code: string; count: number; markets: MarketEl[] }
interface OracleMarket { el: MarketEl; population: number }

const MARKET_STATES = ['TX', 'MT', 'CT', 'MD', 'DC'];
const TIERS = [undefined, 'primary', 'secondary', 'tertiary', 'rural'] as const;
const INVESTOR = [undefined, 'false', 'true'] as const;

/** geo.md markets rule over the canonical `cities` table, with tier, county name and rent control from the raw files. */
async function oracleMarkets(state: string): Promise<OracleMarket[]> {
  const rows = await geo.rows<{ city_name: string; county_fips: string; population: number; source: string; raw_population: number | null }>(`
    select c.city_name, c.county_fips, c.population::double as population, c.population_source as source,
           (case c.population_source when 'acs_place' then acs.B01003_001E else sm.population end)::double as raw_population
    from wh.cities c
    left join read_csv('${sqlPath('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true) acs on acs.geoid = c.place_geoid
    left join read_csv('${sqlPath('simplemaps-uscities/uscities.csv.gz')}', all_varchar = true) sm on sm.id = c.city_id
    where c.state_code = '${state}' and c.population >= 5000`);
  // each population is the raw figure its source column names (ACS place, else simplemaps)
  expect(rows.filter((r) => r.population !== r.raw_population).map((r) => `${r.city_name} ${r.population} (${r.source}) raw ${r.raw_population}`)).toEqual([]);
  return rows.map((r) => {
    const county = geo.counties.get(r.county_fips)!;
    return {
      population: r.population,
      el: {
        city_name: r.city_name,
        county_name: county.name,
        market_tier: county.tier,
        is_investor_active: false, // geo.md: the platform has no user activity data, so no market is investor-active
        has_city_rent_control: overlayFor(regs, state, r.city_name, r.county_fips).cityRentControl,
      },
    };
  });
}

describe('GET /v1/geo/markets', () => {
  beforeAll(async () => {
    await geo.rows(`attach '${path.join(buildDir(), 'warehouse.duckdb').replaceAll("'", "''")}' as wh (read_only)`);
  });

  test.each(MARKET_STATES)('%s: every tier x investor_active (omitted, false, true): count, filter and the set equal the oracle', async (state) => {
    const oracle = await oracleMarkets(state);
    const popOf = new Map(oracle.map((o) => [o.el.city_name, o.population]));
    const cases = TIERS.flatMap((tier) => INVESTOR.map((inv) => ({ tier, inv })));
    const answers = await Promise.all(cases.map(async (c) => ({ ...c, body: await getJson<MarketList>(`/v1/geo/markets?${q({ state, tier: c.tier, investor_active: c.inv })}`) })));
    for (const { tier, inv, body } of answers) {
      const label = `state=${state} tier=${tier ?? '(all)'} investor_active=${inv ?? '(omitted)'}`;
      const want = oracle.filter((o) => (tier === undefined || o.el.market_tier === tier) && (inv !== 'true' || o.el.is_investor_active))
        .map((o) => JSON.stringify(o.el)).sort();
      expect(body.state_code, label).toBe(state);
      expect(body.count, label).toBe(body.markets.length);
      if (tier) expect(body.markets.filter((m) => m.market_tier !== tier).map((m) => m.city_name), `${label}: markets of another tier`).toEqual([]);
      if (inv === 'true') expect(body.markets.filter((m) => !m.is_investor_active).map((m) => m.city_name), `${label}: inactive markets`).toEqual([]);
      expect(body.markets.map((m) => JSON.stringify(m)).sort(), label).toEqual(want);
      // ordered by population, largest first (state_rank)
      const pops = body.markets.map((m) => popOf.get(m.city_name)!);
      expect(pops.every((p, i) => i === 0 || pops[i - 1]! >= p), `${label}: ordered by population`).toBe(true);
    }
  });

  test('the states cover the edges: every tier non-empty in TX, empty tiers in MT, a single market in DC', async () => {
    const tiers = async (st: string): Promise<Record<string, number>> => {
      const counts: Record<string, number> = {};
      for (const o of await oracleMarkets(st)) counts[o.el.market_tier] = (counts[o.el.market_tier] ?? 0) + 1;
      return counts;
    };
    expect(Object.keys(await tiers('TX')).sort()).toEqual(['primary', 'rural', 'secondary', 'tertiary']);
    const mt = await tiers('MT');
    expect(mt['primary'] ?? 0).toBe(0);
    expect(mt['rural']).toBeGreaterThan(0);
    expect((await oracleMarkets('DC')).length).toBe(1);
  });
});

// ------------------------------------------------------------------------------------------------ /v1/legal/landlord-profile

interface Profile {
  state: string; state_name: string; city: string | null; landlord_friendliness_score: number; landlord_friendliness_label: string;
  friendliness_components: Record<string, number>;
  eviction: { nonpayment_notice_days: number | null; notice_day_type: string | null; notice_required: boolean; timeline_min_days: number | null; timeline_max_days: number | null; just_cause_required: boolean };
  security_deposit: { has_statutory_cap: boolean; limit_months: number | null };
  adverse_possession: { years: number; color_of_title_years: number | null };
  squatter_risk: string;
  rent_control: {
    state_preemption: string; statewide_cap: boolean; has_city_rent_control: boolean; has_city_eviction_protections: boolean;
    county_rent_control_may_apply: boolean; county_eviction_protections_may_apply: boolean; local_overlays: { id: string }[];
  } & Record<string, unknown>;
  summary: string; uncertain_topics: string[]; last_reviewed_at: string; disclaimer: string;
}

/** The state-level facts of a profile as legal-facts.csv (and the dataset's just-cause records) give them. */
function expectedStateFacts(st: string): Record<string, unknown> {
  const f = fact(st);
  const fr = friendlinessOf(st);
  const days = num(f.eviction_notice_nonpayment_days);
  const t = timeline(f);
  const dep = f.security_deposit_limit_months.trim();
  return {
    state: st,
    state_name: f.state_name,
    landlord_friendliness_label: fr.label,
    eviction: {
      nonpayment_notice_days: days, notice_day_type: noticeDayType(f), notice_required: (days ?? 0) > 0,
      timeline_min_days: t?.min ?? null, timeline_max_days: t?.max ?? null, just_cause_required: justCauseRequired(regs, st),
    },
    security_deposit: { has_statutory_cap: dep !== 'none', limit_months: dep === 'none' ? null : Number(dep) },
    adverse_possession: { years: Number(f.adverse_possession_years), color_of_title_years: num(f.adverse_possession_color_of_title_years) },
    squatter_risk: squatterRisk(f, fr.score),
    rent_control: { state_preemption: f.rent_control_preemption, statewide_cap: f.statewide_rent_control === 'yes' },
  };
}

function stateFactsOf(p: Profile): Record<string, unknown> {
  const e = p.eviction;
  return {
    state: p.state,
    state_name: p.state_name,
    landlord_friendliness_label: p.landlord_friendliness_label,
    eviction: { nonpayment_notice_days: e.nonpayment_notice_days, notice_day_type: e.notice_day_type, notice_required: e.notice_required, timeline_min_days: e.timeline_min_days, timeline_max_days: e.timeline_max_days, just_cause_required: e.just_cause_required },
    security_deposit: { has_statutory_cap: p.security_deposit.has_statutory_cap, limit_months: p.security_deposit.limit_months },
    adverse_possession: { years: p.adverse_possession.years, color_of_title_years: p.adverse_possession.color_of_title_years },
    squatter_risk: p.squatter_risk,
    rent_control: { state_preemption: p.rent_control.state_preemption, statewide_cap: p.rent_control.statewide_cap },
  };
}

const overlayFields = (p: Profile): Record<string, unknown> => ({
  has_city_rent_control: p.rent_control.has_city_rent_control,
  has_city_eviction_protections: p.rent_control.has_city_eviction_protections,
  county_rent_control_may_apply: p.rent_control.county_rent_control_may_apply,
  county_eviction_protections_may_apply: p.rent_control.county_eviction_protections_may_apply,
  overlay_ids: p.rent_control.local_overlays.map((o) => o.id).sort(),
});

/** The oldest review date among the active records a body is built from. */
const oldestReview = (rs: Reg[]): string => rs.map((r) => r.last_reviewed_at).sort()[0]!;
const stateRecords = (st: string): Reg[] => regs.filter((r) => r.state_code === st && r.status === 'active' && r.jurisdiction_level === 'state');

const PROFILE_CITIES: { state: string; city: string; why: string }[] = [
  { state: 'CA', city: 'San Francisco', why: 'city rent control and eviction protections' },
  { state: 'CA', city: 'Fresno', why: 'no overlay' },
  { state: 'CA', city: 'Long Beach', why: 'incorporated: the Los Angeles County ordinance (unincorporated areas only) does not apply' },
  { state: 'CA', city: 'East Los Angeles', why: 'an unincorporated community: the Los Angeles County ordinance may apply' },
  { state: 'WA', city: 'Seattle', why: 'city eviction protections only' },
  { state: 'WA', city: 'Spokane', why: 'no overlay' },
  { state: 'MD', city: 'Takoma Park', why: 'own rent control; the county ordinance yields to it' },
  { state: 'MD', city: 'Rockville', why: 'Montgomery County ordinance may apply' },
  { state: 'MD', city: 'Baltimore', why: 'no overlay' },
  { state: 'NY', city: 'new york', why: 'rent stabilization and good-cause eviction, lower case' },
  { state: 'NY', city: 'Buffalo', why: 'no overlay' },
  { state: 'MN', city: 'St. Paul', why: 'rent control' },
  { state: 'IL', city: 'Chicago', why: 'RLTO: eviction protections without rent control' },
  { state: 'TX', city: 'Houston', why: 'preempting state, no overlay' },
  { state: 'DC', city: 'Washington', why: 'DC rent stabilization' },
];

describe('GET /v1/legal/landlord-profile', () => {
  test('?state= for the 50 states and DC: the state facts equal legal-facts.csv, score and components recomputed', async () => {
    const codes = [...facts.keys()].sort();
    const bodies = await Promise.all(codes.map((st) => getJson<Profile>(`/v1/legal/landlord-profile?state=${st}`)));
    const wrong: string[] = [];
    for (const [i, st] of codes.entries()) {
      const p = bodies[i]!;
      const fr = friendlinessOf(st);
      const got = stateFactsOf(p);
      const want = expectedStateFacts(st);
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${st}: ${JSON.stringify(got)}\n  != ${JSON.stringify(want)}`);
      if (p.city !== null) wrong.push(`${st}: city ${String(p.city)}`);
      if (!near(p.landlord_friendliness_score, fr.exact)) wrong.push(`${st}: score ${p.landlord_friendliness_score} vs ${fr.exact.toFixed(3)}`);
      for (const [k, v] of Object.entries(fr.components)) {
        if (!near(p.friendliness_components[k]!, v)) wrong.push(`${st}: component ${k} ${p.friendliness_components[k]} vs ${v.toFixed(3)}`);
      }
      const ov = overlayFields(p);
      if (JSON.stringify(ov) !== JSON.stringify({ has_city_rent_control: false, has_city_eviction_protections: false, county_rent_control_may_apply: false, county_eviction_protections_may_apply: false, overlay_ids: [] })) {
        wrong.push(`${st}: a state profile with local overlay fields ${JSON.stringify(ov)}`);
      }
      if (!/not legal advice/.test(p.disclaimer)) wrong.push(`${st}: disclaimer ${p.disclaimer}`);
      if (p.last_reviewed_at !== oldestReview(stateRecords(st))) wrong.push(`${st}: last_reviewed_at ${p.last_reviewed_at}`);
    }
    expect(wrong).toEqual([]);
  });

  test.each(PROFILE_CITIES)('?state=$state&city=$city ($why): overlays from the dataset; state facts unchanged', async (c) => {
    const raw = await geo.simplemapsCity(c.state, c.city);
    expect(raw, `simplemaps has ${c.city}, ${c.state}`).not.toBeNull();
    const ov = overlayFor(regs, c.state, raw!.city, raw!.countyFips, raw!.incorporated);
    const [stateBody, cityBody] = await Promise.all([
      getJson<Profile>(`/v1/legal/landlord-profile?${q({ state: c.state })}`),
      getJson<Profile>(`/v1/legal/landlord-profile?${q({ state: c.state, city: c.city })}`),
    ]);
    expect(cityBody.city).toBe(raw!.city);
    expect(cityBody.summary).toContain(raw!.city);
    // the overlay as the dataset records it (legal.md "Overlays": own city records, else the county's "may apply")
    expect(overlayFields(cityBody)).toEqual({
      has_city_rent_control: ov.cityRentControl,
      has_city_eviction_protections: ov.cityEviction,
      county_rent_control_may_apply: ov.countyRentControl,
      county_eviction_protections_may_apply: ov.countyEviction,
      overlay_ids: [...ov.city, ...ov.county].map((r) => r.id).sort(),
    });
    // the state's facts are the same in both answers, and equal legal-facts.csv
    expect(stateFactsOf(cityBody)).toEqual(expectedStateFacts(c.state));
    expect(stateFactsOf(cityBody)).toEqual(stateFactsOf(stateBody));
    expect(cityBody.landlord_friendliness_score).toBe(stateBody.landlord_friendliness_score);
    expect(cityBody.last_reviewed_at).toBe(oldestReview([...stateRecords(c.state), ...ov.city, ...ov.county]));
    const applies = ov.city.length + ov.county.length > 0;
    // the friendliness note and its list name the market's local ordinances (test/api/landlord-friendliness-scope.test.ts,
    // test/api/landlord-friendliness-scope.test.ts); the scope, 'state', stays in the comparison
    type Local = Profile & { landlord_friendliness_note?: string; landlord_friendliness_uncounted?: unknown };
    const { city: _c1, summary: _s1, uncertain_topics: _u1, rent_control: rc1, landlord_friendliness_note: _n1, landlord_friendliness_uncounted: _l1, ...rest1 } = cityBody as Local;
    const { city: _c2, summary: _s2, uncertain_topics: _u2, rent_control: rc2, landlord_friendliness_note: _n2, landlord_friendliness_uncounted: _l2, ...rest2 } = stateBody as Local;
    expect(rest1).toEqual(rest2);
    if (applies) {
      expect(rc1, 'the overlay changes the city answer').not.toEqual(rc2);
    } else {
      expect(rc1, 'no overlay: the state answer').toEqual(rc2);
      expect(cityBody.uncertain_topics).toEqual(stateBody.uncertain_topics);
    }
  });

  test('the cities cover own overlays, county overlays that may apply, and none', async () => {
    const kinds = await Promise.all(PROFILE_CITIES.map(async (c) => {
      const raw = (await geo.simplemapsCity(c.state, c.city))!;
      const ov = overlayFor(regs, c.state, raw.city, raw.countyFips, raw.incorporated);
      return ov.city.length ? 'own' : ov.county.length ? 'county' : 'none';
    }));
    expect(new Set(kinds)).toEqual(new Set(['own', 'county', 'none']));
  });
});

// ------------------------------------------------------------------------------------------------ /v1/legal/tax-sale

interface TaxSale {
  state: string; state_name: string; lien_or_deed: string; interest_rate_pct: number | null; rate_basis: string | null;
  redemption_period_months: number | null; sale_process_summary: string; uncertain_fields: string[]; last_reviewed_at: string; disclaimer: string;
}

/** SCHEMA.md uncertain_fields mapping, tax-sale columns only. */
const TAX_UNCERTAIN: Record<string, string> = {
  tax_sale_type: 'sale_type', tax_lien_interest_rate_pct: 'interest_rate_pct', redemption_period_months: 'redemption_period_months', tax_sale_note: 'summary',
};

describe('GET /v1/legal/tax-sale', () => {
  test('?state= for the 50 states and DC (lien, deed and hybrid): type, rate and redemption equal legal-facts.csv', async () => {
    const codes = [...facts.keys()].sort();
    const bodies = await Promise.all(codes.map((st) => getJson<TaxSale>(`/v1/legal/tax-sale?state=${st}`)));
    const wrong: string[] = [];
    for (const [i, st] of codes.entries()) {
      const b = bodies[i]!;
      const f = fact(st);
      const got = { state: b.state, state_name: b.state_name, lien_or_deed: b.lien_or_deed, interest_rate_pct: b.interest_rate_pct, redemption_period_months: b.redemption_period_months };
      const want = { state: st, state_name: f.state_name, lien_or_deed: f.tax_sale_type, interest_rate_pct: num(f.tax_lien_interest_rate_pct), redemption_period_months: num(f.redemption_period_months) };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${st}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      if (f.tax_sale_type === 'deed' && b.rate_basis !== null) wrong.push(`${st}: a deed state with rate_basis ${b.rate_basis}`);
      // the process summary states the record's own numbers
      if (want.interest_rate_pct !== null && !b.sale_process_summary.includes(`${want.interest_rate_pct}%`)) wrong.push(`${st}: summary lacks ${want.interest_rate_pct}%`);
      if (want.redemption_period_months !== null && !b.sale_process_summary.includes(`${want.redemption_period_months} months`)) wrong.push(`${st}: summary lacks ${want.redemption_period_months} months`);
      const uncertain = f.uncertain_fields.split(';').map((s) => s.trim().split(/\s/)[0]!).filter((s) => s in TAX_UNCERTAIN).map((s) => TAX_UNCERTAIN[s]!);
      const missing = uncertain.filter((u) => !b.uncertain_fields.includes(u));
      if (missing.length) wrong.push(`${st}: uncertain_fields ${JSON.stringify(b.uncertain_fields)} lacks ${missing.join(', ')}`);
      if (!/not legal advice/.test(b.disclaimer) || b.last_reviewed_at !== oldestReview(stateRecords(st).filter((r) => r.category === 'tax_deed_lien'))) wrong.push(`${st}: disclaimer or last_reviewed_at ${b.last_reviewed_at}`);
    }
    expect(wrong).toEqual([]);
    expect(new Set(bodies.map((b) => b.lien_or_deed))).toEqual(new Set(['lien', 'deed', 'hybrid']));
  });
});

// ------------------------------------------------------------------------------------------------ /v1/legal/market-legal-risk

interface MarketRisk {
  state: string; city: string; legal_risk_score: number; legal_risk_label: string; plain_english_summary: string;
  investor_actions: string[]; last_reviewed_at: string; disclaimer: string;
}

const RISK_MARKETS: { state: string; city: string }[] = [
  { state: 'TX', city: 'Houston' }, // hybrid tax sale, preempting state
  { state: 'CA', city: 'San Francisco' }, // city overlays
  { state: 'CA', city: 'Long Beach' }, // incorporated: the unincorporated-only county overlay does not apply
  { state: 'CA', city: 'East Los Angeles' }, // unincorporated: the county overlay may apply
  { state: 'NY', city: 'New York' }, // judicial, no single rate or redemption period
  { state: 'NJ', city: 'Newark' }, // no statutory notice (0 days), just cause
  { state: 'CO', city: 'Denver' }, // lien state with no single rate
  { state: 'FL', city: 'Miami' }, // lien state, business days, no deposit cap
  { state: 'NV', city: 'Las Vegas' }, // judicial days, no timeline estimate, deed
  { state: 'WV', city: 'Charleston' }, // no statutory notice, hybrid
  { state: 'DC', city: 'Washington' },
  { state: 'MD', city: 'Takoma Park' },
];

/** The state facts a market summary must quote, as legal-facts.csv gives them (legal.md "Summaries"). */
function quotedFacts(st: string): (string | RegExp)[] {
  const f = fact(st);
  const out: (string | RegExp)[] = [f.state_name];
  const days = num(f.eviction_notice_nonpayment_days);
  const dt = noticeDayType(f);
  out.push(days === 0 ? 'sets no statutory notice' : `requires ${days} ${dt ? `${dt} ` : ''}days' notice to pay or quit`);
  const t = timeline(f);
  out.push(t ? `about ${t.min}-${t.max} days` : 'No public estimate');
  out.push(`Mortgage foreclosure is ${f.foreclosure_type}:`);
  const rate = num(f.tax_lien_interest_rate_pct);
  const months = num(f.redemption_period_months);
  if (f.tax_sale_type === 'deed') out.push('sells tax deeds');
  else {
    out.push(rate === null ? 'no single statutory rate is recorded' : `maximum return is ${rate}%`);
    out.push(months === null ? 'no single redemption period is recorded' : `redeem for ${months} months`);
  }
  const dep = f.security_deposit_limit_months.trim();
  out.push(dep === 'none' ? 'sets no statutory cap on security deposits' : new RegExp(`capped at ${dep.replace('.', '\\.')} months?'s? rent`));
  return out;
}

describe('GET /v1/legal/market-legal-risk', () => {
  test.each(RISK_MARKETS)('$city, $state: score recomputed from legal.md, label in its band, summary quotes legal-facts.csv', async (c) => {
    const raw = (await geo.simplemapsCity(c.state, c.city))!;
    expect(raw).not.toBeNull();
    const f = fact(c.state);
    const fr = friendlinessOf(c.state);
    const ov = overlayFor(regs, c.state, raw.city, raw.countyFips, raw.incorporated);
    const body = await getJson<MarketRisk>(`/v1/legal/market-legal-risk?${q({ state: c.state, city: c.city })}`);
    expect(body.state).toBe(c.state);
    expect(body.city).toBe(raw.city);
    expect(body.legal_risk_score).toBeGreaterThanOrEqual(0);
    expect(body.legal_risk_score).toBeLessThanOrEqual(100);
    // the product may round friendliness before weighting it (0.35 x 0.05) and rounds the result (0.05)
    const exact = legalRisk(f, fr, ov);
    expect(near(body.legal_risk_score, exact, 0.07), `risk ${body.legal_risk_score} vs ${exact.toFixed(3)}`).toBe(true);
    expect(body.legal_risk_label).toBe(riskLabel(body.legal_risk_score));
    for (const phrase of quotedFacts(c.state)) {
      if (typeof phrase === 'string') expect(body.plain_english_summary, phrase).toContain(phrase);
      else expect(body.plain_english_summary).toMatch(phrase);
    }
    const quoted = /Landlord friendliness: ([\d.]+)\/100 \(([^)]+)\)/.exec(body.plain_english_summary);
    expect(quoted, 'the summary quotes the friendliness score').not.toBeNull();
    expect(near(Number(quoted![1]), fr.exact), `quoted friendliness ${quoted![1]} vs ${fr.exact}`).toBe(true);
    expect(quoted![2]).toBe(fr.label);
    expect(body.investor_actions.length).toBeGreaterThan(0);
    expect(body.disclaimer).toMatch(/not legal advice/);
    expect(body.last_reviewed_at).toBe(oldestReview([...stateRecords(c.state), ...ov.city, ...ov.county]));
  });
});

// ------------------------------------------------------------------------------------------------ /v1/regulations/lookup

interface RegOut { id: string; jurisdiction_level: string; state_code: string; county_fips: string | null; city: string | null; category: string; subcategory: string; status: string }

// queries with a city: test/api/regulations-city.test.ts
const REG_QUERIES = [
  'state=CA&category=rent_control',
  'state=CA&jurisdiction_level=city',
  'state=CA&jurisdiction_level=county',
  'state=CA&county_fips=06037',
  'state=CA&category=eviction&jurisdiction_level=city&county_fips=06037',
  'state=MD&category=rent_control&jurisdiction_level=county',
  'state=MD&county_fips=24031',
  'state=NY&category=eviction&subcategory=nonpayment_notice',
  'state=VA&category=eviction', // a pending record stays out
  'state=DC&jurisdiction_level=state&category=tax_deed_lien',
  'state=CA&jurisdiction_level=zip', // allowed, unused: an empty list
];

const SPECIFICITY: Record<string, number> = { zip: 0, city: 1, county: 2, state: 3 };

describe('GET /v1/regulations/lookup', () => {
  test.each(REG_QUERIES)('%s: every record satisfies the filter; the set equals the dataset files', async (query) => {
    const p = new URLSearchParams(query);
    const get = (k: string): string | null => p.get(k);
    const city = get('city')?.trim().toLowerCase() ?? null;
    const want = regs.filter((r) => r.state_code === get('state') && r.status === 'active'
      && (get('category') === null || r.category === get('category'))
      && (get('subcategory') === null || r.subcategory === get('subcategory'))
      && (get('jurisdiction_level') === null || r.jurisdiction_level === get('jurisdiction_level'))
      && (get('county_fips') === null || r.county_fips === get('county_fips'))
      && (city === null || (r.city ?? '').toLowerCase().includes(city)));
    const body = await getJson<RegOut[]>(`/v1/regulations/lookup?${query}`);
    const bad = body.filter((r) => r.state_code !== get('state') || r.status !== 'active'
      || (get('category') !== null && r.category !== get('category'))
      || (get('subcategory') !== null && r.subcategory !== get('subcategory'))
      || (get('jurisdiction_level') !== null && r.jurisdiction_level !== get('jurisdiction_level'))
      || (get('county_fips') !== null && r.county_fips !== get('county_fips'))
      || (city !== null && !(r.city ?? '').toLowerCase().includes(city)));
    expect(bad.map((r) => r.id), 'records outside the filter').toEqual([]);
    expect(body.length).toBe(Math.min(100, want.length));
    expect(body.map((r) => r.id).sort()).toEqual(want.map((r) => r.id).sort());
    // each record is the dataset's own record, field for field
    const byId = new Map(want.map((r) => [r.id, r]));
    for (const r of body) expect(r, r.id).toEqual(byId.get(r.id));
    const ranks = body.map((r) => SPECIFICITY[r.jurisdiction_level]!);
    expect(ranks.every((x, i) => i === 0 || ranks[i - 1]! <= x), 'most specific first').toBe(true);
  });

  test('the filters are not vacuous: each narrows the state list, and the partial city matches several cities', () => {
    const active = (st: string): Reg[] => regs.filter((r) => r.state_code === st && r.status === 'active');
    expect(active('CA').filter((r) => r.category === 'rent_control').length).toBeLessThan(active('CA').length);
    expect(new Set(active('CA').filter((r) => (r.city ?? '').toLowerCase().includes('san')).map((r) => r.city)).size).toBeGreaterThanOrEqual(3);
    expect(regs.some((r) => r.state_code === 'VA' && r.category === 'eviction' && r.status !== 'active')).toBe(true);
    expect(active('CA').some((r) => r.county_fips === '06037' && r.jurisdiction_level === 'county')).toBe(true);
  });
});

// a guard that the name key used by the oracle folds accents and case as the lookup promises
test('oracle name key folds accents, case and punctuation', () => {
  expect(nameKey('Cañon City')).toBe(nameKey('canon city'));
  expect(nameKey('St. Paul')).toBe('st-paul');
});
