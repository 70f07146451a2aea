// The legal terms of the glossary (glossary.ts): "what is a tax deed", "what does judicial foreclosure mean", "define
// adverse possession" (h67ask: before, "what is a tax deed" answered "I don't have an answer without a place"). Each
// says what the term means in the words of the state facts the service records (state_legal, warehouse/docs/legal.md;
// the reference's column meanings, ../shared/reference/legal-facts.md) and how to ask a state's own rule; no state's
// figure is given here, as a definition names no place. Rules: warehouse/docs/research.md "Definitions".
import type { Source } from './facts.ts';

export interface GlossaryEntry { id: string; term: RegExp; sentence: string; detail: string[]; source: Source }

const legal = (category: string, column: string): Source => ({ type: 'definition', category, citation: `Service method: warehouse/docs/legal.md, "Tables" (state_legal ${column}); public-law reference legal-facts.md, column ${column}` });
export const NOT_ADVICE = 'This is general information from public-law reference data, not legal advice.';

export const LEGAL_ENTRIES: GlossaryEntry[] = [
  {
    id: 'tax_deed',
    term: /(an? |the )?tax[- ]deeds?( sales?)?/,
    sentence: 'A tax deed sale sells a property itself to collect its delinquent property taxes: the buyer receives a deed, and the owner has no right to redeem after the sale (some states allow one before it); in a tax lien state the sale is of a lien certificate instead, which the owner can redeem with interest, and a hybrid state sells redeemable deeds, or both liens and deeds, or leaves it to the county',
    detail: ['Each state\'s kind (lien, deed or hybrid) is recorded: ask "is Florida a tax deed state" for one state\'s rule, or "which states are tax deed states" for the list.', NOT_ADVICE],
    source: legal('tax_deed_lien', 'lien_or_deed'),
  },
  {
    id: 'tax_lien',
    term: /(an? |the )?tax[- ]liens?( certificates?| sales?)?/,
    sentence: 'A tax lien sale sells a certificate for a property\'s delinquent taxes, not the property: the owner can redeem it within the state\'s redemption period by paying the taxes plus the statutory interest or penalty to the certificate holder, who can seek the property only if it is not redeemed; the rate recorded is the statutory maximum, which many states bid down at the auction',
    detail: ['Ask "tax lien interest rate in Florida" for one state\'s rate and redemption period, or "which states are tax lien states" for the list.', NOT_ADVICE],
    source: legal('tax_deed_lien', 'interest_rate_pct'),
  },
  {
    id: 'redemption',
    term: /(an? |the )?(tax (sale )?)?(redemption|right of redemption|redemption periods?|redemption rights?)/,
    sentence: 'The redemption period is the time after a tax sale in which the owner can take the property back by paying the taxes, the interest or penalty and the costs; lien states and redeemable-deed states have one, deed states none after the sale (the service records tax-sale redemption only, not redemption after a mortgage foreclosure)',
    detail: ['Ask "redemption period in Texas" for one state\'s months.', NOT_ADVICE],
    source: legal('tax_deed_lien', 'redemption_period_months'),
  },
  {
    id: 'foreclosure_type',
    term: /(an? |the )?(judicial|non-?judicial|nonjudicial|power[- ]of[- ]sale) foreclosures?( process)?|(an? )?power of sale( clause)?/,
    sentence: 'In a judicial foreclosure the lender must sue in court and the property is sold after the court\'s judgment; in a non-judicial foreclosure the lender sells under the power-of-sale clause of the mortgage or deed of trust without a lawsuit; a hybrid state uses both (or a court-supervised power of sale)',
    detail: ['Ask "is Pennsylvania a judicial foreclosure state" for one state\'s process, or "which states are judicial foreclosure states" for the list.', NOT_ADVICE],
    source: legal('foreclosure', 'foreclosure_type'),
  },
  {
    id: 'adverse_possession',
    term: /(an? |the )?(adverse possession|squatters'? rights|colou?r of title)/,
    sentence: 'Adverse possession lets someone who holds another\'s land openly, continuously, exclusively and without the owner\'s permission for the state\'s statutory period claim title to it; many states shorten the period for one holding under color of title (a deed or other document that appears to give title but is defective), often with the taxes paid',
    detail: ['Ask "adverse possession in Connecticut" for one state\'s years.', NOT_ADVICE],
    source: legal('adverse_possession', 'adverse_possession_years'),
  },
  {
    id: 'pay_or_quit',
    term: /(an? |the )?((notice to )?pay[- ]or[- ]quit( notices?)?|(nonpayment|non-payment) (eviction )?notices?)/,
    sentence: 'A pay-or-quit notice is a landlord\'s written notice to a tenant to pay the rent owed or move out by a deadline, the step before filing an eviction for nonpayment; state law sets its days (some count business days, and a few states set no statutory notice at all)',
    detail: ['Ask "eviction notice in New York" for one state\'s days.', NOT_ADVICE],
    source: legal('eviction', 'eviction_notice_days'),
  },
  {
    id: 'just_cause',
    term: /(an? |the )?(just|good)[- ]cause( eviction)?( laws?| requirements?)?/,
    sentence: 'A just-cause (good-cause) eviction law lets a landlord end a tenancy only for a reason the law lists (such as nonpayment, a lease breach or the owner moving in), not simply because the lease ends',
    detail: ['Ask "does Washington require just cause" for one state\'s rule.', NOT_ADVICE],
    source: legal('eviction', 'just_cause_required'),
  },
  {
    id: 'rent_control_preemption',
    term: /(an? |the )?(rent control preemption|preemption of rent control|statewide rent (control|caps?))/,
    sentence: 'Rent control preemption is a state law that bars its cities and counties from enacting rent control; a statewide rent cap is the state\'s own limit on rent increases (recorded for California, Oregon, Washington and the District of Columbia)',
    detail: ['Ask "rent control in Oregon" for one state\'s rule.', NOT_ADVICE],
    source: legal('rent_control', 'rent_control_preemption'),
  },
];
