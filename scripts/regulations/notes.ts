// Wording of the state regulation records written by hand for this dataset (scripts/author-regulations.ts): how
// each state's tax-sale rate works, and the per-state caveats in our own words (the reference CSV's notes are
// paraphrased here, never copied; the numbers come from the reference row).

/** Short label for how the quoted tax-sale rate works (null for deed states). */
export const RATE_BASIS: Record<string, string> = {
  AL: 'annual interest, bid down at auction',
  AZ: 'annual interest, bid down at auction',
  CO: 'formula: federal discount rate plus 9 points, set each year; bidders pay premiums instead of bidding the rate down',
  CT: 'annual interest charged on redemption',
  DE: 'penalty paid on redemption of a redeemable deed',
  DC: '1.5% per month',
  FL: 'annual interest, bid down; 5% minimum unless bid at 0%',
  GA: 'redemption premium: 20% in the first year, 10% more for each later year',
  HI: 'annual interest on a redeemable deed',
  IL: 'penalty per 6-month period, bid down',
  IN: 'one-time penalty: 10% if redeemed within 6 months, 15% after',
  IA: '2% per month',
  KY: 'annual interest',
  LA: '1% per month plus a 5% penalty',
  MD: 'interest rate set by each county',
  MA: 'annual interest on redemption of a tax title',
  MS: '1.5% per month',
  MO: 'annual interest on the purchase price; 8% on taxes paid later',
  MT: '5/6 of 1% per month plus a 2% penalty',
  NE: 'annual interest',
  NJ: 'annual interest, bid down, plus a 2% to 6% penalty on larger certificates',
  NY: 'county-specific; New York City sets its lien-sale rate each year',
  OH: 'maximum on tax certificates in counties that sell them',
  OK: 'annual interest on the certificate',
  RI: '10% penalty in the first 6 months, then 1% per month',
  SC: '3% per quarter, up to 12%',
  SD: 'annual interest',
  TN: 'annual interest charged on redemption',
  TX: 'redemption premium on a redeemable deed; 50% in the second year for homestead and agricultural land',
  VT: '1% per month on redemption',
  WV: 'annual interest',
  WY: '15% interest plus a 3% penalty',
};

export interface StateNotes {
  foreclosure?: string;
  tax?: string;
  notice?: string;
  deposit?: string;
  ap?: string;
  /** Caveats that belong to the color-of-title route. */
  apColor?: string;
  preemption?: string;
}

