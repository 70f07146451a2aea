// Answer composition for POST /v1/research/query: turns an Understanding (intent.ts) into facts read
// from the regulation index and the build's shards, then into plain English with a source for every fact.
// Templates and confidence rules: warehouse/docs/research.md.
//
//   quick  at most three sentences: up to two fact sentences (one per intent, places side by side in a
//          comparison) and, for legal topics, the not-legal-advice sentence; only the facts shown are cited
//   deep   every relevant record: the fact sentences, each record's own summary with its citation, effective and
//          review dates, uncertainty notes, related records found by full-text search, caveats, and a closing
//          "Sources:" list that repeats every citation
import type { ResearchData, RegulationDoc, StateLegalRow } from './data.ts';
import { LEGAL_INTENTS, type Intent, type Target, type Understanding } from './places.ts';
import { queryTerms } from './text.ts';
import { slug } from '../../warehouse/layout.ts';

export type Confidence = 'low' | 'medium' | 'high';
export type Depth = 'quick' | 'deep';
export interface Source { type: string; category: string; citation: string }

/** One fact: a sentence for quick answers, a paragraph for deep ones, its source and how sure it is. */
export interface Fact {
  intent: Intent | 'search' | 'none';
  target: Target | null;
  /** a short value for comparisons ("3 days") */
  value: string | null;
  sentence: string;
  detail: string[];
  source: Source | null;
  /** high: a structured fact of the asked place and topic, not in doubt; medium: related, or marked uncertain; low: missing */
  confidence: Confidence;
  /** false for supporting facts shown only in deep answers */
  primary: boolean;
  uncertain: string | null;
}

export const NOT_LEGAL_ADVICE = 'This is general information from public-law reference data, not legal advice.';

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };
const minConf = (a: Confidence, b: Confidence): Confidence => (RANK[a] <= RANK[b] ? a : b);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2))));
const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;
const plural = (n: number, w: string): string => `${fmt(n)} ${w}${n === 1 ? '' : 's'}`;
/** Inline text from data must not end a sentence early. */
const inline = (s: string): string => s.replace(/\.\s+(?=[A-Z])/g, '; ').replace(/\.$/, '');

function dates(d: RegulationDoc): string {
  const parts: string[] = [];
  if (d.effective_date) parts.push(`effective ${d.effective_date}`);
  if (d.last_reviewed_at) parts.push(`last reviewed ${d.last_reviewed_at}`);
  return parts.join(', ');
}

function regSource(d: RegulationDoc): Source {
  return {
    type: 'regulation', category: d.category,
    citation: d.citation ?? `reii regulations: ${d.id} (no statute cited; last reviewed ${d.last_reviewed_at ?? 'unknown'})`,
  };
}

/** The uncertainty note of a record for the keys a fact uses. */
function uncertainty(d: RegulationDoc, keys: readonly string[]): string | null {
  const hit = d.uncertain.filter((u) => keys.includes(u) || u === 'summary');
  if (hit.length === 0) return null;
  return `marked unverified or conflicting in our sources (${hit.join(', ').replaceAll('_', ' ')})`;
}

function placeName(data: ResearchData, t: Target): string {
  if (t.zip) return `zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}`;
  if (t.city) return `${t.city}, ${t.state}`;
  return data.stateName(t.state);
}

function stateRecord(data: ResearchData, state: string, category: string, subcategory: string): RegulationDoc | null {
  const list = data.byState.get(state) ?? [];
  return list.find((d) => d.level === 'state' && d.category === category && d.subcategory === subcategory && d.status === 'active') ?? null;
}
function pendingRecords(data: ResearchData, state: string, category: string, subcategory: string): RegulationDoc[] {
  return (data.byState.get(state) ?? []).filter((d) => d.category === category && d.subcategory === subcategory && d.status === 'pending');
}

/** City and county overlay records that apply to a city (its own records, plus its county's). */
export function overlaysFor(data: ResearchData, t: Target): RegulationDoc[] {
  const name = t.city ?? (t.state === 'DC' ? 'Washington' : null); // the District is its own city
  if (!name) return [];
  const city = data.cityInState(name, t.state);
  const lc = slug(name);
  const all = (data.byState.get(t.state) ?? []).filter((d) => d.status === 'active' && d.subcategory === 'local_overlay' &&
    ((d.level === 'city' && d.city !== null && slug(d.city) === lc) || (d.level === 'county' && city?.county_fips != null && d.county_fips === city.county_fips)));
  // a county ordinance is for cities of the county without their own (warehouse/docs/legal.md, Overlays)
  return all.filter((d) => d.level !== 'county' || !all.some((c) => c.level === 'city' && c.category === d.category));
}

interface RegFact { value: string; sentence: string; keys: string[]; confidence?: Confidence }
type Formatter = (d: RegulationDoc, S: string) => RegFact;

