// State regulation records about title (scripts/author-regulations.ts): mortgage foreclosure, tax sales and surplus
// equity, adverse possession.
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { TYLER, statuteOf } from './citations.ts';
import { RATE_BASIS } from './notes.ts';
import { fmt, join, make, num, plural, type StateCtx } from './record.ts';
import { TAXES_REQUIRED } from './state-laws.ts';

/** Mortgage foreclosure: judicial, non-judicial or hybrid. */
export function foreclosure(s: StateCtx): RegulationRecord[] {
  const { row, st, name, Name, notes, unc, flagged } = s;
  const out: RegulationRecord[] = [];
  const type = row.foreclosure_type as 'judicial' | 'non-judicial' | 'hybrid';
  const lead = {
    judicial: `Mortgage foreclosure in ${name} is generally judicial: the lender must sue, and the court orders the sale.`,
    'non-judicial': `Mortgage foreclosure in ${name} is generally non-judicial: a trustee can sell the property under the power-of-sale clause without a lawsuit.`,
    hybrid: `${Name} is classed as hybrid: both judicial and non-judicial (power-of-sale) foreclosure are used.`,
  }[type];
  const uncertain = unc.has('foreclosure_type') ? ['foreclosure_type'] : [];
  let summary = join(lead, notes.foreclosure, 'Classification follows the Nolo judicial v. non-judicial chart.');
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'foreclosure', 'process', {
    title: `${row.state_name} mortgage foreclosure process`,
    summary,
    data: { foreclosure_type: type },
    uncertain,
    cite: statuteOf(row.foreclosure_citation),
  }));
  return out;
}

/** Tax sale (lien, deed or hybrid) and the surplus equity after it (Tyler v. Hennepin County). */
export function taxSale(s: StateCtx): RegulationRecord[] {
  const { row, st, name, Name, notes, unc, cite, flagged } = s;
  const out: RegulationRecord[] = [];
  const type = row.tax_sale_type as 'lien' | 'deed' | 'hybrid';
  const rate = num(row.tax_lien_interest_rate_pct);
  const months = num(row.redemption_period_months);
  const basis = RATE_BASIS[st] ?? null;
  const lead = {
    lien: `${Name} sells delinquent property taxes as tax lien certificates: the investor pays the taxes, and the owner can redeem by repaying them with interest or a penalty.`,
    deed: `${Name} is a tax deed state: tax-delinquent property is sold outright (or taken by the county) rather than sold as an interest-bearing lien.`,
    hybrid: `${Name} uses a hybrid tax sale system: redeemable tax deeds, or a mix of liens and deeds depending on the county or stage.`,
  }[type];
  const rateText = rate !== null ? `The maximum return commonly quoted is ${fmt(rate)}% (${basis}); realised yields are often lower.` : type === 'deed' ? '' : basis ? `No single maximum rate is recorded; the rate is ${basis}.` : '';
  const redText = months !== null ? `The owner can redeem for about ${plural(months, 'month')} after the sale.` : type === 'deed' ? 'No post-sale redemption period is recorded.' : 'No single redemption period is recorded.';
  const uncertain: string[] = [];
  if (unc.has('tax_sale_type')) uncertain.push('sale_type');
  if (unc.has('tax_lien_interest_rate_pct')) uncertain.push('interest_rate_pct');
  if (unc.has('redemption_period_months')) uncertain.push('redemption_period_months');
  if (unc.has('tax_sale_note')) uncertain.push('summary');
  let summary = join(lead, rateText, redText, notes.tax);
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'tax_deed_lien', 'tax_sale', {
    title: `${row.state_name} tax sale: ${type === 'lien' ? 'tax lien certificates' : type === 'deed' ? 'tax deeds' : 'hybrid (redeemable deed / lien)'}`,
    summary,
    data: { sale_type: type, interest_rate_pct: rate, rate_basis: type === 'deed' ? null : basis, redemption_period_months: months },
    uncertain,
    cite: cite('tax', 'tax_sale_citation'),
  }));
  out.push(make(st, 'tax_deed_lien', 'surplus_proceeds', {
    title: `Surplus equity after a ${row.state_name} tax sale`,
    summary: `Under ${TYLER}, a government that sells or keeps tax-foreclosed property may not keep value beyond the taxes, interest and costs owed; doing so is a taking. How ${name} now returns surplus proceeds to former owners has not been reviewed here (unverified), and several states changed their procedures after 2023.`,
    data: { surplus_equity_protected: true, state_procedure_reviewed: false },
    uncertain: ['summary'],
    cite: TYLER,
    effective: '2023-05-25',
  }));
  return out;
}

/** Adverse possession: the standard period and the color-of-title route. */
export function adversePossession(s: StateCtx): RegulationRecord[] {
  const { row, st, name, notes, unc, cite, flagged } = s;
  const out: RegulationRecord[] = [];
  const years = num(row.adverse_possession_years)!;
  const cot = num(row.adverse_possession_color_of_title_years);
  const taxes = TAXES_REQUIRED.has(st) ? true : null;
  const uncertain = unc.has('adverse_possession_years') ? ['years'] : [];
  let summary = join(
    `In ${name}, open, continuous, exclusive and hostile possession for ${plural(years, 'year')} can ripen into title by adverse possession${st === 'NM' ? '' : ' (the standard period without color of title)'}.`,
    notes.ap,
  );
  if (uncertain.length) summary = flagged(summary);
  out.push(make(st, 'adverse_possession', 'standard_period', {
    title: `${row.state_name} adverse possession: ${plural(years, 'year')}`,
    summary,
    data: { years, taxes_required: taxes },
    uncertain,
    cite: cite('ap', 'adverse_possession_citation'),
  }));
  const cotUncertain = st === 'WI' ? ['color_of_title_years'] : [];
  let cotSummary = cot !== null
    ? cot < years
      ? `With color of title (a deed or other written claim that turns out to be defective), the period in ${name} drops to ${plural(cot, 'year')}, against ${plural(years, 'year')} without it.`
      : `Holding color of title does not shorten the period in ${name}: it is ${plural(cot, 'year')} either way, though it can affect what must be shown.`
    : st === 'NM'
      ? `New Mexico has no separate, shorter color-of-title period in our reference: the ${fmt(years)}-year period itself requires color of title, good faith and payment of taxes.`
      : `No shorter color-of-title period is recorded for ${name}; the standard ${fmt(years)}-year period applies.`;
  cotSummary = join(cotSummary, notes.apColor);
  out.push(make(st, 'adverse_possession', 'color_of_title', {
    title: `${row.state_name} adverse possession with color of title`,
    summary: cotUncertain.length ? flagged(cotSummary) : cotSummary,
    data: { has_color_of_title_route: cot !== null, color_of_title_years: cot },
    uncertain: cotUncertain,
    cite: cite('ap', 'adverse_possession_citation'),
  }));
  return out;
}
