// Legal domain: a county ordinance whose scope is the county's unincorporated areas only (structured_data
// unincorporated_only, SCHEMA.md) never reaches an incorporated city, and still may apply to an unincorporated
// community (a CDP). The real step files run over given records in an in-memory DuckDB; the numbers are worked out
// by hand from warehouse/docs/legal.md (the same CA-like state as test/pipelines/legal-steps.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeContext, runSqlFile, type TestContext } from '../helpers/context.ts';
import { rec } from '../helpers/legal-fixtures.ts';
import { run as loadRegulationsStep } from '../../pipelines/intermediate/20_legal_01_regulations.ts';
import { listSteps } from '../../pipelines/steps.ts';
import { REPO } from '../helpers/paths.ts';

const INTERMEDIATE = listSteps(path.join(REPO, 'pipelines/intermediate')).filter((f) => f.startsWith('20_legal_') && f.endsWith('.sql'));
const MARTS = listSteps(path.join(REPO, 'pipelines/marts')).filter((f) => f.startsWith('20_mart_legal_'));

function writeDataset(): string {
  const CA = [
    rec('CA', 'foreclosure', 'process', { foreclosure_type: 'non-judicial' }),
    rec('CA', 'tax_deed_lien', 'tax_sale', { sale_type: 'deed', interest_rate_pct: null, rate_basis: null, redemption_period_months: null }),
    rec('CA', 'adverse_possession', 'standard_period', { years: 5, taxes_required: true }),
    rec('CA', 'eviction', 'nonpayment_notice', { notice_required: true, notice_days: 3, day_type: 'business' }),
    rec('CA', 'eviction', 'timeline_estimate', { min_days: 42, max_days: 84 }),
    rec('CA', 'eviction', 'just_cause', { just_cause_required: true, applies_after_months: 12 }),
    rec('CA', 'landlord_tenant', 'security_deposit', { has_statutory_cap: true, deposit_limit_months: 1 }),
    rec('CA', 'rent_control', 'state_preemption', { preempts_local: 'partial', statewide_cap: true }),
    rec('CA', 'rent_control', 'statewide_cap', { statewide_cap: true, cpi_plus_pct: 5, max_annual_increase_pct: 10, new_construction_exempt_years: 15 }),
  ];
  const county = (id: string, fips: string, unincorporatedOnly: boolean) => rec('CA', 'rent_control', 'local_overlay',
    { rent_control: true, eviction_protections: true, annual_cap_pct: null, cap_formula: null, unincorporated_only: unincorporatedOnly },
    { id, jurisdiction_level: 'county', county_fips: fips, city: null, title: `${id} ordinance` });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-regs-'));
  fs.mkdirSync(path.join(dir, 'states'));
  fs.mkdirSync(path.join(dir, 'local'));
  fs.writeFileSync(path.join(dir, 'states', 'CA.json'), JSON.stringify(CA));
  // Los Angeles County-like (unincorporated areas only) and Montgomery County-like (reach inside cities varies)
  fs.writeFileSync(path.join(dir, 'local', 'ca-unincorporated-county.json'), JSON.stringify([county('ca-county-unincorporated-rent', '06998', true)]));
  fs.writeFileSync(path.join(dir, 'local', 'ca-whole-county.json'), JSON.stringify([county('ca-county-whole-rent', '06997', false)]));
  return dir;
}

describe('a county ordinance of unincorporated areas only', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeContext();
    await loadRegulationsStep(ctx, writeDataset());
    await ctx.db.run(`create table cities as select * from (values
        ('1', 'Incville', 'incville', 'CA', '06998', 'Uninc County', 50000, true),
        ('2', 'Cdp Heights', 'cdp-heights', 'CA', '06998', 'Uninc County', 20000, false),
        ('3', 'Wholetown', 'wholetown', 'CA', '06997', 'Whole County', 30000, true)
      ) t(city_id, city_name, city_slug, state_code, county_fips, county_name, population, is_incorporated)`);
    await ctx.db.run(`create table int_geo_city_parts (state_code varchar, city_slug varchar, city_name varchar, county_fips varchar,
        parent_city_slug varchar, parent_city_name varchar, parent_place_geoid varchar)`);
    for (const f of INTERMEDIATE) await runSqlFile(ctx, `pipelines/intermediate/${f}`);
    for (const f of MARTS) await runSqlFile(ctx, `pipelines/marts/${f}`);
  });
  afterAll(() => ctx.close());

  test('an incorporated city gets none of it; an unincorporated community and a city of a whole-county ordinance get "may apply"', async () => {
    const rows = await ctx.rows(`select city_name, legal_risk_score, rent_control_risk, eviction_protection_risk, county_rent_control,
        list_transform(county_overlays, o -> o.id) as county_ids
      from mart_legal_market_risk order by city_slug`);
    expect(rows).toEqual([
      // the CA-like state alone: .35*58.2 + .10*42.4 + .05*100 = 29.6; a county ordinance that may apply adds 7.5 + 5 -> 42.1
      { city_name: 'Cdp Heights', legal_risk_score: 42.1, rent_control_risk: 50, eviction_protection_risk: 50, county_rent_control: true, county_ids: ['ca-county-unincorporated-rent'] },
      { city_name: 'Incville', legal_risk_score: 29.6, rent_control_risk: 0, eviction_protection_risk: 0, county_rent_control: false, county_ids: [] },
      { city_name: 'Wholetown', legal_risk_score: 42.1, rent_control_risk: 50, eviction_protection_risk: 50, county_rent_control: true, county_ids: ['ca-county-whole-rent'] },
    ]);
    const [inc] = await ctx.rows<{ plain_english_summary: string }>(`select plain_english_summary from mart_legal_market_risk where city_slug = 'incville'`);
    expect(inc!.plain_english_summary).not.toContain('may apply');
    const landlord = await ctx.rows(`select city_name, county_rent_control as county_rent_control_may_apply from mart_legal_landlord where city_name is not null order by city_name`);
    expect(landlord).toEqual([
      { city_name: 'Cdp Heights', county_rent_control_may_apply: true },
      { city_name: 'Incville', county_rent_control_may_apply: false },
      { city_name: 'Wholetown', county_rent_control_may_apply: true },
    ]);
  });
});
