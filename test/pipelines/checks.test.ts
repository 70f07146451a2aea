// Data checks: offending rows fail a check (exit 4 at build level); a check whose SQL cannot run is a
// broken marts stage (StageError, exit 3) naming the check file, never an "unexpected" exit 1.
// The data tests of pipelines/marts/checks/ are run over given rows: the canonical and mart tables are created
// empty with the shared real build's own schemas, filled with a few hand-written clean rows (every check passes),
// then one planted row breaks one rule and the check must fail with that row in its sample.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { runChecks, SAMPLE_ROWS, type CheckResult } from '../../pipelines/checks.ts';
import { EXIT, StageError } from '../../warehouse/errors.ts';
import { loadSettings, type Settings } from '../../warehouse/settings.ts';
import { openWarehouse } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { buildDir } from '../helpers/build.ts';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { repoPath } from '../helpers/paths.ts';

const CHECKS = repoPath('pipelines/marts/checks');

let ctx: TestContext | null = null;
afterEach(() => { ctx?.close(); ctx = null; });
const tmpDirs: string[] = [];
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });
function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
}

function checksDir(files: Record<string, string>): string {
  const dir = tmp('reii-checks-');
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
  return dir;
}

/** The context with some settings replaced (the drift limits, the artifacts folder, the step filter). */
function withSettings(c: TestContext, overrides: Partial<Record<keyof Settings, string>>): TestContext {
  return { ...c, settings: loadSettings({ artifacts: c.settings.artifacts, ...overrides }, {}) };
}

