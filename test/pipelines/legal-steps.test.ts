// Legal domain: the regulations table, state_legal / local_legal, the legal marts and their shards.
// Part 1 runs the real step files over a few given regulation records in an in-memory DuckDB (expected numbers worked
// out by hand from the formulas in warehouse/docs/legal.md). Part 2 reads the shared real build and checks it against
// ../shared/reference/legal-facts.csv. Part 3 calls /v1/regulations/lookup on a real server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { artifactsDir, buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/server.ts';
import { run as loadRegulationsStep } from '../../pipelines/intermediate/20_legal_01_regulations.ts';
import { listSteps } from '../../pipelines/steps.ts';
import { publish } from '../../pipelines/publish.ts';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { REPO } from '../helpers/paths.ts';

// the nine categories of interface-v1.md (Regulation object), in the spec's order
const CATEGORIES = ['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning', 'disclosure', 'rent_control', 'tax_deed_lien'];

/** Every record of the authored dataset, read straight from its JSON files (not through the product's loader). */
function datasetRecords(): RegulationRecord[] {
  const out: RegulationRecord[] = [];
  for (const sub of ['states', 'local']) {
    const dir = path.join(REPO, 'warehouse/regulations', sub);
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
      out.push(...(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RegulationRecord[]));
    }
  }
  return out;
}
const CSV = path.resolve(REPO, '../shared/reference/legal-facts.csv');
const INTERMEDIATE = listSteps(path.join(REPO, 'pipelines/intermediate')).filter((f) => f.startsWith('20_legal_') && f.endsWith('.sql'));
const MARTS = listSteps(path.join(REPO, 'pipelines/marts')).filter((f) => f.startsWith('20_mart_legal_'));

// ---------- given records

