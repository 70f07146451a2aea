// New York City's boroughs over HTTP on the shared real build (geo.md "int_geo_city_parts", market.md
// "int_market_city_parts"). Oracles that share no code with the product: which cities are parts of which city from
// the raw us_geo and simplemaps files (RawGeo.cityParts), the ordinances from the authored regulations dataset's own
// JSON files, legal-facts.csv for the state's side of the risk score, and the boroughs' monthly sales counted straight
// from the NYC rolling-sales CSV files (BOROUGH column) by market.md's arm's-length rule.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, warehouseRows } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  friendliness, justCauseRequired, legalFacts, legalRisk, overlayFor, RawGeo, regulationsDataset, sqlPath, type Reg,
} from '../helpers/oracle-geo.ts';
import { rawQuery } from '../helpers/oracle-raw-comps.ts';

const BOROUGHS = ['Bronx', 'Brooklyn', 'Manhattan', 'Queens', 'Staten Island'];
/** SOURCE.md of nyc-rolling-sales: BOROUGH 1 Manhattan, 2 Bronx, 3 Brooklyn, 4 Queens, 5 Staten Island. */
const BOROUGH_CODE: Record<string, string> = { Manhattan: '1', Bronx: '2', Brooklyn: '3', Queens: '4', 'Staten Island': '5' };

let srv: TestServer;
let key: string;
let geo: RawGeo;
let regs: Reg[];
let parts: Map<string, string>;

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 100_000);
  geo = await RawGeo.open();
  regs = regulationsDataset();
  parts = await geo.cityParts('NY');
});
afterAll(async () => {
  await srv?.close();
  geo?.close();
});

async function get<T>(pathAndQuery: string): Promise<{ status: number; body: T }> {
  const res = await srv.get(pathAndQuery, key);
  return { status: res.status, body: (await res.json()) as T };
}

test('the premise, from the raw Census files: the five boroughs are the parts of New York, no other NY city is', () => {
  expect([...parts.keys()].sort()).toEqual(BOROUGHS);
  expect(new Set(parts.values())).toEqual(new Set(['New York']));
});

test('int_geo_city_parts is the raw files\' set, every state: the five boroughs of New York and nothing else', async () => {
  const all = await geo.cityParts();
  const rows = await warehouseRows<{ k: string; parent: string }>(`select state_code || '|' || city_name as k, parent_city_name as parent from int_geo_city_parts order by 1`);
  expect(Object.fromEntries(rows.map((r) => [r.k, r.parent]))).toEqual(Object.fromEntries([...all].sort()));
  expect(rows.length).toBe(5);
});