const FORMAT: Record<string, Formatter> = {
  'eviction/nonpayment_notice': (d, S) => {
    const days = num(d.data['notice_days']);
    const type = typeof d.data['day_type'] === 'string' && d.data['day_type'] !== 'calendar' ? `${d.data['day_type'] as string} ` : '';
    if (d.data['notice_required'] === false || days === 0 || days === null) {
      return { value: 'no statutory pre-filing notice', sentence: `${S} sets no statutory notice period before a landlord files an eviction for unpaid rent`, keys: ['notice_days', 'notice_required'] };
    }
    const v = `${fmt(days)} ${type}day${days === 1 ? '' : 's'}`;
    return { value: v, sentence: `In ${S}, a landlord must give ${v}' notice to pay the rent or move out before filing an eviction for nonpayment`, keys: ['notice_days', 'day_type'] };
  },
  'eviction/timeline_estimate': (d, S) => {
    const lo = num(d.data['min_days']), hi = num(d.data['max_days']);
    if (lo === null && hi === null) return { value: 'no estimate recorded', sentence: `We have no public estimate of how long an eviction takes in ${S}`, keys: ['min_days', 'max_days'], confidence: 'low' };
    const v = lo !== null && hi !== null && lo !== hi ? `about ${fmt(lo)}-${fmt(hi)} days` : `about ${fmt((lo ?? hi)!)} days`;
    return { value: v, sentence: `An uncontested eviction for nonpayment in ${S} takes ${v} from the first notice to possession, a secondary-source estimate rather than a legal deadline`, keys: ['min_days', 'max_days'] };
  },
  'eviction/just_cause': (d, S) => {
    const m = num(d.data['applies_after_months']);
    const v = d.data['just_cause_required'] === true ? `required${m !== null ? ` after ${plural(m, 'month')} of tenancy` : ''}` : 'not required';
    return { value: `just cause ${v}`, sentence: `${S} law makes just cause ${v} to end a residential tenancy`, keys: ['just_cause_required', 'applies_after_months'] };
  },
  'landlord_tenant/security_deposit': (d, S) => {
    const m = num(d.data['deposit_limit_months']);
    if (d.data['has_statutory_cap'] === false || m === null) return { value: 'no statutory cap', sentence: `${S} sets no statutory cap on residential security deposits`, keys: ['deposit_limit_months', 'has_statutory_cap'] };
    const v = m === 1 ? "1 month's rent" : `${fmt(m)} months' rent`;
    return { value: `capped at ${v}`, sentence: `${S} caps residential security deposits at ${v}`, keys: ['deposit_limit_months', 'has_statutory_cap'] };
  },
  'foreclosure/process': (d, S) => {
    const t = String(d.data['foreclosure_type'] ?? 'unknown');
    const how = t === 'judicial' ? 'the lender must go through the courts' : t === 'non-judicial' ? 'a trustee can sell under a power-of-sale clause without a lawsuit' : 'both court and out-of-court (power of sale) foreclosures are used';
    return { value: t, sentence: `Mortgage foreclosure in ${S} is ${t}: ${how}`, keys: ['foreclosure_type'] };
  },
  'tax_deed_lien/tax_sale': (d, S) => {
    const type = String(d.data['sale_type'] ?? 'unknown');
    const rate = num(d.data['interest_rate_pct']);
    const red = num(d.data['redemption_period_months']);
    const basis = typeof d.data['rate_basis'] === 'string' ? inline(d.data['rate_basis']) : null;
    const parts = [type === 'hybrid' ? `${S} uses a hybrid tax sale system (liens and deeds)` : `${S} is a tax ${type} state`];
    if (rate !== null) parts.push(`the maximum statutory return is ${fmt(rate)}%${basis ? ` (${basis})` : ''}`);
    if (red !== null) parts.push(`the owner can redeem for ${plural(red, 'month')} after the sale`);
    return { value: `${type}${rate !== null ? `, ${fmt(rate)}%` : ''}${red !== null ? `, ${plural(red, 'month')} to redeem` : ''}`, sentence: parts.join('; '), keys: ['sale_type', 'interest_rate_pct', 'rate_basis', 'redemption_period_months'] };
  },
  'redemption': (d, S) => {
    const red = num(d.data['redemption_period_months']);
    const type = String(d.data['sale_type'] ?? 'unknown');
    if (red === null) return { value: 'no post-sale redemption period recorded', sentence: `${S} is a tax ${type} state and our data records no redemption period after the tax sale`, keys: ['redemption_period_months', 'sale_type'], confidence: 'medium' };
    return { value: `${plural(red, 'month')} to redeem`, sentence: `In ${S} the owner can redeem for ${plural(red, 'month')} after a tax sale (a ${type === 'hybrid' ? 'hybrid lien and deed' : `tax ${type}`} state)`, keys: ['redemption_period_months', 'sale_type'] };
  },
  'tax_deed_lien/surplus_proceeds': (d, S) => ({
    value: d.data['surplus_equity_protected'] === true ? 'surplus equity protected' : 'not recorded',
    sentence: `Under Tyler v${'\u2009'}Hennepin County (2023) a government that sells tax-foreclosed property in ${S} may not keep the surplus over what is owed${d.data['state_procedure_reviewed'] === false ? `; how ${S} returns surplus proceeds has not been reviewed` : ''}`,
    keys: ['surplus_equity_protected', 'state_procedure_reviewed'],
  }),
  'rent_control/state_preemption': (d, S) => {
    const p = String(d.data['preempts_local'] ?? 'unknown');
    const v = p === 'yes' ? 'prohibits local rent control' : p === 'no' ? 'does not preempt local rent control' : p === 'partial' ? 'partially preempts local rent control' : 'has no recorded preemption rule';
    return { value: v, sentence: `${S} law ${v}`, keys: ['preempts_local'] };
  },
  'rent_control/statewide_cap': (d, S) => {
    if (d.data['statewide_cap'] !== true) return { value: 'no statewide cap', sentence: `${S} has no statewide cap on rent increases`, keys: ['statewide_cap'] };
    const cpi = num(d.data['cpi_plus_pct']), max = num(d.data['max_annual_increase_pct']), ex = num(d.data['new_construction_exempt_years']);
    const formula = [cpi !== null ? `CPI plus ${fmt(cpi)}%` : null, max !== null ? `at most ${fmt(max)}% a year` : null].filter(Boolean).join(', ');
    if (!formula) return { value: 'statewide cap (see local program)', sentence: `${S} has a jurisdiction-wide limit on rent increases; ${inline(d.summary.split(/(?<=\.)\s+(?=[A-Z])/)[0] ?? d.title).replace(/^./, (c) => c.toLowerCase())}`, keys: ['statewide_cap'] };
    return { value: `statewide cap ${formula}`, sentence: `${S} caps rent increases statewide at ${formula}${ex !== null ? `, with buildings newer than ${fmt(ex)} years exempt` : ''}`, keys: ['statewide_cap', 'cpi_plus_pct', 'max_annual_increase_pct', 'new_construction_exempt_years'] };
  },
  'adverse_possession/standard_period': (d, S) => {
    const y = num(d.data['years']);
    const taxes = d.data['taxes_required'] === true ? ' and paying the property taxes' : '';
    return { value: y !== null ? `${fmt(y)} years` : 'not recorded', sentence: `In ${S}, adverse possession takes ${y !== null ? `${fmt(y)} years` : 'a period we have not recorded'} of open, continuous, exclusive and hostile possession${taxes}`, keys: ['years', 'taxes_required'] };
  },
  'adverse_possession/color_of_title': (d, S) => {
    const y = num(d.data['color_of_title_years']);
    if (d.data['has_color_of_title_route'] !== true || y === null) return { value: 'no shorter color-of-title period', sentence: `${S} has no shorter period recorded for claims under color of title`, keys: ['color_of_title_years'] };
    return { value: `${fmt(y)} years with color of title`, sentence: `with color of title the period in ${S} is ${fmt(y)} years`, keys: ['color_of_title_years'] };
  },
  'overlay': (d) => {
    const cap = num(d.data['annual_cap_pct']);
    const formula = typeof d.data['cap_formula'] === 'string' ? inline(d.data['cap_formula']) : null;
    if (d.level === 'county') {
      // as the legal endpoints say it: a county rule's reach inside city limits varies, so it "may apply" (medium)
      const what = d.data['rent_control'] === true && d.category === 'rent_control' ? 'rent control' : 'tenant protections';
      return {
        value: `county ${what} may apply${cap !== null ? ` (cap ${fmt(cap)}%)` : ''}`,
        sentence: `A county ordinance may apply: ${inline(d.title)}${formula && !inline(d.title).includes(':') ? ` (allowed increase: ${formula})` : ''}; a county rule's reach inside city limits varies, so check its scope for the property`,
        keys: ['rent_control', 'eviction_protections', 'annual_cap_pct', 'cap_formula'], confidence: 'medium',
      };
    }
    const where = d.state === 'DC' ? 'The District of Columbia' : d.city ?? 'the county';
    let s: string;
    if (d.data['rent_control'] === true && d.category === 'rent_control') s = `${where} has local rent control${formula ? ` (allowed increase: ${formula})` : cap !== null ? ` (at most ${fmt(cap)}% a year)` : ''}`;
    else s = `${where} has local tenant protections beyond state law (${inline(d.title)})`;
    return { value: d.data['rent_control'] === true ? `local rent control${cap !== null ? ` (cap ${fmt(cap)}%)` : ''}` : 'local eviction protections', sentence: s, keys: ['rent_control', 'eviction_protections', 'annual_cap_pct', 'cap_formula'] };
  },
};

