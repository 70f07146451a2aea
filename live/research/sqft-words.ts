// The wordings of a price per square foot ("sqft price", "$/sf", "price/sq ft", "square foot price", "psf", "ppsf",
// "dollars per foot", "$/ft", "go for a foot") written as the one every rule reads, "price per sqft" (pure): before,
// "avg sqft price seattle" answered the median sale price and "$/sf in 98103" read "sf" as San Francisco; "what do homes
// in Staten Island 10309 go for in dollars per foot" (review 26) the median sale price, a price per foot of a home
// being its living area's. Rules: warehouse/docs/research.md "Intents" (comps).

/** A unit of area, or the investor's "foot" (a home's price per foot is per square foot). */
const UNIT = String.raw`(?:sf|sqft|sq\.?\s*f(?:oo|ee)?t\.?|sq\.?\s*foot|square[- ]f(?:oo|ee)t|f(?:oo|ee)t|ft\.?)`;
/** A verb of price before "a foot" ("go for a foot", "how much a square foot", "sells for a foot"). */
const PRICED = String.raw`\b(?:go(?:es)?|went|going|sells?|selling|sold|costs?|costing|runs?|running|priced|pay|paid|much|trades?|trading|traded)(?:\s+for)?(?:\s+at)?\s+`;
const PER_SQFT = new RegExp([
  String.raw`(?:\$|\b(?:prices?|costs?|dollars?|bucks))\s*(?:\/|\bper\b|\ba\b)\s*${UNIT}(?![\w.])`, // "$/ft", "dollars per foot", "price a foot"
  String.raw`\bper[\s-]+${UNIT}(?![\w.])`, // "per foot", "per sf", "per-square-foot"
  String.raw`(?<=${PRICED})an?\s+(?:square\s+)?(?:foot|ft\.?|sf|sqft)(?![\w.])`, // "go for a foot"
  String.raw`\b(?:sqft|sq\.?\s*ft\.?|square[- ]f(?:oo|ee)t)\s+(?:prices?|costs?|values?)\b`, // "sqft price"
  String.raw`\$\s*psf\b|\bp\.?p\.?s\.?f\b|\bpsf\b|\bppsqft\b`,
].join('|'), 'gi');

/** The question with each per-square-foot price wording written "price per sqft". */
export const sqftWords = (q: string): string => q.replace(PER_SQFT, 'price per sqft');
