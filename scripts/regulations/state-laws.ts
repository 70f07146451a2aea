// Per-state facts of the state regulation records that the reference CSV does not carry (scripts/author-regulations.ts):
// day types and effective dates, statewide rent caps, just-cause eviction laws, zoning enabling statutes, ADU laws,
// contract-for-deed statutes and seller disclosure statutes, each with its citation and wording.

export const DAY_TYPE: Record<string, 'business' | 'judicial'> = { AL: 'business', CA: 'business', FL: 'business', GA: 'business', HI: 'business', UT: 'business', NV: 'judicial' };
export const TAXES_REQUIRED = new Set(['CA', 'MT', 'NV', 'UT', 'ID', 'IN', 'FL', 'NM']);
export const EFFECTIVE: Record<string, Partial<Record<'deposit' | 'notice', string>>> = {
  CA: { deposit: '2024-07-01' },
  CO: { deposit: '2026-01-01' },
  GA: { deposit: '2024-07-01', notice: '2024-07-01' },
  MD: { deposit: '2024-10-01' },
  MN: { notice: '2024-01-01' },
};

/** Statewide caps, written from the reference's cap columns. */
export const STATEWIDE_CAP: Record<string, { cite: string; cpi: number | null; max: number | null; exempt: number | null; effective: string | null; text: string; uncertain?: string[] }> = {
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
export const JUST_CAUSE: Record<string, { cite: string; months: number | null; effective: string | null; text: string }> = {
  CA: { cite: 'Cal. Civ. Code 1946.2 (AB 1482, 2019)', months: 12, effective: '2020-01-01', text: 'Once a tenant has lawfully occupied a unit for 12 months, a California landlord needs a just cause (at-fault, such as nonpayment, or no-fault, such as owner move-in, with relocation assistance) to end the tenancy; many single-family homes owned by individuals are exempt if the lease gives notice of the exemption.' },
  OR: { cite: 'ORS 90.427 (SB 608, 2019)', months: 12, effective: null, text: 'After the first year of occupancy, an Oregon landlord may end a month-to-month tenancy only for tenant cause or a listed landlord reason (such as demolition, major repairs or owner move-in), usually with 90 days\u2019 notice and relocation payments.' },
  WA: { cite: 'RCW 59.18.650 (HB 1236, 2021)', months: null, effective: null, text: 'Washington landlords may end or refuse to renew most residential tenancies only for a cause listed in the statute (such as nonpayment, a lease breach, owner occupancy or sale of a single-family home).' },
  NJ: { cite: 'N.J.S.A. 2A:18-61.1 (Anti-Eviction Act)', months: null, effective: null, text: 'New Jersey\u2019s Anti-Eviction Act lets a landlord evict a residential tenant only for one of the good causes it lists, including nonpayment; owner-occupied buildings with two or fewer units are excluded.' },
};

export const ZONING_CITE: Record<string, string> = {
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

export const ADU_LAW: Record<string, { cite: string; year: number | null; text: string }> = {
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

export const CONTRACT_FOR_DEED: Record<string, { cite: string; text: string }> = {
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

export const SELLER_DISCLOSURE: Record<string, string> = {
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
