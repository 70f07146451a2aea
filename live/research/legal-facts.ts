// Legal facts of one place (POST /v1/research/query): the state records of a legal topic with their supporting and
// pending records and the city or county overlays, the landlord friendliness composite (state_legal), the market
// legal risk score and the squatter risk rating (the build's legal shards). Rules: warehouse/docs/research.md.
import type { ResearchData, StateLegalRow } from './data.ts';
import type { Intent, Understanding } from './intent.ts';
import { RANK, ranks } from './ranks.ts';
import type { Target } from './places.ts';
import { fmt, inline, missing, type Fact, type Source } from './facts.ts';
import { JUST_CAUSE_OVERLAY, overlaysFor, pendingRecords, regFact, stateRecord } from './records.ts';

/** Subcategories per legal intent: [primary..., supporting...]. */
const LEGAL_TOPICS: Partial<Record<Intent, { primary: [string, string][]; support: [string, string][] }>> = {
  eviction_notice: { primary: [['eviction', 'nonpayment_notice']], support: [['eviction', 'timeline_estimate'], ['eviction', 'just_cause']] },
  eviction_timeline: { primary: [['eviction', 'timeline_estimate']], support: [['eviction', 'nonpayment_notice']] },
  just_cause: { primary: [['eviction', 'just_cause']], support: [] },
  security_deposit: { primary: [['landlord_tenant', 'security_deposit']], support: [] },
  foreclosure: { primary: [['foreclosure', 'process']], support: [] },
  tax_sale: { primary: [['tax_deed_lien', 'tax_sale']], support: [['tax_deed_lien', 'surplus_proceeds']] },
  redemption: { primary: [['tax_deed_lien', 'tax_sale']], support: [['tax_deed_lien', 'surplus_proceeds']] },
  surplus: { primary: [['tax_deed_lien', 'surplus_proceeds']], support: [['tax_deed_lien', 'tax_sale']] },
  rent_control: { primary: [['rent_control', 'state_preemption'], ['rent_control', 'statewide_cap']], support: [] },
  adverse_possession: { primary: [['adverse_possession', 'standard_period'], ['adverse_possession', 'color_of_title']], support: [] },
};

export function legalFacts(data: ResearchData, intent: Intent, t: Target): Fact[] {
  const S = data.stateName(t.state);
  const out: Fact[] = [];
  const topics = LEGAL_TOPICS[intent];
  if (!topics) return out;
  for (const [c, s] of topics.primary) {
    const d = stateRecord(data, t.state, c, s);
    if (d) {
      const f = regFact(intent, t, d, S, true, intent === 'redemption' ? 'redemption' : undefined);
      out.push(f);
    } else if (!(intent === 'just_cause')) {
      out.push(missing(intent, t, `We have no active ${c.replaceAll('_', ' ')} record (${s.replaceAll('_', ' ')}) for ${S}`));
    }
    for (const p of pendingRecords(data, t.state, c, s)) out.push({ ...regFact(intent, t, p, S, false), sentence: `A pending change is recorded: ${inline(p.title)}` });
  }
  if (intent === 'just_cause' && !out.some((f) => f.primary)) {
    const sl = data.stateLegal.get(t.state);
    // the state asked with no city ("Good Cause Eviction law New York"): the just-cause rules its cities record lead
    const local = t.city || t.area ? [] : (data.byState.get(t.state) ?? []).filter((d) => d.status === 'active' && d.level === 'city' && JUST_CAUSE_OVERLAY(d));
    out.push(...local.map((d) => ({ ...regFact(intent, { ...t, city: d.city! }, d, S, true), target: t, confidence: 'medium' as const })));
    const own = t.city ? overlaysFor(data, t).filter((d) => JUST_CAUSE_OVERLAY(d)) : [];
    const cities = [...local, ...own].map((d) => (d.state === 'NY' && d.city === 'New York' ? 'New York City' : d.city ?? 'the county'));
    out.push({
      intent, target: t, value: 'no statewide just-cause rule recorded',
      sentence: `We have no statewide just-cause eviction requirement recorded for ${S}${cities.length ? ` (the rule above is recorded for ${[...new Set(cities)].join(' and ')} only)` : ''}${sl?.last_reviewed_at ? ` (regulation data last reviewed ${sl.last_reviewed_at})` : ''}`,
      detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
    });
  }
  for (const [c, s] of topics.support) {
    const d = stateRecord(data, t.state, c, s);
    if (d) out.push(regFact(intent, t, d, S, false));
  }
  // city overlays: rent control and eviction topics
  if ((t.city || t.area || t.state === 'DC') && ['rent_control', 'eviction_notice', 'eviction_timeline', 'just_cause'].includes(intent)) {
    const ov = overlaysFor(data, t).filter((d) => intent === 'rent_control' || d.data['eviction_protections'] === true);
    // the place's own record on the topic leads: its rent control, or its just-cause (good-cause) eviction rule
    const rc = intent === 'rent_control' ? ov.filter((d) => d.category === 'rent_control' && d.data['rent_control'] === true)
      : intent === 'just_cause' ? ov.filter((d) => JUST_CAUSE_OVERLAY(d)) : [];
    const cityFacts = ov.map((d) => regFact(intent, t, d, S, rc.includes(d) && d === rc[0]));
    if (intent === 'rent_control' && rc.length === 0) {
      const pre = out.find((f) => f.primary && f.source?.category === 'rent_control' && f.value === 'prohibits local rent control');
      if (pre) pre.sentence = pre.sentence.replace(/ law prohibits local rent control/, ` law prohibits local rent control, and we have no rent control ordinance recorded for ${t.city ?? t.area?.name}`);
      else if (t.city || t.area) out.unshift({ intent, target: t, value: 'no local ordinance recorded', sentence: `We have no local rent control ordinance recorded for ${t.city ?? t.area!.name}`, detail: [], source: null, confidence: 'medium', primary: true, uncertain: null });
    }
    // the city's own rule leads
    out.unshift(...cityFacts.filter((f) => f.primary));
    out.push(...cityFacts.filter((f) => !f.primary));
  }
  return out;
}

