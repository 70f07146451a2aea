// Statute citations of legal-facts.csv reach the records' source_citation; secondary sources do not, except the one
// source of each eviction timeline estimate (no statute sets it), which the record cites as the reference gives it.
// The oracle reads the CSV cell by itself: the text before a cell's first "(" or ";" is its lead source, and where
// that lead is a statute (not a chart, site or remark) the record must cite it.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { loadRegulations } from '../../warehouse/regulations/validate.ts';
import { REFERENCE, repoPath } from '../helpers/paths.ts';

type Row = Record<string, string>;
const rows = parse(fs.readFileSync(path.join(REFERENCE, 'legal-facts.csv')), { columns: true, skip_empty_lines: true }) as Row[];
const { records } = loadRegulations(repoPath('warehouse/regulations'));
const byId = new Map(records.map((r) => [r.id, r]));
const cited = (st: string, suffix: string) => byId.get(`${st.toLowerCase()}-${suffix}`)?.source_citation ?? null;

/** Not a statute: charts, web sites, remarks about the law. */
const NOT_STATUTE = /nolo|NMHC|\.com|\.org|n\/a|allowed|statute|ETPA/i;
const lead = (cell: string) => cell.split(/[(;]/)[0]!.trim();

describe('rent control preemption citations', () => {
  test('every statute the reference leads a preemption cell with is the record\'s citation (La. R.S. 9:3258 among them)', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const row of rows) {
      const first = lead(row['rent_control_preemption_citation'] ?? '');
      if (first === '' || NOT_STATUTE.test(first)) continue;
      checked += 1;
      const c = cited(row['state_code']!, 'rent-control-state-preemption');
      if (c === null || !c.includes(first)) missing.push(`${row['state_code']}: ${first} -> ${c}`);
    }
    expect(checked).toBeGreaterThanOrEqual(27);
    expect(missing).toEqual([]);
    expect(cited('LA', 'rent-control-state-preemption')).toBe('La. R.S. 9:3258');
  });

  test('a statute the reference names only inside a remark is cited too, marked uncertain where it is unverified', () => {
    const ky = byId.get('ky-rent-control-state-preemption')!;
    expect(ky.source_citation).toBe('KRS 383.300');
    expect(ky.structured_data['uncertain_fields']).toContain('source_citation');
    expect(ky.summary).toMatch(/unverified/);
    expect(cited('NY', 'rent-control-state-preemption')).toMatch(/Emergency Tenant Protection Act.*Housing Stability and Tenant Protection Act of 2019/);
  });

  test('the states whose cells hold charts only keep a null citation (21 of 51)', () => {
    const nulls = rows.filter((r) => cited(r['state_code']!, 'rent-control-state-preemption') === null).map((r) => r['state_code']);
    expect(nulls.length).toBe(21);
    for (const st of nulls) expect(lead(rows.find((r) => r['state_code'] === st)!['rent_control_preemption_citation']!)).toMatch(NOT_STATUTE);
  });
});

describe('secondary sources stay out of source_citation, but for the timeline estimates they are the source of', () => {
  test('no other state record cites a chart or web site; each timeline estimate cites the reference\'s eviction_timeline_citation', () => {
    const state = records.filter((r) => r.jurisdiction_level === 'state');
    expect(state.filter((r) => r.subcategory !== 'timeline_estimate' && /nolo|NMHC|\.com\b|eviction-process|chart/i.test(r.source_citation ?? '')).map((r) => r.id)).toEqual([]);
    const timelines = state.filter((r) => r.subcategory === 'timeline_estimate');
    expect(timelines.length).toBe(51);
    // the raw CSV cell as the citation (null where blank), its leading host/path as the https URL
    const got = rows.map((row) => { const r = byId.get(`${row['state_code']!.toLowerCase()}-eviction-timeline-estimate`)!; return [row['state_code'], r.source_citation, r.source_url]; });
    const want = rows.map((row) => {
      const c = (row['eviction_timeline_citation'] ?? '').trim();
      return [row['state_code'], c || null, c ? `https://${c.split(' ')[0]}` : null];
    });
    expect(got).toEqual(want);
    expect(want.filter((w) => w[1] !== null).length).toBe(17);
    expect(byId.get('tx-eviction-timeline-estimate')).toMatchObject({
      source_citation: 'eviction-process.com/state-timelines.html (uncontested nonpayment; weeks converted to days)',
      source_url: 'https://eviction-process.com/state-timelines.html',
    });
  });

  test('verified_at stays null where the reference gives no verification date (it has no such column)', () => {
    const header = Object.keys(rows[0]!);
    expect(header.filter((h) => /date|verified_at|reviewed/i.test(h))).toEqual([]);
    expect(records.filter((r) => r.jurisdiction_level === 'state' && r.verified_at !== null)).toEqual([]);
  });
});
