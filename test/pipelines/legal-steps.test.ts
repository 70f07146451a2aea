// Legal domain, build steps over given records: the real step files (regulations, state_legal / local_legal, the legal
// marts and their shard SQL) run over a few given regulation records in an in-memory DuckDB. The expected numbers are
// worked out by hand from the formulas in warehouse/docs/legal.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { schemaErrors } from '../helpers/server.ts';
import { rec, type Sd } from '../helpers/legal-fixtures.ts';
import { run as loadRegulationsStep } from '../../pipelines/intermediate/20_legal_01_regulations.ts';
import { listSteps } from '../../pipelines/steps.ts';
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { REPO } from '../helpers/paths.ts';

const INTERMEDIATE = listSteps(path.join(REPO, 'pipelines/intermediate')).filter((f) => f.startsWith('20_legal_') && f.endsWith('.sql'));
const MARTS = listSteps(path.join(REPO, 'pipelines/marts')).filter((f) => f.startsWith('20_mart_legal_'));

const overlay = (st: string, level: 'city' | 'county', slugPart: string, category: string, fips: string, city: string | null, sd: Sd): RegulationRecord =>
  rec(st, category, 'local_overlay', { annual_cap_pct: null, cap_formula: null, unincorporated_only: false, ...sd }, {
    id: `${st.toLowerCase()}-${level}-${slugPart}-${category.replaceAll('_', '-')}`, jurisdiction_level: level, county_fips: fips, city,
    title: `${city ?? 'Test County'} ${category} ordinance`,
  });

/** A landlord-friendly state (TX-like), a tenant-friendly one (CA-like) and one with almost nothing recorded (NV). */
function givenDataset(): { states: Record<string, RegulationRecord[]>; local: Record<string, RegulationRecord[]> } {
  const TX = [
    rec('TX', 'foreclosure', 'process', { foreclosure_type: 'non-judicial' }),
    rec('TX', 'tax_deed_lien', 'tax_sale', { sale_type: 'hybrid', interest_rate_pct: 25, rate_basis: 'redemption premium', redemption_period_months: 6 }),
    rec('TX', 'adverse_possession', 'standard_period', { years: 10, taxes_required: null }),
    rec('TX', 'adverse_possession', 'color_of_title', { has_color_of_title_route: true, color_of_title_years: 3 }),
    rec('TX', 'eviction', 'nonpayment_notice', { notice_required: true, notice_days: 3, day_type: null }),
    rec('TX', 'eviction', 'timeline_estimate', { min_days: 21, max_days: 28 }),
    rec('TX', 'landlord_tenant', 'security_deposit', { has_statutory_cap: false, deposit_limit_months: null }),
    rec('TX', 'rent_control', 'state_preemption', { preempts_local: 'yes', statewide_cap: false }),
    rec('TX', 'rent_control', 'statewide_cap', { statewide_cap: false, cpi_plus_pct: null, max_annual_increase_pct: null, new_construction_exempt_years: null }),
  ];
  const CA = [
    rec('CA', 'foreclosure', 'process', { foreclosure_type: 'non-judicial' }),
    // a deed state with numbers filled in: state_legal must still null them (spec)
    rec('CA', 'tax_deed_lien', 'tax_sale', { sale_type: 'deed', interest_rate_pct: 10, rate_basis: 'x', redemption_period_months: 12 }),
    rec('CA', 'adverse_possession', 'standard_period', { years: 5, taxes_required: true }),
    rec('CA', 'eviction', 'nonpayment_notice', { notice_required: true, notice_days: 3, day_type: 'business' }),
    rec('CA', 'eviction', 'timeline_estimate', { min_days: 42, max_days: 84 }),
    rec('CA', 'eviction', 'just_cause', { just_cause_required: true, applies_after_months: 12 }),
    rec('CA', 'landlord_tenant', 'security_deposit', { has_statutory_cap: true, deposit_limit_months: 1 }),
    rec('CA', 'rent_control', 'state_preemption', { preempts_local: 'partial', statewide_cap: true }),
    rec('CA', 'rent_control', 'statewide_cap', { statewide_cap: true, cpi_plus_pct: 5, max_annual_increase_pct: 10, new_construction_exempt_years: 15 }),
    // a pending record is ignored everywhere
    rec('CA', 'eviction', 'nonpayment_notice', { notice_required: true, notice_days: 30, day_type: null }, { id: 'ca-eviction-nonpayment-notice-pending', status: 'pending' }),
  ];
  const NV = [
    rec('NV', 'foreclosure', 'process', { foreclosure_type: 'judicial' }),
    rec('NV', 'tax_deed_lien', 'tax_sale', { sale_type: 'lien', interest_rate_pct: 12, rate_basis: 'annual interest', redemption_period_months: null }),
  ];
  const local = {
    'ca-rentburg.json': [
      overlay('CA', 'city', 'rentburg', 'rent_control', '06999', 'Rentburg', { rent_control: true, eviction_protections: true, annual_cap_pct: 5, cap_formula: 'CPI, at most 5%' }),
    ],
    'ca-test-county.json': [
      overlay('CA', 'county', 'test', 'rent_control', '06998', null, { rent_control: true, eviction_protections: true }),
    ],
  };
  return { states: { TX, CA, NV }, local };
}

