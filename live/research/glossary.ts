// "What is a Superfund site?", "what does flood zone AE mean?", "how is the rehab score calculated?": a question that
// only asks what a term means is answered from this glossary, before any place is looked for (pure, no I/O). Only terms
// the service's own data and measures use are here; an official term cites its regulation and the file it comes from,
// one of the service's measures cites its method page. Rules: warehouse/docs/research.md "Definitions".
import type { Composed } from './compose.ts';
import type { Depth, Fact, Source } from './facts.ts';
import { classifyZone, zoneDescription } from '../location/rules.ts';
import { floodPoints, SCORE_WEIGHTS, superfundPoints } from '../location/score.ts';
import { LEGAL_ENTRIES, NOT_ADVICE, type GlossaryEntry } from './legal-glossary.ts';

type Entry = GlossaryEntry;

const FLOOD_CFR = '44 CFR 64.3 (flood insurance map zone designations); FEMA National Flood Hazard Layer (S_FLD_HAZ_AR)';
const method = (page: string, section: string): Source => ({ type: 'warehouse', category: 'definition', citation: `Service method: warehouse/docs/${page}, "${section}"` });
const official = (category: string, citation: string): Source => ({ type: 'definition', category, citation });

const W = SCORE_WEIGHTS;
const share = (w: number): string => `${Math.round(w * 100)}%`;
/** The flood points of each class, from the score's own rule (live/location/rules.ts). */
const pointsOf = (zone: string, subtype: string | null = null): number => floodPoints(classifyZone(zone, subtype, null)!);
const ZONE_NOTE = `Zones beginning with A or V are Special Flood Hazard Areas, where lenders of federally backed mortgages require flood insurance; the environmental risk score gives V zones ${pointsOf('VE')}, A zones ${pointsOf('AE')}, shaded X ${pointsOf('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')}, D ${pointsOf('D')} and minimal-hazard X ${pointsOf('X')} flood points of 100`;