describe('a borough has New York City\'s ordinances (the dataset\'s New York records)', () => {
  const nyState = (): string[] => regs.filter((r) => r.state_code === 'NY' && r.status === 'active' && r.jurisdiction_level === 'state').map((r) => r.id).sort();
  const nyc = (): ReturnType<typeof overlayFor> => overlayFor(regs, 'NY', parts.get('Brooklyn')!, null);

  test('the premise: the dataset has rent stabilization for New York and none for any borough by name', () => {
    expect(nyc().city.map((r) => r.id)).toContain('ny-city-new-york-rent-stabilization');
    expect(nyc().cityRentControl).toBe(true);
    for (const b of BOROUGHS) expect(overlayFor(regs, 'NY', b, null).city, b).toEqual([]);
  });

  test.each(BOROUGHS)('%s: geo lookup flags, landlord profile overlays, legal risk and regulations are New York City\'s', async (b) => {
    const ov = overlayFor(regs, 'NY', parts.get(b)!, null);
    const ids = ov.city.map((r) => r.id).sort();
    const q = `state=NY&city=${encodeURIComponent(b)}`;

    const lookup = await get<{ city_name: string; has_city_rent_control: boolean; has_city_eviction_protections: boolean }>(`/v1/geo/lookup?${q}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.city_name).toBe(b);
    expect(lookup.body.has_city_rent_control).toBe(ov.cityRentControl);
    expect(lookup.body.has_city_eviction_protections).toBe(ov.cityEviction);

    const profile = await get<{ rent_control: { has_city_rent_control: boolean; local_overlays: { id: string }[] } }>(`/v1/legal/landlord-profile?${q}`);
    expect(profile.status).toBe(200);
    expect(profile.body.rent_control.has_city_rent_control).toBe(ov.cityRentControl);
    expect(profile.body.rent_control.local_overlays.map((o) => o.id).sort()).toEqual(ids);

    const f = legalFacts().get('NY')!;
    const exact = legalRisk(f, friendliness(f, justCauseRequired(regs, 'NY')), ov);
    const risk = await get<{ city: string; legal_risk_score: number; plain_english_summary: string }>(`/v1/legal/market-legal-risk?${q}`);
    expect(risk.status).toBe(200);
    expect(Math.abs(risk.body.legal_risk_score - exact), `risk ${risk.body.legal_risk_score} vs ${exact.toFixed(3)}`).toBeLessThanOrEqual(0.07);
    expect(risk.body.plain_english_summary).toContain(`${b} (part of New York, whose ordinances apply) has local rent control`);
    expect(risk.body.plain_english_summary).not.toContain('No local rent control or eviction ordinance is recorded');

    // the lookup's city filter: New York City's ordinances, then New York State's records (legal.md "API bodies")
    const lookupRegs = await get<{ id: string; city: string | null; jurisdiction_level: string }[]>(`/v1/regulations/lookup?${q}`);
    expect(lookupRegs.status).toBe(200);
    expect(lookupRegs.body.filter((r) => r.jurisdiction_level !== 'state').map((r) => r.id).sort()).toEqual(ids);
    expect(lookupRegs.body.filter((r) => r.jurisdiction_level === 'state').map((r) => r.id).sort()).toEqual(nyState());
  });

  test('a city that is no part keeps its own answer: Buffalo has no New York City record', async () => {
    const r = await get<{ id: string; jurisdiction_level: string }[]>('/v1/regulations/lookup?state=NY&city=Buffalo');
    expect(r.status).toBe(200);
    expect(r.body.filter((x) => x.jurisdiction_level !== 'state').map((x) => x.id)).toEqual(overlayFor(regs, 'NY', 'Buffalo', null).city.map((x) => x.id));
    expect(r.body.map((x) => x.id).sort()).toEqual(nyState());
    const l = await get<{ has_city_rent_control: boolean }>('/v1/geo/lookup?state=NY&city=Buffalo');
    expect(l.body.has_city_rent_control).toBe(false);
  });
});

test('New York\'s lookup names every county of its boroughs (part_counties), beside the one county_name (review 17 J)', async () => {
  // the raw Census tables: the counties the place "New York" lies in, with their names
  const raw = await rawQuery<{ county_name: string; fips_code: string }>(`
    select co."Name" as county_name, co.GEOID as fips_code
    from read_csv('${sqlPath('usgeo-census-tables/places.csv.gz')}', all_varchar = true) p
    join read_csv('${sqlPath('usgeo-census-tables/place_counties.csv.gz')}', all_varchar = true) pc on pc."Place GEOID" = p.GEOID
    join read_csv('${sqlPath('usgeo-census-tables/counties.csv')}', all_varchar = true) co on co.GEOID = pc."County GEOID"
    where p.State = 'NY' and p."Short Name" = 'New York' order by 2`);
  expect(raw.map((r) => r.county_name)).toEqual(['Bronx County', 'Kings County', 'New York County', 'Queens County', 'Richmond County']);
  for (const city of ['New York', 'NYC']) {
    const r = await get<{ county_name: string; part_counties: unknown }>(`/v1/geo/lookup?state=NY&city=${encodeURIComponent(city)}`);
    expect(r.status).toBe(200);
    expect(r.body.part_counties, city).toEqual(raw);
    expect(raw.map((c) => c.county_name)).toContain(r.body.county_name);
  }
  // a borough, and a city that is no city of parts: null
  for (const city of ['Brooklyn', 'Buffalo']) expect((await get<{ part_counties: unknown }>(`/v1/geo/lookup?state=NY&city=${city}`)).body.part_counties, city).toBeNull();
});

// ------------------------------------------------------------------------------------------------ market endpoints

interface RawMonth { borough: string; type: string; month: string; n: number }
interface RawLast { borough: string; last: string }

/**
 * market.md's arm's-length rule over the raw NYC files: a price over $10,000 (SOURCE.md: at or under it is nominal); not
 * a portfolio deed (two or more properties (lot and unit) of one tax block on one date at one price, or of one borough
 * at a price no round figure); a sale recorded twice (same
 * property, date and price) once. Living areas outside the sfr bounds (100..50,000 sqft) are row-contract rejects.
 */
const RAW_ARMS_LENGTH = `
  with raw as (
    select trim(BOROUGH) as b, trim(BLOCK) as block, trim(LOT) as lot, upper(trim(ADDRESS)) as addr,
           upper(coalesce(trim("APARTMENT NUMBER"), '')) as apt, "BUILDING CLASS CATEGORY" as cat,
           try_cast(replace("SALE PRICE", ',', '') as double) as price, try_cast("SALE DATE" as date) as d,
           try_cast(replace("GROSS SQUARE FEET", ',', '') as double) as sqft
    from read_csv('${sqlPath('nyc-rolling-sales/*.csv.gz')}', all_varchar = true)
  ),
  -- the property: the lot (BBL) and its unit (APARTMENT NUMBER, else the ", 3D" after the street line)
  prop as (
    select *, b || '-' || block || '-' || lot || '|' || coalesce(nullif(apt, ''), trim(split_part(addr, ',', 2))) as pk
    from raw where price is not null and d is not null
  ),
  package as (
    select b, block, d, price from prop group by all having count(distinct pk) >= 2
  ),
  -- a deed over several blocks of one borough: one date and a price no round figure (no multiple of $500 nor $1
  -- under one of $1,000), over $10,000 (review 16)
  spread as (
    select b, d, price from prop where price > 10000 and price % 500 <> 0 and (price + 1) % 1000 <> 0
    group by all having count(distinct pk) >= 2
  ),
  arm as (
    select distinct p.b, p.pk, p.d, p.price, case when p.cat like '01 %' then 'sfr' else 'other' end as type
    from prop p anti join package k using (b, block, d, price) anti join spread x using (b, d, price)
    where p.price > 10000 and not (p.cat like '01 %' and coalesce(p.sqft, 0) > 0 and (p.sqft < 100 or p.sqft > 50000))
  )`;

describe('a borough is a city market of its own sales (the BOROUGH column), New York of all five', () => {
  let months: RawMonth[];
  let last: RawLast[];
  beforeAll(async () => {
    months = await rawQuery<RawMonth>(`${RAW_ARMS_LENGTH}
      select b as borough, type, strftime(d, '%Y-%m') as month, count(*)::int as n from arm group by all`);
    last = await rawQuery<RawLast>(`${RAW_ARMS_LENGTH} select b as borough, strftime(max(d), '%Y-%m-%d') as last from arm group by b`);
  });

  interface Trends { city: string; state: string; series: { month: string; sales_count: number | null }[] }

  test('trends?city=<borough>&property_type=sfr: every month\'s sales count is the borough\'s raw count (5 or more)', async () => {
    let off = 0;
    let compared = 0;
    for (const b of BOROUGHS) {
      const r = await get<Trends>(`/v1/market/trends?state=NY&city=${encodeURIComponent(b)}&property_type=sfr&months=60`);
      expect(r.status, b).toBe(200);
      expect(r.body.city).toBe(b);
      const raw = new Map(months.filter((m) => m.borough === BOROUGH_CODE[b] && m.type === 'sfr').map((m) => [m.month, m.n]));
      for (const m of r.body.series) {
        const n = raw.get(m.month) ?? 0;
        if (n >= 5) { compared++; off += Math.abs((m.sales_count ?? 0) - n); } else expect(m.sales_count, `${b} ${m.month}`).toBeNull();
      }
    }
    // the 3 NYC rows the row contracts reject (2 unknown zips, 1 out of range) are no single-family sales: exact
    expect(off).toBe(0);
    expect(compared).toBeGreaterThan(80);
  });

  test('New York\'s sfr months are the five boroughs\' together, not one borough\'s', async () => {
    const r = await get<Trends>('/v1/market/trends?state=NY&city=New%20York&property_type=sfr&months=60');
    expect(r.status).toBe(200);
    const all = new Map<string, number>();
    for (const m of months.filter((x) => x.type === 'sfr')) all.set(m.month, (all.get(m.month) ?? 0) + m.n);
    const withSales = r.body.series.filter((m) => m.sales_count !== null);
    expect(withSales.length).toBeGreaterThan(20);
    for (const m of withSales) expect(m.sales_count, m.month).toBe(all.get(m.month));
  });

  test.each(BOROUGHS)('investor-overview?city=%s: answered, its window ends at the borough\'s last raw arm\'s-length sale', async (b) => {
    const r = await get<{ city: string; state: string; as_of: string; investor_purchase_rate_pct: number | null }>(
      `/v1/market/investor-overview?state=NY&city=${encodeURIComponent(b)}&months=12`);
    expect(r.status).toBe(200);
    expect(r.body.city).toBe(b);
    expect(r.body.as_of).toBe(last.find((x) => x.borough === BOROUGH_CODE[b])!.last);
    // NYC's file names no buyer (SOURCE.md): no investor rate is invented for a borough either
    expect(r.body.investor_purchase_rate_pct).toBeNull();
  });
});
