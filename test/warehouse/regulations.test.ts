import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import {
  CATEGORIES,
  STATE_CODES,
  STATE_FIPS,
  SUBCATEGORY_KEYS,
  UNCERTAINTY_PHRASE,
  type RegulationRecord,
} from '../../warehouse/regulations/schema.ts';
import { loadRegulations, validateRecord } from '../../warehouse/regulations/validate.ts';
import { REFERENCE, SHARED_DATA, repoPath } from '../helpers/paths.ts';

const DIR = repoPath('warehouse/regulations');
const CSV = path.join(REFERENCE, 'legal-facts.csv');
const CITIES = path.join(SHARED_DATA, 'simplemaps-uscities/uscities.csv.gz');

type Row = Record<string, string>;
const rows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
const { records, errors } = loadRegulations(DIR);
const byId = new Map(records.map((r) => [r.id, r]));

function rec(id: string): RegulationRecord {
  const r = byId.get(id);
  if (!r) throw new Error(`record ${id} not found`);
  return r;
}
const stateRec = (st: string, suffix: string) => rec(`${st.toLowerCase()}-${suffix}`);
const num = (v: string | undefined) => (v === undefined || v.trim() === '' || v.trim() === 'none' ? null : Number(v));
const col = (row: Row, name: string) => row[name] ?? '';

/** Reference column in uncertain_fields -> (record id suffix, field that must be marked uncertain). */
const UNCERTAIN_MAP: Record<string, [string, string]> = {
  foreclosure_type: ['foreclosure-process', 'foreclosure_type'],
  tax_sale_type: ['tax-deed-lien-tax-sale', 'sale_type'],
  tax_lien_interest_rate_pct: ['tax-deed-lien-tax-sale', 'interest_rate_pct'],
  redemption_period_months: ['tax-deed-lien-tax-sale', 'redemption_period_months'],
  tax_sale_note: ['tax-deed-lien-tax-sale', 'summary'],
  rent_control_preemption: ['rent-control-state-preemption', 'preempts_local'],
  rent_control_preemption_citation: ['rent-control-state-preemption', 'source_citation'],
  adverse_possession_years: ['adverse-possession-standard-period', 'years'],
  eviction_notice_nonpayment_days: ['eviction-nonpayment-notice', 'notice_days'],
  eviction_notice_note: ['eviction-nonpayment-notice', 'summary'],
  security_deposit_limit_months: ['landlord-tenant-security-deposit', 'deposit_limit_months'],
  security_deposit_note: ['landlord-tenant-security-deposit', 'summary'],
};

describe('regulation files', () => {
  test('the reference file has 51 rows', () => {
    expect(rows.map((r) => r.state_code).sort()).toEqual([...STATE_CODES].sort());
  });

  test('every file and record validates', () => {
    expect(errors).toEqual([]);
    expect(records.length).toBeGreaterThan(51 * 9);
  });

  test('one state file per state + DC, holding only that state', () => {
    const files = fs.readdirSync(path.join(DIR, 'states')).sort();
    expect(files).toEqual([...STATE_CODES].map((s) => `${s}.json`).sort());
    for (const f of files) {
      const list = JSON.parse(fs.readFileSync(path.join(DIR, 'states', f), 'utf8')) as RegulationRecord[];
      expect(new Set(list.map((r) => r.state_code))).toEqual(new Set([f.slice(0, 2)]));
    }
  });

  test('every state and DC has records in all nine categories', () => {
    for (const st of STATE_CODES) {
      const cats = new Set(records.filter((r) => r.state_code === st && r.jurisdiction_level === 'state').map((r) => r.category));
      expect([...cats].sort(), st).toEqual([...CATEGORIES].sort());
    }
  });

  test('ids are unique and every record carries the review date', () => {
    expect(byId.size).toBe(records.length);
    for (const r of records) expect(r.last_reviewed_at, r.id).toBe('2026-11-21');
  });

  test('only the unconfirmed Virginia 14-day bill is pending; everything else is active', () => {
    expect(records.filter((r) => r.status !== 'active').map((r) => r.id)).toEqual(['va-eviction-nonpayment-notice-14-day-proposal']);
  });

  test('verified_at is set only where ordinance text was read (San Francisco 37.3)', () => {
    expect(records.filter((r) => r.verified_at !== null).map((r) => r.id)).toEqual(['ca-city-san-francisco-rent-stabilization']);
  });
});