/** A regulation record as a fact. */
function regFact(intent: Intent | 'search', t: Target, d: RegulationDoc, S: string, primary: boolean, formatter?: string): Fact {
  const f = formatter ? FORMAT[formatter] : d.subcategory === 'local_overlay' ? FORMAT['overlay'] : FORMAT[`${d.category}/${d.subcategory}`];
  const base: RegFact = f ? f(d, S) : { value: inline(d.title), sentence: inline(d.summary.split(/(?<=\.)\s+(?=[A-Z])/)[0] ?? d.title), keys: [] };
  if (d.level === 'county' && d.subcategory === 'local_overlay' && t.city) base.sentence = base.sentence.replace('A county ordinance may apply:', `A county ordinance may apply in ${t.city}:`);
  const unc = uncertainty(d, base.keys);
  const when = dates(d);
  const sentence = `${base.sentence.replace(/^the District of Columbia law\b/, 'District of Columbia law')}${when ? ` (${when}${unc ? `; ${unc}` : ''})` : unc ? ` (${unc})` : ''}`;
  const detail = [
    `${d.title}${d.status === 'pending' ? ' [pending, not yet in force]' : ''}: ${d.summary}`,
    `Citation: ${regSource(d).citation}${d.url ? ` (${d.url})` : ''}. ${[d.effective_date ? `Effective ${d.effective_date}` : 'Effective date not recorded', d.last_reviewed_at ? `last reviewed ${d.last_reviewed_at}` : null, d.verified_at ? `verified in the statute text ${d.verified_at}` : 'not verified against the statute text'].filter(Boolean).join('; ')}.`,
  ];
  if (unc) detail.push(`Uncertainty: ${unc}.`);
  return {
    intent, target: t, value: base.value, sentence, detail, source: regSource(d),
    confidence: base.confidence ?? (unc ? 'medium' : 'high'), primary, uncertain: unc,
  };
}

function missing(intent: Fact['intent'], t: Target | null, sentence: string): Fact {
  return { intent, target: t, value: null, sentence, detail: [], source: null, confidence: 'low', primary: true, uncertain: null };
}

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

function legalFacts(data: ResearchData, intent: Intent, t: Target): Fact[] {
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
    out.push({
      intent, target: t, value: 'no statewide just-cause rule recorded',
      sentence: `We have no statewide just-cause eviction requirement recorded for ${S}${sl?.last_reviewed_at ? ` (regulation data last reviewed ${sl.last_reviewed_at})` : ''}`,
      detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
    });
  }
  for (const [c, s] of topics.support) {
    const d = stateRecord(data, t.state, c, s);
    if (d) out.push(regFact(intent, t, d, S, false));
  }
  // city overlays: rent control and eviction topics
  if ((t.city || t.state === 'DC') && ['rent_control', 'eviction_notice', 'eviction_timeline', 'just_cause'].includes(intent)) {
    const ov = overlaysFor(data, t).filter((d) => intent === 'rent_control' || d.data['eviction_protections'] === true);
    const rc = intent === 'rent_control' ? ov.filter((d) => d.category === 'rent_control' && d.data['rent_control'] === true) : [];
    const cityFacts = ov.map((d) => regFact(intent, t, d, S, rc.includes(d) && d === rc[0]));
    if (intent === 'rent_control' && rc.length === 0) {
      const pre = out.find((f) => f.primary && f.source?.category === 'rent_control' && f.value === 'prohibits local rent control');
      if (pre) pre.sentence = pre.sentence.replace(/ law prohibits local rent control/, ` law prohibits local rent control, and we have no rent control ordinance recorded for ${t.city}`);
      else if (t.city) out.unshift({ intent, target: t, value: 'no local ordinance recorded', sentence: `We have no local rent control ordinance recorded for ${t.city}`, detail: [], source: null, confidence: 'medium', primary: true, uncertain: null });
    }
    // the city's own rule leads
    out.unshift(...cityFacts.filter((f) => f.primary));
    out.push(...cityFacts.filter((f) => !f.primary));
  }
  return out;
}