type Sd = Record<string, unknown>;
function rec(st: string, category: string, subcategory: string, sd: Sd, o: Partial<RegulationRecord> = {}): RegulationRecord {
  return {
    id: `${st.toLowerCase()}-${category}-${subcategory}`.replaceAll('_', '-'),
    jurisdiction_level: 'state', state_code: st, county_fips: null, city: null,
    category: category as RegulationRecord['category'], subcategory,
    title: `${st} ${subcategory}`, summary: `${st} ${subcategory} rule.`,
    structured_data: { ...sd, uncertain_fields: [] }, source_citation: `${st} Code ${subcategory}`, source_url: null,
    effective_date: null, status: 'active', verified_at: null, last_reviewed_at: '2026-11-21', ...o,
  };
}
const overlay = (st: string, level: 'city' | 'county', slugPart: string, category: string, fips: string, city: string | null, sd: Sd): RegulationRecord =>
  rec(st, category, 'local_overlay', { annual_cap_pct: null, cap_formula: null, ...sd }, {
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
        ('1', 'Houston', 'houston', 'TX', '48201', 'Harris County', 2300000),
        ('2', 'Testville', 'testville', 'CA', '06998', 'Test County', 50000),
        ('3', 'Plainview', 'plainview', 'CA', '06997', 'Other County', 20000)
      ) t(city_id, city_name, city_slug, state_code, county_fips, county_name, population)`);
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
    expect(landlord.filter((r) => r['city'] !== null).map((r) => r['city']).sort()).toEqual(['Houston', 'Plainview', 'Rentburg', 'Testville']);
    for (const r of landlord) expect(schemaErrors('LandlordProfile', JSON.parse(r['body'] as string))).toEqual([]);
    for (const r of await shardRows(ctx, 'legal-tax-sale')) expect(schemaErrors('TaxSale', JSON.parse(r['body'] as string))).toEqual([]);
    const regs = await shardRows(ctx, 'regulations');
    const ca = JSON.parse(regs.find((r) => r['state'] === 'CA')!['body'] as string) as RegulationRecord[];
    expect(ca.map((r) => r.jurisdiction_level).slice(0, 3)).toEqual(['city', 'county', 'state']);
    expect(ca.some((r) => r.status !== 'active')).toBe(false);
    expect(ca[0]!.structured_data).toEqual({ rent_control: true, eviction_protections: true, annual_cap_pct: 5, cap_formula: 'CPI, at most 5%', uncertain_fields: [] });
    for (const r of ca) expect(schemaErrors('RegulationRecord', r)).toEqual([]);
  });

  test('the checks pass on these rows', async () => {
    for (const f of ['legal_overlays.sql', 'legal_scores.sql']) {
      const sql = fs.readFileSync(path.join(REPO, 'pipelines/marts/checks', f), 'utf8').trim().replace(/;\s*$/, '');
      expect(await ctx.rows(`select * from (${sql})`), f).toEqual([]);
    }
  });
});

// ---------- the shared real build

type CsvRow = Record<string, string>;
const facts = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as CsvRow[];
const numOrNull = (v: string | undefined): number | null => (v === undefined || v.trim() === '' || v.trim() === 'none' ? null : Number(v));

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...jsonFiles(abs));
    else if (e.name.endsWith('.json')) out.push(abs);
  }
  return out;
}

describe('legal data in the real build', () => {
  test('state_legal matches legal-facts.csv for the 50 states + DC', async () => {
    const rows = await warehouseRows<Record<string, unknown>>(`select state_code, foreclosure_type, lien_or_deed, interest_rate_pct, redemption_period_months,
        eviction_notice_days, landlord_friendliness_score from state_legal order by state_code`);
    expect(rows).toHaveLength(51);
    const byState = new Map(rows.map((r) => [r['state_code'], r]));
    expect(facts).toHaveLength(51);
    for (const f of facts) {
      const r = byState.get(f['state_code']);
      const deed = f['tax_sale_type'] === 'deed';
      expect({ state: f['state_code'], ...r }).toMatchObject({
        state: f['state_code'],
        foreclosure_type: f['foreclosure_type'],
        lien_or_deed: f['tax_sale_type'],
        interest_rate_pct: deed ? null : numOrNull(f['tax_lien_interest_rate_pct']),
        redemption_period_months: deed ? null : numOrNull(f['redemption_period_months']),
        eviction_notice_days: numOrNull(f['eviction_notice_nonpayment_days']),
      });
      expect(r!['landlord_friendliness_score']).toBeGreaterThanOrEqual(0);
      expect(r!['landlord_friendliness_score']).toBeLessThanOrEqual(100);
    }
  });

  test('market summaries state the real notice days and timeline of their state (TX Houston and one market per state)', async () => {
    const houston = readShard<{ plain_english_summary: string; state: string; city: string }>('legal/market-risk/TX/houston.json');
    const tx = facts.find((f) => f['state_code'] === 'TX')!;
    expect(houston.plain_english_summary).toContain(`Texas requires ${tx['eviction_notice_nonpayment_days']} days' notice`);
    expect(houston.plain_english_summary).toContain(`about ${tx['eviction_timeline_days_est']} days`);
    expect(houston.plain_english_summary).toContain('Houston has no local rent control; Texas preempts it');
    const markets = await warehouseRows<{ state_code: string; city_slug: string }>(
      `select state_code, arg_max(city_slug, population) as city_slug from mart_legal_market_risk group by state_code order by state_code`);
    expect(markets).toHaveLength(51);
    for (const m of markets) {
      const f = facts.find((x) => x['state_code'] === m.state_code)!;
      const s = readShard<{ plain_english_summary: string }>(`legal/market-risk/${m.state_code}/${m.city_slug}.json`).plain_english_summary;
      const days = Number(f['eviction_notice_nonpayment_days']);
      if (days === 0) expect(s, m.state_code).toContain('sets no statutory notice');
      else expect(s, m.state_code).toMatch(new RegExp(`requires ${days} (business |judicial )?days' notice`));
      if (f['eviction_timeline_days_est']) expect(s, m.state_code).toContain(`about ${f['eviction_timeline_days_est']} days`);
      if (f['uncertain_fields']) expect(s, m.state_code).toMatch(/unverified or conflicting/i);
    }
  });

  test('regulations/<STATE>.json lists every active record, overlays first (CA: San Francisco before the state records)', () => {
    const records = datasetRecords();
    const rank = { zip: 0, city: 1, county: 2, state: 3 } as const;
    for (const st of ['CA', 'NY', 'MD', 'TX']) {
      const body = readShard<RegulationRecord[]>(`regulations/${st}.json`);
      expect(body.map((r) => r.id).sort()).toEqual(records.filter((r) => r.state_code === st && r.status === 'active').map((r) => r.id).sort());
      const ranks = body.map((r) => rank[r.jurisdiction_level]);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
    const ca = readShard<RegulationRecord[]>('regulations/CA.json');
    const sf = ca.findIndex((r) => r.city === 'San Francisco');
    const firstState = ca.findIndex((r) => r.jurisdiction_level === 'state');
    expect(sf).toBeGreaterThanOrEqual(0);
    expect(sf).toBeLessThan(firstState);
  });

  test('every /v1/legal/ body validates against api/schemas.ts (all state-level bodies, overlay markets, the 3 largest markets per state)', async () => {
    const root = path.join(buildDir(), 'shards');
    // schemaErrors compiles per call, so markets are sampled: every overlay market and the 3 most populous per state
    const markets = await warehouseRows<{ state_code: string; city_slug: string }>(`
      select state_code, city_slug from mart_legal_market_risk
      qualify len(city_overlays) + len(county_overlays) > 0 or row_number() over (partition by state_code order by population desc nulls last, city_slug) <= 3
      order by state_code, city_slug`);
    expect(markets.length).toBeGreaterThan(51 * 3);
    const files: [string, string][] = [
      ...markets.map((m): [string, string] => [`legal/market-risk/${m.state_code}/${m.city_slug}.json`, 'MarketLegalRisk']),
      ...markets.map((m): [string, string] => [`legal/landlord/${m.state_code}/${m.city_slug}.json`, 'LandlordProfile']),
      ...jsonFiles(path.join(root, 'legal/landlord')).filter((f) => f.endsWith('_state.json')).map((f): [string, string] => [path.relative(root, f), 'LandlordProfile']),
      ...jsonFiles(path.join(root, 'legal/tax-sale')).map((f): [string, string] => [path.relative(root, f), 'TaxSale']),
    ];
    const bad: string[] = [];
    for (const [rel, schema] of files) {
      const body = readShard<Record<string, unknown>>(rel);
      const errs = schemaErrors(schema, body);
      if (errs.length || typeof body['disclaimer'] !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(String(body['last_reviewed_at']))) bad.push(`${rel}: ${errs.join('; ')}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    // one market file per legal market, one landlord file per market plus the 51 state profiles
    const [counts] = await warehouseRows<{ n: number }>(`select count(*)::int as n from mart_legal_market_risk`);
    expect(jsonFiles(path.join(root, 'legal/market-risk'))).toHaveLength(counts!.n);
    expect(jsonFiles(path.join(root, 'legal/landlord'))).toHaveLength(counts!.n + 51);
    expect(jsonFiles(path.join(root, 'legal/tax-sale'))).toHaveLength(51);
    expect(jsonFiles(path.join(root, 'legal/landlord')).filter((f) => f.endsWith('_state.json'))).toHaveLength(51);
    const fl = readShard<Record<string, unknown>>('legal/tax-sale/FL.json');
    expect(fl).toMatchObject({ state: 'FL', lien_or_deed: 'lien', interest_rate_pct: 18, redemption_period_months: 24 });
    const regs = jsonFiles(path.join(root, 'regulations'));
    expect(regs).toHaveLength(51);
    for (const f of regs) expect(schemaErrors('RegulationList', (JSON.parse(fs.readFileSync(f, 'utf8')) as unknown[]).slice(0, 100)), f).toEqual([]);
  });

  test('the reii query examples of warehouse/docs/legal.md run and return rows', async () => {
    const doc = fs.readFileSync(path.join(REPO, 'warehouse/docs/legal.md'), 'utf8');
    const examples = [...doc.matchAll(/^reii query "(.+)"$/gm)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const sql of examples) expect((await warehouseRows(sql)).length, sql).toBeGreaterThan(0);
    const lien = await warehouseRows<{ state_code: string; interest_rate_pct: number | null }>(examples[1]!);
    expect(lien.map((r) => r.state_code).sort()).toEqual(facts.filter((f) => f['tax_sale_type'] === 'lien').map((f) => f['state_code']).sort());
    const rates = lien.map((r) => r.interest_rate_pct ?? -1);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
  });

  test('investor actions follow the foreclosure type and the redemption period of legal-facts.csv', () => {
    const row = (st: string): CsvRow => facts.find((f) => f['state_code'] === st)!;
    const actions = (rel: string): string[] => readShard<{ investor_actions: string[] }>(rel).investor_actions;
    // New York forecloses through the courts; Texas by trustee sale
    expect(row('NY')['foreclosure_type']).toBe('judicial');
    expect(actions('legal/market-risk/NY/new-york.json')).toContainEqual(expect.stringMatching(/^Foreclosures in New York go through the courts: budget longer timelines/));
    expect(actions('legal/market-risk/NY/new-york.json')).not.toContainEqual(expect.stringMatching(/^Trustee sales/));
    expect(row('TX')['foreclosure_type']).toBe('non-judicial');
    expect(actions('legal/market-risk/TX/houston.json')).toContainEqual(expect.stringMatching(/^Trustee sales in Texas move without a court case/));
    // redemption: a lien state and a hybrid state with a recorded period, the months as in the CSV
    const lien = facts.find((f) => f['tax_sale_type'] === 'lien' && f['redemption_period_months'] && f['tax_lien_interest_rate_pct'] && !/redemption|rate/.test(f['uncertain_fields'] ?? ''))!;
    expect(actions(`legal/tax-sale/${lien['state_code']}.json`)).toContainEqual(expect.stringContaining(
      `Tax lien certificates in ${lien['state_name']} earn at most ${lien['tax_lien_interest_rate_pct']}%`));
    expect(actions(`legal/tax-sale/${lien['state_code']}.json`)).toContainEqual(expect.stringContaining(`the owner has ${lien['redemption_period_months']} months to redeem`));
    const hybrid = facts.find((f) => f['tax_sale_type'] === 'hybrid' && f['redemption_period_months'])!;
    expect(actions(`legal/tax-sale/${hybrid['state_code']}.json`)).toContainEqual(expect.stringMatching(
      new RegExp(`^Tax sale purchases in ${hybrid['state_name']} can be redeemed for ${hybrid['redemption_period_months']} months.*do not renovate or resell before the redemption window closes`)));
  });

  test('coverage regulations_by_category counts the dataset\'s active records', () => {
    const file = path.join(buildDir(), 'shards', 'coverage/summary.json');
    expect(fs.existsSync(file), `${file} is missing from the build`).toBe(true);
    const records = datasetRecords();
    expect(records.length).toBeGreaterThan(800);
    const expected = Object.fromEntries(CATEGORIES.map((c) => [c, records.filter((r) => r.status === 'active' && r.category === c).length]));
    const cov = readShard<{ regulations: number; regulations_by_category: Record<string, number> }>('coverage/summary.json');
    expect(cov.regulations_by_category).toEqual(expected);
    expect(cov.regulations).toBe(records.filter((r) => r.status === 'active').length);
  });
});

// ---------- GET /v1/regulations/lookup over a real server

describe('GET /v1/regulations/lookup', () => {
  let srv: TestServer;
  let key: string;
  beforeAll(async () => {
    srv = await startTestServer(artifactsDir());
    key = srv.key('pro');
  });
  afterAll(async () => { await srv.close(); });

  async function lookup(q: string): Promise<RegulationRecord[]> {
    const res = await srv.get(`/v1/regulations/lookup?${q}`, key);
    expect(res.status, q).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    const body = (await res.json()) as RegulationRecord[];
    expect(schemaErrors('RegulationList', body)).toEqual([]);
    return body;
  }

  test('city is a case-insensitive partial match', async () => {
    const lower = await lookup('state=CA&city=francisco');
    expect(lower.length).toBeGreaterThanOrEqual(2);
    expect(lower.every((r) => r.city === 'San Francisco')).toBe(true);
    expect(await lookup('state=CA&city=FRANCISCO')).toEqual(lower);
  });

  test('category, subcategory, jurisdiction_level and county_fips filter; most specific first', async () => {
    const rc = await lookup('state=CA&category=rent_control');
    expect(rc.every((r) => r.category === 'rent_control')).toBe(true);
    expect(rc[0]!.jurisdiction_level).toBe('city');
    expect(rc.at(-1)!.jurisdiction_level).toBe('state');
    const cap = await lookup('state=CA&category=rent_control&subcategory=statewide_cap');
    expect(cap.map((r) => r.id)).toEqual(['ca-rent-control-statewide-cap']);
    const county = await lookup('state=CA&jurisdiction_level=county');
    expect(county.map((r) => r.id)).toEqual(['ca-county-los-angeles-rent-stabilization']);
    const mont = await lookup('state=MD&county_fips=24031');
    expect(mont.length).toBeGreaterThanOrEqual(2);
    expect(mont.every((r) => r.county_fips === '24031')).toBe(true);
    expect(mont[0]!.jurisdiction_level).toBe('city');
    const state = await lookup('state=TX');
    expect(state.every((r) => r.status === 'active' && r.state_code === 'TX')).toBe(true);
    expect(new Set(state.map((r) => r.category))).toEqual(new Set(CATEGORIES));
  });

  test('an unknown subcategory, or one of another category, is a 422 that lists the allowed values', async () => {
    const bad = async (q: string): Promise<string> => {
      const res = await srv.get(`/v1/regulations/lookup?${q}`, key);
      expect(res.status, q).toBe(422);
      const body = (await res.json()) as { errors: { field: string; code: string; message: string }[] };
      expect(body.errors.map((e) => e.field), q).toEqual(['subcategory']);
      return body.errors[0]!.message;
    };
    const unknown = await bad('state=TX&subcategory=nonpayment_notic');
    expect(unknown).toMatch(/unknown subcategory "nonpayment_notic"/);
    expect(unknown).toMatch(/nonpayment_notice/); // the allowed list
    const mismatch = await bad('state=TX&category=foreclosure&subcategory=nonpayment_notice');
    expect(mismatch).toMatch(/"nonpayment_notice" is not a subcategory of foreclosure; allowed for foreclosure: .*process/);
    expect(mismatch).not.toMatch(/security_deposit/);
    expect((await bad('state=TX&category=eviction&subcategory=nope'))).toMatch(/allowed for eviction: .*nonpayment_notice/);
    // every documented subcategory of a category is accepted
    expect((await lookup('state=TX&category=eviction&subcategory=nonpayment_notice')).map((r) => r.id)).toEqual(['tx-eviction-nonpayment-notice']);
    expect((await lookup('state=TX&subcategory=nonpayment_notice')).map((r) => r.id)).toEqual(['tx-eviction-nonpayment-notice']);
  });

  test('a weak ETag from the shard and the query; If-None-Match answers 304', async () => {
    const a = await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key);
    expect(a.status).toBe(200);
    const etag = a.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(a.headers.get('last-modified')).toBeTruthy();
    const body = await a.json();
    // the same query normalised (parameter order, city case and spaces) has the same tag; another query another
    const same = await srv.get('/v1/regulations/lookup?category=rent_control&state=CA', key);
    expect(same.headers.get('etag')).toBe(etag);
    expect(await same.json()).toEqual(body);
    const cityA = await srv.get('/v1/regulations/lookup?state=CA&city=Francisco', key);
    const cityB = await srv.get('/v1/regulations/lookup?state=CA&city=%20francisco%20', key);
    expect(cityB.headers.get('etag')).toBe(cityA.headers.get('etag'));
    const other = await srv.get('/v1/regulations/lookup?state=CA&category=eviction', key);
    expect(other.headers.get('etag')).not.toBe(etag);
    const tx = await srv.get('/v1/regulations/lookup?state=TX&category=rent_control', key);
    expect(tx.headers.get('etag')).not.toBe(etag);
    // conditional requests
    const nm = await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key, { 'If-None-Match': etag });
    expect(nm.status).toBe(304);
    expect(nm.headers.get('etag')).toBe(etag);
    expect(nm.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(await nm.text()).toBe('');
    expect((await srv.get('/v1/regulations/lookup?state=CA&category=rent_control', key, { 'If-None-Match': `W/"x", ${etag}` })).status).toBe(304);
    const changed = await srv.get('/v1/regulations/lookup?state=CA&category=eviction', key, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(schemaErrors('RegulationList', await changed.json())).toEqual([]);
  });

  test('answers at most 100 records', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-regs-max-'));
    const dir = path.join(artifacts, 'builds', 'b1');
    fs.mkdirSync(path.join(dir, 'shards', 'regulations'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ format_version: FORMAT_VERSION, build_id: 'b1', as_of: '2026-11-21', built_at: '2026-11-21T06:00:00Z' }));
    const many = Array.from({ length: 150 }, (_, i) => rec('TX', 'zoning', 'enabling_authority', { zoning_is_local: true, enabling_statute_cited: true }, { id: `tx-zoning-${i}` }));
    fs.writeFileSync(path.join(dir, 'shards', 'regulations', 'TX.json'), JSON.stringify(many));
    publish(artifacts, dir);
    const other = await startTestServer(artifacts);
    try {
      const res = await other.get('/v1/regulations/lookup?state=TX', other.key('pro'));
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(100);
    } finally {
      await other.close();
      fs.rmSync(artifacts, { recursive: true, force: true });
    }
  });
});
