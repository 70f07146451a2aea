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
  const family = FAMILY_UNITS.exec(lower);
  if (family && type === 'multi') return [`"${family[0]}" as multi-family: 2 to 4 family homes are counted with the other multi-family sales (apartment buildings too), not apart`];
  return [];
}

/** The property type a question asks for: single-family unless it names another. */
export function parsePropertyType(q: string): 'sfr' | 'multi' | 'condo' | 'land' | 'commercial' {
  const l = q.toLowerCase();
  if (/\bcondos?\b|condominium/.test(l)) return 'condo';
  if (/multi[- ]?famil|\bduplex|triplex|fourplex|quadplex|\bmulti\b|apartment buildings?|2-4 unit/.test(l) || FAMILY_UNITS.test(l)) return 'multi';
  if (/\b(vacant )?land\b|\bbuildable lots?\b/.test(l)) return 'land';
  if (/commercial|office|retail|industrial/.test(l)) return 'commercial';
  return 'sfr';
}