function stateLegalSource(r: StateLegalRow, what: string): Source {
  return { type: 'legal', category: 'landlord_friendliness', citation: `reii warehouse: state_legal ${what} for ${r.state_code}, last reviewed ${r.last_reviewed_at ?? 'unknown'}` };
}

interface MarketRisk { state: string; city: string; legal_risk_score: number; legal_risk_label: string; plain_english_summary: string; investor_actions: string[]; last_reviewed_at: string }
interface Landlord { squatter_risk?: string; squatter_risk_notes?: string; last_reviewed_at?: string }

function legalRiskFacts(data: ResearchData, intent: Intent, t: Target): Fact[] {
  const S = data.stateName(t.state);
  const out: Fact[] = [];
  const sl = data.stateLegal.get(t.state);
  if (intent === 'legal_risk' && t.city) {
    const mr = data.shard<MarketRisk>('legal-market-risk', { state: t.state, city: t.city });
    if (mr) {
      out.push({
        intent, target: t, value: `${fmt(mr.legal_risk_score)} (${mr.legal_risk_label})`,
        sentence: `${t.city}, ${t.state} has a legal risk score of ${fmt(mr.legal_risk_score)} (${mr.legal_risk_label}) on our market legal risk scale (last reviewed ${mr.last_reviewed_at})`,
        detail: [mr.plain_english_summary, ...(mr.investor_actions.length ? [`Investor actions: ${mr.investor_actions.join('; ')}.`] : [])],
        source: { type: 'legal', category: 'market_legal_risk', citation: `reii warehouse: market legal risk for ${t.city}, ${t.state}, last reviewed ${mr.last_reviewed_at}` },
        confidence: 'high', primary: true, uncertain: null,
      });
    } else {
      out.push(missing(intent, t, data.hasFamily('legal/market-risk')
        ? `We have no market legal risk score for ${t.city}, ${t.state}`
        : 'Market legal risk scores are not part of this build'));
    }
  }
  if (sl && sl.landlord_friendliness_score !== null) {
    const primary = intent === 'landlord_friendliness' || !t.city;
    out.push({
      intent, target: t, value: `${fmt(sl.landlord_friendliness_score)}/100 (${sl.landlord_friendliness_label ?? ''})`,
      sentence: `${S} scores ${fmt(sl.landlord_friendliness_score)} out of 100 on our landlord friendliness composite (${sl.landlord_friendliness_label ?? 'unlabelled'}; last reviewed ${sl.last_reviewed_at ?? 'unknown'})`,
      detail: [`The composite weighs the nonpayment notice, eviction timeline, deposit cap, rent control preemption, statewide cap and just-cause rules of ${S} (warehouse/docs/legal.md).`],
      source: stateLegalSource(sl, 'landlord friendliness'), confidence: intent === 'legal_risk' && t.city ? 'medium' : 'high', primary, uncertain: null,
    });
  } else if (intent === 'landlord_friendliness' || !t.city) {
    out.push(missing(intent, t, `We have no landlord friendliness score for ${S} in this build`));
  }
  return out;
}

function squatterFact(data: ResearchData, t: Target): Fact | null {
  const l = data.shard<Landlord>('legal-landlord', { state: t.state, city: t.city ?? null });
  if (!l || !l.squatter_risk) return null;
  return {
    intent: 'adverse_possession', target: t, value: `squatter risk ${l.squatter_risk}`,
    sentence: `Our squatter risk rating for ${t.city ?? data.stateName(t.state)} is ${l.squatter_risk}`,
    detail: l.squatter_risk_notes ? [l.squatter_risk_notes] : [],
    source: { type: 'legal', category: 'landlord', citation: `reii warehouse: landlord profile for ${t.city ? `${t.city}, ` : ''}${t.state}, last reviewed ${l.last_reviewed_at ?? 'unknown'}` },
    confidence: 'medium', primary: false, uncertain: null,
  };
}

// ---- market and location facts (shards) ----

interface Comps { zip_code: string; city: string; state: string; property_type: string; sample_count: number | null; price_per_sqft: { p25: number | null; median: number | null; p75: number | null }; days_on_market: { median: number | null }; list_to_sale_ratio: number | null; confidence: Confidence; as_of: string }
interface Rehab { zip_code: string; city: string; state: string; rehab_momentum_score: number; label: string; trend: string; trend_pct: number; confidence: Confidence; as_of: string }
interface Investor { city: string; state: string; investor_purchase_rate_pct: number | null; flip_velocity_days: number | null; gross_flip_margin_pct: number | null; distressed_pipeline_count: number | null; market_tier: string; confidence: Confidence; as_of: string }
interface Location { zip_code: string; city: string; state: string; flood_zone: string; flood_risk_label: string; flood_risk_notes: string; superfund_nearby: boolean; superfund_count_1mi: number; environmental_risk_score: number; confidence: Confidence; as_of: string }

const TYPE_WORDS: Record<string, string> = { sfr: 'single-family', multi: 'multi-family', condo: 'condo', land: 'land', commercial: 'commercial' };
const MONTH_TRIES = (asked: number | null, dflt: number): number[] => (asked ? [asked] : [dflt, ...[6, 12, 24].filter((m) => m !== dflt)]);

function compsFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Fact {
  const type = u.propertyType;
  for (const months of MONTH_TRIES(u.months, 6)) {
    const c = data.shard<Comps>('comps', { zip, property_type: type, months: String(months) });
    if (!c) continue;
    const src: Source = { type: 'comps', category: 'market', citation: `reii warehouse: comps for ${zip}, ${type}, ${months} months, as of ${c.as_of}` };
    const where = `zip ${zip}${c.city ? ` (${c.city}, ${c.state})` : ''}`;
    if (c.sample_count === null || c.price_per_sqft.median === null) {
      return { intent: 'comps', target: t, value: 'fewer than 5 comps', sentence: `${where} had fewer than 5 ${TYPE_WORDS[type]} sales in the ${months} months to ${c.as_of}, too few to report prices`, detail: [], source: src, confidence: 'low', primary, uncertain: null };
    }
    const p = c.price_per_sqft;
    const bits = [`median ${money(p.median!)} per sqft${p.p25 !== null && p.p75 !== null ? ` (middle half ${money(p.p25)}-${money(p.p75)})` : ''}`];
    if (c.days_on_market.median !== null) bits.push(`median ${fmt(c.days_on_market.median)} days on market`);
    if (c.list_to_sale_ratio !== null) bits.push(`list-to-sale ratio ${c.list_to_sale_ratio.toFixed(3)}`);
    return {
      intent: 'comps', target: t, value: `${money(p.median!)}/sqft (${c.sample_count} sales)`,
      sentence: `In ${where}, ${c.sample_count} ${TYPE_WORDS[type]} sales in the ${months} months to ${c.as_of} had a ${bits.join(', ')}`,
      detail: [`Comparable-sales confidence: ${c.confidence} (by sample count).`], source: src, confidence: c.confidence, primary, uncertain: null,
    };
  }
  return missing('comps', t, data.hasFamily('market/comps')
    ? `We have no ${TYPE_WORDS[type]} comparable sales for zip ${zip}${u.months ? ` in the last ${u.months} months` : ''}`
    : 'Comparable-sales data is not part of this build');
}

function rehabFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Fact {
  for (const months of MONTH_TRIES(u.months, 6)) {
    const r = data.shard<Rehab>('rehab', { zip, months: String(months) });
    if (!r) continue;
    return {
      intent: 'rehab', target: t, value: `${fmt(r.rehab_momentum_score)} (${r.label})`,
      sentence: `Zip ${zip}${r.city ? ` (${r.city}, ${r.state})` : ''} has a rehab momentum score of ${fmt(r.rehab_momentum_score)} out of 100 (${r.label}), trend ${r.trend} (${r.trend_pct > 0 ? '+' : ''}${fmt(r.trend_pct)}%), over the ${months} months to ${r.as_of}`,
      detail: [`Rehab score confidence: ${r.confidence} (by permit count).`],
      source: { type: 'rehab', category: 'market', citation: `reii warehouse: rehab momentum for ${zip}, ${months} months, as of ${r.as_of}` },
      confidence: r.confidence, primary, uncertain: null,
    };
  }
  return missing('rehab', t, data.hasFamily('market/rehab') ? `We have no renovation permit data for zip ${zip}` : 'Rehab momentum data is not part of this build');
}

