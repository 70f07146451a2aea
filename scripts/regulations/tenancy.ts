// State regulation records about renting (scripts/author-regulations.ts): rent control preemption and statewide caps,
// eviction (nonpayment notice, timeline estimate, just cause), security deposits.
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { UNVERIFIED_CITE } from './citations.ts';
import { fmt, join, make, num, plural, type StateCtx } from './record.ts';
import { DAY_TYPE, EFFECTIVE, JUST_CAUSE, STATEWIDE_CAP } from './state-laws.ts';

/** Rent control: state preemption of local rules, and the statewide cap (or its absence). */
export function rentControl(s: StateCtx): RegulationRecord[] {
  const { row, st, Name, notes, unc, cite, flagged } = s;
  const out: RegulationRecord[] = [];
  const pre = row.rent_control_preemption as 'yes' | 'no' | 'partial';
  const cap = row.statewide_rent_control === 'yes';
  const lead = {
    yes: `${Name} law bars cities and counties from adopting their own rent control.`,
    no: st === 'DC'
      ? 'The District of Columbia is itself the local government, so no state law limits its rent regulation.'
      : `No ${row.state_name} statute bars local rent control, so local governments may adopt it where their own powers allow.`,
    partial: `${Name} limits, but does not ban, local rent control.`,
  }[pre];
  const capText = cap ? `${Name} also has a ${st === 'DC' ? 'district-wide' : 'statewide'} cap on rent increases (see the statewide cap record).` : `There is no statewide cap on rent increases.`;
  const uncertain: string[] = [];
  if (unc.has('rent_control_preemption')) uncertain.push('preempts_local');
  if (unc.has('rent_control_preemption_citation')) uncertain.push('source_citation');
  const preCite = cite('preemption', 'rent_control_preemption_citation');
  let summary = join(
    lead,
    notes.preemption,
    capText,
    preCite === null && pre !== 'no' && !notes.preemption ? 'No statute section is recorded for this classification.' : undefined,
    'Sources: the NMHC/NAA rent control chart and federalstatelaw.com.',
  );
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'rent_control', 'state_preemption', {
    title: `${row.state_name} rent control preemption`,
    summary,
    data: { preempts_local: pre, statewide_cap: cap },
    uncertain,
    cite: preCite,
  }));

  const sc = STATEWIDE_CAP[st];
  if (cap && !sc) throw new Error(`${st}: statewide cap without wording`);
  out.push(make(st, 'rent_control', 'statewide_cap', sc
    ? {
        title: `${row.state_name} statewide rent increase cap`,
        summary: sc.text,
        data: { statewide_cap: true, cpi_plus_pct: sc.cpi, max_annual_increase_pct: sc.max, new_construction_exempt_years: sc.exempt },
        cite: sc.cite,
        effective: sc.effective,
      }
    : {
        title: `${row.state_name} statewide rent increase cap`,
        summary: st === 'NY'
          ? 'New York has no statewide cap on rent increases for market-rate housing; rent stabilization applies only where a locality has opted in to the Emergency Tenant Protection Act, and New York City has its own rules (see the New York City overlays).'
          : `${Name} has no statewide cap on residential rent increases.`,
        data: { statewide_cap: false, cpi_plus_pct: null, max_annual_increase_pct: null, new_construction_exempt_years: null },
      }));
  return out;
}

