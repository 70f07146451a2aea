// Rankings across states (POST /v1/research/query, "which states have the longest ..." with no place named): the
// states' records of a legal topic ordered by one figure (or the states by the landlord friendliness composite), the states whose figure is a number asked for ("after 7
// years", "30 days or less"), the states where a rule is absent ("no cap"), or the states of a recorded kind ("tax deed
// states", "judicial foreclosure states", "states with rent control").
import type { ResearchData, RegulationDoc } from './data.ts';
import type { Intent, Threshold } from './intent.ts';
import { fmt, num, type Confidence, type Depth, type Fact } from './facts.ts';
import { NO_NOTICE_CLAUSE, regFact, stateRecord } from './records.ts';
import { stateLegalSource } from './legal-facts.ts';

/** A state with no statutory nonpayment notice (0 days): what that means, as GET /v1/legal/landlord-profile says it. */
const NO_NOTICE_NOTE = `no statutory notice means the landlord may file for eviction without a prior notice to pay or quit; ${NO_NOTICE_CLAUSE}`;
/** The meaning of a 0 among the listed rows, when the topic has one to say and a listed figure is 0; else ''. */
const zeroNote = (spec: { zero?: string }, shown: { v: number }[]): string => (spec.zero && shown.some((r) => r.v === 0) ? `; ${spec.zero}` : '');
/** zero: what a figure of 0 means, said whenever a listed state has one (a 0-day notice is no statutory notice) */
const RANKABLE: Partial<Record<Intent, { cat: string; sub: string; key: (d: RegulationDoc) => number | null; label: string; unit: (n: number) => string; per: Threshold['unit']; basis?: (d: RegulationDoc) => string | null; zero?: string }>> = {
  eviction_notice: { cat: 'eviction', sub: 'nonpayment_notice', key: (d) => num(d.data['notice_days']), label: 'nonpayment notice', unit: (n) => (n === 0 ? '0 days, no statutory notice' : `${fmt(n)} days`), per: 'days', zero: NO_NOTICE_NOTE },
  eviction_timeline: { cat: 'eviction', sub: 'timeline_estimate', key: (d) => { const a = num(d.data['min_days']), b = num(d.data['max_days']); return a === null && b === null ? null : ((a ?? b)! + (b ?? a)!) / 2; }, label: 'estimated uncontested eviction time (midpoint)', unit: (n) => `about ${fmt(n)} days`, per: 'days' },
  security_deposit: { cat: 'landlord_tenant', sub: 'security_deposit', key: (d) => num(d.data['deposit_limit_months']), label: 'security deposit cap', unit: (n) => `${fmt(n)} months' rent`, per: 'months' },
  adverse_possession: { cat: 'adverse_possession', sub: 'standard_period', key: (d) => num(d.data['years']), label: 'adverse possession period', unit: (n) => `${fmt(n)} years`, per: 'years' },
  redemption: { cat: 'tax_deed_lien', sub: 'tax_sale', key: (d) => num(d.data['redemption_period_months']), label: 'tax sale redemption period', unit: (n) => `${fmt(n)} months`, per: 'months' },
  // a rate is annual interest in one state and a one-time redemption premium in another: each says which
  tax_sale: { cat: 'tax_deed_lien', sub: 'tax_sale', key: (d) => num(d.data['interest_rate_pct']), label: 'maximum tax lien return', unit: (n) => `${fmt(n)}%`, per: 'pct', basis: (d) => str(d.data['rate_basis']) },
};

const NONE_RULES: Partial<Record<Intent, { cat: string; sub: string; is: (d: RegulationDoc) => boolean; label: string; note?: string }>> = {
  security_deposit: { cat: 'landlord_tenant', sub: 'security_deposit', is: (d) => d.data['has_statutory_cap'] === false, label: 'no statutory cap on security deposits' },
  eviction_notice: { cat: 'eviction', sub: 'nonpayment_notice', is: (d) => d.data['notice_required'] === false, label: 'no statutory notice before a nonpayment eviction filing', note: NO_NOTICE_CLAUSE },
  rent_control: { cat: 'rent_control', sub: 'state_preemption', is: (d) => d.data['preempts_local'] === 'no', label: 'no state preemption of local rent control' },
  tax_sale: { cat: 'tax_deed_lien', sub: 'tax_sale', is: (d) => d.data['sale_type'] === 'deed', label: 'no tax lien sales (tax deed states)' },
};

