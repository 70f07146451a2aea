// Legal expectations of the research question set: a legal-facts.csv column of a state (or its extreme across
// states) said of that state and cited by the state's own `regulations` record; landlord friendliness and market legal
// risk recomputed from the records with the formulas of warehouse/docs/legal.md (never read from a shard).
import { about, byState, type Check, type Cite, csvRows, esc, fail, fmtNum, hasNumberUnit, nameRe, sentencesAbout, stateName, stripDates } from './research-questions.ts';
import { citesRecord, cityCounty, clamp, num, regKey, type RegRow, regRows, regs, round1, sd, slugOf } from './oracle-research.ts';

export const CSV_RECORD: Record<string, [string, string]> = {
  eviction_notice_nonpayment_days: ['eviction', 'nonpayment_notice'], eviction_timeline_days_est: ['eviction', 'timeline_estimate'],
  security_deposit_limit_months: ['landlord_tenant', 'security_deposit'], foreclosure_type: ['foreclosure', 'process'],
  tax_sale_type: ['tax_deed_lien', 'tax_sale'], tax_lien_interest_rate_pct: ['tax_deed_lien', 'tax_sale'], redemption_period_months: ['tax_deed_lien', 'tax_sale'],
  rent_control_preemption: ['rent_control', 'state_preemption'], adverse_possession_years: ['adverse_possession', 'standard_period'],
  adverse_possession_color_of_title_years: ['adverse_possession', 'color_of_title'],
};
export function recordCite(st: string, col: string): Cite {
  const [cat, sub] = CSV_RECORD[col]!;
  const r = regs.get(regKey(st, cat, sub)) ?? fail(`no active ${cat}/${sub} record for ${st} in the warehouse regulations table`);
  return { label: `${st}'s own ${cat}/${sub} record (${r.source_citation ?? r.id})`, ok: citesRecord(r) };
}

export function csvCheck(col: string, st: string): Check {
  const r = byState.get(st) ?? fail(`no legal-facts.csv row for ${st}`);
  const v = (r[col] ?? '').trim();
  const name = stateName(st);
  const cite = recordCite(st, col);
  const said = (label: string, re: RegExp): Check => ({ label: `${col}[${st}] = ${label}`, ok: (a) => about(stripDates(a), name, (w) => re.test(w)), cite });
  // "none" is said of the whole sentence ("We have no public estimate of how long an eviction takes in Kansas")
  const none = (re: RegExp): Check => ({ label: `${col}[${st}] = none`, ok: (a) => sentencesAbout(a, name).some((x) => re.test(x)), cite });
  const num = (n: string, unit: string): Check => ({ label: `${col}[${st}] = ${n} ${unit}`, ok: (a) => about(a, name, (w) => hasNumberUnit(w, n, unit)), cite });
  switch (col) {
    case 'eviction_notice_nonpayment_days':
      return v === '0' ? none(/no statutory notice/i) : num(v, 'days?\\b');
    case 'security_deposit_limit_months':
      return v === 'none' ? none(/no statutory cap/i) : num(v, 'months?\\b');
    case 'foreclosure_type':
      // the state's own type: "Florida is judicial", "Florida judicial" (a comparison), never "non-judicial" for judicial
      return said(v, new RegExp(`^${nameRe(name)}(?: is)? ${esc(v)}\\b`, 'i'));
    case 'tax_sale_type':
      // the stated type of that state: "Iowa is a tax lien state", "Texas uses a hybrid tax sale system", "Iowa lien, 24%"
      return said(v, v === 'hybrid' ? new RegExp(`^${nameRe(name)} (?:uses a hybrid|hybrid\\b)`, 'i') : new RegExp(`^${nameRe(name)}(?: is a tax)? ${v}\\b`, 'i'));
    case 'tax_lien_interest_rate_pct':
      return v === '' ? fail(`legal-facts.csv has no ${col} for ${st}`) : num(v, '%');
    case 'redemption_period_months':
      return v === '' ? none(/no redemption period/i) : num(v, 'months?\\b');
    case 'rent_control_preemption':
      return said(v, ({ yes: /prohibits local rent control/i, no: /does not preempt local rent control/i, partial: /partially preempts/i } as Record<string, RegExp>)[v] ?? fail(`${col}[${st}] = "${v}"`));
    case 'adverse_possession_years':
    case 'adverse_possession_color_of_title_years':
      return v === '' ? fail(`legal-facts.csv has no ${col} for ${st}`) : num(v, 'years?\\b');
    case 'eviction_timeline_days_est':
      return v === '' ? none(/no public estimate/i) : num(v, 'days?\\b');
    default:
      return fail(`no rule for CSV column ${col}`);
  }
}

