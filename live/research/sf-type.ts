// "sf" written for single-family beside another place ("sf median price 98103", "median sf price seattle"): the
// question's San Francisco reading taken back (pure). Before (h77ask), those compared San Francisco's no data with the
// place asked. Only a lower-case "sf" just before "median", "price(s)", "sale(s)" or "value(s)", or just after
// "median", "average", "avg" or "typical", in a question that names another place and compares nothing ("vs", "or",
// "and", "compared"): "SF", "sf home prices" and "sf vs seattle" stay San Francisco. Rules: warehouse/docs/research.md
// "Intents".
import type { Target } from './place-words.ts';

const SF_TYPE = /(?<=\b(?:median|average|avg|typical)\s+)sf\b|\bsf(?=\s+(?:median|prices?|sales?|values?)\b)/;
const COMPARED = /\b(?:vs\.?|versus|or|and|compared?|than)\b|&/i;
const isSf = (t: Pick<Target, 'city' | 'state' | 'zip'>): boolean => t.city === 'San Francisco' && t.state === 'CA' && !t.zip;

/** The question with its "sf" written "single-family", and the reading said, when the rule holds; else null. */
export function sfAsType(q: string, targets: readonly Pick<Target, 'city' | 'state' | 'zip'>[]): { text: string; readAs: string } | null {
  const m = SF_TYPE.exec(q);
  if (!m || COMPARED.test(q) || /\bsan\s+fran/i.test(q) || !targets.some(isSf) || !targets.some((t) => !isSf(t))) return null;
  return { text: `${q.slice(0, m.index)}single-family${q.slice(m.index + 2)}`, readAs: '"sf" as single-family, not San Francisco, CA' };
}
