// "Which states ... after 7 years?": a research question that names no place but a figure is answered with the states
// whose recorded figure is that number (exactly, at most or at least), recomputed here from the raw reference table
// ../shared/reference/legal-facts.csv with csv-parse, independently of the regulation records the engine reads.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine } from '../../../live/research/endpoint.ts';
import { parseThreshold } from '../../../live/research/intent.ts';
import { researchData } from '../../helpers/research.ts';
import { REFERENCE } from '../../helpers/paths.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

type Row = Record<string, string>;
const raw = parse(fs.readFileSync(path.join(REFERENCE, 'legal-facts.csv')), { columns: true }) as Row[];
/** The states (by name) whose raw column is a number passing `ok`, sorted. */
const statesWhere = (column: string, ok: (v: number) => boolean): string[] =>
  raw.filter((r) => r[column]!.trim() !== '' && ok(Number(r[column]))).map((r) => r['state_name']!).sort((a, b) => a.localeCompare(b));

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });

/** The state names the answer lists after "...: " (without their figures), and the count it says. */
async function listed(query: string): Promise<{ names: string[]; count: number | null; answer: string }> {
  const b = await engine.answer({ query, depth: 'deep' });
  const m = /jurisdictions with a figure (?:has|have) [^:]*: (.*?) \(rules last reviewed/.exec(b.answer);
  const names = m ? m[1]!.split(/, | and /).map((s) => s.replace(/ \([^)]*\)$/, '').trim()) : [];
  return { names: names.sort((a, b2) => a.localeCompare(b2)), count: m ? Number(/(\d+) of the \d+ jurisdictions/.exec(b.answer)?.[1]) : null, answer: b.answer };
}

describe('research: which states have a given figure', () => {
  it('exactly: adverse possession after 7 years, a redemption period of 2 years (24 months), an 18% lien return', async () => {
    const cases: [string, string, (v: number) => boolean][] = [
      ['Which states allow adverse possession after 7 years?', 'adverse_possession_years', (v) => v === 7],
      ['Which states have a tax sale redemption period of 2 years?', 'redemption_period_months', (v) => v === 24],
      ['Which states have a tax lien return of 18%?', 'tax_lien_interest_rate_pct', (v) => v === 18],
    ];
    for (const [q, column, ok] of cases) {
      const want = statesWhere(column, ok);
      expect(want.length, q).toBeGreaterThan(0);
      const got = await listed(q);
      expect(got.names, `${q}: ${got.answer}`).toEqual(want);
      expect(got.count).toBe(want.length);
    }
  });

  it('bounds: "10 years or less", "at least 3 months" name each state with its figure', async () => {
    const le = await listed('which states have an adverse possession period of 10 years or less');
    expect(le.names).toEqual(statesWhere('adverse_possession_years', (v) => v <= 10));
    const ge = await listed('Which states have a security deposit cap of at least 3 months');
    expect(ge.names).toEqual(statesWhere('security_deposit_limit_months', (v) => v >= 3));
  });

  it('no state with the figure: the nearest three; a unit the topic does not keep: said, not guessed', async () => {
    const none = await engine.answer({ query: 'Which states have adverse possession after 4 years?' });
    expect(statesWhere('adverse_possession_years', (v) => v === 4)).toEqual([]);
    expect(none.answer).toMatch(/^None of the \d+ jurisdictions/);
    const nearest = statesWhere('adverse_possession_years', (v) => v === 5);
    for (const n of nearest.slice(0, 3)) expect(none.answer).toContain(`${n} 5 years`);
    const days = await engine.answer({ query: 'which states have a tax sale redemption period of 45 days' });
    expect(days.confidence).toBe('low');
    expect(days.answer).toContain('recorded in months, not days');
    expect(days.sources).toEqual([]);
  });

  it('parseThreshold reads the number, its unit and its bound', () => {
    expect(parseThreshold('after 7 years')).toEqual({ value: 7, unit: 'years', op: 'eq' });
    expect(parseThreshold('within 30 days')).toEqual({ value: 30, unit: 'days', op: 'le' });
    expect(parseThreshold('at least 12 months')).toEqual({ value: 12, unit: 'months', op: 'ge' });
    expect(parseThreshold('18% or more')).toEqual({ value: 18, unit: 'pct', op: 'ge' });
    expect(parseThreshold('2.5 yrs or less')).toEqual({ value: 2.5, unit: 'years', op: 'le' });
    expect(parseThreshold('the longest eviction timeline')).toBeNull();
  });
});