function investorFact(data: ResearchData, u: Understanding, t: Target): Fact {
  if (!t.city) return missing('investor', t, `Investor activity is reported per city; name a city in ${data.stateName(t.state)}`);
  for (const months of MONTH_TRIES(u.months, 12)) {
    const r = data.shard<Investor>('investor', { state: t.state, city: t.city, months: String(months) });
    if (!r) continue;
    // The rate is null where the sources carry no buyer names: say so rather than print a number.
    const bits = [r.investor_purchase_rate_pct === null
      ? `the sales records of the ${months} months to ${r.as_of} carry no buyer names, so the investor share is unknown`
      : `investors bought ${fmt(r.investor_purchase_rate_pct)}% of the homes sold in the ${months} months to ${r.as_of}`];
    if (r.flip_velocity_days !== null) bits.push(`flips re-listed after a median ${fmt(r.flip_velocity_days)} days`);
    if (r.gross_flip_margin_pct !== null) bits.push(`with a median gross margin of ${fmt(r.gross_flip_margin_pct)}%`);
    return {
      // side by side, every place shows the same measure: the share, or that it is unknown
      intent: 'investor', target: t, value: r.investor_purchase_rate_pct === null ? 'investor share unknown' : `${fmt(r.investor_purchase_rate_pct)}% investor purchases`,
      // the distressed count may be null (no source for it): then it is not stated
      sentence: `In ${t.city}, ${t.state}, ${bits.join(', ')}${typeof r.distressed_pipeline_count === 'number' ? `; ${fmt(r.distressed_pipeline_count)} distressed properties are in the pipeline` : ''}`,
      detail: [`Market tier: ${r.market_tier}; confidence ${r.confidence} (by sample count).`],
      source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview for ${t.city}, ${t.state}, ${months} months, as of ${r.as_of}` },
      // the main figure (the investor share) unknown: never high, whatever the sample count says
      confidence: r.investor_purchase_rate_pct === null ? minConf(r.confidence, 'medium') : r.confidence, primary: true, uncertain: null,
    };
  }
  return missing('investor', t, data.hasFamily('market/investor') ? `We have no investor activity data for ${t.city}, ${t.state}` : 'Investor activity data is not part of this build');
}

function locationFact(data: ResearchData, t: Target, zip: string, primary: boolean): Fact {
  const r = data.shard<Location>('location-zip', { zip });
  if (!r) return missing('location', t, data.hasFamily('location/zip') ? `We have no location risk data for zip ${zip}` : 'Location risk data is not part of this build');
  const flood = r.flood_zone === 'D' ? 'flood zone D (undetermined: no FEMA flood map was loaded for this area)' : `FEMA flood zone ${r.flood_zone} (${r.flood_risk_label} flood risk)`;
  const sf = r.superfund_count_1mi > 0 ? `${plural(r.superfund_count_1mi, 'Superfund site')} within 1 mile` : 'no Superfund site within 1 mile';
  return {
    intent: 'location', target: t, value: `zone ${r.flood_zone}, ${r.superfund_count_1mi} Superfund within 1 mi, score ${fmt(r.environmental_risk_score)}`,
    sentence: `Zip ${zip}${r.city ? ` (${r.city}, ${r.state})` : ''} is in ${flood}, with ${sf} and an environmental risk score of ${fmt(r.environmental_risk_score)} out of 100 (as of ${r.as_of})`,
    detail: [inline(r.flood_risk_notes) + '.', `Location confidence: ${r.confidence} (by spatial coverage).`],
    source: { type: 'location', category: 'location_risk', citation: `reii warehouse: location risk for ${zip}, as of ${r.as_of}` },
    confidence: r.confidence, primary, uncertain: null,
  };
}

/** A zip-level family asked about a city: every zip of the city with data (cap 60 zips read). */
function cityZipFacts(data: ResearchData, t: Target, make: (zip: string, primary: boolean) => Fact, intent: Intent, what: string): Fact[] {
  const zips = data.zipsOfCity(t.city!, t.state).slice(0, 60);
  const facts = zips.map((z) => make(z, false)).filter((f) => f.source !== null);
  if (facts.length === 0) {
    const probe = make(zips[0] ?? '00000', true);
    if (/not part of this build/.test(probe.sentence)) return [probe];
    return [missing(intent, t, `We have no ${what} for any zip of ${t.city}, ${t.state}`)];
  }
  const lowOnly = facts.every((f) => f.confidence === 'low');
  const shown = facts.filter((f) => !lowOnly ? f.confidence !== 'low' : true);
  shown[0]!.primary = true;
  if (shown.length > 1) {
    shown[1]!.primary = true;
    const head: Fact = {
      intent, target: t, value: `${facts.length} zips with data`,
      sentence: `We have ${what} for ${plural(facts.length, 'zip')} of ${t.city}, ${t.state}; the first two are shown (the deep answer lists every zip)`,
      detail: [], source: null, confidence: 'medium', primary: false, uncertain: null,
    };
    return [...shown, ...facts.filter((f) => !shown.includes(f)), head];
  }
  return facts;
}

function marketFacts(data: ResearchData, u: Understanding, intent: Intent, t: Target): Fact[] {
  const needZip = (what: string): Fact => missing(intent, t, `${what} is reported per zip code; name a zip or a city in ${data.stateName(t.state)}`);
  switch (intent) {
    case 'comps':
      if (t.zip) return [compsFact(data, u, t, t.zip, true)];
      if (t.city) return cityZipFacts(data, t, (z, p) => compsFact(data, u, t, z, p), 'comps', `${TYPE_WORDS[u.propertyType]} comparable sales`);
      return [needZip('Comparable-sales data')];
    case 'rehab':
      if (t.zip) return [rehabFact(data, u, t, t.zip, true)];
      if (t.city) return cityZipFacts(data, t, (z, p) => rehabFact(data, u, t, z, p), 'rehab', 'rehab momentum scores');
      return [needZip('Rehab momentum')];
    case 'investor':
      return [investorFact(data, u, t)];
    case 'location':
      if (t.zip) return [locationFact(data, t, t.zip, true)];
      if (t.city) return cityZipFacts(data, t, (z, p) => locationFact(data, t, z, p), 'location', 'flood and Superfund data');
      return [needZip('Flood and Superfund risk')];
    default:
      return [];
  }
}

// ---- rankings across states ----

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

// ---- full-text retrieval ----

/** Regulation records of the places in question ranked by BM25 over the question's topic words. */
export function searchRecords(data: ResearchData, u: Understanding, limit: number, minCoverage: number): { doc: RegulationDoc; score: number; coverage: number }[] {
  const terms = queryTerms(u.topicText);
  if (terms.length === 0) return [];
  const states = new Set(u.targets.map((t) => t.state));
  const cities = new Set(u.targets.filter((t) => t.city).map((t) => `${t.state}|${slug(t.city!)}`));
  const allow = (i: number): boolean => {
    const d = data.docs[i]!;
    if (states.size && !states.has(d.state)) return false;
    if (d.level === 'city') return cities.has(`${d.state}|${slug(d.city ?? '')}`);
    return d.status === 'active';
  };
  return data.bm25.search(terms, allow).slice(0, limit * 4)
    .map((s) => ({ doc: data.docs[s.doc]!, score: s.score, coverage: data.bm25.coverage(terms, s.matched) }))
    .filter((s) => s.coverage >= minCoverage)
    .slice(0, limit);
}

// ---- assembling the answer ----

const INTENT_LABEL: Record<Intent, string> = {
  eviction_notice: 'Nonpayment eviction notice', eviction_timeline: 'Uncontested eviction timeline', just_cause: 'Just-cause eviction',
  security_deposit: 'Security deposit limit', foreclosure: 'Foreclosure type', tax_sale: 'Tax sale (lien or deed, rate, redemption)',
  redemption: 'Tax sale redemption period', surplus: 'Surplus proceeds after a tax sale', rent_control: 'Rent control', adverse_possession: 'Adverse possession period',
  comps: 'Comparable sales', rehab: 'Rehab momentum', investor: 'Investor activity', location: 'Flood and Superfund risk',
  legal_risk: 'Market legal risk', landlord_friendliness: 'Landlord friendliness',
};

export interface Composed { answer: string; sources: Source[]; confidence: Confidence; facts: Fact[] }

function cap1(s: string): string { return s.charAt(0).toUpperCase() + s.slice(1); }
const sentenceOf = (s: string): string => { const t = cap1(s.trim()); return /[.!?]$/.test(t) ? t : `${t}.`; };

function dedupeSources(list: (Source | null)[]): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const s of list) {
    if (!s) continue;
    const k = `${s.type}|${s.category}|${s.citation}`;
    if (!seen.has(k)) { seen.add(k); out.push(s); }
  }
  return out;
}

/** Gathers every fact a question needs. */
export function gather(data: ResearchData, u: Understanding, depth: Depth): Fact[] {
  const facts: Fact[] = [];
  const intents = u.intents;
  if (intents.length === 0) {
    // no known topic: full-text search over the regulations of the named places
    if (u.targets.length === 0) {
      const hit = u.unknown.length ? undefined : searchRecords(data, u, 1, 0.5)[0];
      if (hit) return [missing('search', null, `I don't have an answer without a place: the closest topic we record, ${hit.doc.category.replaceAll('_', ' ')} (${hit.doc.subcategory.replaceAll('_', ' ')}), is recorded per state, so name a state, city or zip code`)];
      return [];
    }
    const hits = searchRecords(data, u, depth === 'quick' ? 1 : 5, 0.5);
    for (const [i, h] of hits.entries()) {
      const t = u.targets.find((x) => x.state === h.doc.state) ?? u.targets[0]!;
      facts.push({ ...regFact('search', t, h.doc, data.stateName(h.doc.state), i === 0), confidence: 'medium' });
    }
    return facts;
  }
  if (u.targets.length === 0) {
    for (const intent of intents) if (u.ranking) facts.push(...rankingFacts(data, intent, u.ranking, depth));
    return facts;
  }
  for (const intent of intents) {
    for (const t of u.targets) {
      if (intent === 'legal_risk' || intent === 'landlord_friendliness') facts.push(...legalRiskFacts(data, intent, t));
      else if (LEGAL_INTENTS.has(intent)) {
        facts.push(...legalFacts(data, intent, t));
        if (intent === 'adverse_possession') { const s = squatterFact(data, t); if (s) facts.push(s); }
      } else facts.push(...marketFacts(data, u, intent, t));
    }
  }
  // a topic we cannot answer directly for a place, but a supporting record can help: show it (medium)
  for (const intent of intents) {
    for (const t of u.targets) {
      const group = facts.filter((f) => f.intent === intent && f.target === t);
      const prim = group.filter((f) => f.primary);
      if (prim.length === 0 || prim.some((f) => f.confidence !== 'low')) continue;
      const support = group.find((f) => !f.primary && f.source !== null && f.confidence !== 'low');
      if (!support) continue;
      support.primary = true;
      support.confidence = 'medium';
      for (const f of prim) f.confidence = 'medium';
    }
  }
  if (depth === 'deep') {
    // related records by full-text search, not already used
    const used = new Set(facts.map((f) => f.source?.citation));
    const usedIds = new Set<string>();
    for (const f of facts) if (f.source?.type === 'regulation') usedIds.add(f.source.citation);
    for (const h of searchRecords(data, u, 4, 0.5)) {
      if (used.has(regSource(h.doc).citation) && usedIds.has(regSource(h.doc).citation)) continue;
      const t = u.targets.find((x) => x.state === h.doc.state) ?? u.targets[0]!;
      const f = regFact('search', t, h.doc, data.stateName(h.doc.state), false);
      f.confidence = 'medium';
      if (!facts.some((x) => x.detail[0] === f.detail[0])) facts.push(f);
    }
  }
  return facts;
}

