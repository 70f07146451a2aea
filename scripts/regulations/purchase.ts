// State regulation records about buying (scripts/author-regulations.ts): creative finance (the federal due-on-sale and
// seller-financing rules that apply in every state, contract-for-deed statutes), zoning authority and ADU laws,
// lead paint and seller disclosures.
import type { RegulationRecord } from '../../warehouse/regulations/schema.ts';
import { GARN, GARN_URL, LEAD, LEAD_URL, REG_Z, REG_Z_URL, UNVERIFIED_CITE } from './citations.ts';
import { join, make, type StateCtx } from './record.ts';
import { ADU_LAW, CONTRACT_FOR_DEED, SELLER_DISCLOSURE, ZONING_CITE } from './state-laws.ts';

/** Creative finance: federal rules that apply in every state, plus known state statutes. */
export function creativeFinance(s: StateCtx): RegulationRecord[] {
  const { row, st, name } = s;
  const out: RegulationRecord[] = [];
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
  return out;
}

/** Zoning: the enabling authority, and a state ADU law where there is one. */
export function zoning(s: StateCtx): RegulationRecord[] {
  const { row, st, name } = s;
  const out: RegulationRecord[] = [];
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
  return out;
}

/** Disclosure: federal lead paint rules and the state seller disclosure. */
export function disclosure(s: StateCtx): RegulationRecord[] {
  const { row, st, name, Name } = s;
  const out: RegulationRecord[] = [];
  out.push(make(st, 'disclosure', 'lead_paint', {
    title: `Lead-based paint disclosure for pre-1978 housing in ${row.state_name}`,
    summary: `Federal law applies in ${name}: before selling or leasing housing built before 1978, the seller or landlord must disclose known lead-based paint and hazards, hand over any reports, give the EPA pamphlet "Protect Your Family From Lead in Your Home" and include a lead warning in the contract. Buyers get 10 days to have the home inspected unless they agree otherwise in writing. Short leases of 100 days or less, zero-bedroom units and most housing for the elderly or disabled are exempt.`,
    data: { applies_to_pre_1978_housing: true, applies_to_leases: true, buyer_inspection_days: 10 },
    cite: LEAD,
    url: LEAD_URL,
  }));
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
  return out;
}