/** The notice before a rent increase: a sentence of the place's rent records that states one (Washington's statewide cap:
 *  "increases need 90 days' notice"; Portland, ME's ordinance), quoted with its record, else that none is recorded. No
 *  record keeps the notice as a field, and the nonpayment notice is another notice. */
export function increaseNoticeFact(data: ResearchData, t: Target): Fact {
  const S = data.stateName(t.state);
  const docs = [...overlaysFor(data, t).filter((d) => d.category === 'rent_control'), stateRecord(data, t.state, 'rent_control', 'statewide_cap'), stateRecord(data, t.state, 'rent_control', 'state_preemption')];
  for (const d of docs) {
    const said = d?.summary.split(/(?<=\.)\s+(?=[A-Z])/).find((x) => /\bnotice\b/i.test(x) && /\bincrease/i.test(x));
    if (d && said) {
      const f = regFact('rent_control', t, d, S, true);
      return { ...f, value: 'rent increase notice (record summary)', sentence: `On notice before a rent increase, our record "${inline(d.title)}" says: ${inline(said).replace(/\.$/, '')} (${f.sentence.match(/\(([^()]*last reviewed [^()]*)\)$/)?.[1] ?? `last reviewed ${d.last_reviewed_at ?? 'unknown'}`}; a summary, not a structured field)`, confidence: 'medium' };
    }
  }
  const where = t.city ? `${t.city}, ${t.state}` : t.area ? `${t.area.name}, ${t.state}` : S;
  return { intent: 'rent_control', target: t, value: 'no rent increase notice recorded', sentence: `We have no rule recorded on how much notice a landlord must give before raising the rent in ${where} (the notice we record is the one to pay rent or move out before a nonpayment eviction, a different notice); what we record on rent increases follows`, detail: [], source: null, confidence: 'medium', primary: true, uncertain: null };
}

export function stateLegalSource(r: StateLegalRow, what: string): Source {
  return { type: 'legal', category: 'landlord_friendliness', citation: `reii warehouse: state_legal ${what} for ${r.state_code}, last reviewed ${r.last_reviewed_at ?? 'unknown'}` };
}

interface MarketRisk { state: string; city: string; legal_risk_score: number; legal_risk_label: string; plain_english_summary: string; investor_actions: string[]; last_reviewed_at: string }
/** A local ordinance the state's friendliness score does not count (the landlord profile's landlord_friendliness_uncounted). */
interface Uncounted { id: string; jurisdiction_level: string; jurisdiction_name: string; category: string; title: string }
interface Landlord {
  squatter_risk?: string; squatter_risk_notes?: string; last_reviewed_at?: string; landlord_friendliness_scope?: string; landlord_friendliness_note?: string;
  landlord_friendliness_uncounted?: Uncounted[];
}

/** The clause naming the ordinances a city's profile lists as not counted, by the place they are of: "it does not count the
 *  local ordinance of Chicago: Chicago Residential Landlord and Tenant Ordinance (RLTO)", "... the Los Angeles County
 *  ordinance that may apply in East Los Angeles: ...", or "no local ordinance is recorded for Houston". */
export function uncountedClause(list: Uncounted[], city: string): string {
  if (list.length === 0) return `no local ordinance is recorded for ${city}`;
  const byPlace = new Map<string, Uncounted[]>();
  for (const o of list) {
    const k = `${o.jurisdiction_level}|${o.jurisdiction_name}`;
    byPlace.set(k, [...(byPlace.get(k) ?? []), o]);
  }
  return `it does not count ${[...byPlace.values()].map((g) => {
    const s = g.length > 1 ? 's' : '';
    const whose = g[0]!.jurisdiction_level === 'county' ? `the ${g[0]!.jurisdiction_name} ordinance${s} that may apply in ${city}` : `the local ordinance${s} of ${g[0]!.jurisdiction_name}`;
    return `${whose}: ${g.map((o) => o.title).join('; ')}`;
  }).join('; nor ')}`;
}