describe('values match legal-facts.csv for all 51 jurisdictions', () => {
  test.each(rows.map((r) => [r.state_code!, r] as const))('%s', (st, row) => {
    expect(stateRec(st, 'foreclosure-process').structured_data.foreclosure_type).toBe(col(row, 'foreclosure_type'));

    const tax = stateRec(st, 'tax-deed-lien-tax-sale').structured_data;
    expect(tax.sale_type).toBe(col(row, 'tax_sale_type'));
    expect(tax.interest_rate_pct).toBe(num(row.tax_lien_interest_rate_pct));
    expect(tax.redemption_period_months).toBe(num(row.redemption_period_months));
    if (col(row, 'tax_sale_type') === 'deed') expect(tax.rate_basis).toBeNull();

    const pre = stateRec(st, 'rent-control-state-preemption').structured_data;
    expect(pre.preempts_local).toBe(col(row, 'rent_control_preemption'));
    expect(pre.statewide_cap).toBe(col(row, 'statewide_rent_control') === 'yes');
    expect(stateRec(st, 'rent-control-statewide-cap').structured_data.statewide_cap).toBe(col(row, 'statewide_rent_control') === 'yes');

    expect(stateRec(st, 'adverse-possession-standard-period').structured_data.years).toBe(num(row.adverse_possession_years));
    const cot = stateRec(st, 'adverse-possession-color-of-title').structured_data;
    expect(cot.color_of_title_years).toBe(num(row.adverse_possession_color_of_title_years));
    expect(cot.has_color_of_title_route).toBe(cot.color_of_title_years !== null);

    const notice = stateRec(st, 'eviction-nonpayment-notice').structured_data;
    expect(notice.notice_days).toBe(num(row.eviction_notice_nonpayment_days));
    expect(notice.notice_required).toBe(num(row.eviction_notice_nonpayment_days)! > 0);

    const deposit = stateRec(st, 'landlord-tenant-security-deposit').structured_data;
    expect(deposit.deposit_limit_months).toBe(num(row.security_deposit_limit_months));
    expect(deposit.has_statutory_cap).toBe(col(row, 'security_deposit_limit_months') !== 'none');

    const est = /^(\d+)-(\d+)$/.exec(col(row, 'eviction_timeline_days_est'));
    const timeline = stateRec(st, 'eviction-timeline-estimate').structured_data;
    expect([timeline.min_days, timeline.max_days]).toEqual(est ? [Number(est[1]), Number(est[2])] : [null, null]);
  });

  test('day types flagged in the reference notes are carried over', () => {
    expect(stateRec('NV', 'eviction-nonpayment-notice').structured_data.day_type).toBe('judicial');
    for (const st of ['AL', 'HI', 'UT', 'GA', 'CA', 'FL']) expect(stateRec(st, 'eviction-nonpayment-notice').structured_data.day_type, st).toBe('business');
  });
});