export function compose(data: ResearchData, u: Understanding, facts: Fact[], depth: Depth): Composed {
  const legal = u.intents.some((i) => LEGAL_INTENTS.has(i)) || facts.some((f) => f.source?.type === 'regulation');
  const primary = facts.filter((f) => f.primary);
  const answered = primary.filter((f) => f.source !== null || f.confidence !== 'low');

  // nothing to say: an honest "don't have"
  if (answered.length === 0) {
    const why: string[] = [];
    if (u.unknown.length) why.push(`We don't have data for ${u.unknown.join(', ')}: coverage is the 50 states and DC, their cities and zip codes`);
    const miss = primary.filter((f) => f.confidence === 'low').map((f) => f.sentence);
    if (miss.length) why.push(...miss.slice(0, depth === 'quick' ? 1 : miss.length));
    if (u.intents.length === 0 && why.length === 0) why.push(u.targets.length
      ? `I don't have data that answers this question for ${u.targets.map((t) => placeName(data, t)).join(' and ')}: our research covers eviction, security deposit, foreclosure, tax lien and deed, rent control and adverse possession rules, plus comparable sales, rehab momentum, investor activity and flood and Superfund risk`
      : "I don't have data that answers this question: our research covers state and local landlord-tenant, eviction, foreclosure, tax sale, rent control and adverse possession rules, plus comparable sales, rehab momentum, investor activity and flood and Superfund risk");
    else if (why.length === 0 && u.targets.length === 0) why.push(`I don't have an answer without a place: these rules differ by state, so name a state (or a city or zip code)${u.ranking === null && u.intents.length ? '' : ''}`);
    if (why.length === 0) why.push("I don't have data that answers this question");
    const text = (depth === 'quick' ? why.slice(0, 2) : why).map((s) => sentenceOf(s.startsWith('We have no') || s.startsWith('We don') || s.startsWith('I don') ? s : `I don't have that: ${s.charAt(0).toLowerCase()}${s.slice(1)}`)).join(' ');
    return { answer: text, sources: [], confidence: 'low', facts };
  }

  let confidence: Confidence = 'high';
  for (const f of primary) confidence = minConf(confidence, f.source === null && f.confidence === 'low' ? 'medium' : f.confidence);
  if (u.intents.length === 0) confidence = minConf(confidence, 'medium');

  const cited: Fact[] = [];
  const comparison = u.targets.length >= 2;
  const intentOrder = [...new Set(primary.map((f) => f.intent))];

  if (depth === 'quick') {
    // each sentence with the facts it uses: only the facts shown are cited
    const said: { text: string; facts: Fact[] }[] = [];
    if (comparison) {
      for (const intent of intentOrder.slice(0, 2)) {
        const used: Fact[] = [];
        const per = u.targets.map((t) => {
          const fs = primary.filter((f) => f.intent === intent && f.target === t);
          const shown = fs.filter((f) => f.value !== null);
          used.push(...fs);
          const val = shown.length ? shown.map((f) => f.value).join(', ') : 'no data';
          return `${placeName(data, t)} ${val}`;
        });
        const dated = primary.find((f) => f.intent === intent && f.source?.type === 'regulation');
        const when = dated ? dated.sentence.match(/last reviewed (\d{4}-\d{2}-\d{2})/)?.[1] : null;
        const asOf = primary.filter((f) => f.intent === intent).map((f) => f.source?.citation.match(/as of (\d{4}-\d{2}-\d{2})/)?.[1]).filter(Boolean);
        const label = intent === 'search' || intent === 'none' ? 'Closest matching rule' : INTENT_LABEL[intent];
        said.push({ text: `${label}${when ? ` (rules last reviewed ${when})` : asOf.length ? ` (data as of ${[...new Set(asOf)].join(', ')})` : ''}: ${per.join('; ')}`, facts: used });
      }
    } else {
      // one sentence per intent (two for a single intent with two primary facts), at most two in all
      for (const intent of intentOrder) {
        if (said.length >= 2) break;
        const fs = primary.filter((f) => f.intent === intent && f.sentence && !said.some((x) => x.text === f.sentence));
        if (fs.length === 0) continue;
        const take = intentOrder.length === 1 ? fs.slice(0, 2 - said.length) : fs.slice(0, 1);
        for (const f of take) said.push({ text: f.sentence, facts: [f] });
      }
      // rankings: the listed states' records back the first sentence
      if (u.ranking && said.length) said[0]!.facts.push(...primary.filter((f) => f.sentence === ''));
    }
    if (u.gaps.length) { said.splice(1, said.length, { text: u.gaps[0]!, facts: [] }); confidence = minConf(confidence, 'medium'); }
    if (u.unknown.length) {
      // a place we do not cover is never dropped silently: say so (in place of a second fact sentence), at most medium
      const note = `We have no data for ${u.unknown.join(', ')}: coverage is the 50 states and DC`;
      if (u.gaps.length) said[1] = { text: `${said[1]!.text.replace(/\.$/, '')}; ${note.charAt(0).toLowerCase()}${note.slice(1)}`, facts: [] };
      else said.splice(1, said.length, { text: note, facts: [] });
      confidence = minConf(confidence, 'medium');
    }
    const texts = said.map((x) => x.text);
    if (legal) texts.push(NOT_LEGAL_ADVICE);
    const answer = texts.slice(0, 3).map(sentenceOf).join(' ');
    const sources = dedupeSources(said.flatMap((x) => x.facts).map((f) => f.source));
    return { answer, sources, confidence, facts };
  }

  // deep
  const paras: string[] = [];
  const names = u.targets.map((t) => placeName(data, t));
  const topics = u.intents.length ? u.intents.map((i) => INTENT_LABEL[i].toLowerCase()) : ['the closest matching rules'];
  paras.push(`Question read as: ${topics.join(', ')}${names.length ? ` for ${names.join(' and ')}` : ' across every state'}${u.propertyType !== 'sfr' && u.intents.includes('comps') ? ` (${TYPE_WORDS[u.propertyType]})` : ''}.${u.notes.length ? ` Note: ${u.notes.join('; ')}.` : ''}`);
  if (comparison) {
    for (const intent of intentOrder) {
      const rows = u.targets.map((t) => {
        const fs = primary.filter((f) => f.intent === intent && f.target === t && f.value !== null);
        return `${placeName(data, t)}: ${fs.length ? fs.map((f) => f.value).join(', ') : 'no data'}`;
      });
      const label = intent === 'search' || intent === 'none' ? 'Closest matching rule' : INTENT_LABEL[intent];
      paras.push(`${label} side by side: ${rows.join('; ')}.`);
    }
  }
  for (const f of facts) {
    if (f.intent === 'search' && !f.primary) continue;
    const lines = [f.sentence ? sentenceOf(f.sentence) : '', ...f.detail].filter(Boolean);
    if (lines.length) paras.push(lines.join(' '));
    cited.push(f);
  }
  const related = facts.filter((f) => f.intent === 'search' && !f.primary);
  if (related.length) paras.push(`Related records found by full-text search: ${related.map((f) => `${f.detail[0] ?? ''} (${f.source?.citation ?? ''})`).join(' ')}`);
  const caveats: string[] = [...u.gaps];
  if (u.gaps.length) confidence = minConf(confidence, 'medium');
  if (u.unknown.length) { caveats.push(`No data for ${u.unknown.join(', ')} (coverage is the 50 states and DC)`); confidence = minConf(confidence, 'medium'); }
  const unc = facts.filter((f) => f.uncertain).length;
  if (unc) caveats.push(`${plural(unc, 'fact')} above ${unc === 1 ? 'is' : 'are'} marked unverified or conflicting in our sources; confirm with the statute or ordinance`);
  if (facts.some((f) => f.intent === 'eviction_timeline' || f.detail[0]?.includes('estimate'))) caveats.push('Eviction timelines are secondary-source estimates for uncontested cases, not legal deadlines');
  if (facts.some((f) => f.source && ['comps', 'rehab', 'investor', 'location'].includes(f.source.type))) caveats.push('Market and location figures describe the period up to their as-of date, which may be years before today');
  if (legal) caveats.push(NOT_LEGAL_ADVICE.replace(/\.$/, ''));
  paras.push(`Caveats: ${caveats.join('. ')}.`);
  const sources = dedupeSources([...cited, ...related].map((f) => f.source));
  paras.push(`Sources: ${sources.map((s) => s.citation).join(' | ')}`);
  return { answer: paras.join('\n\n'), sources, confidence, facts };
}

/** Counts sentences the way a reader would: ends at . ! ? followed by a space and a capital, not after St./U.S./v. */
export function countSentences(text: string): number {
  const cleaned = text.replace(/\b(St|Ft|Mt|U\.S|v|Ann|Stat|Code|Rev|Gen|Tex|Cal|No|Sec|Mun|Ord|Prop|Civ|Gov|Loc|Ch|et seq)\.(?=\s)/g, '$1');
  return cleaned.split(/(?<=[.!?])\s+(?=[A-Z"(])/).filter((s) => s.trim().length > 0).length;
}