/** Eviction: the nonpayment notice (and Virginia's pending 14 days), the uncontested timeline estimate, just cause. */
export function eviction(s: StateCtx): RegulationRecord[] {
  const { row, st, name, Name, notes, unc, cite, flagged } = s;
  const out: RegulationRecord[] = [];
  const days = num(row.eviction_notice_nonpayment_days)!;
  const dayType = DAY_TYPE[st] ?? null;
  const uncertain: string[] = [];
  if (unc.has('eviction_notice_nonpayment_days')) uncertain.push('notice_days');
  if (unc.has('eviction_notice_note')) uncertain.push('summary');
  const lead = days > 0
    ? `Before filing an eviction for unpaid rent, a landlord in ${name} must give the tenant at least ${fmt(days)}${dayType ? ` ${dayType}` : ''} days' notice to pay or move out.`
    : `${Name} sets no statutory notice period before filing an eviction for unpaid rent (0 days). This is not an instant eviction: the court process still applies.`;
  let summary = join(lead, notes.notice);
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'eviction', 'nonpayment_notice', {
    title: `${row.state_name} nonpayment of rent notice: ${days > 0 ? `${fmt(days)}${dayType ? ` ${dayType}` : ''} days` : 'no statutory notice'}`,
    summary,
    data: { notice_required: days > 0, notice_days: days, day_type: days > 0 ? dayType : null },
    uncertain,
    cite: cite('notice', 'eviction_notice_citation'),
    effective: EFFECTIVE[st]?.notice ?? null,
  }));

  if (st === 'VA') {
    out.push(make(st, 'eviction', 'nonpayment_notice', {
      idSuffix: '14-day-proposal',
      title: 'Virginia nonpayment notice: proposed 14 days (enactment unverified)',
      summary: 'Unverified: 2024 HB 598 would lengthen Virginia\u2019s pay-or-quit notice to 14 days. It passed both chambers, but we have not confirmed that it became law or when it takes effect; until then the 5-day rule applies.',
      data: { notice_required: true, notice_days: 14, day_type: null },
      uncertain: ['status', 'notice_days', 'effective_date'],
      cite: 'Va. Code 55.1-1245(F) (as proposed by HB 598, 2024)',
      status: 'pending',
    }));
  }

  const est = row.eviction_timeline_days_est ?? '';
  const m = /^(\d+)-(\d+)$/.exec(est.trim());
  const source = st === 'WY' ? 'undergroundlandlord.com' : 'eviction-process.com state timelines';
  // the reference's eviction_timeline_citation (a secondary source: the summary says so) and its page as the URL
  const timelineCite = (row.eviction_timeline_citation ?? '').trim() || undefined;
  const page = timelineCite ? /^([a-z0-9-]+(?:\.[a-z0-9-]+)+\/[^\s()]*)/i.exec(timelineCite)?.[1] : undefined;
  out.push(make(st, 'eviction', 'timeline_estimate', m
    ? {
        cite: timelineCite,
        url: page ? `https://${page}` : undefined,
        title: `${row.state_name} uncontested nonpayment eviction: about ${m[1]}-${m[2]} days`,
        summary: `An uncontested eviction for nonpayment in ${name} takes roughly ${m[1]} to ${m[2]} days from the first notice to possession. This is an estimate from one secondary source (${source}), not a legal deadline; contested cases and busy courts take longer.`,
        data: { min_days: Number(m[1]), max_days: Number(m[2]) },
      }
    : {
        title: `${row.state_name} uncontested nonpayment eviction: no estimate`,
        summary: `No public source we reviewed gave a timeline for an uncontested nonpayment eviction in ${name}, so no estimate is recorded rather than a guess.`,
        data: { min_days: null, max_days: null },
      }));

  const jc = JUST_CAUSE[st];
  if (jc) {
    out.push(make(st, 'eviction', 'just_cause', {
      title: `${row.state_name} just-cause eviction law`,
      summary: join(jc.text, UNVERIFIED_CITE),
      data: { just_cause_required: true, applies_after_months: jc.months },
      uncertain: ['source_citation'],
      cite: jc.cite,
      effective: jc.effective,
    }));
  }
  return out;
}

/** Landlord-tenant: the security deposit limit. */
export function securityDeposit(s: StateCtx): RegulationRecord[] {
  const { row, st, Name, notes, unc, cite, flagged } = s;
  const out: RegulationRecord[] = [];
  const limit = num(row.security_deposit_limit_months);
  const uncertain: string[] = [];
  if (unc.has('security_deposit_limit_months')) uncertain.push('deposit_limit_months');
  if (unc.has('security_deposit_note')) uncertain.push('summary');
  const lead = limit !== null
    ? `${Name} caps residential security deposits at ${plural(limit, 'month')}' rent.`.replace("1 month' rent", "1 month's rent")
    : `${Name} sets no statutory limit on the amount of a residential security deposit.`;
  let summary = join(lead, notes.deposit);
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'landlord_tenant', 'security_deposit', {
    title: `${row.state_name} security deposit limit: ${limit !== null ? plural(limit, 'month') : 'no cap'}`,
    summary,
    data: { has_statutory_cap: limit !== null, deposit_limit_months: limit },
    uncertain,
    cite: cite('deposit', 'security_deposit_citation'),
    effective: EFFECTIVE[st]?.deposit ?? null,
  }));
  return out;
}