describe('uncertainty stays visible', () => {
  test('every field in a state\u2019s uncertain_fields is marked uncertain in the matching record', () => {
    let checked = 0;
    for (const row of rows) {
      const listed = col(row, 'uncertain_fields')
        .split(';')
        .map((s) => s.replace(/\(.*\)/, '').trim())
        .filter(Boolean);
      for (const column of listed) {
        const target = UNCERTAIN_MAP[column];
        expect(target, `no mapping for reference column ${column}`).toBeDefined();
        const r = stateRec(row.state_code!, target![0]);
        expect(r.structured_data.uncertain_fields, `${r.id} should mark ${target![1]}`).toContain(target![1]);
        expect(r.summary, r.id).toMatch(UNCERTAINTY_PHRASE);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  test('records with uncertain fields say so in the summary', () => {
    for (const r of records) {
      if (r.structured_data.uncertain_fields.length > 0) expect(r.summary, r.id).toMatch(UNCERTAINTY_PHRASE);
    }
  });

  test('categories the reference does not cover are marked unverified where no statute was read', () => {
    for (const st of STATE_CODES) {
      const zoning = stateRec(st, 'zoning-enabling-authority');
      expect(zoning.structured_data.uncertain_fields).toContain('source_citation');
      const seller = stateRec(st, 'disclosure-seller-disclosure');
      expect(seller.structured_data.uncertain_fields.length, seller.id).toBeGreaterThan(0);
    }
  });
});

describe('summaries state the real numbers', () => {
  test.each(rows.map((r) => [r.state_code!, r] as const))('%s', (st, row) => {
    const days = num(row.eviction_notice_nonpayment_days)!;
    const notice = stateRec(st, 'eviction-nonpayment-notice').summary;
    if (days > 0) expect(notice).toContain(`at least ${days}`);
    else expect(notice).toMatch(/no statutory notice/i);

    const deposit = num(row.security_deposit_limit_months);
    const depositSummary = stateRec(st, 'landlord-tenant-security-deposit').summary;
    if (deposit !== null) expect(depositSummary).toContain(`${deposit} month`);
    else expect(depositSummary).toMatch(/no statutory limit/);

    const tax = stateRec(st, 'tax-deed-lien-tax-sale').summary;
    const rate = num(row.tax_lien_interest_rate_pct);
    const months = num(row.redemption_period_months);
    if (rate !== null) expect(tax).toContain(`${rate}%`);
    if (months !== null) expect(tax).toContain(`${months} month`);

    expect(stateRec(st, 'adverse-possession-standard-period').summary).toContain(`${num(row.adverse_possession_years)} year`);
    const cot = num(row.adverse_possession_color_of_title_years);
    if (cot !== null) expect(stateRec(st, 'adverse-possession-color-of-title').summary).toContain(`${cot} year`);
  });

  test('statewide caps give the formula numbers', () => {
    expect(stateRec('CA', 'rent-control-statewide-cap').summary).toMatch(/5% plus CPI.*10%/);
    expect(stateRec('OR', 'rent-control-statewide-cap').summary).toMatch(/7% plus CPI.*10%/);
    expect(stateRec('WA', 'rent-control-statewide-cap').summary).toMatch(/7% plus CPI or 10%/);
  });

  test('summaries are our own wording, not the reference notes', () => {
    const notes = rows.flatMap((r) => ['foreclosure_note', 'tax_sale_note', 'adverse_possession_note', 'eviction_notice_note', 'security_deposit_note'].map((c) => col(r, c)));
    for (const note of notes.filter((n) => n.length > 40)) {
      for (const r of records) expect(r.summary.includes(note), `${r.id} copies "${note}"`).toBe(false);
    }
  });
});

describe('city and county overlays', () => {
  const overlays = records.filter((r) => r.jurisdiction_level !== 'state');
  const find = (st: string, city: string | null, fips: string) =>
    overlays.filter((r) => r.state_code === st && r.city === city && r.county_fips === fips);

  test.each([
    ['NY', 'New York', '36081', true],
    ['CA', 'San Francisco', '06075', true],
    ['CA', 'Los Angeles', '06037', true],
    ['CA', 'Oakland', '06001', true],
    ['CA', 'Berkeley', '06001', true],
    ['CA', 'Santa Monica', '06037', true],
    ['CA', 'West Hollywood', '06037', true],
    ['CA', 'San Jose', '06085', true],
    ['CA', 'Mountain View', '06085', true],
    ['DC', 'Washington', '11001', true],
    ['IL', 'Chicago', '17031', false],
    ['MN', 'St. Paul', '27123', true],
    ['ME', 'Portland', '23005', true],
    ['MD', 'Takoma Park', '24031', true],
    ['NJ', 'Jersey City', '34017', true],
    ['NJ', 'Newark', '34013', true],
    ['WA', 'Seattle', '53033', false],
  ] as const)('%s %s (county %s)', (st, city, fips, rentControl) => {
    const found = find(st, city, fips);
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) {
      expect(r.jurisdiction_level).toBe('city');
      expect(r.subcategory).toBe('local_overlay');
      expect(r.id.startsWith(`${st.toLowerCase()}-city-`)).toBe(true);
      expect(r.structured_data.eviction_protections).toBe(true);
    }
    expect(found.some((r) => r.structured_data.rent_control === true)).toBe(rentControl);
  });

  test('Montgomery County, MD is a county record with the county cap', () => {
    const r = rec('md-county-montgomery-rent-stabilization');
    expect(r.jurisdiction_level).toBe('county');
    expect(r.county_fips).toBe('24031');
    expect(r.city).toBeNull();
    expect(r.structured_data.annual_cap_pct).toBe(6);
    expect(r.summary).toMatch(/CPI-U plus 3% or 6%/);
  });

  test('caps read from ordinances are stated in the summaries', () => {
    expect(rec('ca-city-san-francisco-rent-stabilization').summary).toMatch(/60% of the CPI.*7%/);
    expect(rec('mn-city-st-paul-rent-stabilization').structured_data.annual_cap_pct).toBe(3);
    expect(rec('ca-city-mountain-view-csfra').summary).toMatch(/2%.*5%/);
  });

  test('city names and county FIPS agree with the simplemaps city list', () => {
    expect(fs.existsSync(CITIES), `${CITIES} is missing: the city names cannot be checked`).toBe(true);
    const cities = parse(zlib.gunzipSync(fs.readFileSync(CITIES)), { columns: true, bom: true }) as Row[];
    const index = new Map(cities.map((c) => [`${c.state_id}|${c.city}`, c.county_fips]));
    for (const r of overlays.filter((o) => o.jurisdiction_level === 'city')) {
      expect(index.get(`${r.state_code}|${r.city}`), `${r.id}: ${r.city}, ${r.state_code}`).toBe(r.county_fips);
    }
  });

  test('STATE_FIPS is the state part of every county FIPS in the Census gazetteer, for every state and DC', () => {
    const file = path.join(SHARED_DATA, 'census-gazetteer-2025', '2025_Gaz_counties_national.txt.gz');
    const rows = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, delimiter: '|', bom: true }) as { USPS: string; GEOID: string }[];
    const seen = new Map<string, Set<string>>();
    for (const r of rows) (seen.get(r.USPS) ?? seen.set(r.USPS, new Set()).get(r.USPS)!).add(r.GEOID.slice(0, 2));
    expect(rows.length).toBeGreaterThan(3000);
    for (const code of STATE_CODES) expect([...(seen.get(code) ?? [])], code).toEqual([STATE_FIPS[code]]);
  });
});

describe('validator', () => {
  const good = (): Record<string, unknown> => structuredClone(rec('ca-city-san-francisco-rent-stabilization')) as unknown as Record<string, unknown>;

  test('accepts a valid record', () => {
    expect(validateRecord(good(), 'local/x.json', 0)).toEqual([]);
  });

  test('rejects a broken record with specific messages', () => {
    const bad = good();
    bad.county_fips = '6075';
    bad.status = 'live';
    bad.effective_date = '2024-13-01';
    bad.category = 'zoning';
    bad.extra = true;
    const msgs = validateRecord(bad, 'local/ca-san-francisco.json', 3);
    const prefix = 'local/ca-san-francisco.json [3] (ca-city-san-francisco-rent-stabilization):';
    expect(msgs.every((m) => m.startsWith(prefix))).toBe(true);
    expect(msgs).toContain(`${prefix} county_fips: must be a 5-digit county FIPS on city records, got "6075"`);
    expect(msgs).toContain(`${prefix} status: must be one of active, pending, expired, got "live"`);
    expect(msgs).toContain(`${prefix} effective_date: must be an ISO date (YYYY-MM-DD) or null, got "2024-13-01"`);
    expect(msgs).toContain(`${prefix} extra: not a regulation record field`);
    expect(msgs.some((m) => m.includes('subcategory: "zoning/local_overlay" has no documented key set'))).toBe(true);
  });

  test('checks structured_data keys and types against the subcategory key set', () => {
    const bad = good();
    const sd = bad.structured_data as Record<string, unknown>;
    delete sd.annual_cap_pct;
    sd.rent_control = 'yes';
    sd.cap_percent = 7;
    sd.uncertain_fields = ['nonsense'];
    const msgs = validateRecord(bad, 'f.json', 0).join('\n');
    expect(msgs).toContain('structured_data.annual_cap_pct: missing (expected number|null)');
    expect(msgs).toContain('structured_data.rent_control: expected boolean, got "yes"');
    expect(msgs).toContain('structured_data.cap_percent: not in the key set for rent_control/local_overlay');
    expect(msgs).toContain('"nonsense" is neither a key of this subcategory');
    expect(msgs).toContain('summary: record has uncertain_fields, so the summary must say "unverified" or "sources conflict"');
  });

  test('checks state codes, levels and ids', () => {
    const bad = good();
    bad.state_code = 'ZZ';
    bad.jurisdiction_level = 'state';
    const msgs = validateRecord(bad, 'f.json', 1).join('\n');
    expect(msgs).toContain('state_code: must be one of the 51 codes');
    expect(msgs).toContain('county_fips: must be null on state records');
    expect(msgs).toContain('city: must be null on state records');
    expect(validateRecord('nope', 'f.json', 2)).toEqual(['f.json [2] (?): record: must be a JSON object']);
  });

  test('loadRegulations reports duplicate ids, misplaced records and bad files', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'regs-'));
    try {
      fs.mkdirSync(path.join(tmp, 'states'));
      fs.mkdirSync(path.join(tmp, 'local'));
      const ca = rec('ca-foreclosure-process');
      fs.writeFileSync(path.join(tmp, 'states', 'CA.json'), JSON.stringify([ca, ca]));
      fs.writeFileSync(path.join(tmp, 'states', 'NV.json'), JSON.stringify([ca]));
      fs.writeFileSync(path.join(tmp, 'local', 'ca-x.json'), '{not json');
      const { records: got, errors: errs } = loadRegulations(tmp);
      expect(got).toHaveLength(1);
      expect(errs).toContain('states/CA.json [1] (ca-foreclosure-process): id: duplicate (first seen in states/CA.json)');
      expect(errs.some((e) => e.startsWith('states/NV.json [0] (ca-foreclosure-process): state_code: CA does not match the file (NV)'))).toBe(true);
      expect(errs.some((e) => e.includes('ca-x.json: not valid JSON'))).toBe(true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('loadRegulations refuses overlay records of one city whose flags disagree (the real NYC pair, one flag flipped)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'regs-'));
    try {
      fs.mkdirSync(path.join(tmp, 'states'));
      fs.mkdirSync(path.join(tmp, 'local'));
      const nyc = JSON.parse(fs.readFileSync(path.join(DIR, 'local', 'ny-new-york.json'), 'utf8')) as { id: string; structured_data: Record<string, unknown> }[];
      expect(loadRegulations(tmp).errors).toEqual([]);
      fs.writeFileSync(path.join(tmp, 'local', 'ny-new-york.json'), JSON.stringify(nyc));
      expect(loadRegulations(tmp).errors).toEqual([]);
      nyc[1]!.structured_data['rent_control'] = !nyc[0]!.structured_data['rent_control'];
      fs.writeFileSync(path.join(tmp, 'local', 'ny-new-york.json'), JSON.stringify(nyc));
      expect(loadRegulations(tmp).errors).toEqual([
        `${nyc[1]!.id}: structured_data.rent_control: ${String(nyc[1]!.structured_data['rent_control'])} differs from ${nyc[0]!.id} (${String(nyc[0]!.structured_data['rent_control'])}); every overlay record of a jurisdiction carries the same flags`,
      ]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('SCHEMA.md', () => {
  const doc = fs.readFileSync(path.join(DIR, 'SCHEMA.md'), 'utf8');
  test('documents every subcategory and every key', () => {
    for (const [sub, keys] of Object.entries(SUBCATEGORY_KEYS)) {
      expect(doc, sub).toContain(`\`${sub}\``);
      for (const k of Object.keys(keys)) expect(doc, `${sub}.${k}`).toContain(`\`${k}\``);
    }
  });
});