/** Lists by a recorded kind ("which states are tax deed states"): the kind of each state's record, and how a list of
 *  the kinds asked for reads. Rent control: 'statewide' (a statewide cap), 'local' (local rent control not preempted,
 *  wholly or in part), 'preempted'. */
const CATEGORY_RULES: Partial<Record<Intent, { cat: string; sub: string; kind: (d: RegulationDoc) => string | null; label: (kinds: string[]) => string; show?: (kind: string, d: RegulationDoc, data: ResearchData) => string }>> = {
  tax_sale: { cat: 'tax_deed_lien', sub: 'tax_sale', kind: (d) => str(d.data['sale_type']),
    label: (k) => (k.length > 1 ? 'tax lien, tax deed or hybrid sales' : k[0] === 'hybrid' ? 'hybrid tax sales (redeemable deeds, or liens and deeds by county)' : `tax ${k[0]} sales (${k[0]} states)`),
    show: (k) => k },
  foreclosure: { cat: 'foreclosure', sub: 'process', kind: (d) => str(d.data['foreclosure_type']), label: ([k]) => `${k} mortgage foreclosure` },
  rent_control: { cat: 'rent_control', sub: 'state_preemption',
    kind: (d) => (d.data['statewide_cap'] === true ? 'statewide' : d.data['preempts_local'] === 'no' || d.data['preempts_local'] === 'partial' ? 'local' : d.data['preempts_local'] === 'yes' ? 'preempted' : null),
    label: (k) => (k.length === 1 ? 'a statewide cap on rent increases' : 'a statewide rent cap, or no state ban on local rent control ("not preempted" says only that the state does not ban it, not that any city has it)'),
    // a state that does not preempt local rent control has it only where a city or county ordinance is recorded
    show: (k, d, data) => (k === 'statewide' ? 'statewide cap' : `${d.data['preempts_local'] === 'partial' ? 'partly preempted' : 'not preempted'}, ${localRentControl(data, d.state) ? 'local rent control recorded' : 'no local ordinance recorded'}`) },
};
/** Whether a city or county rent control ordinance of the state is recorded (an active rent_control local overlay). */
const localRentControl = (data: ResearchData, state: string): boolean =>
  (data.byState.get(state) ?? []).some((d) => d.status === 'active' && d.category === 'rent_control' && d.subcategory === 'local_overlay' && d.data['rent_control'] === true);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The states whose record passes a rule, named in one sentence (the first 12 at quick depth), each record cited. */
function listFacts(data: ResearchData, intent: Intent, hits: RegulationDoc[], label: string, depth: Depth, show?: (d: RegulationDoc) => string, note?: string, cite: (d: RegulationDoc) => RegulationDoc = (d) => d): Fact[] {
  if (hits.length === 0) return [];
  hits = [...hits].sort((a, b) => data.stateName(a.state).replace(/^the /, '').localeCompare(data.stateName(b.state).replace(/^the /, '')));
  const names = hits.map((d) => `${data.stateName(d.state).replace(/^the /, '')}${show ? ` (${show(d)})` : ''}`);
  const shown = depth === 'quick' && names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ');
  return [{
    intent, target: null, value: null,
    sentence: `${hits.length} ${hits.length === 1 ? 'jurisdiction has' : 'jurisdictions have'} ${label}: ${shown} (rules last reviewed ${hits[0]!.last_reviewed_at ?? 'unknown'})${note ? `; ${note}` : ''}`,
    detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
  }, ...hits.slice(0, depth === 'quick' ? 12 : hits.length).map((d) => ({ ...regFact(intent, { state: d.state, from: 'query' as const }, cite(d), data.stateName(d.state), false), primary: true, confidence: 'medium' as Confidence, sentence: '' }))];
}

const article = (label: string): string => `${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}`;

/** A threshold in the unit a topic records (years <-> months); null when the units do not convert. */
function inUnit(t: Threshold, per: Threshold['unit']): number | null {
  if (t.unit === per) return t.value;
  if (t.unit === 'years' && per === 'months') return t.value * 12;
  if (t.unit === 'months' && per === 'years') return t.value / 12;
  return null;
}

/** "best states for landlords", "most tenant-friendly states": the states by the landlord friendliness composite
 *  (state_legal), the most landlord-friendly first ('max') or the least ('min'), each state's score cited. */