export async function legalRiskFacts(data: ResearchData, u: Pick<Understanding, 'targets' | 'direction'> & { query?: string }, intent: Intent, t: Target): Promise<Fact[]> {
  const S = data.stateName(t.state);
  const out: Fact[] = [];
  const sl = data.stateLegal.get(t.state);
  if (intent === 'legal_risk' && t.city) {
    const keys = { state: t.state, city: t.city };
    const mr = await data.shard<MarketRisk>('legal-market-risk', keys);
    if (mr) {
      out.push({
        intent, target: t, value: `${fmt(mr.legal_risk_score)} (${mr.legal_risk_label})`, ...ranks(u, mr.legal_risk_score, fmt(mr.legal_risk_score), RANK.legalRisk),
        sentence: `${t.city}, ${t.state} has a legal risk score of ${fmt(mr.legal_risk_score)} (${mr.legal_risk_label}) on our market legal risk scale (last reviewed ${mr.last_reviewed_at})`,
        detail: [mr.plain_english_summary, ...(mr.investor_actions.length ? [`Investor actions: ${mr.investor_actions.join('; ')}.`] : [])],
        source: { type: 'legal', category: 'market_legal_risk', citation: `reii warehouse: market legal risk for ${t.city}, ${t.state}, last reviewed ${mr.last_reviewed_at}` },
        confidence: 'high', primary: true, uncertain: null,
      });
    } else {
      out.push(missing(intent, t, await data.hasFamily('legal-market-risk', keys)
        ? `We have no market legal risk score for ${t.city}, ${t.state}`
        : 'Market legal risk scores are not part of this build'));
    }
  }
  if (sl && sl.landlord_friendliness_score !== null) {
    const primary = intent === 'landlord_friendliness' || !t.city;
    // asked of a city: the score is the state's (state law alone); the city's landlord profile lists the local ordinances
    // it does not count (landlord_friendliness_uncounted, pipelines/marts/20_mart_legal_01_market_risk.sql) and its note
    // names them from that list: the sentence names them from the list, the deep answer quotes the note
    const profile = t.city ? await data.shard<Landlord>('legal-landlord', { state: t.state, city: t.city }) : null;
    const note = profile?.landlord_friendliness_note;
    const uncounted = t.city && profile?.landlord_friendliness_uncounted ? uncountedClause(profile.landlord_friendliness_uncounted, t.city) : undefined;
    out.push({
      intent, target: t, value: `${fmt(sl.landlord_friendliness_score)} out of 100 (${sl.landlord_friendliness_label ?? ''})`,
      ...ranks(u, sl.landlord_friendliness_score, `${fmt(sl.landlord_friendliness_score)} out of 100`, RANK.friendliness),
      sentence: `${S} scores ${fmt(sl.landlord_friendliness_score)} out of 100 on our landlord friendliness composite (${sl.landlord_friendliness_label ?? 'unlabelled'}; last reviewed ${sl.last_reviewed_at ?? 'unknown'})`
        + (t.city ? `; that is the state's score, from ${S} law alone, not a score of ${t.city}'s own${uncounted ? `: ${uncounted}` : ''}` : ''),
      detail: [...(note ? [note] : t.city ? [`Local ordinances of ${t.city} are not counted in the score; we have no landlord profile of ${t.city}, ${t.state} that names them.`] : []),
        `The composite weighs the nonpayment notice, eviction timeline, deposit cap, rent control preemption, statewide cap and just-cause rules of ${S} (warehouse/docs/legal.md).`],
      source: stateLegalSource(sl, 'landlord friendliness'), confidence: intent === 'legal_risk' && t.city ? 'medium' : 'high', primary, uncertain: null,
    });
  } else if (intent === 'landlord_friendliness' || !t.city) {
    out.push(missing(intent, t, `We have no landlord friendliness score for ${S} in this build`));
  }
  return out;
}

export async function squatterFact(data: ResearchData, t: Target): Promise<Fact | null> {
  const l = await data.shard<Landlord>('legal-landlord', { state: t.state, city: t.city ?? null });
  if (!l || !l.squatter_risk) return null;
  return {
    intent: 'adverse_possession', target: t, value: `squatter risk ${l.squatter_risk}`,
    sentence: `Our squatter risk rating for ${t.city ?? data.stateName(t.state)} is ${l.squatter_risk}`,
    detail: l.squatter_risk_notes ? [l.squatter_risk_notes] : [],
    source: { type: 'legal', category: 'landlord', citation: `reii warehouse: landlord profile for ${t.city ? `${t.city}, ` : ''}${t.state}, last reviewed ${l.last_reviewed_at ?? 'unknown'}` },
    confidence: 'medium', primary: false, uncertain: null,
  };
}