const UNIT_OF: Record<string, string> = { eviction_notice_nonpayment_days: 'days?\\b', tax_lien_interest_rate_pct: '%', adverse_possession_years: 'years?\\b', security_deposit_limit_months: 'months?\\b' };
export function extreme(col: string, dir: 'max' | 'min'): Check {
  const vals = csvRows.map((r) => ({ st: r['state_code']!, v: Number(r[col]) })).filter((x) => Number.isFinite(x.v) && x.v > 0);
  vals.sort((a, b) => (dir === 'max' ? b.v - a.v : a.v - b.v));
  const best = vals[0] ?? fail(`no numeric ${col} in legal-facts.csv`);
  return { label: `${dir} ${col} = ${stateName(best.st)} ${best.v}`, ok: (a) => about(a, stateName(best.st), (w) => hasNumberUnit(w, fmtNum(best.v), UNIT_OF[col]!)), cite: recordCite(best.st, col) };
}

// ---- legal scores, recomputed from the regulations records with the formulas of warehouse/docs/legal.md ----
const stateRec = (st: string, cat: string, sub: string): Record<string, unknown> | null => sd(regs.get(regKey(st, cat, sub)));
/** timeline component: the midpoint of the uncontested estimate, 21 days or fewer 100, 120 or more 0 (null: no estimate) */
function timelineScore(st: string): number | null {
  const t = stateRec(st, 'eviction', 'timeline_estimate');
  const lo = num(t?.['min_days']); const hi = num(t?.['max_days']);
  return lo === null || hi === null ? null : clamp(100 - ((lo + hi) / 2 - 21) * 100 / 99);
}
/** Landlord friendliness (0-100, one decimal), a missing input scoring the neutral 50. */
export function friendlinessOf(st: string): number {
  if (!regs.has(regKey(st, 'eviction', 'nonpayment_notice'))) fail(`no nonpayment notice record for ${st}: friendliness cannot be derived`);
  const n = stateRec(st, 'eviction', 'nonpayment_notice');
  const days = num(n?.['notice_days']);
  const calendar = days === null ? null : days * (['business', 'judicial', 'court'].includes(String(n?.['day_type'] ?? '')) ? 1.4 : 1);
  const notice = calendar === null ? 50 : days === 0 ? 100 : clamp(100 - (calendar - 3) * 100 / 27);
  const timeline = timelineScore(st) ?? 50;
  const d = stateRec(st, 'landlord_tenant', 'security_deposit');
  const cap = num(d?.['deposit_limit_months']);
  const deposit = !d ? 50 : d['has_statutory_cap'] === false ? 100 : cap === null ? 50 : clamp(10 + 30 * cap);
  const p = stateRec(st, 'rent_control', 'state_preemption');
  const preemption = ({ yes: 100, partial: 50, no: 0 } as Record<string, number>)[String(p?.['preempts_local'])] ?? 50;
  const sc = stateRec(st, 'rent_control', 'statewide_cap');
  const hasCap = sc ? sc['statewide_cap'] === true : p && typeof p['statewide_cap'] === 'boolean' ? p['statewide_cap'] : null;
  const statewide = hasCap === null ? 50 : hasCap ? 0 : 100;
  const justCause = stateRec(st, 'eviction', 'just_cause')?.['just_cause_required'] === true ? 0 : 100;
  return round1(0.15 * notice + 0.20 * timeline + 0.15 * deposit + 0.20 * preemption + 0.15 * statewide + 0.15 * justCause);
}
/** Market legal risk (0-100, one decimal) of a city: seven component risks, weights as documented. */
export function legalRiskOf(st: string, city: string): number {
  const county = cityCounty.get(`${st}|${slugOf(city)}`) ?? fail(`${city}, ${st} is not in the raw simplemaps city list`);
  const own = regRows.filter((r) => r.jurisdiction_level === 'city' && r.state_code === st && slugOf(r.city ?? '') === slugOf(city) && r.subcategory === 'local_overlay');
  const countyRecs = own.length ? [] : regRows.filter((r) => r.jurisdiction_level === 'county' && r.state_code === st && r.county_fips === county && r.subcategory === 'local_overlay');
  const any = (rs: RegRow[], k: string): boolean => rs.some((r) => sd(r)![k] === true);
  const local = (k: string): number => (any(own, k) ? 100 : any(countyRecs, k) ? 50 : 0);
  const fc = ({ judicial: 100, hybrid: 50, 'non-judicial': 0 } as Record<string, number>)[String(stateRec(st, 'foreclosure', 'process')?.['foreclosure_type'])] ?? 50;
  const ts = timelineScore(st);
  const tax = stateRec(st, 'tax_deed_lien', 'tax_sale');
  const months = num(tax?.['redemption_period_months']);
  const redemption = tax?.['sale_type'] === 'deed' ? 0 : months === null ? 50 : Math.min(100, months / 36 * 100);
  const years = num(stateRec(st, 'adverse_possession', 'standard_period')?.['years']);
  const adverse = years === null ? 50 : clamp((21 - years) * 100 / 16);
  return round1(0.35 * (100 - friendlinessOf(st)) + 0.15 * fc + 0.10 * (ts === null ? 50 : 100 - ts) + 0.15 * local('rent_control')
    + 0.10 * local('eviction_protections') + 0.10 * redemption + 0.05 * adverse);
}
