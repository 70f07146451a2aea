// The kind of distress a question asks ("tax delinquent properties in Louisville"): the city's count of that kind
// where its filings record kinds (market.json `distress_kinds`, distress-kinds-build.ts), else said plainly that the
// figure is every kind together. Before (review 22), Louisville's 42 of all kinds answered a question of the 35
// tax-delinquent ones. Rules: warehouse/docs/research.md "Distressed properties by kind".
import type { ResearchData } from './data.ts';
import { fmt } from './facts.ts';
import { slug } from '../../warehouse/layout.ts';

/** The filing kinds (distress.kind) and the words that ask each. */
export const KINDS: [kind: string, words: string, asked: RegExp][] = [
  ['tax_delinquent', 'tax-delinquent', /\btax(?:es)?[- ]?(?:delinquen\w*|liens?|sales?|default\w*|foreclos\w*)|\bdelinquent (?:property )?tax\w*|\bback taxes\b|\bunpaid (?:property )?taxes\b/],
  ['pre_foreclosure', 'pre-foreclosure', /\bpre-?foreclos\w*|\blis pendens\b|\bnotices? of default\b/],
  ['lien_foreclosure', 'lien foreclosure', /(?<!\btax[- ])\blien[- ]foreclos\w*|\bcode[- ]enforcement liens?\b/],
];

/** The kind a question asks, or null (no kind, or more than one). */
export function distressKindAsked(query: string): { kind: string; words: string } | null {
  const q = query.toLowerCase();
  const hits = KINDS.filter(([, , re]) => re.test(q));
  return hits.length === 1 ? { kind: hits[0]![0], words: hits[0]![1] } : null;
}

/** A filing kind in words ("tax-delinquent"). */
export const kindWords = (k: string): string => KINDS.find((x) => x[0] === k)?.[1] ?? k.replaceAll('_', ' ');

/** A city's distressed properties of the kind asked over the window of `months` months to asOf: the count and how it
 *  is worded, or, where its filings do not record that kind, the words saying the count is of every kind. */
export function distressOfKind(data: ResearchData, state: string, city: string, months: number, asOf: string, asked: { kind: string; words: string }):
  { count: number; words: string } | { note: string } {
  const entry = data.market?.distress_kinds?.[`city|${state}|${slug(city)}`];
  const kinds = entry ? Object.keys(entry[1]) : [];
  if (!entry || entry[0] !== asOf) return { note: `this counts every kind of distress filing together: the kinds are not told apart in this index, so not ${asked.words} alone` };
  if (!kinds.includes(asked.kind)) {
    const held = kinds.map(kindWords).join(' and ');
    return { note: `no ${asked.words} filing is recorded for ${city}, ${state} (its filings are ${held}), so this counts every kind the records hold` };
  }
  const n = entry[1][asked.kind]![months - 3] ?? 0;
  return { count: n, words: `${fmt(n)} ${asked.words} ${n === 1 ? 'property' : 'properties'}` };
}