/** Caveats in our own words; numbers come from the reference row. */
export const NOTES: Record<string, StateNotes> = {
  AL: {
    deposit: 'Separate deposits for pets, alterations or added liability are outside the cap.',
    apColor: 'The shorter period needs recorded color of title, ten years of listing the land for taxes, or title by descent; otherwise the 20-year rule of prescription applies.',
  },
  AK: {
    tax: 'Boroughs and cities foreclose on delinquent property; the owner has one year to redeem before the municipality takes a deed (AS 29.45.400).',
    deposit: 'The cap does not apply when the monthly rent is over $2,000.',
  },
  AZ: { apColor: 'A 5-year period also applies to city lots held under a recorded deed with the taxes paid.' },
  AR: {
    foreclosure: 'Arkansas allows power-of-sale foreclosure under its Statutory Foreclosure Act, and judicial foreclosure is also used.',
    tax: 'Tax-delinquent land is sold by the Commissioner of State Lands; investor charts report only a short redemption window after the sale (about 30 days).',
    notice: 'The notice to vacate follows rent being 5 days late (civil unlawful detainer). The older criminal failure-to-vacate route (10 days) is reported to have been repealed; that report is unverified.',
    deposit: 'The cap applies only to landlords with six or more units or whose units are run by a third-party manager.',
    ap: 'Most claims also need color of title or payment of taxes.',
  },
  CA: {
    notice: "The 3 days exclude Saturdays, Sundays and judicial holidays.",
    deposit: 'The 1-month cap took effect on 2024-07-01 (AB 12). A small landlord (a natural person, or an LLC of natural persons, owning no more than two properties with four units in all) may still take 2 months.',
    ap: 'The possessor must also have paid the property taxes for the full 5 years.',
    preemption: 'Local rent control is allowed but limited by the Costa-Hawkins Rental Housing Act: no local caps on single-family homes, condominiums or units built after 1995, and landlords may reset rent between tenants (vacancy decontrol).',
  },
  CO: {
    foreclosure: 'Sales are run by the county public trustee, but a court order under C.R.C.P. 120 is needed first, so there is some court involvement.',
    notice: 'Exempt residential agreements (for example a small landlord renting a single-family home) use a 5-day notice instead.',
    deposit: 'HB 25-1249 caps deposits at 1 month from 2026-01-01 and lets tenants pay in installments; before 2026 there was no general cap (pet deposits were capped at $300). Sources conflict on the current rule, so it is unverified.',
    apColor: 'The 7-year route needs color of title and payment of taxes.',
  },
  CT: {
    foreclosure: 'Courts use strict foreclosure (title passes to the lender after a redemption date) or foreclosure by sale.',
    tax: 'Municipal tax-sale deeds are redeemable for 6 months (one chart says 1 year, so sources conflict); towns may also sell tax liens under Conn. Gen. Stat. 12-195h.',
    notice: 'The notice to quit can be served only once rent is 9 days late.',
    deposit: 'The cap is 1 month for tenants aged 62 or older.',
    preemption: 'Sources conflict: the NMHC/NAA chart lists Connecticut as preempting rent control, but other sources point to the fair rent commissions towns may create under Conn. Gen. Stat. 7-148b.',
  },
  DE: {
    tax: 'Sales convey a redeemable deed; sources conflict on the redemption window (60 days, 6 months or 1 year) and on the penalty.',
    notice: 'If the lease charges a late fee and the landlord has no office in the county, the due date moves back 3 days.',
    deposit: 'The cap applies to leases of a year or more; month-to-month tenancies have no cap in the first year.',
  },
  DC: {
    foreclosure: 'Nolo lists DC under judicial foreclosure and sometimes also non-judicial.',
    tax: 'Whether DC still holds tax sales open to investors is unverified and should be checked before relying on this record.',
    notice: 'Unpaid late fees cannot be the basis of a nonpayment eviction.',
  },
  FL: {
    tax: 'After 2 years the certificate holder can apply for a tax deed; the owner can redeem until the deed issues, and certificates lapse after 7 years.',
    notice: 'The 3 days exclude weekends and legal holidays.',
    ap: 'The possessor must pay the taxes and file a return with the county property appraiser.',
    apColor: 'The color-of-title route also requires paying the taxes.',
  },
  GA: {
    tax: 'Georgia sells a redeemable tax deed; the right to redeem lasts until the buyer serves a notice of foreclosure of the right to redeem (barment) after 12 months.',
    notice: 'The 3-business-day written demand (posted in a sealed envelope) applies to leases from 2024-07-01 under the Safe at Home Act (HB 404); older charts show no statutory notice.',
    deposit: 'The cap is new for leases signed on or after 2024-07-01 (Safe at Home Act); before that Georgia had no cap.',
  },
  HI: {
    foreclosure: 'Judicial foreclosure predominates, but non-judicial power-of-sale foreclosure is also common.',
    deposit: 'A landlord may also take a pet deposit of up to 1 more month.',
  },
  ID: { ap: 'The possessor must pay the taxes under either route; the period was 5 years before 2006.' },
  IL: {
    tax: 'The penalty is charged per 6-month period (up to 36% a year annualised). Redemption runs 2 to 3 years depending on the property and any extension, so the 24-month figure is a floor; the exact period is unverified.',
    deposit: "Chicago's Residential Landlord and Tenant Ordinance adds deposit rules (see the Chicago overlay).",
    apColor: 'The 7-year route needs color of title and payment of taxes.',
  },
  IN: {
    tax: 'Commissioner certificate sales have a shorter 120-day redemption; some counties also hold deed sales.',
    ap: 'The possessor must pay the taxes.',
  },
  IA: {
    foreclosure: 'A non-judicial procedure (Iowa Code ch. 655A) exists but is rarely used.',
    tax: 'The holder may serve a notice of expiration of the right of redemption after 1 year and 9 months (some charts say 2 years).',
  },
  KS: {
    notice: 'The 3-day notice applies to tenancies under 3 months; tenancies of 3 months or longer get 10 days.',
    deposit: 'The cap rises to 1.5 months for furnished units, plus up to half a month for pets.',
  },
  KY: {
    tax: 'The certificate holder may sue to foreclose after 1 year (one chart says 3 years).',
    notice: 'This applies where a locality has adopted the Uniform Residential Landlord and Tenant Act; elsewhere Kentucky sets no specific notice period.',
    preemption: 'The statute cited for it (KRS 383.300) comes from a secondary source and is unverified.',
  },
  LA: {
    foreclosure: 'Louisiana forecloses through executory process in court.',
    tax: 'Tax sale title is redeemable for 3 years; reforms in 2022-2024 changed the process, and sources conflict on whether Louisiana is best classed as lien or hybrid.',
    notice: 'The notice to vacate can be waived in the lease, and one dataset says no notice is required, so sources conflict.',
    apColor: 'The 10-year period (acquisitive prescription) requires good faith and just title; otherwise 30 years.',
    preemption: 'One chart finds no explicit preemption statute, so sources conflict.',
  },
  ME: {
    tax: 'Towns use a tax-lien mortgage that forecloses automatically after 18 months; there are no investor lien sales.',
    notice: 'The rent must be 7 days late.',
  },
  MD: {
    foreclosure: 'Maryland uses power-of-sale foreclosure, but it is filed in and supervised by the court; Nolo lists it as non-judicial with court involvement and others list it as judicial, so sources conflict.',
    tax: 'Rates are set by each county (charts range from 6% to 24%, and two list 18%), so the 24% maximum is unverified. The holder may file to foreclose the right of redemption after 6 months.',
    notice: 'This is a notice of intent to file.',
    deposit: 'The 1-month cap applies to leases from 2024-10-01 under the Renters\u2019 Rights and Stabilization Act of 2024.',
  },
  MA: {
    foreclosure: 'Massachusetts uses power-of-sale foreclosure, preceded by a Servicemembers Civil Relief Act filing in court.',
    tax: 'Towns take tax title and may assign it to investors; the holder can petition the Land Court after 6 months.',
  },
  MI: { foreclosure: 'Michigan forecloses by advertisement.' },
  MN: {
    tax: 'Owners have a pre-forfeiture redemption period; forfeited land is then sold by the county.',
    notice: 'The 14-day notice took effect on 2024-01-01 and must contain statutory content.',
    preemption: 'Minnesota allows local rent control only when voters approve it.',
  },
  MS: { preemption: 'One chart finds no explicit preemption statute, so sources conflict.' },
  MO: {
    tax: 'Third-offering sales convey deeds; some charts give a 2-year redemption.',
    notice: 'The landlord may bring a rent-and-possession suit after demanding the rent.',
  },
  MT: {
    tax: 'Redemption is 2 or 3 years depending on the property.',
    ap: 'The possessor must pay the taxes, which is rarely possible in practice.',
    preemption: 'Charts differ on Montana, so the classification is unverified.',
  },
  NE: {
    foreclosure: 'Deeds of trust are foreclosed by trustee sale; mortgages are foreclosed in court.',
    notice: 'The period used to be 3 days.',
    deposit: 'A pet deposit of up to a quarter month more is allowed.',
  },
  NV: {
    tax: 'The county treasurer holds the property in trust for 2 years before deeding or selling it; some charts list lien sales at 12%.',
    ap: 'The 5-year period requires paying all taxes (NRS 11.150); one source cites 15 years (NRS 11.070), so sources conflict.',
  },
  NH: {
    tax: 'Towns hold the tax lien for 2 years of redemption and then take a tax deed themselves; there are no investor sales.',
    deposit: 'The cap is 1 month or $100, whichever is greater.',
    preemption: 'The statute behind this classification has not been identified, so it is unverified.',
  },
  NJ: {
    tax: 'A private holder may foreclose the right of redemption after 2 years (a municipality after 6 months).',
    notice: 'The landlord may file for possession without a notice to quit.',
    ap: 'Woodlands and uncultivated land need 60 years.',
  },
  NM: {
    foreclosure: 'Non-judicial sale is available for some deeds of trust.',
    deposit: 'The 1-month cap applies to leases under a year; longer leases have no cap, but the landlord owes interest on a deposit above 1 month.',
    ap: 'The 10-year period itself requires color of title, good faith and payment of taxes.',
    preemption: 'The statute behind this classification has not been identified, so it is unverified.',
  },
  NY: {
    tax: 'Most counties foreclose in rem and sell deeds while New York City sells liens, and charts disagree on the rate (14% or 20%).',
    preemption: 'Localities may opt in to the Emergency Tenant Protection Act; see the New York City overlay.',
  },
  NC: {
    foreclosure: 'The power-of-sale process includes a hearing before the clerk of court.',
    deposit: 'The limit depends on the tenancy: 2 weeks for week-to-week, 1.5 months for month-to-month and 2 months for longer terms.',
  },
  ND: { deposit: 'Higher caps apply with pets (details unverified).', preemption: 'The statute behind this classification has not been identified, so it is unverified.' },
  OH: { tax: 'Some counties sell tax certificates; the rest foreclose and sell deeds. One chart gives 8% rather than 18%, so sources conflict on the rate.' },
  OK: {
    foreclosure: 'A power of sale is allowed, but the homeowner can elect judicial foreclosure, so sources conflict on the classification.',
    tax: 'Certificates are sold first and resale (deed) sales follow later; sources conflict on whether Oklahoma is a lien or a hybrid state.',
  },
  OR: {
    tax: 'The county forecloses and the owner has 2 years to redeem before the county takes a deed.',
    notice: 'The 10-day notice can be served on or after day 8 of the rental period; a 13-day notice can be served from day 5. Week-to-week tenancies use 72 hours (HB 2001, 2023).',
    ap: 'The possessor must honestly believe they own the land.',
  },
  PA: {
    tax: 'Counties hold upset and judicial sales; Philadelphia and Pittsburgh give occupied property a 9-month redemption.',
    notice: 'The notice can be waived in the lease.',
    deposit: 'The cap is 2 months in the first year of the lease and 1 month after that.',
  },
  RI: { notice: 'The rent must be 15 days late.' },
  SC: {
    tax: 'The bidder receives a tax title if the owner does not redeem within 12 months.',
    notice: 'A lease provision can satisfy the notice.',
    ap: 'One source says 20 years without color of title, so sources conflict.',
  },
  SD: {
    foreclosure: 'The homeowner can require judicial foreclosure.',
    tax: 'Redemption is 3 years in municipalities and 4 elsewhere; whether investors can still buy certificates is unverified, and one chart gives 12%.',
  },
  TN: {
    tax: 'The court sets the redemption period at 1 year (180 or 90 days for long-delinquent or vacant property); one chart gives 10%, so sources conflict on the rate.',
    notice: 'This applies in counties covered by the Uniform Residential Landlord and Tenant Act.',
  },
  TX: {
    tax: 'Non-homestead property has 180 days to redeem; homestead and agricultural land have 2 years. A 2025 bill would lengthen the period for owners 65 and older (contingent).',
    notice: 'The lease can set a different period; check the 2025 procedural changes (SB 38).',
    apColor: 'A 5-year period applies with a recorded deed and taxes paid, and 25 years is the outer limit.',
  },
  UT: { ap: 'The possessor must pay the taxes.' },
  VT: { foreclosure: 'Vermont law also permits non-judicial power-of-sale foreclosure.' },
  VA: {
    tax: 'Localities sell through judicial tax sales.',
    notice: 'A 14-day version applied temporarily until 2022-07-01, and 2024 HB 598 (14 days) passed both chambers but its enactment is unverified.',
  },
  WA: { apColor: 'The 7-year route needs color of title and payment of taxes.' },
  WV: { tax: 'Sheriffs sell tax liens and deputy commissioners later sell deeds.' },
  WI: {
    tax: 'Counties foreclose in rem after a 2-year redemption period.',
    notice: 'The 5 days apply to month-to-month tenancies and leases of a year or less; leases over a year need 30 days.',
    apColor: 'The reference lists 10 years with color of title but its own note says 7 years with color of title and taxes, so sources conflict.',
  },
  WY: { notice: 'The rent must be at least 3 days late.' },
};