function writeDataset(ds: ReturnType<typeof givenDataset>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-regs-'));
  fs.mkdirSync(path.join(dir, 'states'));
  fs.mkdirSync(path.join(dir, 'local'));
  for (const [st, recs] of Object.entries(ds.states)) fs.writeFileSync(path.join(dir, 'states', `${st}.json`), JSON.stringify(recs));
  for (const [name, recs] of Object.entries(ds.local)) fs.writeFileSync(path.join(dir, 'local', name), JSON.stringify(recs));
  return dir;
}

async function shardRows(ctx: TestContext, family: string): Promise<Record<string, unknown>[]> {
  return ctx.rows(fs.readFileSync(path.join(REPO, 'pipelines/shards', `${family}.sql`), 'utf8'));
}

describe('legal steps over given records', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeContext();
    await loadRegulationsStep(ctx, writeDataset(givenDataset()));
    await ctx.db.run(`create table cities as select * from (values
        ('1', 'Houston', 'houston', 'TX', '48201', 'Harris County', 2300000, true),
        ('2', 'Testville', 'testville', 'CA', '06998', 'Test County', 50000, true),
        ('3', 'Plainview', 'plainview', 'CA', '06997', 'Other County', 20000, true),
        ('4', 'Rentburg North', 'rentburg-north', 'CA', '06999', 'Rent County', 10000, false)
      ) t(city_id, city_name, city_slug, state_code, county_fips, county_name, population, is_incorporated)`);
    // a part of a city (geo.md int_geo_city_parts, as a New York City borough): Rentburg North is part of Rentburg
    await ctx.db.run(`create table int_geo_city_parts as select * from (values
        ('CA', 'rentburg-north', 'Rentburg North', '06999', 'rentburg', 'Rentburg', '0699999')
      ) t(state_code, city_slug, city_name, county_fips, parent_city_slug, parent_city_name, parent_place_geoid)`);
    for (const f of INTERMEDIATE) await runSqlFile(ctx, `pipelines/intermediate/${f}`);
    for (const f of MARTS) await runSqlFile(ctx, `pipelines/marts/${f}`);
  });
  afterAll(() => ctx.close());

  test('an invalid dataset fails the step and names the problem', async () => {
    const ds = givenDataset();
    ds.states['TX']![0]!.structured_data['foreclosure_type'] = 'sometimes';
    const bad = await makeContext();
    try {
      await expect(loadRegulationsStep(bad, writeDataset(ds))).rejects.toThrow(/invalid[\s\S]*tx-foreclosure-process[\s\S]*foreclosure_type/);
    } finally {
      bad.close();
    }
  });

  test('regulations keeps every record and field, structured_data as JSON, uncertain_fields as a list', async () => {
    const rows = await ctx.rows<{ n: number; active: number; t: string; uf: string }>(`
      select count(*)::int as n, count(*) filter (where status = 'active')::int as active,
        any_value(typeof(structured_data)) as t, any_value(typeof(uncertain_fields)) as uf from regulations`);
    expect(rows[0]).toEqual({ n: 23, active: 22, t: 'JSON', uf: 'VARCHAR[]' });
    const cols = (await ctx.rows<{ name: string }>(`select column_name as name from information_schema.columns where table_name = 'regulations' order by ordinal_position`)).map((r) => r.name);
    expect(cols).toEqual(['id', 'jurisdiction_level', 'state_code', 'county_fips', 'city', 'category', 'subcategory', 'title', 'summary', 'structured_data',
      'source_citation', 'source_url', 'effective_date', 'status', 'verified_at', 'last_reviewed_at', 'uncertain_fields']);
    const county = await ctx.rows(`select county_fips, city from regulations where id = 'ca-county-test-rent-control'`);
    expect(county).toEqual([{ county_fips: '06998', city: null }]);
  });

  test('the friendliness composite: components, weights, neutral 50 for missing inputs, label bands, deed-state nulls', async () => {
    const rows = await ctx.rows(`select state_code, landlord_friendliness_score, landlord_friendliness_label, lien_or_deed, interest_rate_pct,
        redemption_period_months, notice_score, timeline_score, deposit_score, preemption_score, statewide_cap_score, just_cause_score
      from state_legal where state_code in ('TX', 'CA', 'NV') order by state_code`);
    expect(rows).toEqual([
      // 3 business days = 4.2 calendar: 100 - 1.2*100/27 = 95.6; midpoint 63: 100 - 42*100/99 = 57.6; 1 month: 40; partial 50; cap 0; just cause 0
      // .15*95.556 + .20*57.576 + .15*40 + .20*50 = 41.85 -> 41.8
      { state_code: 'CA', landlord_friendliness_score: 41.8, landlord_friendliness_label: 'Tenant-Friendly', lien_or_deed: 'deed', interest_rate_pct: null,
        redemption_period_months: null, notice_score: 95.6, timeline_score: 57.6, deposit_score: 40, preemption_score: 50, statewide_cap_score: 0, just_cause_score: 0 },
      // nothing recorded but foreclosure and tax sale: 50 everywhere, just cause 100 -> 57.5
      { state_code: 'NV', landlord_friendliness_score: 57.5, landlord_friendliness_label: 'Balanced', lien_or_deed: 'lien', interest_rate_pct: 12,
        redemption_period_months: null, notice_score: 50, timeline_score: 50, deposit_score: 50, preemption_score: 50, statewide_cap_score: 50, just_cause_score: 100 },
      // 3 days: 100; midpoint 24.5: 96.5; no cap 100; preempts 100; no statewide cap 100; no just cause 100 -> 99.3
      { state_code: 'TX', landlord_friendliness_score: 99.3, landlord_friendliness_label: 'Very Landlord-Friendly', lien_or_deed: 'hybrid', interest_rate_pct: 25,
        redemption_period_months: 6, notice_score: 100, timeline_score: 96.5, deposit_score: 100, preemption_score: 100, statewide_cap_score: 100, just_cause_score: 100 },
    ]);
    // the pending 30-day notice record is ignored
    expect((await ctx.rows(`select eviction_notice_days from state_legal where state_code = 'CA'`))[0]).toEqual({ eviction_notice_days: 3 });
  });

  test('local_legal has one row per overlay jurisdiction, city null for the county', async () => {
    const rows = await ctx.rows(`select state_code, county_fips, city, has_city_rent_control, has_city_eviction_protections from local_legal order by city nulls last`);
    expect(rows).toEqual([
      { state_code: 'CA', county_fips: '06999', city: 'Rentburg', has_city_rent_control: true, has_city_eviction_protections: true },
      { state_code: 'CA', county_fips: '06998', city: null, has_city_rent_control: true, has_city_eviction_protections: true },
    ]);
  });

  test('the legal risk score: components, weights and bands; overlay cities missing from cities are added', async () => {
    const rows = await ctx.rows(`select state_code, city_name, in_cities, legal_risk_score, legal_risk_label, rent_control_risk, eviction_protection_risk,
        redemption_risk, adverse_possession_risk from mart_legal_market_risk order by state_code, city_slug`);
    expect(rows).toEqual([
      // .35*58.2 + .10*42.4 + .05*100 = 29.6
      { state_code: 'CA', city_name: 'Plainview', in_cities: true, legal_risk_score: 29.6, legal_risk_label: 'Moderate', rent_control_risk: 0, eviction_protection_risk: 0, redemption_risk: 0, adverse_possession_risk: 100 },
      // + .15*100 + .10*100 = 54.6
      { state_code: 'CA', city_name: 'Rentburg', in_cities: false, legal_risk_score: 54.6, legal_risk_label: 'High', rent_control_risk: 100, eviction_protection_risk: 100, redemption_risk: 0, adverse_possession_risk: 100 },
      // a part of Rentburg has Rentburg's ordinances, so Rentburg's score
      { state_code: 'CA', city_name: 'Rentburg North', in_cities: true, legal_risk_score: 54.6, legal_risk_label: 'High', rent_control_risk: 100, eviction_protection_risk: 100, redemption_risk: 0, adverse_possession_risk: 100 },
      // county ordinance that may apply: half weight -> 29.6 + 7.5 + 5 = 42.1
      { state_code: 'CA', city_name: 'Testville', in_cities: true, legal_risk_score: 42.1, legal_risk_label: 'Elevated', rent_control_risk: 50, eviction_protection_risk: 50, redemption_risk: 0, adverse_possession_risk: 100 },
      // .35*0.7 + .10*3.5 + .10*(6/36*100) + .05*(21-10)*100/16 = 5.7
      { state_code: 'TX', city_name: 'Houston', in_cities: true, legal_risk_score: 5.7, legal_risk_label: 'Low', rent_control_risk: 0, eviction_protection_risk: 0, redemption_risk: 16.7, adverse_possession_risk: 68.8 },
    ]);
  });

  test('summaries and actions state the market\'s own facts', async () => {
    const [houston] = await ctx.rows<{ plain_english_summary: string; investor_actions: string[] }>(`select plain_english_summary, investor_actions from mart_legal_market_risk where city_slug = 'houston'`);
    expect(houston!.plain_english_summary).toContain("Texas requires 3 days' notice to pay or quit");
    expect(houston!.plain_english_summary).toContain('about 21-28 days');
    expect(houston!.plain_english_summary).toContain('Houston has no local rent control; Texas preempts it (TX Code state_preemption).');
    expect(houston!.plain_english_summary).toContain('the maximum return is 25% (redemption premium) and the owner can redeem for 6 months');
    expect(houston!.investor_actions.join(' ')).toContain('can ripen after 10 years (3 with color of title)');
    const [rentburg] = await ctx.rows<{ plain_english_summary: string; investor_actions: string[] }>(`select plain_english_summary, investor_actions from mart_legal_market_risk where city_slug = 'rentburg'`);
    expect(rentburg!.plain_english_summary).toContain('Rentburg has local rent control and eviction protections beyond state law');
    expect(rentburg!.plain_english_summary).toContain('at 5% plus CPI, never more than 10% a year');
    expect(rentburg!.investor_actions[0]).toContain('Rentburg caps rent increases on covered units');
    expect(rentburg!.investor_actions[0]).toContain('CPI, at most 5%');
    expect(rentburg!.investor_actions.join(' ')).toContain('Collect at most 1 month\'s rent');
    const [north] = await ctx.rows<{ plain_english_summary: string; city_overlays: { id: string }[] }>(`select plain_english_summary, city_overlays from mart_legal_market_risk where city_slug = 'rentburg-north'`);
    expect(north!.plain_english_summary).toContain('Rentburg North (part of Rentburg, whose ordinances apply) has local rent control and eviction protections beyond state law');
    const [own] = await ctx.rows<{ city_overlays: { id: string }[] }>(`select city_overlays from mart_legal_market_risk where city_slug = 'rentburg'`);
    expect(north!.city_overlays.map((o) => o.id)).toEqual(own!.city_overlays.map((o) => o.id));
    const [testville] = await ctx.rows<{ plain_english_summary: string }>(`select plain_english_summary from mart_legal_market_risk where city_slug = 'testville'`);
    expect(testville!.plain_english_summary).toContain('A county ordinance may apply in Testville');
    const [nv] = await ctx.rows<{ summary: string }>(`select summary from mart_legal_landlord where state_code = 'NV' and city_name is null`);
    expect(nv!.summary).toContain('No public estimate of the uncontested eviction timeline is recorded for Nevada.');
  });

  test('shard bodies validate and carry the disclaimer; the regulations array lists overlays first', async () => {
    for (const r of await shardRows(ctx, 'legal-market-risk')) {
      const body = JSON.parse(r['body'] as string) as Record<string, unknown>;
      expect(schemaErrors('MarketLegalRisk', body)).toEqual([]);
      expect(Object.keys(body)).toEqual(['state', 'city', 'legal_risk_score', 'legal_risk_label', 'plain_english_summary', 'investor_actions', 'last_reviewed_at', 'disclaimer']);
      expect(body['disclaimer']).toMatch(/^This is general information about public law, not legal advice\./);
    }
    const landlord = await shardRows(ctx, 'legal-landlord');
    // a state-level profile for each state with records (none is invented for the others) and one per market
    expect(landlord.filter((r) => r['city'] === null).map((r) => r['state'])).toEqual(['CA', 'NV', 'TX']);
    expect(landlord.filter((r) => r['city'] !== null).map((r) => r['city']).sort()).toEqual(['Houston', 'Plainview', 'Rentburg', 'Rentburg North', 'Testville']);
    for (const r of landlord) expect(schemaErrors('LandlordProfile', JSON.parse(r['body'] as string))).toEqual([]);
    for (const r of await shardRows(ctx, 'legal-tax-sale')) expect(schemaErrors('TaxSale', JSON.parse(r['body'] as string))).toEqual([]);
    const regs = await shardRows(ctx, 'regulations');
    const ca = JSON.parse(regs.find((r) => r['state'] === 'CA')!['body'] as string) as RegulationRecord[];
    expect(ca.map((r) => r.jurisdiction_level).slice(0, 3)).toEqual(['city', 'county', 'state']);
    expect(ca.some((r) => r.status !== 'active')).toBe(false);
    expect(ca[0]!.structured_data).toEqual({ rent_control: true, eviction_protections: true, annual_cap_pct: 5, cap_formula: 'CPI, at most 5%', unincorporated_only: false, uncertain_fields: [] });
    for (const r of ca) expect(schemaErrors('RegulationRecord', r)).toEqual([]);
  });

  test('the checks pass on these rows', async () => {
    for (const f of ['legal_overlays.sql', 'legal_scores.sql']) {
      const sql = fs.readFileSync(path.join(REPO, 'pipelines/marts/checks', f), 'utf8').trim().replace(/;\s*$/, '');
      expect(await ctx.rows(`select * from (${sql})`), f).toEqual([]);
    }
  });
});
