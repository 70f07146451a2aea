// The nineteenth research review's legal answers (C20, C21, E26, E27: live/research/place-words.ts topicEndCode,
// intent.ts's ranking cue, rankings.ts): a state code that is also an English word ending a legal question, states
// ranked with no "which states", the statewide rent cap's own statute cited, and the states tied at a list's cut.
// Over the shared real build on the suite's pinned clock; every figure and citation from
// ../shared/reference/legal-facts.csv.
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine, type ResearchBody } from '../../../live/research/endpoint.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { researchData } from '../../helpers/research.ts';
import { csvRows, stateName } from '../../helpers/research-questions.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const full = (query: string): Promise<ResearchBody> => engine.answer({ query, depth: 'quick' });
const ask = async (query: string): Promise<string> => (await full(query)).answer;
const NAME_A_STATE = /name a state/;
/** The states of legal-facts.csv with a number in `col`, highest first (ties by state code). */
const ranked = (col: string): { st: string; v: number }[] => csvRows.filter((r) => /^\d/.test(r[col] ?? ''))
  .map((r) => ({ st: r['state_code']!, v: Number(r[col]) })).sort((a, b) => b.v - a.v || a.st.localeCompare(b.st));

describe('C20: an upper-case state code that is also a word, ending a legal question after its topic, is the state', () => {
  it('"security deposit cap HI" ... "OR": each state\'s own cap (or none) from legal-facts.csv; "tax lien rate OK" Oklahoma\'s rate', async () => {
    for (const st of ['HI', 'ID', 'IN', 'ME', 'OH', 'OK', 'OR']) {
      const cap = csvRows.find((r) => r['state_code'] === st)!['security_deposit_limit_months']!;
      const r = await ask(`security deposit cap ${st}`);
      expect(r, st).toMatch(new RegExp(`^${stateName(st)} ${cap === 'none' ? 'sets no statutory cap' : `caps residential security deposits at ${cap} months?'`}`));
    }
    const rate = csvRows.find((r) => r['state_code'] === 'OK')!['tax_lien_interest_rate_pct']!;
    expect(await ask('tax lien rate OK')).toMatch(new RegExp(`^Oklahoma .*maximum statutory return is ${rate}%`));
  });

  it('the lower-case words "hi", "ok", "or", "in", "me" are no states there, nor "OK" ending a yes/no question', async () => {
    for (const q of ['security deposit cap hi', 'tax lien rate ok', 'security deposit cap or', 'eviction notice in', 'can the landlord evict me']) {
      const r = await ask(q);
      expect(r, q).toMatch(NAME_A_STATE);
      expect(r, q).not.toMatch(/Hawaii|Oklahoma|Oregon|Indiana|Maine/);
    }
    expect(await ask('is a 3 day notice OK?')).not.toMatch(/Oklahoma/);
  });
});

describe('C21: "highest ... states", "longest ... state" rank the states as "which states have the longest ..." does', () => {
  it('"highest tax lien interest rate states": the CSV\'s top rates (TX 25, IA 24, MD 24), each cited', async () => {
    const top = ranked('tax_lien_interest_rate_pct').slice(0, 3);
    expect(top.map((r) => `${r.st} ${r.v}`)).toEqual(['TX 25', 'IA 24', 'MD 24']);
    const r = await full('highest tax lien interest rate states');
    expect(r.answer).toMatch(/^By maximum tax lien return, the highest of the \d+ jurisdictions with a figure are: /);
    for (const x of top) expect(r.answer).toContain(`${stateName(x.st)} ${x.v}%`);
    expect(r.sources.length).toBeGreaterThanOrEqual(3);
  });

  it('"longest adverse possession period state": New Jersey and Louisiana at 30 years, and the states tied at the cut', async () => {
    const rows = ranked('adverse_possession_years');
    const r = await ask('longest adverse possession period state');
    expect(r).not.toMatch(NAME_A_STATE);
    for (const x of rows.filter((y) => y.v >= rows[2]!.v)) expect(r, x.st).toContain(stateName(x.st));
    expect(r).toContain('New Jersey 30 years');
  });
});

describe('E27: a top-N list says every state tied at its cut', () => {
  it('"states with the longest redemption period": Wyoming 48, then all seven states at 36 months named', async () => {
    const rows = ranked('redemption_period_months');
    const cut = rows[2]!.v;
    const tied = rows.filter((x) => x.v === cut);
    expect(cut).toBe(36);
    expect(tied.length).toBe(7);
    const r = await full('states with the longest redemption period');
    for (const x of tied) expect(r.answer, x.st).toContain(stateName(x.st));
    expect(r.answer).toContain('Wyoming 48 months; Alabama 36 months; Arizona 36 months; and 5 more at 36 months: Colorado, Louisiana, Montana, Nebraska, South Dakota');
    expect(r.sources.length).toBe(8);
  });
});

describe('E26: "which states have statewide rent control" cites each statewide cap\'s statute, not the preemption statutes', () => {
  it('CA, DC, OR, WA with their statewide_rent_control_citation statutes', async () => {
    const caps = csvRows.filter((r) => r['statewide_rent_control'] === 'yes');
    expect(caps.map((r) => r['state_code'])).toEqual(['CA', 'DC', 'OR', 'WA']);
    const r = await full('which states have statewide rent control');
    expect(r.answer).toContain('California, District of Columbia, Oregon, Washington');
    const cited = r.sources.map((s) => s.citation).join(' | ');
    for (const c of caps) {
      const statute = /HB \d+|\d+[\d.:-]*\d/.exec(c['statewide_rent_control_citation']!)![0];
      expect(cited, c['state_code']).toContain(statute);
    }
    expect(cited).not.toMatch(/Costa-Hawkins|91\.225|35\.21\.830|preemption/);
  });
});

describe('a redemption period asked with the tax sale is said once (one record)', () => {
  it('"redemption period for tax liens in <state>": the period once, with the rate, for every tax lien state of legal-facts.csv with both', async () => {
    // before: "Illinois is a tax lien state; ...; the owner can redeem for 24 months after the sale. In Illinois the owner
    // can redeem for 24 months after a tax sale (a tax lien state)"
    const states = csvRows.filter((r) => r['tax_sale_type'] === 'lien' && /^\d/.test(r['redemption_period_months'] ?? '') && /^\d/.test(r['tax_lien_interest_rate_pct'] ?? ''));
    expect(states.length).toBeGreaterThan(3);
    for (const r of states) {
      const st = r['state_code']!;
      const months = Number(r['redemption_period_months']);
      const a = await ask(`what is the redemption period for tax liens in ${stateName(st)}`);
      expect(a.match(/can redeem for [\d.]+ months?/g), `${st}: ${a}`).toEqual([`can redeem for ${months} month${months === 1 ? '' : 's'}`]);
      expect(a, st).toContain(`maximum statutory return is ${r['tax_lien_interest_rate_pct']}%`);
    }
    // asked alone it is still the redemption fact's own sentence
    const il = csvRows.find((r) => r['state_code'] === 'IL')!['redemption_period_months'];
    expect(await ask('redemption period after a tax sale in Illinois')).toMatch(new RegExp(`^In Illinois the owner can redeem for ${il} months after a tax sale`));
  });
});
