// Geography marts and shard SQL over given rows: the geo marts (pipelines/marts/10_mart_geo_*.sql), the coverage mart
// (90_mart_coverage.ts) and the shard queries (pipelines/shards/{geo-states,geo-lookup,geo-markets,coverage}.sql) over
// the canonical tables the geo steps make from a few raw rows (test/helpers/geo-fixtures.ts) in an in-memory DuckDB.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { givenGeography, runGeoSteps } from '../helpers/geo-fixtures.ts';
import { CATEGORIES, COVERAGE_FIELDS, LOOKUP_FIELDS, MARKET_FIELDS, STATE_FIELDS } from '../helpers/geo-fields.ts';
import { run as runCoverage } from '../../pipelines/marts/90_mart_coverage.ts';
import { repoPath } from '../helpers/paths.ts';

async function givenLegal(ctx: TestContext): Promise<void> {
  await ctx.db.run(`
    create table state_legal as select * from (values
      ('WA', 42.5, 'Tenant-leaning', 'non-judicial', 'deed', null::double, null::double, null::varchar),
      ('CT', 35.0, 'Tenant-leaning', 'judicial', 'lien', 18.0, 6.0, 'annual interest charged on redemption'),
      ('DC', 20.0, 'Tenant-friendly', 'non-judicial', 'lien', 18.0, 6.0, '1.5% per month')
    ) t(state_code, landlord_friendliness_score, landlord_friendliness_label, foreclosure_type, lien_or_deed, interest_rate_pct, redemption_period_months, rate_basis);
    create table local_legal as select * from (values
      ('WA', null, 'SEATTLE', false, true),
      ('WA', '53053', null, true, false),
      ('CT', null, 'New Haven', true, true)
    ) t(state_code, county_fips, city, has_city_rent_control, has_city_eviction_protections);`);
}

async function runGeoMarts(ctx: TestContext): Promise<void> {
  for (const f of ['10_mart_geo_cities.sql', '10_mart_geo_markets.sql', '10_mart_geo_states.sql']) await runSqlFile(ctx, `pipelines/marts/${f}`);
}

async function shardRows(ctx: TestContext, family: string): Promise<Record<string, unknown>[]> {
  return ctx.rows(fs.readFileSync(repoPath('pipelines/shards', `${family}.sql`), 'utf8'));
}

