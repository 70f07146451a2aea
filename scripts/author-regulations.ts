// Authoring tool for the state regulation files (warehouse/regulations/states/XX.json).
// It is run by hand when the reference facts change, never by the build: the JSON files it writes
// are the source of truth. It reads the structured values of legal-facts.csv (types, numbers,
// uncertain_fields, statute sections) and words every summary itself; the CSV's notes are not
// copied, the per-state caveats below are written for this dataset.
//
//   npx tsx scripts/author-regulations.ts [path/to/legal-facts.csv]
//
// City and county overlays (warehouse/regulations/local/) are curated by hand, not generated.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { UNCERTAINTY_PHRASE, type Category, type RegulationRecord, type StructuredData } from '../warehouse/regulations/schema.ts';
import { validateRecord } from '../warehouse/regulations/validate.ts';

const REVIEWED = '2026-11-21';
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'warehouse/regulations/states');
const CSV = process.argv[2] ?? path.resolve(ROOT, '../shared/reference/legal-facts.csv');

type Row = Record<string, string>;

const GARN = '12 U.S.C. 1701j-3 (Garn-St Germain Depository Institutions Act of 1982)';
const GARN_URL = 'https://www.law.cornell.edu/uscode/text/12/1701j-3';
const REG_Z = '12 CFR 1026.36(a)(4)-(5) (Regulation Z loan originator rules, seller-financer exclusions)';
const REG_Z_URL = 'https://www.law.cornell.edu/cfr/text/12/1026.36';
const LEAD = '42 U.S.C. 4852d; 40 CFR 745 subpart F; 24 CFR 35 subpart A';
const LEAD_URL = 'https://www.law.cornell.edu/uscode/text/42/4852d';
const TYLER = 'Tyler v. Hennepin County, 598 U.S. 631 (2023)';
const UNVERIFIED_CITE = 'The citation comes from general knowledge of the code and is unverified against current statute text.';

// ---------- statute sections from the reference citation columns

/** Secondary sources (charts, guides, datasets) are dropped: source_citation holds statute sections only. */
const SECONDARY = /nolo|\.com|\.org|\.net|\.us\b|reiclub|NMHC|chart|dataset|code-corpus|evictionRules|lawchek|sigtour|docslib|pages\.dev|jiang|table|homestead|n\/a|not identified|not verified|opt-in|explicit|commissions/i;

function statuteOf(citation: string | undefined): string | null {
  if (!citation) return null;
  const parts = citation
    .split(';')
    .map((s) => s.replace(/\s\(([^)]*)\)/g, (m, inner: string) => (/^\d{4}$/.test(inner) ? m : '')).trim())
    .filter((s) => s !== '' && !SECONDARY.test(s));
  return parts.length > 0 ? parts.join('; ') : null;
}

/** Where the automatic extraction is wrong or empty, the section is given here. */
const CITE_OVERRIDES: Record<string, Partial<Record<'deposit' | 'notice' | 'ap' | 'preemption' | 'tax', string | null>>> = {
  CA: { deposit: 'Cal. Civ. Code 1950.5 (as amended by AB 12, 2023)' },
  CO: { deposit: 'C.R.S. 38-12-102, 38-12-103 (as amended by HB 25-1249)' },
  CT: { preemption: 'Conn. Gen. Stat. 7-148b (fair rent commissions)' },
  GA: { deposit: 'O.C.G.A. 44-7-30.1 (HB 404, 2024)', notice: 'O.C.G.A. 44-7-50 (as amended by HB 404, 2024)' },
  MA: { preemption: 'M.G.L. c.40P' },
  MN: { notice: 'Minn. Stat. 504B.321', preemption: 'Minn. Stat. 471.9996' },
  NE: { notice: 'Neb. Rev. Stat. 76-1431' },
  OR: { notice: 'ORS 90.394', preemption: 'ORS 91.225' },
  SC: { ap: 'S.C. Code 15-67-210' },
  TX: { tax: 'Tex. Tax Code 34.21' },
  WA: { preemption: 'RCW 35.21.830' },
};

// ---------- hand-written wording per state

