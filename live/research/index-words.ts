// The name of FEMA's National Risk Index written in a question ("What is the National Risk Index score for zip 21224",
// "the FEMA National Risk Index score for Baltimore, MD", "fema nri score king county"): its words are no place
// (pure, no imports). Before (h67ask2), "National" read as National, MD, "Index" as Index, WA and "the FEMA" as a
// neighbourhood of National, and their county or legal risk answered for the zip or city asked. places.ts takes these
// spans before any place is read, as it takes a street line's (street-line.ts); kinds.ts reads the NRI asked.
const INDEX_NAME = /\b(?:the\s+)?(?:fema(?:'?s)?\s+|us\s+|u\.s\.\s+)?(?:nat(?:ional|ionl|ioanl|inal|onal|'l|l\.?)\s+risk\s+ind(?:ex|ez|x)|nri)\b(?:\s+\(nri\))?|\b(?:the\s+)?fema(?:'?s)?\s+(?:natural\s+)?(?:hazards?\s+)?risk\s+(?:index|scores?|ratings?)\b/gi;

/** "National Risk Index" as written, a letter dropped or swapped, or "Nat'l" (kinds.ts reads the NRI asked by it). */
export const INDEX_TYPED = /\bnat(?:ional|ionl|ioanl|inal|onal|'l|l\.?)\s+risk\s+ind(?:ex|ez|x)\b/;

/** The spans of the Index's name in `q`: their words are no place. */
export function indexNames(q: string): { start: number; end: number }[] {
  return [...q.matchAll(INDEX_NAME)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The words that name the Index or its score around it ("FEMA", "risk score", "rating"): with the Index asked they ask
 *  nothing else ("the National Risk Index risk score of Middlesex County" asks no legal risk score, "the FEMA National
 *  Risk Index" no flood map); kinds.ts reads what is left for another topic asked beside it. */
const INDEX_SCORE_WORDS = /\bfema(?:'?s)?\b|\b(?:composite |overall |natural hazards? )?risk (?:scores?|ratings?|index)\b|\b(?:scores?|ratings?)\b/g;

/** `lower` without the Index's name (`name`, the kinds.ts pattern that read it) and its score words. */
export const withoutIndex = (lower: string, name: RegExp): string =>
  lower.replace(new RegExp(name.source, 'g'), ' ').replace(INDEX_SCORE_WORDS, ' ');