describe('geo steps over given rows', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeContext();
    await givenGeography(ctx);
    await runGeoSteps(ctx);
  });
  afterAll(() => ctx.close());

  describe('marts and shards', () => {
    beforeAll(async () => {
      await givenLegal(ctx);
      await runGeoMarts(ctx);
    });

    it('geo-states: only is_state rows, spec fields in order, numbers as numbers', async () => {
      const [row] = await shardRows(ctx, 'geo-states');
      const body = JSON.parse(String(row!['body'])) as { count: number; states: Record<string, unknown>[] };
      expect(body.count).toBe(2);
      expect(body.states.map((s) => s['state_code'])).toEqual(['CT', 'WA']);
      for (const s of body.states) expect(Object.keys(s)).toEqual(STATE_FIELDS);
      expect(body.states[0]).toEqual({ state_code: 'CT', state_name: 'Connecticut', landlord_friendliness_score: 35, landlord_friendliness_label: 'Tenant-leaning', foreclosure_type: 'judicial', lien_or_deed: 'lien', interest_rate_pct: 18, redemption_period_months: 6, rate_basis: 'annual interest charged on redemption' });
    });

    it('geo-lookup: legal overlays by city slug (county rules do not set city flags), one shard per city', async () => {
      const rows = await shardRows(ctx, 'geo-lookup');
      expect(rows.map((r) => `${String(r['state'])}/${String(r['city'])}`).sort()).toEqual(
        ['CT/Hartford', 'DC/Washington', 'WA/Auburn', 'WA/Dayton', 'WA/Fakeville', 'WA/Lakewood', 'WA/Seattle', 'WA/Spokane', 'WA/White Center', 'WA/Yakima']);
      const get = (c: string): Record<string, unknown> => JSON.parse(String(rows.find((r) => r['city'] === c)!['body'])) as Record<string, unknown>;
      const seattle = get('Seattle');
      expect(Object.keys(seattle)).toEqual(LOOKUP_FIELDS);
      expect(seattle).toEqual({
        state_code: 'WA', state_name: 'Washington', city_name: 'Seattle', county_name: 'King County', fips_code: '53033',
        metro_area: 'Seattle-Tacoma-Bellevue, WA', market_tier: 'primary', zip_codes: ['98101', '98104', '98111'],
        has_city_rent_control: false, has_city_eviction_protections: true, is_investor_active: false,
        landlord_risk: { friendliness_score: 42.5, label: 'Tenant-leaning' }, tax_type: 'deed', interest_rate_pct: null, redemption_period_months: null, rate_basis: null, part_counties: null,
      });
      // a county rule (Pierce) is not a city ordinance of Lakewood; a CBSA-less county has an empty metro_area string
      expect(get('Lakewood')['has_city_rent_control']).toBe(false);
      expect(get('Dayton')['metro_area']).toBe('');
      expect(get('Spokane')['has_city_rent_control']).toBe(false);
    });

    it('geo-markets: every state x tier x investor_active, population order, empty active lists', async () => {
      const rows = await shardRows(ctx, 'geo-markets');
      expect(rows).toHaveLength(3 * 5 * 2);
      const body = (st: string, tier: string, active: string | null): { state_code: string; count: number; markets: Record<string, unknown>[] } => {
        const r = rows.find((x) => x['state'] === st && x['tier'] === tier && x['investor_active'] === active)!;
        return JSON.parse(String(r['body'])) as { state_code: string; count: number; markets: Record<string, unknown>[] };
      };
      const all = body('WA', 'all', null);
      expect(all.count).toBe(7);
      // Dayton (2,494 people) is below the 5,000 market threshold; the Census places without a simplemaps city (Auburn, the
      // White Center CDP) are markets
      expect(all.markets.map((m) => m['city_name'])).toEqual(['Seattle', 'Spokane', 'Yakima', 'Auburn', 'Lakewood', 'White Center', 'Fakeville']);
      for (const m of all.markets) expect(Object.keys(m)).toEqual(MARKET_FIELDS);
      expect(Object.keys(all)).toEqual(['state_code', 'count', 'markets']);
      expect(body('WA', 'primary', null).markets.map((m) => m['city_name'])).toEqual(['Seattle', 'Auburn', 'Lakewood', 'White Center', 'Fakeville']);
      expect(body('WA', 'rural', null)).toEqual({ state_code: 'WA', count: 0, markets: [] });
      expect(body('WA', 'all', 'true')).toEqual({ state_code: 'WA', count: 0, markets: [] });
    });

    it('coverage: counts only existing tables, every category key, ISO build time', async () => {
      await ctx.db.run(`create table regulations as select * from (values
        ('r1', 'eviction', 'active'), ('r2', 'eviction', 'active'), ('r3', 'zoning', 'active'), ('r4', 'zoning', 'expired'), ('r5', 'rent_control', 'pending')
      ) t(id, category, status)`);
      await runCoverage(ctx);
      const [row] = await shardRows(ctx, 'coverage');
      const body = JSON.parse(String(row!['body'])) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(COVERAGE_FIELDS);
      // data_points by hand (geo.md: rows of every main table but int_* and mart_coverage), from the given rows:
      // states 3 (CT, DC, WA) + counties 7 (PR rejected) + cities 10 + zips 11 + mart_geo_cities 10 + mart_geo_markets 9
      // (7 WA cities of 5,000+, Hartford, Washington) + mart_geo_states 2 (no DC) + state_legal 3 + local_legal 3 + regulations 5
      const expectedPoints = 3 + 7 + 10 + 11 + 10 + 9 + 2 + 3 + 3 + 5;
      expect(body).toEqual({
        addresses: 0, regulations: 3,
        regulations_by_category: Object.fromEntries(CATEGORIES.map((c) => [c, c === 'eviction' ? 2 : c === 'zoning' ? 1 : 0])),
        states: 2, cities: 10, zips: 11, counties: 7, data_points: expectedPoints,
        last_refreshed: '2026-11-21T06:00:00.000Z', meta: { cached: true },
      });
      expect(Object.keys(body['regulations_by_category'] as object)).toEqual(CATEGORIES);
    });

    it('coverage: addresses counts the rows autocomplete can find (a point, a city, a state; zip and county may be unknown), once the table exists', async () => {
      // address.md "Autocomplete index": an address without a recorded zip (addresses.zip is null then, never a guess)
      // or without a county is found and answered with "" for them; one without a point, city or state is not
      await ctx.db.run(`create table addresses as select * from (values
        ('98103', false, 47.6, -122.3, 'King', 'Seattle', 'WA'),          -- findable
        ('98103', null,  47.6, -122.3, 'King', 'Seattle', 'WA'),          -- findable
        ('11204', false, 40.6, -73.9,  'Kings', 'New York', 'NY'),        -- findable
        (null,    true,  41.9, -87.6,  'Cook', 'Chicago', 'IL'),          -- findable: zip not recorded (a guess existed)
        (null,    false, 41.7, -72.6,  'Capitol', 'Hartford', 'CT'),      -- findable: no zip, a point
        ('98103', false, null, null,   'King', 'Seattle', 'WA'),          -- no point
        ('98103', false, 47.6, -122.3, null,   'Seattle', 'WA'),          -- findable: no county
        ('98103', false, 47.6, -122.3, 'King', null,      'WA'),          -- no city
        ('98103', false, 47.6, -122.3, 'King', 'Seattle', null)           -- no state
      ) t(zip, zip_imputed, lat, lng, county, city, state_code)`);
      await runCoverage(ctx);
      expect(await ctx.rows(`select addresses::integer as addresses from mart_coverage`)).toEqual([{ addresses: 6 }]);
    });
  });
});
