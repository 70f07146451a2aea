// Rankings across states (POST /v1/research/query, "which states have the longest ..." with no place named): the
// states' records of a legal topic ordered by one figure, or the states where a rule is absent ("no cap").
import type { ResearchData, RegulationDoc } from './data.ts';
import type { Intent } from './intent.ts';
import { fmt, num, type Confidence, type Depth, type Fact } from './facts.ts';
import { regFact, stateRecord } from './records.ts';

const RANKABLE: Partial<Record<Intent, { cat: string; sub: string; key: (d: RegulationDoc) => number | null; label: string; unit: (n: number) => string }>> = {
  eviction_notice: { cat: 'eviction', sub: 'nonpayment_notice', key: (d) => num(d.data['notice_days']), label: 'nonpayment notice', unit: (n) => `${fmt(n)} days` },
  eviction_timeline: { cat: 'eviction', sub: 'timeline_estimate', key: (d) => { const a = num(d.data['min_days']), b = num(d.data['max_days']); return a === null && b === null ? null : ((a ?? b)! + (b ?? a)!) / 2; }, label: 'estimated uncontested eviction time (midpoint)', unit: (n) => `about ${fmt(n)} days` },
  security_deposit: { cat: 'landlord_tenant', sub: 'security_deposit', key: (d) => num(d.data['deposit_limit_months']), label: 'security deposit cap', unit: (n) => `${fmt(n)} months' rent` },
  adverse_possession: { cat: 'adverse_possession', sub: 'standard_period', key: (d) => num(d.data['years']), label: 'adverse possession period', unit: (n) => `${fmt(n)} years` },
  redemption: { cat: 'tax_deed_lien', sub: 'tax_sale', key: (d) => num(d.data['redemption_period_months']), label: 'tax sale redemption period', unit: (n) => `${fmt(n)} months` },
  tax_sale: { cat: 'tax_deed_lien', sub: 'tax_sale', key: (d) => num(d.data['interest_rate_pct']), label: 'maximum tax lien return', unit: (n) => `${fmt(n)}%` },
};

const NONE_RULES: Partial<Record<Intent, { cat: string; sub: string; is: (d: RegulationDoc) => boolean; label: string }>> = {
  security_deposit: { cat: 'landlord_tenant', sub: 'security_deposit', is: (d) => d.data['has_statutory_cap'] === false, label: 'no statutory cap on security deposits' },
  eviction_notice: { cat: 'eviction', sub: 'nonpayment_notice', is: (d) => d.data['notice_required'] === false, label: 'no statutory notice before a nonpayment eviction filing' },
  rent_control: { cat: 'rent_control', sub: 'state_preemption', is: (d) => d.data['preempts_local'] === 'no', label: 'no state preemption of local rent control' },
  tax_sale: { cat: 'tax_deed_lien', sub: 'tax_sale', is: (d) => d.data['sale_type'] === 'deed', label: 'no tax lien sales (tax deed states)' },
};

export function rankingFacts(data: ResearchData, intent: Intent, dir: 'max' | 'min' | 'none', depth: Depth): Fact[] {
  if (dir === 'none') {
    const rule = NONE_RULES[intent];
    if (!rule) return [];
    const hits = [...data.byState.keys()].map((st) => stateRecord(data, st, rule.cat, rule.sub)).filter((d): d is RegulationDoc => d !== null && rule.is(d));
    if (hits.length === 0) return [];
    const names = hits.map((d) => data.stateName(d.state).replace(/^the /, ''));
    const shown = depth === 'quick' && names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
    return [{
      intent, target: null, value: null,
      sentence: `${hits.length} jurisdictions have ${rule.label}: ${shown} (rules last reviewed ${hits[0]!.last_reviewed_at ?? 'unknown'})`,
      detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
    }, ...hits.slice(0, depth === 'quick' ? 12 : hits.length).map((d) => ({ ...regFact(intent, { state: d.state, from: 'query' as const }, d, data.stateName(d.state), false), primary: true, confidence: 'medium' as Confidence, sentence: '' }))];
  }
  const spec = RANKABLE[intent];
  if (!spec) return [];
  const rows: { d: RegulationDoc; v: number }[] = [];
  for (const [state] of data.byState) {
    const d = stateRecord(data, state, spec.cat, spec.sub);
    const v = d ? spec.key(d) : null;
    if (d && v !== null) rows.push({ d, v });
  }
  rows.sort((a, b) => (dir === 'max' ? b.v - a.v : a.v - b.v) || a.d.state.localeCompare(b.d.state));
  if (rows.length === 0) return [];
  const edge = rows[0]!.v;
  const top = rows.filter((r, i) => i < (depth === 'quick' ? 3 : 10) || r.v === edge);
  const list = top.map((r) => `${data.stateName(r.d.state)} ${spec.unit(r.v)}`).join('; ');
  const facts: Fact[] = [{
    intent, target: null, value: null,
    sentence: `By ${spec.label}, the ${dir === 'max' ? 'highest' : 'lowest'} of the ${rows.length} jurisdictions with a figure are: ${list} (rules last reviewed ${rows[0]!.d.last_reviewed_at ?? 'unknown'})`,
    detail: [`States without a recorded figure are left out${intent === 'security_deposit' ? ' (including states with no statutory cap at all)' : ''}.`],
    source: null, confidence: 'medium', primary: true, uncertain: null,
  }];
  for (const r of top) facts.push({ ...regFact(intent, { state: r.d.state, from: 'query' }, r.d, data.stateName(r.d.state), false), primary: true, confidence: 'medium', sentence: '' });
  return facts;
}