const ENTRIES: Entry[] = [
  {
    id: 'superfund',
    term: /(an? |the )?(epa )?(superfund|npl|national priorities list)( sites?| list)?|(an? )?hazardous[- ]waste sites?/,
    sentence: 'A Superfund site is a hazardous-waste site on (or proposed for) EPA\'s National Priorities List, the list of the nation\'s most serious uncontrolled or abandoned hazardous-waste releases, eligible for long-term cleanup under the Superfund law (CERCLA); the service counts final and proposed NPL sites and leaves out deleted ones, whose cleanup is complete',
    detail: [`A site can be listed once it scores 28.50 or more on EPA's Hazard Ranking System. "Superfund within 1 mile" counts the counted sites within a mile of a point or of a zip's area; they make the Superfund part of the environmental risk score (1 site ${superfundPoints(1)} points, 2 sites ${superfundPoints(2)}, 3 or more ${superfundPoints(3)}).`],
    source: official('superfund', 'CERCLA, 42 U.S.C. 9605(a)(8)(B) (National Priorities List); 40 CFR Part 300, Appendix B; EPA SEMS NPL sites (npl_sites.csv, 2021)'),
  },
  {
    id: 'sfha',
    term: /(an? |the )?(sfha|special flood hazard areas?|100[- ]year flood ?(plain|zone)s?|1% annual chance flood ?(plain|zone)?s?)/,
    sentence: 'A Special Flood Hazard Area (SFHA) is land with a 1% or greater chance of flooding in any year (the "100-year" floodplain), mapped by FEMA as zones A, AE, AH, AO, AR, A99, V and VE; a mortgage from a federally regulated or insured lender on a building there requires flood insurance',
    detail: [ZONE_NOTE + '.'],
    source: official('flood', `44 CFR 59.1 (area of special flood hazard); 42 U.S.C. 4012a (mandatory purchase); ${FLOOD_CFR}`),
  },
  {
    id: 'floodway',
    term: /(an? |the )?(regulatory )?floodways?/,
    sentence: 'A regulatory floodway is the channel of a river and the land next to it that must be kept free of encroachment so the 1% annual chance flood can pass without raising the water surface more than a set height; it lies inside a Special Flood Hazard Area, and building in it is the most restricted',
    detail: [ZONE_NOTE + '.'],
    source: official('flood', `44 CFR 59.1 (regulatory floodway); ${FLOOD_CFR}`),
  },
  {
    id: 'flood_zone',
    term: /(an? |the )?(fema )?flood ?(zones?|zone designations?|zone codes?|maps?|insurance rate maps?|firms?)/,
    sentence: 'A flood zone is FEMA\'s label for an area\'s flood hazard on its Flood Insurance Rate Map: A zones (A, AE, AH, AO, AR, A99) and V zones (V, VE, coastal with waves) have a 1% annual chance of flooding and are Special Flood Hazard Areas, shaded X (B) a 0.2% chance, unshaded X (C) minimal hazard, and D an undetermined hazard',
    detail: [ZONE_NOTE + '. A point outside every map the build loaded is reported as D (unmapped) and left out of the score.'],
    source: official('flood', FLOOD_CFR),
  },
  {
    id: 'environmental_risk',
    term: /(an? |the )?(environmental|location) risk( score)?/,
    sentence: `The environmental risk score (0-100) weighs a place's flood zone ${share(W.flood)}, Superfund sites within a mile ${share(W.superfund)} and FEMA's National Risk Index score of its county ${share(W.nri)}; a part without a value (no flood map, no county score) is left out and the others re-weighted`,
    detail: [`Flood points: V zones ${pointsOf('VE')}, A zones ${pointsOf('AE')}, shaded X ${pointsOf('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')}, D ${pointsOf('D')}, X behind a levee ${pointsOf('X', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE')}, minimal X ${pointsOf('X')}. Superfund points: 1 site ${superfundPoints(1)}, 2 sites ${superfundPoints(2)}, 3 or more ${superfundPoints(3)}.`],
    source: method('location.md', 'environmental_risk_score (0-100)'),
  },
  {
    id: 'rehab',
    term: /(an? |the )?(rehab (momentum )?score|rehab momentum( score)?|renovation (momentum|score))/,
    sentence: 'The rehab momentum score (0-100) measures how much renovation a zip shows over a window of 3 to 24 months, from up to three parts: rehab building permits per 1,000 housing units a year, the declared cost of those permits per housing unit, and the share of sales that are renovated or quick resales at a gain',
    detail: ['Permit intensity saturates at 50 rehab permits a year per 1,000 units and permit value at $2,000 a unit a year (both on a log scale); the resale part reaches 100 at 10% of sales and needs 5 sales in the window (minimum cohort). A part its sources cannot show is left out and the others re-weighted.'],
    source: method('market.md', 'mart_rehab'),
  },
  {
    id: 'comps',
    term: /(an? |the )?(comps?|comparable sales?|comparables|sales comps?)/,
    sentence: 'Comparable sales (comps) are a zip\'s arm\'s-length sales of one property type over a window of 3 to 24 months; the service reports their price per square foot at the 25th, 50th and 75th percentile, and nothing of a cohort under 5 sales',
    detail: ['The window ends at the zip\'s latest arm\'s-length sale. A sale that is not at a market price (a $0 or nominal transfer, between related parties, a portfolio deed over several parcels) is no comp.'],
    source: method('market.md', 'mart_comps'),
  },
  {
    id: 'arms_length',
    term: /(an? )?arm'?s[- ]length( sales?| transactions?)?/,
    sentence: 'An arm\'s-length sale is a sale between unrelated parties at a market price; the service leaves out of every price figure the transfers that are not (a $0 or nominal price under $10,000, related parties, a quit claim or other deed not for value, duplicates, and portfolio deeds whose one total price is recorded on each parcel)',
    detail: [],
    source: method('market.md', "Arm's-length rule"),
  },
  {
    id: 'investor_rate',
    term: /(an? |the )?investor (purchase rate|purchases?|buyers?|share)/,
    sentence: 'The investor purchase rate is the percent of a city\'s sales for value in the window whose buyer is a company, a land or business trust, or a named investor (such as an iBuyer), from the buyer names in the records; it is null where the records carry no buyer names',
    detail: ['Governments, lenders taking title by foreclosure, charities and personal estate-planning trusts are not investors.'],
    source: method('market.md', 'mart_investor'),
  },
  {
    id: 'flip',
    term: /(an? |the )?(house |investor )?flips?( velocity| margin)?|flipping|flip (velocity|margin)/,
    sentence: 'An investor flip is an investor\'s arm\'s-length purchase followed by the next arm\'s-length sale of the same property 1 to 365 days later; flip velocity is the median days held and the gross flip margin the median of (resale - purchase) / purchase, over flips whose resale falls in the window',
    detail: ['A resale on the day of purchase is a double closing (a middleman\'s pass-through), not a flip.'],
    source: method('market.md', 'mart_investor'),
  },
  {
    id: 'landlord_friendliness',
    term: /(an? |the )?landlord[- ]friendl(y|iness)( score)?/,
    sentence: 'The landlord friendliness score (0-100, higher is friendlier to landlords) is a weighted mean of a state\'s nonpayment notice period (15%), uncontested eviction timeline (20%), security deposit cap (15%), rent control preemption (20%), statewide rent cap (15%) and just-cause requirement (15%)',
    detail: ['Labels: 85 or more Very Landlord-Friendly, 70 Landlord-Friendly, 55 Balanced, 40 Tenant-Friendly, below 40 Very Tenant-Friendly. A missing input scores a neutral 50.'],
    source: method('legal.md', 'Landlord friendliness (0-100, higher = friendlier to landlords)'),
  },
  {
    id: 'legal_risk',
    term: /(an? |the )?(market )?legal risk( score)?/,
    sentence: 'The legal risk score of a market (0-100, higher is riskier for a residential investor) weighs tenant friendliness 35%, the foreclosure process 15%, the eviction timeline 10%, local rent control 15%, local eviction protections 10%, the tax sale redemption period 10% and the adverse possession period 5%',
    detail: [],
    source: method('legal.md', 'Legal risk per market (0-100, higher = riskier for a residential investor)'),
  },
];