function friendlinessFacts(data: ResearchData, dir: 'max' | 'min', depth: Depth): Fact[] {
  const rows = [...data.stateLegal.values()].filter((r) => r.landlord_friendliness_score !== null);
  if (rows.length === 0) return [];
  const score = (r: (typeof rows)[number]): number => r.landlord_friendliness_score!;
  rows.sort((a, b) => (dir === 'max' ? score(b) - score(a) : score(a) - score(b)) || a.state_code.localeCompare(b.state_code));
  const top = rows.slice(0, depth === 'quick' ? 5 : 10);
  const list = top.map((r) => `${data.stateName(r.state_code)} ${fmt(score(r))} (${r.landlord_friendliness_label ?? 'unlabelled'})`).join('; ');
  return [{
    intent: 'landlord_friendliness', target: null, value: null,
    sentence: `By our landlord friendliness composite (0-100, higher is friendlier to landlords), the ${dir === 'max' ? 'most landlord-friendly' : 'most tenant-friendly (lowest scores)'} of the ${rows.length} jurisdictions with a score are: ${list} (last reviewed ${top[0]!.last_reviewed_at ?? 'unknown'})`,
    detail: ['The composite weighs the nonpayment notice, the eviction timeline, the deposit cap, rent control preemption, a statewide rent cap and just cause (GET /v1/legal/landlord-profile).'],
    source: null, confidence: 'medium', primary: true, uncertain: null,
  }, ...top.map((r): Fact => ({
    intent: 'landlord_friendliness', target: { state: r.state_code, from: 'query' }, value: fmt(score(r)), sentence: '', detail: [],
    source: stateLegalSource(r, 'landlord friendliness'), confidence: 'medium', primary: true, uncertain: null,
  }))];
}

export function rankingFacts(data: ResearchData, intent: Intent, dir: 'max' | 'min' | 'none' | 'value' | 'category', depth: Depth, threshold: Threshold | null = null, category: string[] | null = null): Fact[] {
  if (intent === 'landlord_friendliness') return dir === 'max' || dir === 'min' ? friendlinessFacts(data, dir, depth) : [];
  const records = (cat: string, sub: string): RegulationDoc[] => [...data.byState.keys()].map((st) => stateRecord(data, st, cat, sub)).filter((d): d is RegulationDoc => d !== null);
  if (dir === 'none') {
    const rule = NONE_RULES[intent];
    return rule ? listFacts(data, intent, records(rule.cat, rule.sub).filter(rule.is), rule.label, depth, undefined, rule.note) : [];
  }
  if (dir === 'category') {
    const rule = CATEGORY_RULES[intent];
    if (!rule || !category) return [];
    const hits = records(rule.cat, rule.sub).filter((d) => category.includes(rule.kind(d) ?? ''));
    // a state listed for its statewide rent cap cites the cap's own record (AB 1482, ORS 90.323), not its preemption statute
    const cite = (d: RegulationDoc): RegulationDoc => (intent === 'rent_control' && rule.kind(d) === 'statewide' ? stateRecord(data, d.state, 'rent_control', 'statewide_cap') ?? d : d);
    return listFacts(data, intent, hits, rule.label(category), depth, category.length > 1 && rule.show ? (d) => rule.show!(rule.kind(d)!, d, data) : undefined, undefined, cite);
  }
  const spec = RANKABLE[intent];
  if (!spec) return [];
  const rows: { d: RegulationDoc; v: number }[] = [];
  for (const [state] of data.byState) {
    const d = stateRecord(data, state, spec.cat, spec.sub);
    const v = d ? spec.key(d) : null;
    if (d && v !== null) rows.push({ d, v });
  }
  if (rows.length === 0) return [];
  if (dir === 'value') return thresholdFacts(data, intent, spec, rows, threshold, depth);
  rows.sort((a, b) => (dir === 'max' ? b.v - a.v : a.v - b.v) || a.d.state.localeCompare(b.d.state));
  const edge = rows[0]!.v;
  const top = rows.filter((r, i) => i < (depth === 'quick' ? 3 : 10) || r.v === edge);
  // the states tied at the list's cut are said too, never left out as if lower ("and 5 more at 36 months: ...")
  const cut = top[top.length - 1]!.v;
  const tied = rows.slice(top.length).filter((r) => r.v === cut);
  const more = tied.length === 0 ? '' : `; and ${tied.length} more at ${spec.unit(cut)}${tied.length <= 12 ? `: ${tied.map((r) => data.stateName(r.d.state)).join(', ')}` : ''}`;
  top.push(...tied.slice(0, 12));
  const list = top.slice(0, top.length - Math.min(tied.length, 12)).map((r) => { const b = spec.basis?.(r.d); return `${data.stateName(r.d.state)} ${spec.unit(r.v)}${b ? ` (${b})` : ''}`; }).join('; ') + more;
  const facts: Fact[] = [{
    intent, target: null, value: null,
    sentence: `By ${spec.label}, the ${dir === 'max' ? 'highest' : 'lowest'} of the ${rows.length} jurisdictions with a figure are: ${list} (rules last reviewed ${rows[0]!.d.last_reviewed_at ?? 'unknown'})${zeroNote(spec, top)}`,
    detail: [`States without a recorded figure are left out${intent === 'security_deposit' ? ' (including states with no statutory cap at all)' : ''}.`],
    source: null, confidence: 'medium', primary: true, uncertain: null,
  }];
  for (const r of top) facts.push({ ...regFact(intent, { state: r.d.state, from: 'query' }, r.d, data.stateName(r.d.state), false), primary: true, confidence: 'medium', sentence: '' });
  return facts;
}

