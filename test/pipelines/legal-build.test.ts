// Legal domain over the shared real build (REII_TEST_ARTIFACTS): state_legal, the market summaries and investor
// actions, the regulations and /v1/legal/ shard bodies and the coverage counts, checked against
// ../shared/reference/legal-facts.csv and the authored dataset's JSON files (warehouse/regulations/).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { buildDir, readShard, warehouseRows } from '../helpers/build.ts';
import { schemaErrors } from '../helpers/server.ts';
import { CATEGORIES } from '../helpers/legal-fixtures.ts';
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { REPO } from '../helpers/paths.ts';

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