describe('the check runner', () => {
  test('offending rows fail a check, none pass it, a missing table skips it with the reason', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select * from (values (1), (-2), (-3)) v(x)`);
    const dir = checksDir({
      'a_negative.sql': '-- check: x is never negative\n-- requires: t\nselect x from t where x < 0\n',
      'b_big.sql': '-- check: x under 10\n-- requires: t\nselect x from t where x >= 10;\n',
      'c_absent.sql': '-- check: u is empty\n-- requires: u\nselect * from u\n',
    });
    const results = await runChecks(ctx, dir);
    expect(results.map((r) => [r.name, r.severity, r.status, r.failingRows])).toEqual([
      ['a_negative', 'error', 'fail', 2], ['b_big', 'error', 'pass', 0], ['c_absent', 'error', 'skipped', 0]]);
    expect(results[0]!.description).toBe('x is never negative');
    expect(results[0]!.sample).toEqual([{ x: -2 }, { x: -3 }]);
    expect(results[2]!.reason).toBe('missing u');
  });

  test('severity warn: offending rows make a warning, not a failure; an unknown severity is a stage error naming the file', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select * from (values (1), (-2)) v(x)`);
    const dir = checksDir({
      'a_warn.sql': '-- check: x is positive\n-- severity: warn\n-- requires: t\nselect x from t where x < 0\n',
      'b_warn_clean.sql': '-- check: x is small\n-- severity: warn\n-- requires: t\nselect x from t where x > 100\n',
      'c_error.sql': '-- check: x is positive\n-- severity: error\n-- requires: t\nselect x from t where x < 0\n',
    });
    const results = await runChecks(ctx, dir);
    expect(results.map((r) => [r.name, r.severity, r.status, r.failingRows, r.sample])).toEqual([
      ['a_warn', 'warn', 'warn', 1, [{ x: -2 }]], ['b_warn_clean', 'warn', 'pass', 0, []], ['c_error', 'error', 'fail', 1, [{ x: -2 }]]]);

    const bad = checksDir({ 'geo_typo.sql': '-- check: x\n-- severity: warning\nselect 1 where false\n' });
    const err = await runChecks(ctx, bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as Error).message).toMatch(/^stage marts failed in .*geo_typo\.sql: severity must be error or warn, got "warning"/);
  });

  test('the sample keeps the first rows, the count is of every offending row', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select range::int as x from range(25)`);
    const [r] = await runChecks(ctx, checksDir({ 'many.sql': '-- check: t is empty\n-- requires: t\nselect x from t order by x\n' }));
    expect(r).toMatchObject({ status: 'fail', failingRows: 25 });
    expect(r!.sample).toEqual(Array.from({ length: SAMPLE_ROWS }, (_, i) => ({ x: i })));
  });

  test('build_date() is the build clock\'s date: a row on it passes, a row the day after fails', async () => {
    ctx = await makeContext({ now: new Date('2026-11-21T23:30:00Z') });
    await ctx.db.run(`create table t as select * from (values (date '2026-11-21'), (date '2026-11-22')) v(d)`);
    const [r] = await runChecks(ctx, checksDir({ 'future.sql': '-- check: no date after the build\n-- requires: t\nselect d from t where d > build_date()\n' }));
    expect(r).toMatchObject({ status: 'fail', failingRows: 1, sample: [{ d: '2026-11-22' }] });
  });

  test('a check whose SQL fails is a stage error naming the file', async () => {
    ctx = await makeContext();
    await ctx.db.run(`create table t as select 1 as x`);
    const dir = checksDir({ 'geo_broken.sql': '-- check: broken\n-- requires: t\nselect no_such_column from t\n' });
    const err = await runChecks(ctx, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageError);
    expect((err as StageError).exitCode).toBe(EXIT.stage);
    expect((err as StageError).stage).toBe('marts');
    expect((err as Error).message).toMatch(/^stage marts failed in .*geo_broken\.sql: .*no_such_column/);
  });
});

// ---------------------------------------------------------------------------------------------------
// The data tests of pipelines/marts/checks over given rows.

const TABLES = ['states', 'zips', 'cities', 'sales', 'parcels', 'permits', 'distress', 'addresses', 'flood_zones',
  'mart_comps', 'mart_rehab', 'mart_investor', 'mart_geo_cities', 'mart_location_risk', 'mart_valuation_features',
  'mart_legal_market_risk', 'mart_legal_landlord', 'mart_legal_tax_sale', 'mart_regulations', 'stg_hud_crosswalk__zip_county'] as const;

/** Hand-written rows that break no rule (the build date is 2026-11-21). */
const CLEAN = `
insert into states by name select 'TX' as state_code, 'Texas' as state_name, true as is_state;
insert into zips by name select * from (values ('78701', 'TX', 'Austin'), ('78702', 'TX', 'Austin')) v(zip, state_code, city);
insert into cities by name select 'tx-austin' as city_id, 'Austin' as city_name, 'austin' as city_slug, 'TX' as state_code, 'primary' as market_tier;
insert into sales by name select * from (values
  ('canonical:sales.csv:1', 'canonical', '78701', 'TX', 'Austin', date '2026-11-21', 410000.0, 'sfr', 'good', true, 1500.0, 3.0, 2.0, 1988, 30.27, -97.74),
  ('canonical:sales.csv:2', 'canonical', '78702', 'TX', 'Austin', date '1900-01-01', 365000.0, 'condo', null, false, null, null, null, null, null, null),
  ('nyc:sales.csv:3', 'nyc', '78702', 'TX', 'Austin', date '2024-01-01', 0.0, 'multi', null, false, null, null, null, null, null, null)
) v(sale_id, source, zip, state_code, city, sale_date, sale_price, property_type, condition, is_arms_length, sqft, beds, baths, year_built, lat, lng);
insert into parcels by name select 'P1' as parcel_id, 'canonical' as source, null as unit, 'sfr' as property_type, date '2025-01-01' as last_sale_date, 300000.0 as last_sale_price;
insert into permits by name select 'chicago:1' as permit_id, date '2025-01-01' as issue_date, 'renovation' as permit_type, 5000.0 as valuation, '60601' as zip;
insert into distress by name select 'louisville:1' as distress_id, date '2020-01-01' as filing_date, 'pre_foreclosure' as kind, null as amount, null as zip;
insert into addresses by name select 'a1' as address_id, '12 ELM ST' as address, 'TX' as state_code, '78701' as zip, 30.27 as lat, -97.74 as lng, date '2026-11-21' as last_seen_date;
insert into flood_zones by name select 1 as polygon_id, 'AE' as zone, 'High' as risk_label;
insert into mart_comps by name select * from (values
  ('78701', 'sfr', 6, 'Austin', 'TX', 7, 7, 200.0, 250.0, 300.0, null, null, null, null, 'low', date '2026-05-21', date '2026-11-21', date '2026-11-21', 184, date '2026-05-22', date '2026-11-21', 184),
  ('78701', 'land', 6, 'Austin', 'TX', 0, null, null, null, null, null, null, null, null, 'low', date '2026-05-21', date '2026-11-20', date '2026-11-21', 184, date '2026-09-01', date '2026-11-21', 82)
) v(zip, property_type, months, city, state_code, comp_count, sample_count, ppsf_p25, ppsf_median, ppsf_p75, dom_median, dom_source,
    list_to_sale_ratio, ratio_source, confidence, window_start, as_of, window_end, window_days, records_start, records_end, records_days);
insert into mart_rehab by name select '78701' as zip, 6 as months, 'Austin' as city, 'TX' as state_code, 46.5 as rehab_momentum_score,
  'Active' as label, 'flat' as trend, 0.0 as trend_pct, 'low' as confidence, 1 as sample_count, 2 as permits_all, 1 as permits_rehab,
  1 as permits_rehab_valued, 1 as sales_n, 0 as rehab_sales, 1.0 as value_declared_share, null as rehab_sale_share, 40.9 as permit_score,
  60.7 as value_score, null as resale_score, 0 as events_last_30d, 0 as events_prior_30d, date '2026-05-21' as window_start, date '2026-11-21' as as_of,
  date '2026-11-21' as permits_as_of, date '2026-05-21' as permits_window_start;
insert into mart_investor by name select * from (values
  ('TX', 'Austin', 'austin', 12, 25.0, 200.0, 18.5, null, 0, 'primary', 'cities', 'low', 20, 24, 20, 20, 5, 5, 0, date '2025-11-21', date '2026-11-21'),
  ('TX', 'Manor Township', 'manor-township', 12, null, null, null, 0, 0, 'rural', 'no city match: rural by rule', 'low', 1, 0, 0, 0, 0, 0, 1, date '2025-11-20', date '2026-11-20')
) v(state_code, city, city_slug, months, investor_purchase_rate_pct, flip_velocity_days, gross_flip_margin_pct, distressed_pipeline_count,
    platform_active_deals, market_tier, tier_source, confidence, sample_count, sales_for_value, arms_length_sales, known_buyer_sales, investor_purchases, flips,
    distress_filings, window_start, as_of);
insert into mart_geo_cities by name select 'tx-austin' as city_id, 'austin' as city_slug, 'TX' as state_code, 'Austin' as city_name,
  'primary' as market_tier, 70.0 as landlord_friendliness_score, 'Landlord-Friendly' as landlord_friendliness_label;
insert into mart_location_risk by name select * from (values ('78701', 'X', 'Minimal'), ('78702', 'D', 'Moderate')) v(zip, flood_zone, flood_risk_label);
insert into mart_valuation_features by name select 'canonical:sales.csv:1' as sale_id;
insert into mart_legal_market_risk by name select 'TX' as state_code, 'Austin' as city_name, 'austin' as city_slug;
insert into mart_legal_landlord by name select * from (values ('TX', null, 72.0, 'Landlord-Friendly'), ('TX', 'Austin', 70.0, 'Landlord-Friendly'))
  v(state_code, city_name, landlord_friendliness_score, landlord_friendliness_label);
insert into mart_legal_tax_sale by name select 'TX' as state_code;
insert into mart_regulations by name select 'tx-eviction-1' as id, 'TX' as state_code, 'eviction' as category, 'active' as status, 'state' as jurisdiction_level;
`;

/** A context holding the tables above, empty with the real build's column types, then the clean rows. */
async function world(): Promise<TestContext> {
  const c = await makeContext(); // builtAt 2026-11-21T06:00:00Z
  await c.db.run(`attach ${sqlString(path.join(buildDir(), 'warehouse.duckdb'))} as real (read_only)`);
  for (const t of TABLES) await c.db.run(`create table ${t} as select * from real.${t} limit 0`);
  await c.db.run('detach real');
  await c.db.run(CLEAN);
  return c;
}

/** Runs only the named check file of pipelines/marts/checks. */
async function runCheck(c: TestContext, name: string): Promise<CheckResult> {
  const results = await runChecks(withSettings(c, { stepFilter: name }), CHECKS);
  const r = results.find((x) => x.name === name);
  if (!r) throw new Error(`no check ${name} in ${CHECKS}`);
  return r;
}

interface Case { check: string; kind: string; plant: string; rows?: number; sample: Record<string, unknown> }
const CASES: Case[] = [
  // not null and unique keys
  { check: 'market_sales', kind: 'unique key', plant: `insert into sales by name select * replace (410001.0 as sale_price) from sales where sale_id = 'canonical:sales.csv:1'`,
    sample: { sale_id: 'canonical:sales.csv:1', problem: 'sale_id duplicate', value: '2' } },
  { check: 'market_sales', kind: 'not null key', plant: `insert into sales by name select * replace (null as sale_id) from sales where sale_id = 'canonical:sales.csv:1'`,
    sample: { sale_id: null, problem: 'sale_id missing' } },
  { check: 'market_comps', kind: 'unique key', plant: `insert into mart_comps select * from mart_comps where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', months: 6, problem: 'duplicate key', value: '2' } },
  { check: 'market_canonical', kind: 'unique key', plant: `insert into permits select * from permits`,
    sample: { table: 'permits', id: 'chicago:1', problem: 'permit_id missing or duplicate', value: '2' } },
  { check: 'address_addresses', kind: 'unique key', plant: `insert into addresses select * from addresses`,
    sample: { address_id: 'a1', problem: 'address_id missing or duplicate', value: '2' } },
  { check: 'geo_answers', kind: 'unique key', plant: `insert into mart_geo_cities by name select 'tx-austin-2' as city_id, 'austin' as city_slug, 'TX' as state_code, 'primary' as market_tier`,
    rows: 2, sample: { table: 'mart_geo_cities', key: 'TX/austin', problem: 'duplicate (state, slug): the lookup answer would be ambiguous' } },
  { check: 'legal_answers', kind: 'unique key', plant: `insert into mart_regulations select * from mart_regulations`,
    sample: { table: 'mart_regulations', key: 'tx-eviction-1', problem: 'id missing or duplicate' } },
  // accepted values
  { check: 'market_sales', kind: 'accepted values', plant: `update sales set property_type = 'mansion' where sale_id = 'canonical:sales.csv:2'`,
    sample: { sale_id: 'canonical:sales.csv:2', problem: 'property_type not in sfr, multi, condo, land, commercial, coop (NYC only)', value: 'mansion' } },
  // a co-op is New York City's only (F7: its rolling sales' classes 09, 10, 17)
  { check: 'market_sales', kind: 'accepted values', plant: `update sales set property_type = 'coop' where sale_id = 'canonical:sales.csv:2'`,
    sample: { sale_id: 'canonical:sales.csv:2', problem: 'property_type not in sfr, multi, condo, land, commercial, coop (NYC only)', value: 'coop' } },
  { check: 'market_comps', kind: 'accepted values', plant: `update mart_comps set confidence = 'certain' where property_type = 'land'`,
    sample: { zip: '78701', property_type: 'land', problem: 'confidence not in low, medium, high', value: 'certain' } },
  { check: 'market_rehab', kind: 'accepted values', plant: `update mart_rehab set label = 'Lukewarm'`,
    sample: { zip: '78701', months: 6, problem: 'label, trend or confidence outside its set', value: 'Lukewarm/flat/low' } },
  { check: 'market_investor', kind: 'accepted values', plant: `update mart_investor set market_tier = 'megacity' where city_slug = 'austin'`,
    sample: { city_slug: 'austin', problem: 'market_tier, tier_source or confidence outside its set', value: 'megacity/cities/low' } },
  { check: 'location_flood_zones', kind: 'accepted values', plant: `update mart_location_risk set flood_zone = 'Q' where zip = '78701'`,
    sample: { table: 'mart_location_risk', key: '78701', zone: 'Q', problem: 'not a FEMA zone code' } },
  { check: 'location_flood_zones', kind: 'accepted values', plant: `update flood_zones set risk_label = 'Minimal'`,
    sample: { table: 'flood_zones', key: '1', zone: 'AE', label: 'Minimal', problem: 'label does not match the zone' } },
  { check: 'market_canonical', kind: 'accepted values', plant: `update distress set kind = 'bankruptcy'`,
    sample: { table: 'distress', id: 'louisville:1', problem: 'kind not in pre_foreclosure, tax_delinquent, lien_foreclosure', value: 'bankruptcy' } },
  { check: 'legal_answers', kind: 'accepted values', plant: `update mart_regulations set category = 'astrology'`,
    sample: { table: 'mart_regulations', key: 'tx-eviction-1', problem: 'state, category, status or jurisdiction level outside its set' } },
  // relationships
  { check: 'market_geography', kind: 'relationship', plant: `insert into mart_comps by name select * replace ('99999' as zip) from mart_comps`,
    sample: { table: 'mart_comps', key: '99999', problem: 'zip not in the geography zips', rows: '2' } },
  { check: 'market_geography', kind: 'relationship', plant: `update mart_rehab set state_code = 'OK'`,
    sample: { table: 'mart_rehab', key: '78701', problem: 'state OK but the geography says TX' } },
  { check: 'market_geography', kind: 'relationship', plant: `update mart_investor set city_slug = 'ostin', city = 'Ostin' where city_slug = 'austin'`,
    sample: { table: 'mart_investor', key: 'TX/ostin', problem: 'tier_source cities but not in cities' } },
  { check: 'market_geography', kind: 'relationship', plant: `update sales set state_code = 'OK' where sale_id = 'canonical:sales.csv:1'`,
    sample: { table: 'sales', key: 'OK', problem: 'state not in states' } },
  // the zip in the sale's state: its own, or one the HUD crosswalk puts it in (canonical-intake-checks.test.ts: 03804, ME)
  { check: 'market_sales_zip_state', kind: 'relationship', plant: `update sales set state_code = 'OK' where sale_id = 'canonical:sales.csv:1'`,
    sample: { table: 'sales', zip: '78701', problem: 'zip of TX on a sale in OK', rows: '1' } },
  { check: 'geo_answers', kind: 'relationship', plant: `insert into mart_location_risk by name select '00000' as zip, 'X' as flood_zone, 'Minimal' as flood_risk_label`,
    sample: { table: 'mart_location_risk', key: '00000', problem: 'zip not in zips' } },
  { check: 'valuation_features', kind: 'relationship', plant: `update mart_valuation_features set sale_id = 'canonical:sales.csv:9'`,
    sample: { sale_id: 'canonical:sales.csv:9', problem: 'not in sales' } },
  { check: 'legal_answers', kind: 'relationship', plant: `update mart_legal_market_risk set city_slug = 'ostin'`,
    sample: { table: 'mart_legal_market_risk', key: 'TX/ostin', problem: 'city not in cities' } },
  // ranges
  { check: 'market_sales', kind: 'range', plant: `update sales set sale_date = date '2099-01-01' where sale_id = 'canonical:sales.csv:2'`,
    sample: { sale_id: 'canonical:sales.csv:2', problem: 'sale_date missing or outside 1900-01-01 .. build date', value: '2099-01-01' } },
  { check: 'market_sales', kind: 'range', plant: `update sales set sale_date = date '1899-12-31' where sale_id = 'canonical:sales.csv:2'`,
    sample: { sale_id: 'canonical:sales.csv:2', problem: 'sale_date missing or outside 1900-01-01 .. build date', value: '1899-12-31' } },
  { check: 'market_sales', kind: 'range', plant: `update sales set sale_price = 'inf'::double where sale_id = 'canonical:sales.csv:2'`,
    sample: { sale_id: 'canonical:sales.csv:2', problem: 'sale_price missing, negative or not finite', value: 'inf' } },
  { check: 'market_sales', kind: 'range', plant: `update sales set sale_price = -5 where sale_id = 'nyc:sales.csv:3'`,
    sample: { sale_id: 'nyc:sales.csv:3', problem: 'sale_price missing, negative or not finite', value: '-5.0' } },
  { check: 'market_sales', kind: 'range', plant: `update sales set sale_price = 9999 where sale_id = 'canonical:sales.csv:1'`,
    sample: { sale_id: 'canonical:sales.csv:1', problem: 'arm\'s-length at a nominal price (under $10,000; NYC at or under)', value: '9999.0' } },
  { check: 'market_sales', kind: 'range', plant: `update sales set lat = -30.27 where sale_id = 'canonical:sales.csv:1'`,
    sample: { sale_id: 'canonical:sales.csv:1', problem: 'coordinates outside the United States or only one of lat, lng', value: '-30.27,-97.74' } },
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set ppsf_p25 = 260 where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', problem: 'percentiles not above 0, not finite or not ordered p25 <= median <= p75', value: '260.0 <= 250.0 <= 300.0' } },
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set sample_count = 4, comp_count = 4 where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', problem: 'percentiles and sample_count not null together, or shown below 5 comps', value: '4 4 250.0' } },
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set window_end = date '2026-11-22', as_of = date '2026-11-22' where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', problem: 'window not window_start <= as_of <= window_end <= build date' } },
  // review of build e70dbe: 06414's 58 days on market, one 2024 sale of any type, after the window (2026-05-22..11-21 here)
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set dom_median = 58, dom_source = 'redfin', redfin_period_start = date '2026-09-01',
      redfin_period_end = date '2026-11-30', redfin_property_type = 'All Residential', redfin_homes_sold = 1 where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', problem: 'days on market below 0, list-to-sale ratio not above 0, a source outside sales (and redfin for days on market), or a Redfin period that cannot stand for the window' } },
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set list_to_sale_ratio = 1.0, ratio_source = 'redfin' where property_type = 'sfr'`,
    sample: { zip: '78701', property_type: 'sfr', problem: 'days on market below 0, list-to-sale ratio not above 0, a source outside sales (and redfin for days on market), or a Redfin period that cannot stand for the window' } },
  { check: 'market_comps', kind: 'range', plant: `update mart_comps set confidence = 'medium' where property_type = 'land'`,
    sample: { zip: '78701', property_type: 'land', problem: 'coverage not inside the window, or confidence above what it allows' } },
  { check: 'market_rehab', kind: 'range', plant: `update mart_rehab set rehab_momentum_score = 100.5`,
    sample: { zip: '78701', problem: 'score or a component missing or outside 0-100' } },
  { check: 'market_rehab', kind: 'range', plant: `update mart_rehab set sales_as_of = date '2026-11-22', sales_window_start = date '2026-05-22'`,
    sample: { zip: '78701', months: 6, problem: 'a kind\'s window not ending by as_of, or neither ending on it', value: '2026-11-21 2026-11-22 2026-11-21' } },
  { check: 'market_investor', kind: 'range', plant: `update mart_investor set investor_purchase_rate_pct = 120 where city_slug = 'austin'`,
    sample: { city_slug: 'austin', problem: 'investor_purchase_rate_pct outside 0-100', value: '120.0' } },
  { check: 'market_investor', kind: 'range', plant: `update mart_investor set flip_velocity_days = 400 where city_slug = 'austin'`,
    sample: { city_slug: 'austin', problem: 'flip_velocity_days outside 0-365 or gross_flip_margin_pct not above -100' } },
  { check: 'market_investor', kind: 'range', plant: `update mart_investor set flips = 4 where city_slug = 'austin'`,
    sample: { city_slug: 'austin', problem: 'a figure of a cohort of 1-4 (minimum cohort 5: the rate needs 5 known buyers, flip velocity and margin 5 flips)', value: '20 4' } },
  { check: 'market_canonical', kind: 'range', plant: `update permits set issue_date = date '2026-12-01'`,
    sample: { table: 'permits', id: 'chicago:1', problem: 'issue_date missing or outside 1900-01-01 .. build date', value: '2026-12-01' } },
  { check: 'address_addresses', kind: 'range', plant: `update addresses set lng = null`,
    sample: { address_id: 'a1', problem: 'only one of lat, lng, or outside the United States' } },
  { check: 'geo_answers', kind: 'range', plant: `update mart_geo_cities set landlord_friendliness_score = -1`,
    sample: { table: 'mart_geo_cities', key: 'tx-austin', problem: 'tier, landlord score (0-100) or label outside its set' } },
];

describe('the data tests over given rows', () => {
  // One world for the file's cases: each plants its row inside a transaction rolled back afterwards.
  let w: TestContext;
  beforeAll(async () => { w = await world(); });
  afterAll(() => w?.close());

  test('the clean rows pass every data test planted below (none is skipped for a missing table)', async () => {
    const results = await runChecks(w, CHECKS);
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    const planted = [...new Set(CASES.map((c) => c.check)), 'market_rehab_labels', 'market_comps_plausible'];
    for (const name of planted) expect(byName[name], name).toMatchObject({ status: 'pass', failingRows: 0 });
  });

  test.each(CASES)('$check, $kind: one planted row fails it with the row in the sample ($plant)', async ({ check, plant, rows, sample }) => {
    await w.db.run('begin transaction');
    try {
      expect(await runCheck(w, check)).toMatchObject({ status: 'pass', failingRows: 0 });
      await w.db.run(plant);
      const r = await runCheck(w, check);
      expect(r).toMatchObject({ severity: 'error', status: 'fail', failingRows: rows ?? 1 });
      expect(r.sample).toContainEqual(expect.objectContaining(sample));
    } finally {
      await w.db.run('rollback');
    }
  });

  test('warn severity: an implausible residential median is a warning, not a failure; a rehab label outside its published score\'s band is an error', async () => {
    await w.db.run('begin transaction');
    let results: CheckResult[];
    try {
      await w.db.run(`update mart_rehab set rehab_momentum_score = 20.0, label = 'Cold'`);
      await w.db.run(`insert into mart_comps by name select * replace ('78702' as zip, 2600.0 as ppsf_p25, 2700.0 as ppsf_median, 2800.0 as ppsf_p75) from mart_comps where property_type = 'sfr'`);
      results = await runChecks(withSettings(w, { stepFilter: 'market_rehab_labels,market_comps_plausible' }), CHECKS);
    } finally {
      await w.db.run('rollback');
    }
    expect(results.map((r) => [r.name, r.severity, r.status, r.failingRows])).toEqual([
      ['market_comps_plausible', 'warn', 'warn', 1], ['market_rehab_labels', 'error', 'fail', 1]]);
    expect(results[0]!.sample).toEqual([{ zip: '78702', property_type: 'sfr', state_code: 'TX', city: 'Austin', lowest_median: 2700, highest_median: 2700, windows: '1', most_comps: '7' }]);
    expect(results[1]!.sample).toEqual([{ zip: '78701', months: 6, rehab_momentum_score: 20, label: 'Cold', band: 'Warming' }]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Cross-build drift: the build being replaced is a DuckDB file this test writes, published as `current` of a
// fake artifacts folder (a manifest.json beside it is all currentBuildDir needs).

async function previousBuild(sql: string): Promise<{ artifacts: string; file: string }> {
  const artifacts = tmp('reii-drift-');
  const dir = path.join(artifacts, 'builds', '20260101T000000000Z-aaaaaa');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), '{}\n');
  fs.symlinkSync('builds/20260101T000000000Z-aaaaaa', path.join(artifacts, 'current'));
  const file = path.join(dir, 'warehouse.duckdb');
  const wh = await openWarehouse(file);
  const c = await wh.connect();
  try {
    if (sql) await c.run(sql);
  } finally {
    c.closeSync();
    wh.close();
  }
  return { artifacts, file };
}
const sha = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const comps = (rows: [string, string, number, number | null][]): string =>
  `create table mart_comps as select * from (values ${rows.map(([z, t, m, med]) => `('${z}', '${t}', ${m}, ${med ?? 'null'}::double, date '2026-11-01')`).join(', ')}) v(zip, property_type, months, ppsf_median, as_of);`;

describe('cross-build drift against the build being replaced', () => {
  test('a zip\'s sfr 6-month median moving by more than the factor fails, with both medians; smaller moves, other windows and types pass', async () => {
    const prev = await previousBuild(comps([['78701', 'sfr', 6, 250], ['78702', 'sfr', 6, 200], ['78703', 'sfr', 6, 100], ['78701', 'sfr', 12, 250], ['78701', 'multi', 6, 250], ['78704', 'sfr', 6, null]]));
    const before = sha(prev.file);
    ctx = await makeContext();
    // 78701 x4.2 (fails at 3), 78702 x2.5 (passes), 78703 /3.5 (fails), 12-month and multi x4 (not the tested figure), 78704 was suppressed
    await ctx.db.run(comps([['78701', 'sfr', 6, 1050], ['78702', 'sfr', 6, 500], ['78703', 'sfr', 6, 100 / 3.5], ['78701', 'sfr', 12, 1000], ['78701', 'multi', 6, 1000], ['78704', 'sfr', 6, 900]]));
    const c = withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_comps_median' });
    const [r] = await runChecks(c, CHECKS);
    expect(r).toMatchObject({ name: 'drift_comps_median', severity: 'error', status: 'fail', failingRows: 2 });
    expect(r!.sample).toEqual(expect.arrayContaining([
      expect.objectContaining({ zip: '78701', previous_median: 250, median: 1050, ratio: 4.2, limit_factor: 3 }),
      expect.objectContaining({ zip: '78703', previous_median: 100, ratio: 0.286, limit_factor: 3 }),
    ]));
    // the factor is the setting: at 5 both moves pass
    const [loose] = await runChecks(withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_comps_median', driftMedianFactor: '5' }), CHECKS);
    expect(loose).toMatchObject({ status: 'pass', failingRows: 0 });
    // read-only, and detached after the checks
    expect(sha(prev.file)).toBe(before);
    expect((await ctx.rows<{ n: number }>(`select count(*)::int as n from duckdb_databases() where database_name = 'previous'`))[0]!.n).toBe(0);
  });

  test('row counts: a table losing more than the share of its rows, more than doubling, or gone fails; int_ helpers and tables under 100 rows are left out', async () => {
    const prev = await previousBuild(`
      create table sales as select range as x from range(500);
      create table parcels as select range as x from range(150);
      create table zips as select range as x from range(300);
      create table int_helper as select range as x from range(1000);
      create table tiny as select range as x from range(10);
      create table gone as select range as x from range(200);`);
    ctx = await makeContext();
    await ctx.db.run(`
      create table sales as select range as x from range(200);  -- lost 300 of 500: 0.6
      create table parcels as select range as x from range(250); -- grew 100 to 250: 0.4
      create table zips as select range as x from range(700);   -- grew 400 to 700: 0.571
      create table int_helper as select range as x from range(10);
      create table tiny as select range as x from range(90);
      create table brand_new as select range as x from range(5000);`);
    const [r] = await runChecks(withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_row_counts' }), CHECKS);
    expect(r).toMatchObject({ status: 'fail', failingRows: 3 });
    expect(r!.sample).toEqual(expect.arrayContaining([
      { table_name: 'sales', previous_rows: '500', rows: '200', change_share: 0.6, limit_share: 0.5 },
      { table_name: 'zips', previous_rows: '300', rows: '700', change_share: 0.571, limit_share: 0.5 },
      { table_name: 'gone', previous_rows: '200', rows: null, change_share: 1, limit_share: 0.5 },
    ]));
    const [loose] = await runChecks(withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_row_counts', driftRowsShare: '0.6' }), CHECKS);
    expect(loose).toMatchObject({ status: 'fail', failingRows: 1, sample: [expect.objectContaining({ table_name: 'gone' })] });
  });

  test('sources: a source the build being replaced loaded and this one lacks fails, naming it, unless REII_DRIFT_SOURCES_GONE names it', async () => {
    const files = (rows: [string, number][]): string => `create schema if not exists meta;
      create table if not exists meta.source_files (source varchar, key varchar, file varchar, sha256 varchar, bytes bigint, rows bigint);
      delete from meta.source_files;
      ${rows.map(([s, n]) => `insert into meta.source_files values ('${s}', 'sales', '${s}/sales.csv', 'x', 1, ${n});`).join('\n')}`;
    const prev = await previousBuild(files([['king_county', 21613], ['nyc', 90000], ['nyc', 83206], ['sacramento', 985]]));
    ctx = await makeContext();
    // King County's folder gone (review 19: it passed every check, its markets unpublished); Sacramento's file emptied still loads
    await ctx.db.run(files([['nyc', 90000], ['nyc', 83206], ['sacramento', 0]]));
    const [r] = await runChecks(withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_sources' }), CHECKS);
    expect(r).toMatchObject({ name: 'drift_sources', severity: 'error', status: 'fail', failingRows: 1 });
    expect(r!.sample).toEqual([expect.objectContaining({ source: 'king_county', previous_files: '1', previous_rows: '21613' })]);
    const [allowed] = await runChecks(withSettings(ctx, { artifacts: prev.artifacts, stepFilter: 'drift_sources', driftSourcesGone: 'denver, king_county' }), CHECKS);
    expect(allowed).toMatchObject({ status: 'pass', failingRows: 0 });
    expect(() => loadSettings({ driftSourcesGone: 'King County' })).toThrow(/setting driftSourcesGone must list source ids .*got "King County"/);
  });

  test('skipped with the reason: nothing published, the build being replaced lacks the table, or its warehouse cannot be opened', async () => {
    ctx = await makeContext();
    await ctx.db.run(comps([['78701', 'sfr', 6, 250]]));
    const none = await runChecks(withSettings(ctx, { artifacts: tmp('reii-drift-none-'), stepFilter: 'drift_' }), CHECKS);
    expect(none.map((r) => [r.name, r.status, r.reason])).toEqual([
      ['drift_comps_median', 'skipped', expect.stringMatching(/^no build to compare against \(nothing published in /)],
      ['drift_row_counts', 'skipped', expect.stringMatching(/^no build to compare against/)],
      ['drift_sources', 'skipped', expect.stringMatching(/^no build to compare against/)]]);

    const noComps = await previousBuild('create table sales as select range as x from range(10);');
    const partial = await runChecks(withSettings(ctx, { artifacts: noComps.artifacts, stepFilter: 'drift_' }), CHECKS);
    expect(partial.map((r) => [r.name, r.status, r.reason ?? null])).toEqual([
      ['drift_comps_median', 'skipped', 'the build being replaced has no mart_comps'], ['drift_row_counts', 'pass', null],
      ['drift_sources', 'skipped', 'the build being replaced has no meta.source_files']]);

    const broken = await previousBuild('');
    fs.writeFileSync(broken.file, 'not a DuckDB file');
    const unreadable = await runChecks(withSettings(ctx, { artifacts: broken.artifacts, stepFilter: 'drift_' }), CHECKS);
    expect(unreadable.map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(unreadable[0]!.reason).toMatch(/^could not open the warehouse of the build being replaced \(20260101T000000000Z-aaaaaa\): /);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('report.html data checks section', () => {
  test('names the failed checks at the top, counts the warnings, and shows each failing or warning check\'s sample rows, escaped', async () => {
    const dir = tmp('reii-report-');
    const manifest = {
      format_version: 1, build_id: 'b1', as_of: '2026-11-21', built_at: '2026-11-21T06:00:00.000Z', status: 'checks_failed', only_stages: null,
      sources: [], stages: [{ name: 'marts', seconds: 1 }], rejects: { total: 0, by_source: [], by_file: [] }, shards: { total: 0, by_family: {}, bytes: 0 },
      tables: [], attribution: [], peak_rss_mb: 1,
      checks: [
        { name: 'geo_ok', description: 'all fine', severity: 'error', status: 'pass', failing_rows: 0, sample: [], seconds: 0.01 },
        { name: 'market_odd', description: 'medians <b>plausible</b>', severity: 'warn', status: 'warn', failing_rows: 1, sample: [{ zip: '19153', median: 2789.67 }], seconds: 0.02 },
        { name: 'market_sales', description: 'sales are sane', severity: 'error', status: 'fail', failing_rows: 12,
          sample: [{ sale_id: 'canonical:sales.csv:7', problem: 'sale_date after the build date', value: '2099-01-01' }, { sale_id: 'x<y', problem: 'dup', value: null }], seconds: 0.3 },
        { name: 'drift_row_counts', description: 'no table halves', severity: 'error', status: 'skipped', failing_rows: 0, sample: [], reason: 'no build to compare against', seconds: 0 },
      ],
    };
    const { writeReport } = await import('../../pipelines/report.ts');
    await writeReport(dir, manifest as never);
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<strong>not published: data checks failed (market_sales)</strong> · 1 check warning ·');
    expect(html).toContain('4 checks: 1 passed, 1 failed, 1 warnings, 1 skipped.');
    // summary rows, failed first, then warnings; a skipped check says why
    const rows = [...html.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>[^<]*<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => m.slice(1));
    expect(rows).toEqual([
      ['market_sales', 'error', 'fail', '12', 'sales are sane'],
      ['market_odd', 'warn', 'warn', '1', 'medians &lt;b&gt;plausible&lt;/b&gt;'],
      ['geo_ok', 'error', 'pass', '0', 'all fine'],
      ['drift_row_counts', 'error', 'skipped', '0', 'no table halves (skipped: no build to compare against)'],
    ]);
    expect(html).toContain('<h3 id="check-market_sales">market_sales: failed (the first 2 of 12 rows)</h3>');
    expect(html).toContain('<tr><th>sale_id</th><th>problem</th><th>value</th></tr><tr><td>canonical:sales.csv:7</td><td>sale_date after the build date</td><td>2099-01-01</td></tr><tr><td>x&lt;y</td><td>dup</td><td></td></tr>');
    expect(html).toContain('<h3 id="check-market_odd">market_odd: warning (1 row)</h3>');
    expect(html).toContain('<tr><td>19153</td><td>2789.67</td></tr>');
    expect(html).not.toContain('id="check-geo_ok"');
  });
});
