// "Which states are tax deed states?", "judicial foreclosure states", "list the states with rent control": a research
// question that names no place but a recorded kind is answered with every state of that kind, recomputed here from the
// raw reference table ../shared/reference/legal-facts.csv with csv-parse, independently of the records the engine reads.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { researchData } from '../../helpers/research.ts';
import { warehouseRows } from '../../helpers/build.ts';
import { REFERENCE } from '../../helpers/paths.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

type Row = Record<string, string>;
const raw = parse(fs.readFileSync(path.join(REFERENCE, 'legal-facts.csv')), { columns: true }) as Row[];
const byName = (a: string, b: string): number => a.localeCompare(b);
/** The state names whose raw row passes `ok`, sorted. */
const statesWhere = (ok: (r: Row) => boolean): string[] => raw.filter(ok).map((r) => r['state_name']!.replace(/^the /, '')).sort(byName);

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

/** The states a deep answer lists after "N jurisdictions have ...: ", with the kind in brackets when it shows one. */
async function listed(query: string): Promise<{ names: string[]; kinds: Map<string, string>; count: number; answer: string; sources: number }> {
  const b = await engine.answer({ query, depth: 'deep' });
  const m = /^(\d+) jurisdictions? ha(?:ve|s) .*?: ([^:\n]*?) \(rules last reviewed/m.exec(b.answer);
  const kinds = new Map<string, string>();
  const names = m ? m[2]!.split(/, (?=(?:the )?[A-Z])/).map((s) => { const k = / \(([^)]*)\)$/.exec(s); const n = s.replace(/ \([^)]*\)$/, '').trim(); if (k) kinds.set(n, k[1]!); return n; }) : [];
  return { names: [...names].sort(byName), kinds, count: m ? Number(m[1]) : NaN, answer: b.answer, sources: b.sources.length };
}

describe('research: which states are of a recorded kind', () => {
  it('tax sale type and foreclosure type: every state of the kind, none other, each cited', async () => {
    const cases: [string, (r: Row) => boolean][] = [
      ['What states are tax deed states?', (r) => r['tax_sale_type'] === 'deed'],
      ['Which states allow tax lien certificates?', (r) => r['tax_sale_type'] === 'lien'],
      ['which states are hybrid tax sale states', (r) => r['tax_sale_type'] === 'hybrid'],
      ['judicial foreclosure states', (r) => r['foreclosure_type'] === 'judicial'],
      ['Which states use non-judicial foreclosure?', (r) => r['foreclosure_type'] === 'non-judicial'],
    ];
    for (const [q, ok] of cases) {
      const want = statesWhere(ok);
      expect(want.length, q).toBeGreaterThan(2);
      const got = await listed(q);
      expect(got.names, `${q}: ${got.answer}`).toEqual(want);
      expect(got.count, q).toBe(want.length);
      expect(got.sources, q).toBeGreaterThan(0);
    }
  });

  it('rent control: statewide caps alone, or every state where rent control can apply, each with its kind', async () => {
    const statewide = await listed('which states have statewide rent control');
    expect(statewide.names).toEqual(statesWhere((r) => r['statewide_rent_control'] === 'yes'));
    const any = await listed('list the states with rent control');
    const want = statesWhere((r) => r['statewide_rent_control'] === 'yes' || r['rent_control_preemption'] === 'no' || r['rent_control_preemption'] === 'partial');
    expect(any.names, any.answer).toEqual(want);
    for (const r of raw) {
      const name = r['state_name']!.replace(/^the /, '');
      // a state that does not ban local rent control is "not preempted" (or "partly preempted"), with whether a local
      // ordinance is recorded (review 8 #14: "local" alone read as if the state had local rent control)
      if (want.includes(name)) expect(any.kinds.get(name), name).toMatch(r['statewide_rent_control'] === 'yes' ? /^statewide cap$/ : new RegExp(`^${r['rent_control_preemption'] === 'partial' ? 'partly' : 'not'} preempted, (local rent control|no local ordinance) recorded$`));
    }
  });

  it('both kinds named ("lien or deed states"): every state with a recorded tax sale type, each with its kind', async () => {
    const both = await listed('which states are lien or deed states');
    const want = statesWhere((r) => ['lien', 'deed', 'hybrid'].includes(r['tax_sale_type']!));
    expect(both.names, both.answer).toEqual(want);
    for (const r of raw) {
      const name = r['state_name']!.replace(/^the /, '');
      if (want.includes(name)) expect(both.kinds.get(name), name).toBe(r['tax_sale_type']);
    }
  });

  it('a place named is not a list', async () => {
    const placed = await engine.answer({ query: 'Is Florida a tax deed state?' });
    expect(placed.answer).toMatch(/Florida/);
    expect(placed.answer).not.toMatch(/^\d+ jurisdictions/);
  });

  it('"best states for landlords" / "for renters": the states by the landlord friendliness composite of the warehouse, each cited', async () => {
    const rows = await warehouseRows<{ state_code: string; state_name: string; score: number }>(
      'select state_code, state_name, landlord_friendliness_score::double as score from state_legal where landlord_friendliness_score is not null');
    expect(rows.length).toBeGreaterThan(40);
    const order = (dir: 1 | -1) => [...rows].sort((a, b) => dir * (a.score - b.score) || a.state_code.localeCompare(b.state_code)).slice(0, 5);
    for (const [q, dir] of [['best states for landlords', -1], ['which states are most landlord friendly', -1], ['best states for renters', 1], ['worst states for landlords', 1]] as const) {
      const b = await engine.answer({ query: q });
      const want = order(dir);
      const listed = [...b.answer.matchAll(/(?:: |; )(?:the )?([A-Z][A-Za-z ]+?) (\d+(?:\.\d+)?) \(/g)].map((m) => [m[1], Number(m[2])]);
      expect(listed, `${q}: ${b.answer}`).toEqual(want.map((r) => [r.state_name.replace(/^the /, ''), Math.round(r.score * 100) / 100]));
      expect(b.sources.map((x) => x.citation), q).toEqual(want.map((r) => expect.stringContaining(`state_legal landlord friendliness for ${r.state_code},`)));
    }
  });

  it('the highest tax lien returns say what each rate is (annual interest, a monthly rate, a one-time redemption premium)', async () => {
    const rows = await warehouseRows<{ state_code: string; rate: number; basis: string | null }>(`
      select state_code, json_extract(structured_data, '$.interest_rate_pct')::double as rate, json_extract_string(structured_data, '$.rate_basis') as basis
      from regulations where category = 'tax_deed_lien' and subcategory = 'tax_sale' and city is null and json_extract(structured_data, '$.interest_rate_pct') is not null`);
    const top = rows.sort((a, b) => b.rate - a.rate || a.state_code.localeCompare(b.state_code)).slice(0, 3);
    expect(top.length).toBe(3);
    const b = await engine.answer({ query: 'Which states have the highest tax lien interest rate?' });
    for (const r of top) {
      const name = researchData().stateName(r.state_code);
      expect(b.answer, r.state_code).toContain(`${name} ${r.rate}%${r.basis ? ` (${r.basis})` : ''}`);
    }
  });
});
