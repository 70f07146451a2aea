// Regulation records as facts (POST /v1/research/query): a record of the index (<build>/live/research/) found by
// state, category and subcategory, or a city's or county's overlay, worded by its formatter with its citation,
// effective and review dates and uncertainty notes. Templates: warehouse/docs/research.md.
import type { ResearchData, RegulationDoc } from './data.ts';
import type { Intent } from './intent.ts';
import type { Target } from './places.ts';
import { fmt, inline, num, plural, type Confidence, type Fact, type Source } from './facts.ts';
import { slug } from '../../warehouse/layout.ts';
import { BOROUGHS } from './place-words.ts';
import { isEnglishWord } from '../places/english.ts';

function dates(d: RegulationDoc): string {
  const parts: string[] = [];
  if (d.effective_date) parts.push(`effective ${d.effective_date}`);
  if (d.last_reviewed_at) parts.push(`last reviewed ${d.last_reviewed_at}`);
  return parts.join(', ');
}

export function regSource(d: RegulationDoc): Source {
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

export function stateRecord(data: ResearchData, state: string, category: string, subcategory: string): RegulationDoc | null {
  const list = data.byState.get(state) ?? [];
  return list.find((d) => d.level === 'state' && d.category === category && d.subcategory === subcategory && d.status === 'active') ?? null;
}
export function pendingRecords(data: ResearchData, state: string, category: string, subcategory: string): RegulationDoc[] {
  return (data.byState.get(state) ?? []).filter((d) => d.category === category && d.subcategory === subcategory && d.status === 'pending');
}

/** City and county overlay records that apply to a city (its own records, plus its county's). */
export function overlaysFor(data: ResearchData, t: Target): RegulationDoc[] {
  // a county asked (no city): its own county records
  if (!t.city && t.area && t.state !== 'DC') return (data.byState.get(t.state) ?? []).filter((d) => d.status === 'active' && d.subcategory === 'local_overlay' && d.level === 'county' && d.county_fips === t.area!.county_fips);
  // the District is its own city; a place of a New York City borough (the borough asked as a city, "Queens", or a zip
  // mailed as a neighbourhood, 11375 Forest Hills) is New York City, whose ordinances are the city's
  const name = inNewYorkCity(data, t) ? 'New York' : t.city ?? (t.state === 'DC' ? 'Washington' : null);
  if (!name) return [];
  const city = data.cityInState(name, t.state);
  const lc = slug(name);
  const all = (data.byState.get(t.state) ?? []).filter((d) => d.status === 'active' && d.subcategory === 'local_overlay' &&
    ((d.level === 'city' && d.city !== null && slug(d.city) === lc) || (d.level === 'county' && city?.county_fips != null && d.county_fips === city.county_fips)));
  // a county ordinance is for cities of the county without their own, and one of unincorporated areas only never for an
  // incorporated city (warehouse/docs/legal.md, Overlays)
  return all.filter((d) => d.level !== 'county' || (!all.some((c) => c.level === 'city' && c.category === d.category)
    && !(d.data['unincorporated_only'] === true && city?.incorporated === true)));
}

/** Whether a place lies in one of New York City's five borough counties: by its area, its zip's county, or its city's. */
function inNewYorkCity(data: ResearchData, t: Target): boolean {
  if (t.state !== 'NY') return false;
  const county = t.area?.county_fips ?? (t.zip ? data.zips.get(t.zip)?.county_fips : undefined) ?? (t.city ? data.cityInState(t.city, t.state)?.county_fips : null);
  return county != null && BOROUGHS.some(([, a]) => a.county_fips === county);
}

interface RegFact { value: string; sentence: string; keys: string[]; confidence?: Confidence }
type Formatter = (d: RegulationDoc, S: string) => RegFact;

/** What a nonpayment notice of 0 days (no statutory notice before filing: legal-facts.md note 5) does not mean, in the
 *  words of GET /v1/legal/landlord-profile's summary (pipelines/intermediate/20_legal_06_state_text.sql). */
/** The redemption fact's value where the state's record gives no period after the tax sale. */
export const NO_REDEMPTION = 'no post-sale redemption period recorded';
export const NO_NOTICE_CLAUSE = 'that is not an instant eviction: the court process still applies';

/** What a hybrid tax sale state sells, by its record's rate basis (from legal-facts.csv's tax_rate_basis): a redemption
 *  premium or penalty on a redeemable deed (Texas, Georgia, Delaware, Hawaii) or a tax title (Massachusetts) is a
 *  redeemable deed; lien certificates in some counties; county by county; else the warehouse's own words
 *  (pipelines/intermediate/20_legal_06_state_text.sql), never "liens and deeds" alone. */
export function hybridKind(basis: string | null): string {
  const b = (basis ?? '').toLowerCase();
  if (/redeemable (collector'?s )?deed|redemption premium/.test(b)) return 'it sells redeemable tax deeds, which the owner can buy back within the redemption period';
  if (/tax title/.test(b)) return 'it sells redeemable tax titles, which the owner can buy back within the redemption period';
  if (/certificate/.test(b)) return 'lien certificates where counties sell them, deed sales otherwise';
  if (/county-specific|by county/.test(b)) return 'liens or deeds, county by county';
  return 'redeemable deeds, or liens and deeds by county';
}

const FORMAT: Record<string, Formatter> = {
  'eviction/nonpayment_notice': (d, S) => {
    const days = num(d.data['notice_days']);
    const type = typeof d.data['day_type'] === 'string' && d.data['day_type'] !== 'calendar' ? `${d.data['day_type'] as string} ` : '';
    if (d.data['notice_required'] === false || days === 0 || days === null) {
      return { value: 'no statutory pre-filing notice', sentence: `${S} sets no statutory notice period before a landlord files an eviction for unpaid rent; ${NO_NOTICE_CLAUSE}`, keys: ['notice_days', 'notice_required'] };
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
    const parts = [type === 'hybrid' ? `${S} uses a hybrid tax sale system (${hybridKind(basis)})` : `${S} is a tax ${type} state`];
    if (rate !== null) parts.push(`the maximum statutory return is ${fmt(rate)}%${basis ? ` (${basis})` : ''}`);
    if (red !== null) parts.push(`the owner can redeem for ${plural(red, 'month')} after the sale`);
    return { value: `${type}${rate !== null ? `, ${fmt(rate)}%` : ''}${red !== null ? `, ${plural(red, 'month')} to redeem` : ''}`, sentence: parts.join('; '), keys: ['sale_type', 'interest_rate_pct', 'rate_basis', 'redemption_period_months'] };
  },
  'redemption': (d, S) => {
    const red = num(d.data['redemption_period_months']);
    const type = String(d.data['sale_type'] ?? 'unknown');
    if (red === null) return { value: NO_REDEMPTION, sentence: `${S} is a tax ${type} state and our data records no redemption period after the tax sale`, keys: ['redemption_period_months', 'sale_type'], confidence: 'medium' };
    return { value: `${plural(red, 'month')} to redeem`, sentence: `In ${S} the owner can redeem for ${plural(red, 'month')} after a tax sale (${type === 'hybrid' ? `a hybrid tax sale state: ${hybridKind(typeof d.data['rate_basis'] === 'string' ? d.data['rate_basis'] : null)}` : `a tax ${type} state`})`, keys: ['redemption_period_months', 'sale_type'] };
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
    const where = d.state === 'DC' ? 'The District of Columbia' : d.state === 'NY' && d.city === 'New York' ? 'New York City' : d.city ?? 'the county';
    const cause = JUST_CAUSE_OVERLAY(d);
    let s: string;
    if (d.data['rent_control'] === true && d.category === 'rent_control') s = `${where} has local rent control${formula ? ` (allowed increase: ${formula})` : cap !== null ? ` (at most ${fmt(cap)}% a year)` : ''}`;
    else if (cause) s = `${where} has its own ${cause} eviction rule: ${inline(d.title)}`;
    else s = `${where} has local tenant protections beyond state law (${inline(d.title)})`;
    return { value: d.data['rent_control'] === true ? `local rent control${cap !== null ? ` (cap ${fmt(cap)}%)` : ''}` : 'local eviction protections', sentence: s, keys: ['rent_control', 'eviction_protections', 'annual_cap_pct', 'cap_formula'] };
  },
};

/** A city's or county's eviction record on just or good cause ("San Francisco just cause eviction"): which of the two
 *  words it uses, or null. */
export const JUST_CAUSE_OVERLAY = (d: RegulationDoc): 'just cause' | 'good cause' | null => {
  if (d.subcategory !== 'local_overlay' || d.category !== 'eviction') return null;
  const m = /\b(just|good)[- ]cause\b/i.exec(`${d.title} ${d.id}`);
  return m ? (m[1]!.toLowerCase() === 'good' ? 'good cause' : 'just cause') : null;
};

/** A regulation record as a fact. */
/** Records whose figure has terms that change it for some properties or people (Connecticut's deposit cap is 1 month
 *  for tenants 62 or older; Colorado's trustee sale needs a Rule 120 court order first): their summary's sentences after
 *  the first state those terms and go with the figure, quick answers too. */
const TERMS_OF = new Set(['landlord_tenant/security_deposit', 'eviction/nonpayment_notice', 'foreclosure/process', 'adverse_possession/standard_period', 'adverse_possession/color_of_title', 'rent_control/statewide_cap']);
/** A summary sentence about the record's sources or review, not the rule (the uncertainty note says those). */
const ABOUT_SOURCES = /unverified|conflict|chart|citation|sources?\b|reviewed|not an instant eviction/i;
function ruleTerms(d: RegulationDoc, S: string): string[] {
  if (!TERMS_OF.has(`${d.category}/${d.subcategory}`)) return [];
  // one sentence with the figure (a quick answer keeps to three): each term after a semicolon, its first word in lower
  // case unless a name (the state's, an act's "HB 25-1249", a place's: any word not a common English one, review 29:
  // "chicago's Residential Landlord and Tenant Ordinance")
  const lead = (x: string): string => {
    const w = /^[A-Z][a-z]+\b/.exec(x)?.[0];
    return w && isEnglishWord(w) && !S.startsWith(w) ? `${x[0]!.toLowerCase()}${x.slice(1)}` : x;
  };
  return d.summary.split(/(?<=\.)\s+(?=[A-Z])/).slice(1).filter((x) => !ABOUT_SOURCES.test(x)).map((x) => lead(inline(x).replace(/\.$/, '')));
}

export function regFact(intent: Intent | 'search', t: Target, d: RegulationDoc, S: string, primary: boolean, formatter?: string): Fact {
  const f = formatter ? FORMAT[formatter] : d.subcategory === 'local_overlay' ? FORMAT['overlay'] : FORMAT[`${d.category}/${d.subcategory}`];
  const base: RegFact = f ? f(d, S) : { value: inline(d.title), sentence: inline(d.summary.split(/(?<=\.)\s+(?=[A-Z])/)[0] ?? d.title), keys: [] };
  if (d.level === 'county' && d.subcategory === 'local_overlay' && t.city) base.sentence = base.sentence.replace('A county ordinance may apply:', `A county ordinance may apply in ${t.city}:`);
  // the county itself asked ("rent control in Montgomery County MD"): its own ordinance, said as such
  else if (d.level === 'county' && d.subcategory === 'local_overlay' && t.area && d.county_fips === t.area.county_fips) {
    base.sentence = base.sentence.replace(/^A county ordinance may apply: /, `${t.area.name} has its own ordinance: `).replace(/a county rule's reach inside city limits varies, so check its scope for the property/, 'a city of the county with its own rules may not be covered, so check its scope for the property');
    delete base.confidence;
  }
  const unc = uncertainty(d, base.keys);
  const when = dates(d);
  const terms = f && d.level === 'state' ? ruleTerms(d, S) : [];
  const said = `${base.sentence}${terms.map((x) => `; ${x}`).join('')}`;
  const sentence = `${said.replace(/^the District of Columbia law\b/, 'District of Columbia law')}${when ? ` (${when}${unc ? `; ${unc}` : ''})` : unc ? ` (${unc})` : ''}`;
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