/** Short label for how the quoted tax-sale rate works (null for deed states). */
const RATE_BASIS: Record<string, string> = {
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

interface StateNotes {
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
const NOTES: Record<string, StateNotes> = {
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
    preemption: 'The state statute behind this classification is unverified.',
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

const DAY_TYPE: Record<string, 'business' | 'judicial'> = { AL: 'business', CA: 'business', FL: 'business', GA: 'business', HI: 'business', UT: 'business', NV: 'judicial' };
const TAXES_REQUIRED = new Set(['CA', 'MT', 'NV', 'UT', 'ID', 'IN', 'FL', 'NM']);
const EFFECTIVE: Record<string, Partial<Record<'deposit' | 'notice', string>>> = {
  CA: { deposit: '2024-07-01' },
  CO: { deposit: '2026-01-01' },
  GA: { deposit: '2024-07-01', notice: '2024-07-01' },
  MD: { deposit: '2024-10-01' },
  MN: { notice: '2024-01-01' },
};

/** Statewide caps, written from the reference's cap columns. */
const STATEWIDE_CAP: Record<string, { cite: string; cpi: number | null; max: number | null; exempt: number | null; effective: string | null; text: string; uncertain?: string[] }> = {
  CA: {
    cite: 'Cal. Civ. Code 1947.12 (AB 1482, Tenant Protection Act of 2019)',
    cpi: 5, max: 10, exempt: 15, effective: '2020-01-01',
    text: 'California caps annual rent increases on most rentals at 5% plus CPI, never more than 10% a year (AB 1482). Buildings less than 15 years old are exempt on a rolling basis, and local rent control, where stricter, applies instead.',
  },
  OR: {
    cite: 'ORS 90.323, 90.324 (SB 608, 2019; SB 611, 2023)',
    cpi: 7, max: 10, exempt: null, effective: null,
    text: 'Oregon caps annual rent increases at 7% plus CPI, never more than 10% a year (SB 608, 2019, as changed by SB 611, 2023).',
  },
  WA: {
    cite: 'Wash. HB 1217 (2025)',
    cpi: 7, max: 10, exempt: 12, effective: null,
    text: 'Washington caps annual rent increases at 7% plus CPI or 10%, whichever is lower (HB 1217, signed 2025-05-07). Rent cannot rise in the first 12 months of a tenancy, increases need 90 days\u2019 notice, and buildings less than 12 years old are exempt. The cap expires after 15 years.',
  },
  DC: {
    cite: 'D.C. Code 42-3502.01 et seq. (Rental Housing Act of 1985, Rent Stabilization Program)',
    cpi: null, max: null, exempt: null, effective: null,
    text: 'The District runs a district-wide Rent Stabilization Program that limits increases on covered units; see the Washington, DC city overlay for coverage and the cap formula.',
  },
};

/** State just-cause eviction laws we can cite (not in the reference). */
const JUST_CAUSE: Record<string, { cite: string; months: number | null; effective: string | null; text: string }> = {
  CA: { cite: 'Cal. Civ. Code 1946.2 (AB 1482, 2019)', months: 12, effective: '2020-01-01', text: 'Once a tenant has lawfully occupied a unit for 12 months, a California landlord needs a just cause (at-fault, such as nonpayment, or no-fault, such as owner move-in, with relocation assistance) to end the tenancy; many single-family homes owned by individuals are exempt if the lease gives notice of the exemption.' },
  OR: { cite: 'ORS 90.427 (SB 608, 2019)', months: 12, effective: null, text: 'After the first year of occupancy, an Oregon landlord may end a month-to-month tenancy only for tenant cause or a listed landlord reason (such as demolition, major repairs or owner move-in), usually with 90 days\u2019 notice and relocation payments.' },
  WA: { cite: 'RCW 59.18.650 (HB 1236, 2021)', months: null, effective: null, text: 'Washington landlords may end or refuse to renew most residential tenancies only for a cause listed in the statute (such as nonpayment, a lease breach, owner occupancy or sale of a single-family home).' },
  NJ: { cite: 'N.J.S.A. 2A:18-61.1 (Anti-Eviction Act)', months: null, effective: null, text: 'New Jersey\u2019s Anti-Eviction Act lets a landlord evict a residential tenant only for one of the good causes it lists, including nonpayment; owner-occupied buildings with two or fewer units are excluded.' },
};

const ZONING_CITE: Record<string, string> = {
  AL: 'Ala. Code 11-52-70 et seq.', AK: 'Alaska Stat. 29.40.040', AZ: 'A.R.S. 9-462.01', AR: 'Ark. Code 14-56-416',
  CA: 'Cal. Gov. Code 65850 et seq.', CO: 'C.R.S. 31-23-301 et seq.', CT: 'Conn. Gen. Stat. 8-2', DE: '22 Del. C. 301 et seq.',
  DC: 'Zoning Act of 1938, D.C. Code 6-641.01 et seq.', FL: 'Fla. Stat. 163.3161 et seq. (Community Planning Act)',
  GA: 'Ga. Const. art. IX, sec. II, para. IV; O.C.G.A. 36-66-1 et seq. (Zoning Procedures Law)', HI: 'Haw. Rev. Stat. 46-4',
  ID: 'Idaho Code 67-6511 (Local Land Use Planning Act)', IL: '65 ILCS 5/11-13-1 et seq.', IN: 'Ind. Code 36-7-4',
  IA: 'Iowa Code ch. 414', KS: 'K.S.A. 12-741 et seq.', KY: 'KRS ch. 100', LA: 'La. R.S. 33:4721 et seq.',
  ME: '30-A M.R.S. 4352', MD: 'Md. Code, Land Use, title 4', MA: 'M.G.L. c.40A (Zoning Act)',
  MI: 'MCL 125.3101 et seq. (Michigan Zoning Enabling Act)', MN: 'Minn. Stat. 462.357', MS: 'Miss. Code 17-1-1 et seq.',
  MO: 'RSMo 89.010 et seq.', MT: 'MCA 76-2-301 et seq.', NE: 'Neb. Rev. Stat. 19-901 et seq.', NV: 'NRS 278.020',
  NH: 'RSA 674:16', NJ: 'N.J.S.A. 40:55D-62 (Municipal Land Use Law)', NM: 'NMSA 3-21-1',
  NY: 'N.Y. Town Law 261; Village Law 7-700; Gen. City Law 20(24)', NC: 'N.C.G.S. ch. 160D', ND: 'N.D.C.C. 40-47-01',
  OH: 'O.R.C. 713.06 (municipal), 519.02 (township), 303.02 (county)', OK: '11 O.S. 43-101', OR: 'ORS ch. 197 and 227',
  PA: '53 P.S. 10101 et seq. (Municipalities Planning Code)', RI: 'R.I. Gen. Laws 45-24-27 et seq. (Zoning Enabling Act of 1991)',
  SC: 'S.C. Code 6-29-710', SD: 'SDCL 11-4-1', TN: 'T.C.A. 13-7-201', TX: "Tex. Loc. Gov't Code ch. 211",
  UT: 'Utah Code 10-9a-101 et seq. (Municipal Land Use, Development, and Management Act)', VT: '24 V.S.A. ch. 117',
  VA: 'Va. Code 15.2-2280', WA: 'RCW 35A.63, 36.70; RCW 36.70A (Growth Management Act)', WV: 'W. Va. Code 8A-7-1',
  WI: 'Wis. Stat. 62.23(7)', WY: 'Wyo. Stat. 15-1-601',
};

const ADU_LAW: Record<string, { cite: string; year: number | null; text: string }> = {
  CA: { cite: 'Cal. Gov. Code 66310 et seq. (formerly 65852.2)', year: null, text: 'California requires cities and counties to approve qualifying accessory dwelling units (ADUs) and junior ADUs on residential lots ministerially, and limits local rules on size, parking and owner occupancy.' },
  OR: { cite: 'ORS 197.312 (SB 1051, 2017)', year: 2017, text: 'Oregon requires larger cities and counties to allow at least one accessory dwelling unit with each detached single-family home, subject to reasonable siting and design rules.' },
  WA: { cite: 'RCW 36.70A.680, 36.70A.681 (HB 1337, 2023)', year: 2023, text: 'Washington requires cities and counties planning under the Growth Management Act to allow two accessory dwelling units per lot in urban growth areas and bars owner-occupancy requirements.' },
  NH: { cite: 'RSA 674:71-674:73', year: 2016, text: 'New Hampshire requires towns that allow single-family homes to allow at least one accessory dwelling unit with them.' },
  ME: { cite: '30-A M.R.S. 4364-B (LD 2003, 2022)', year: 2022, text: 'Maine requires municipalities to allow an accessory dwelling unit on a lot with a single-family home in areas where housing is allowed.' },
  CT: { cite: 'Conn. Gen. Stat. 8-2o (Public Act 21-29)', year: 2021, text: 'Connecticut requires towns to allow accessory apartments as of right with single-family homes unless the town voted to opt out.' },
  MA: { cite: 'M.G.L. c.40A, sec. 3 (Affordable Homes Act, 2024)', year: 2024, text: 'Massachusetts makes one accessory dwelling unit of up to 900 square feet an as-of-right use in single-family zoning districts.' },
  MT: { cite: 'Mont. SB 528 (2023)', year: 2023, text: 'Montana requires larger cities to allow at least one accessory dwelling unit per single-family lot.' },
  CO: { cite: 'Colo. HB24-1152 (2024)', year: 2024, text: 'Colorado requires larger municipalities and counties to allow accessory dwelling units where single-family homes are allowed.' },
  UT: { cite: 'Utah Code 10-9a-530 (HB 82, 2021)', year: 2021, text: 'Utah requires municipalities to allow internal accessory dwelling units (within the footprint of an owner-occupied home) in most residential zones.' },
  AZ: { cite: 'Ariz. HB 2720 (2024)', year: 2024, text: 'Arizona requires larger cities to allow accessory dwelling units on lots with single-family homes.' },
  VT: { cite: '24 V.S.A. 4412(1)(E)', year: null, text: 'Vermont requires towns to allow an accessory dwelling unit with a single-family home as a permitted use.' },
};

const CONTRACT_FOR_DEED: Record<string, { cite: string; text: string }> = {
  TX: { cite: 'Tex. Prop. Code 5.061-5.085', text: 'Texas regulates executory contracts (contracts for deed) for residential property: the seller must make required disclosures, send annual accounting statements and give written notice and a chance to cure before forfeiting the buyer\u2019s interest.' },
  OH: { cite: 'Ohio Rev. Code ch. 5313', text: 'Ohio regulates land installment contracts: once the buyer has paid for five years or 20% of the price, the seller must foreclose in court instead of forfeiting the contract.' },
  MN: { cite: 'Minn. Stat. 559.21', text: 'Minnesota requires a statutory cancellation notice and cure period before a seller can cancel a contract for deed.' },
  IA: { cite: 'Iowa Code ch. 656', text: 'Iowa requires a statutory notice of forfeiture with a cure period before a seller can forfeit a real estate installment contract.' },
  AZ: { cite: 'A.R.S. 33-741 to 33-749', text: 'Arizona sets grace periods before a seller can forfeit an agreement for sale, longer as the buyer pays more of the price.' },
  MD: { cite: 'Md. Code, Real Prop. 10-101 to 10-108', text: 'Maryland regulates land installment contracts, including required contract terms and recording.' },
  OK: { cite: '16 O.S. 11A', text: 'Oklahoma treats a contract for deed as a mortgage, so the seller must foreclose rather than simply forfeit the buyer\u2019s interest.' },
  ND: { cite: 'N.D.C.C. ch. 32-18', text: 'North Dakota sets a notice procedure for cancelling a contract for deed.' },
  IL: { cite: '765 ILCS 67 (Installment Sales Contract Act)', text: 'Illinois regulates installment sales contracts for residential real estate, including required disclosures and recording.' },
  MI: { cite: 'MCL 600.5726', text: 'Michigan sellers recover possession under a land contract through the summary proceedings for forfeiture of a land contract.' },
};

const SELLER_DISCLOSURE: Record<string, string> = {
  CA: 'Cal. Civ. Code 1102 et seq.', TX: 'Tex. Prop. Code 5.008', NY: 'N.Y. Real Prop. Law 462 (Property Condition Disclosure Act)',
  IL: '765 ILCS 77 (Residential Real Property Disclosure Act)', PA: '68 Pa.C.S. 7301 et seq. (Real Estate Seller Disclosure Law)',
  OH: 'O.R.C. 5302.30', MI: 'MCL 565.951 et seq. (Seller Disclosure Act)', WA: 'RCW ch. 64.06', OR: 'ORS 105.462-105.490',
  VA: 'Va. Code 55.1-700 et seq. (Residential Property Disclosure Act)', NC: 'N.C.G.S. ch. 47E', MD: 'Md. Code, Real Prop. 10-702',
  CT: 'Conn. Gen. Stat. 20-327b', WI: 'Wis. Stat. ch. 709', MN: 'Minn. Stat. 513.52-513.61', NV: 'NRS 113.130',
  KY: 'KRS 324.360', TN: 'T.C.A. 66-5-201 et seq.', IN: 'Ind. Code 32-21-5', IA: 'Iowa Code ch. 558A', NE: 'Neb. Rev. Stat. 76-2,120',
  SD: 'SDCL 43-4-38 et seq.', OK: '60 O.S. 831 et seq.', MS: 'Miss. Code 89-1-501 et seq.', LA: 'La. R.S. 9:3196-3200',
  DE: '6 Del. C. 2570 et seq.', DC: 'D.C. Code 42-1301 et seq.', HI: 'Haw. Rev. Stat. ch. 508D', AK: 'Alaska Stat. 34.70.010 et seq.',
  ME: '33 M.R.S. 171 et seq.', NH: 'RSA 477:4-c, 477:4-d', RI: 'R.I. Gen. Laws 5-20.8', SC: 'S.C. Code 27-50-10 et seq.',
  ID: 'Idaho Code 55-2501 et seq.',
};

// ---------- record builders

const fmt = (n: number) => String(n);
const plural = (n: number, unit: string) => `${fmt(n)} ${unit}${n === 1 ? '' : 's'}`;
const num = (v: string | undefined): number | null => (v === undefined || v.trim() === '' || v.trim() === 'none' ? null : Number(v));

function slug(category: Category, subcategory: string): string {
  return `${category}-${subcategory}`.replaceAll('_', '-');
}

function make(
  st: string,
  category: Category,
  subcategory: string,
  fields: {
    title: string;
    summary: string;
    data: Record<string, unknown>;
    uncertain?: string[];
    cite?: string | null;
    url?: string | null;
    effective?: string | null;
    status?: 'active' | 'pending';
    idSuffix?: string;
  },
): RegulationRecord {
  const uncertain = new Set(fields.uncertain ?? []);
  // A summary that carries a caveat marks the record uncertain even when no single value is in doubt.
  if (uncertain.size === 0 && UNCERTAINTY_PHRASE.test(fields.summary)) uncertain.add('summary');
  const structured: StructuredData = { ...fields.data, uncertain_fields: [...uncertain] };
  return {
    id: `${st.toLowerCase()}-${slug(category, subcategory)}${fields.idSuffix ? `-${fields.idSuffix}` : ''}`,
    jurisdiction_level: 'state',
    state_code: st,
    county_fips: null,
    city: null,
    category,
    subcategory,
    title: fields.title,
    summary: fields.summary,
    structured_data: structured,
    source_citation: fields.cite ?? null,
    source_url: fields.url ?? null,
    effective_date: fields.effective ?? null,
    status: fields.status ?? 'active',
    verified_at: null,
    last_reviewed_at: REVIEWED,
  };
}

/** Reference column names listed in uncertain_fields, without their parenthetical comments. */
function referenceUncertain(row: Row): Set<string> {
  return new Set(
    (row.uncertain_fields ?? '')
      .split(';')
      .map((s) => s.replace(/\(.*\)/, '').trim())
      .filter(Boolean),
  );
}

const join = (...parts: (string | undefined | false)[]) => parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
const UNCERTAIN_NOTE = 'Unverified: sources conflict on this point.';

function buildState(row: Row): RegulationRecord[] {
  const st = row.state_code!;
  const name = st === 'DC' ? 'the District of Columbia' : row.state_name!;
  const Name = st === 'DC' ? 'The District of Columbia' : row.state_name!;
  const notes = NOTES[st] ?? {};
  const unc = referenceUncertain(row);
  const over = CITE_OVERRIDES[st] ?? {};
  const cite = (key: 'deposit' | 'notice' | 'ap' | 'preemption' | 'tax', column: string) => (key in over ? over[key] ?? null : statuteOf(row[column]));
  const out: RegulationRecord[] = [];
  const flagged = (s: string) => (/unverified|sources conflict/i.test(s) ? s : join(s, UNCERTAIN_NOTE));

  // ---------- foreclosure
  {
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
  }

  // ---------- tax sale
  {
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
  }

  // ---------- rent control
  {
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
  }

  // ---------- adverse possession
  {
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
  }

  // ---------- eviction
  {
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
    out.push(make(st, 'eviction', 'timeline_estimate', m
      ? {
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
  }

  // ---------- landlord-tenant: security deposit
  {
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
  }

  // ---------- creative finance (federal rules that apply in every state, plus known state statutes)
  out.push(make(st, 'creative_finance', 'due_on_sale', {
    title: `Due-on-sale clauses and subject-to purchases in ${row.state_name}`,
    summary: `Federal law (the Garn-St Germain Act) preempts state limits and lets lenders in ${name} enforce due-on-sale clauses. On homes of one to four units the lender may not call the loan for listed transfers, such as a transfer to a spouse or children, a transfer on the borrower's death, a lease of 3 years or less with no purchase option, or a transfer into a living trust the borrower stays in. A subject-to purchase (title moves while the seller's loan stays in place) is not exempt, so the lender may accelerate the loan. No ${row.state_name}-specific statute on subject-to transfers was reviewed.`,
    data: {
      lender_may_enforce: true,
      federal_preemption: true,
      residential_exemptions: [
        'junior_lien_without_occupancy_transfer',
        'appliance_purchase_money_lien',
        'death_of_joint_tenant',
        'lease_3_years_or_less_without_purchase_option',
        'transfer_to_relative_on_borrower_death',
        'transfer_to_spouse_or_children',
        'divorce_or_separation_to_spouse',
        'inter_vivos_trust_with_borrower_as_beneficiary',
      ],
    },
    cite: GARN,
    url: GARN_URL,
    effective: '1982-10-15',
  }));
  out.push(make(st, 'creative_finance', 'seller_financing', {
    title: `Seller financing of homes in ${row.state_name}: federal loan originator exclusions`,
    summary: `Federal Regulation Z lets a seller in ${name} finance the sale of a home without being treated as a loan originator if it stays within an exclusion: a natural person, estate or trust may finance 1 property in any 12 months (no negative amortization; a rate fixed, or adjustable only after 5 or more years), and any seller may finance up to 3 properties in 12 months if the loans also fully amortize and the seller judges in good faith that the buyer can repay. Neither applies to a seller who built the home as a business. ${row.state_name} licensing rules for residential seller financing were not reviewed. This summary is from general knowledge of the regulation and is unverified against its current text.`,
    data: { one_property_exclusion_limit: 1, three_property_exclusion_limit: 3, min_fixed_years_if_adjustable: 5, state_licensing_reviewed: false },
    uncertain: ['source_citation'],
    cite: REG_Z,
    url: REG_Z_URL,
  }));
  const cfd = CONTRACT_FOR_DEED[st];
  if (cfd) {
    out.push(make(st, 'creative_finance', 'contract_for_deed', {
      title: `${row.state_name} contract for deed / installment land contract statute`,
      summary: join(cfd.text, UNVERIFIED_CITE),
      data: { has_specific_statute: true },
      uncertain: ['source_citation'],
      cite: cfd.cite,
    }));
  }

  // ---------- zoning
  {
    const zc = ZONING_CITE[st] ?? null;
    out.push(make(st, 'zoning', 'enabling_authority', {
      title: `${row.state_name} zoning authority`,
      summary: st === 'DC'
        ? `Zoning in the District of Columbia is set by the DC Zoning Commission under the Zoning Act of 1938; check the DC zoning regulations for permitted uses, lot rules and accessory units. ${UNVERIFIED_CITE}`
        : `Zoning in ${name} is adopted and enforced by cities, counties and (where they exist) towns or townships under state enabling law; permitted uses, lot sizes, accessory units and short-term-rental rules come from the local zoning code, so check the city or county ordinance for a specific parcel. ${UNVERIFIED_CITE}`,
      data: { zoning_is_local: true, enabling_statute_cited: zc !== null },
      uncertain: ['source_citation'],
      cite: zc,
    }));
    const adu = ADU_LAW[st];
    if (adu) {
      out.push(make(st, 'zoning', 'adu_law', {
        title: `${row.state_name} accessory dwelling unit (ADU) law`,
        summary: join(adu.text, 'Thresholds, exemptions and effective dates are not recorded here.', UNVERIFIED_CITE),
        data: { state_adu_law: true, enacted_year: adu.year },
        uncertain: ['source_citation', 'effective_date'],
        cite: adu.cite,
      }));
    }
  }

  // ---------- disclosure
  out.push(make(st, 'disclosure', 'lead_paint', {
    title: `Lead-based paint disclosure for pre-1978 housing in ${row.state_name}`,
    summary: `Federal law applies in ${name}: before selling or leasing housing built before 1978, the seller or landlord must disclose known lead-based paint and hazards, hand over any reports, give the EPA pamphlet "Protect Your Family From Lead in Your Home" and include a lead warning in the contract. Buyers get 10 days to have the home inspected unless they agree otherwise in writing. Short leases of 100 days or less, zero-bedroom units and most housing for the elderly or disabled are exempt.`,
    data: { applies_to_pre_1978_housing: true, applies_to_leases: true, buyer_inspection_days: 10 },
    cite: LEAD,
    url: LEAD_URL,
  }));
  {
    const sdc = SELLER_DISCLOSURE[st];
    const text = sdc
      ? st === 'VA'
        ? 'Virginia\u2019s Residential Property Disclosure Act mainly requires the seller to tell buyers to do their own due diligence (a "buyer beware" statement) plus a few specific disclosures; it is not a full condition report.'
        : `${Name} requires sellers of most residential property to give buyers a written disclosure of the property's condition before the sale; exemptions (for example some foreclosure, estate and new-construction sales) and the form vary.`
      : st === 'FL'
        ? 'Florida has no general seller disclosure form statute, but case law (Johnson v. Davis, 480 So. 2d 625 (Fla. 1985)) requires sellers of residential property to disclose known facts that materially affect its value and are not readily observable by the buyer.'
        : `We did not identify any ${row.state_name} statute requiring a general seller property-condition disclosure; duties may come from case law, real estate licensing rules or standard association forms.`;
    out.push(make(st, 'disclosure', 'seller_disclosure', {
      title: `${row.state_name} seller property condition disclosure`,
      summary: join(text, sdc || st === 'FL' ? UNVERIFIED_CITE : 'This finding is unverified.'),
      data: { statute_identified: Boolean(sdc) },
      uncertain: sdc || st === 'FL' ? ['source_citation'] : ['summary'],
      cite: sdc ?? (st === 'FL' ? 'Johnson v. Davis, 480 So. 2d 625 (Fla. 1985)' : null),
    }));
  }

  return out;
}

function main() {
  const rows = parse(fs.readFileSync(CSV), { columns: true, skip_empty_lines: true }) as Row[];
  if (rows.length !== 51) throw new Error(`expected 51 rows in ${CSV}, got ${rows.length}`);
  fs.mkdirSync(OUT, { recursive: true });
  let total = 0;
  const problems: string[] = [];
  for (const row of rows) {
    const records = buildState(row);
    records.forEach((r, i) => problems.push(...validateRecord(r, `states/${row.state_code}.json`, i)));
    fs.writeFileSync(path.join(OUT, `${row.state_code}.json`), `${JSON.stringify(records, null, 2)}\n`);
    total += records.length;
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
  console.log(`wrote ${total} records for ${rows.length} jurisdictions to ${path.relative(ROOT, OUT)}`);
}

main();