/** The states whose figure is the number asked for (exactly, at most or at least), by state name; when none is, the
 *  three nearest. Nothing when the question's unit is not the topic's (days asked of a figure kept in months). */
function thresholdFacts(data: ResearchData, intent: Intent, spec: NonNullable<(typeof RANKABLE)[Intent]>, rows: { d: RegulationDoc; v: number }[],
  threshold: Threshold | null, depth: Depth): Fact[] {
  if (threshold === null) return [];
  const want = inUnit(threshold, spec.per);
  if (want === null) {
    const kept = spec.per === 'pct' ? 'a percentage' : spec.per;
    return [{ intent, target: null, value: null, sentence: `the ${spec.label} is recorded in ${kept}, not ${threshold.unit === 'pct' ? 'percent' : threshold.unit}: ask with a figure in ${kept}`,
      detail: [], source: null, confidence: 'low', primary: true, uncertain: null }];
  }
  const ok = (v: number): boolean => ({ le: v <= want + 1e-9, ge: v >= want - 1e-9, lt: v < want - 1e-9, gt: v > want + 1e-9, eq: Math.abs(v - want) < 1e-9 })[threshold.op];
  const bound = { le: ' or less', ge: ' or more', lt: '', gt: '', eq: '' }[threshold.op];
  const strict = threshold.op === 'lt' ? 'under ' : threshold.op === 'gt' ? 'over ' : '';
  const named = (r: { d: RegulationDoc }): string => data.stateName(r.d.state).replace(/^the /, '');
  const hits = rows.filter((r) => ok(r.v)).sort((a, b) => named(a).localeCompare(named(b)));
  const reviewed = rows[0]!.d.last_reviewed_at ?? 'unknown';
  if (hits.length === 0) {
    const near = [...rows].sort((a, b) => Math.abs(a.v - want) - Math.abs(b.v - want) || a.d.state.localeCompare(b.d.state)).slice(0, 3);
    return [{
      intent, target: null, value: null,
      sentence: `None of the ${rows.length} jurisdictions with a figure has ${article(spec.label)} of ${strict}${spec.unit(want)}${bound}; the nearest are ${near.map((r) => `${named(r)} ${spec.unit(r.v)}`).join('; ')} (rules last reviewed ${reviewed})${zeroNote(spec, near)}`,
      detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
    }, ...near.map((r) => ({ ...regFact(intent, { state: r.d.state, from: 'query' as const }, r.d, data.stateName(r.d.state), false), primary: true, confidence: 'medium' as Confidence, sentence: '' }))];
  }
  const cap = depth === 'quick' ? 12 : hits.length;
  const names = hits.map((r) => (threshold.op === 'eq' ? named(r) : `${named(r)} (${spec.unit(r.v)})`));
  const shown = names.length > cap ? `${names.slice(0, cap).join(', ')} and ${names.length - cap} more` : names.join(', ');
  return [{
    intent, target: null, value: null,
    sentence: `${hits.length} of the ${rows.length} jurisdictions with a figure ${hits.length === 1 ? 'has' : 'have'} ${article(spec.label)} of ${strict}${spec.unit(want)}${bound}: ${shown} (rules last reviewed ${reviewed})${zeroNote(spec, hits.slice(0, cap))}`,
    detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
  }, ...hits.slice(0, cap).map((r) => ({ ...regFact(intent, { state: r.d.state, from: 'query' as const }, r.d, data.stateName(r.d.state), false), primary: true, confidence: 'medium' as Confidence, sentence: '' }))];
}