const CODE = '((?:shaded |unshaded )?[a-z0-9-]+(?: shaded| unshaded)?)';
const ZONE_TERM = new RegExp(`(?:(?:fema )?(?:flood )?zone ${CODE}(?: flood zone| zone)?|${CODE} (?:flood )?zone)`);

/** The terms a question that only asks what a term means may be asking about (one per question form it fits). */
function askedTerms(query: string): string[] {
  const q = query.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim().replace(/[?.!\s]+$/, '').replace(/^(please |can you |could you )/, '');
  const forms = [
    /^what (?:does|do) (.+?) (?:mean|stand for)$/,
    /^(?:what|what's|whats)(?: is| are|'s)? (?:meant by )?(.+?)(?: mean| means)?$/,
    /^(?:define|definition of|meaning of|explain|describe) (.+)$/,
    /^how (?:is|are|do you) (.+?) (?:calculated|computed|measured|scored|determined|defined|worked out|calculate|compute|measure)$/,
  ];
  return forms.map((f) => f.exec(q)?.[1]?.trim()).filter((t): t is string => !!t);
}

/** A zone code's definition in the words of the flood notes (live/location/rules.ts zoneDescription), with its label
 *  and points; a bare "X" is both of its parts. */
function zoneEntry(term: string): Entry | null {
  const m = new RegExp(`^${ZONE_TERM.source}$`).exec(term.replace(/^(?:an?|the) /, '')); // "a flood zone" is no Zone A
  const asked = (m?.[1] ?? m?.[2])?.toUpperCase();
  if (!asked) return null;
  const shaded = /SHADED/.test(asked) && !/UNSHADED/.test(asked);
  const code = asked.replace(/\b(UN)?SHADED\b/g, '').replace(/-/g, '').trim();
  const parts = code === 'X' && !/SHADED/.test(asked) ? [['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD'], ['X', null]] as const
    : code === 'X' ? [['X', shaded ? '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' : null]] as const : [[code, null]] as const;
  const classes = parts.map(([z, sub]) => classifyZone(z, sub, null));
  if (classes.some((c) => c === null || c.zone === 'OPEN WATER')) return null;
  const sentence = classes.map((c) => zoneDescription(c!)).join(' ').replace(/\.$/, '');
  const scored = classes.map((c) => `${c!.key === 'X-shaded' ? 'shaded ' : c!.key === 'X-minimal' && classes.length > 1 ? 'unshaded ' : ''}Zone ${c!.zone} ${c!.label} (${floodPoints(c!)} of 100 flood points)`).join(', ');
  return { id: `zone_${code}`, term: ZONE_TERM, sentence: `${sentence}. The service labels ${scored}`, detail: [ZONE_NOTE + '.'], source: official('flood', FLOOD_CFR) };
}

/** The definition a question asks for, composed like every answer (a sentence and its source; deep adds the detail),
 *  or null when the question asks more than a term's meaning (a place, a figure). */
export function definition(query: string, depth: Depth): Composed | null {
  const entry = askedTerms(query).map((term) => zoneEntry(term) ?? [...ENTRIES, ...LEGAL_ENTRIES].find((e) => new RegExp(`^(?:${e.term.source})$`).test(term))).find((e) => e);
  if (!entry) return null;
  const fact: Fact = { intent: 'none', target: null, value: null, sentence: entry.sentence, detail: entry.detail, source: entry.source, confidence: 'high', primary: true, uncertain: null };
  const first = `${entry.sentence}.`;
  // a legal term: said to be no legal advice in a quick answer too (its detail says so in a deep one)
  const answer = depth === 'quick' ? (LEGAL_ENTRIES.includes(entry) ? `${first} ${NOT_ADVICE}` : first) : [first, ...entry.detail, `Sources: ${entry.source.citation}`].filter(Boolean).join('\n\n');
  return { answer, sources: [entry.source], confidence: 'high', facts: [fact] };
}
