// The property type a question asks for (parsePropertyType), and how a type word the sources do not keep apart is
// read (pure, no imports): townhouses and rowhouses are single-family sales in these records (Denver's CLASS H
// rowhouses are mapped to single-family by
// pipelines/intermediate/30_market_13_sales_denver.sql; Philadelphia's rowhouses are its single-family sales), and
// "two-family" or "2 to 4 family" homes are the multi-family type. Said in the answer (Understanding.readAs).
// Rules: warehouse/docs/research.md "Modifiers".

/** "two-family", "2 to 4 family", "3-family": homes of 2 to 4 units, the multi-family type (intent.ts). */
export const FAMILY_UNITS = /\b(two|three|four|2|3|4)(?:[- ]?(?:to|-)[- ]?(?:four|4))?[- ]?famil(?:y|ies)\b/;

/** The reading of a townhouse or rowhouse word, or of an n-family word, said with the answer; none otherwise. */
export function typeReadAs(lower: string, type: string): string[] {
  const town = /\b(town|row)[- ]?(houses?|homes?)\b|\btownhomes?\b/.exec(lower);
  if (town && type === 'sfr') return [`"${town[0]}" as single-family: townhouses are counted among single-family sales in these records`];
  const coop = COOP.exec(lower);
  if (coop && type === 'condo') return [`"${coop[0]}": no figure here covers New York City's co-op apartments (building classes 09, 10 and 17, shares in a cooperative, left out of every figure), so the condo figures given are of condominiums only, not of co-ops`];
  const apt = APARTMENTS.exec(lower);
  if (apt && type === 'multi' && !/apartment buildings?/.test(apt[0])) return [`"${apt[0]}" as multi-family: apartment buildings are the multi-family type (a single apartment unit sold alone is a condo)`];
  const mobile = MOBILE.exec(lower);
  if (mobile) return [`"${mobile[0]}" as all ${type === 'sfr' ? 'single-family' : 'the type\'s'} sales: no source here keeps mobile or manufactured homes apart, so the figures given are not of ${mobile[0]} alone`];
  const family = FAMILY_UNITS.exec(lower);
  if (family && type === 'multi') return [`"${family[0]}" as multi-family: 2 to 4 family homes are counted with the other multi-family sales (apartment buildings too), not apart`];
  return [];
}

/** Co-ops: New York City's co-op classes (09, 10, 17) are no type of the figures (market.md "Co-ops"): asked, the condo
 *  type is answered and said to leave them out. */
const COOP = /\bco-?ops?\b|\bcooperatives?\b|\bco-?operative (apartments?|buildings?)\b/;
/** Apartments as a property bought ("apartments in Hartford", "apartment complex"): the multi-family type. */
const APARTMENTS = /(?<!accessory )\bapartments\b|\bapartment (buildings?|complex(es)?|houses?|blocks?)\b/;
/** Mobile or manufactured homes: no type of their own in any source. */
const MOBILE = /\b(mobile|manufactured) homes?\b|\btrailers? homes?\b/;

/** The property type a question asks for: single-family unless it names another. */
export function parsePropertyType(q: string): 'sfr' | 'multi' | 'condo' | 'land' | 'commercial' {
  // "a family office", "our office": who asks, not an office building
  const l = q.toLowerCase().replace(/\b(family|our|my|home|back|front|law|box) offices?\b/g, ' ');
  if (/\bcondos?\b|condominium/.test(l) || COOP.test(l)) return 'condo';
  if (/multi[- ]?famil|\bduplex|triplex|fourplex|quadplex|\b[234][- ]?plex(es)?\b|\bmulti\b|2-4 unit/.test(l) || APARTMENTS.test(l) || FAMILY_UNITS.test(l)) return 'multi';
  if (/\b(vacant )?land\b|\bbuildable lots?\b/.test(l)) return 'land';
  if (/commercial|\boffices?\b|office (buildings?|space)|retail|industrial/.test(l)) return 'commercial';
  return 'sfr';
}

/** Single-family named in words ("single family", "SFR", "houses"). */
const SFR_WORDS = /\bsingle[- ]?famil|\bsfrs?\b|\bsfhs?\b|\bhouses\b/;
const TYPE_TESTS: [ReturnType<typeof parsePropertyType>, (l: string) => boolean][] = [
  ['condo', (l) => /\bcondos?\b|condominium/.test(l) || COOP.test(l)], ['sfr', (l) => SFR_WORDS.test(l)],
  ['multi', (l) => /multi[- ]?famil|\bduplex|triplex|fourplex|\b[234][- ]?plex(es)?\b/.test(l) || FAMILY_UNITS.test(l)],
  ['land', (l) => /\b(vacant )?land\b/.test(l)], ['commercial', (l) => /\bcommercial\b/.test(l)],
];

/** The property types a question compares ("denver condos vs single family median": condo and sfr), in the order
 *  written; [] unless two or more are named with a comparison word. The answer gives each (endpoint.ts). */
export function typesCompared(q: string): ReturnType<typeof parsePropertyType>[] {
  const l = q.toLowerCase();
  if (!/\bvs\.?|\bversus\b|\bcompared?\b|\bor\b|\band\b/.test(l)) return [];
  const named = TYPE_TESTS.filter(([, test]) => test(l)).map(([t]) => t);
  return named.length >= 2 ? named : [];
}
