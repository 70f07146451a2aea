// The wordings of a price per square foot ("sqft price", "$/sf", "price/sq ft", "square foot price", "psf") written
// as the one every rule reads, "price per sqft" (pure): before, "avg sqft price seattle" answered the median sale
// price and "$/sf in 98103" read "sf" as San Francisco. Rules: warehouse/docs/research.md "Intents" (comps).

const UNIT = String.raw`(?:sf|sqft|sq\.?\s*ft\.?|sq\.?\s*foot|square[- ]f(?:oo|ee)t)`;
const PER_SQFT = new RegExp(String.raw`(?:\$|\b(?:prices?|costs?|dollars?))\s*(?:\/|\bper\b)\s*${UNIT}(?![\w.])|\b(?:sqft|sq\.?\s*ft\.?|square[- ]f(?:oo|ee)t)\s+(?:prices?|costs?|values?)\b|\bper\s+sf\b|\$\s*psf\b|\bpsf\b`, 'gi');

/** The question with each per-square-foot price wording written "price per sqft". */
export const sqftWords = (q: string): string => q.replace(PER_SQFT, 'price per sqft');
