// The kind of distress a question asks ("tax delinquent properties in Louisville"): the city's count of that kind
// where its filings record kinds (market.json `distress_kinds`, distress-kinds-build.ts), else said plainly that the
// figure is every kind together. Before (review 22), Louisville's 42 of all kinds answered a question of the 35
// tax-delinquent ones. A word that covers several kinds counts them all (review 26: "lien foreclosure suits" in
// Louisville counted the 5 Metro lien cases of 2016, not the 30 Commonwealth tax-lien suits, each a lien foreclosure
// too: the source's SOURCE.md calls the whole file lien foreclosures). Rules: warehouse/docs/research.md "Distressed
// properties by kind".
import type { ResearchData } from './data.ts';
import { fmt } from './facts.ts';
import { slug } from '../../warehouse/layout.ts';

/** The filing kinds (distress.kind), the words a count of each says, and the words that ask for that kind alone. */
export const KINDS: [kind: string, words: string, asked: RegExp][] = [
  ['tax_delinquent', 'tax-delinquent', /\btax(?:es)?[- ]?(?:delinquen\w*|liens?|sales?|default\w*|foreclos\w*)|\bdelinquent (?:property )?tax\w*|\bback taxes\b|\bunpaid (?:property )?taxes\b/],
  ['pre_foreclosure', 'pre-foreclosure', /\bpre-?foreclos\w*|\blis pendens\b|\bnotices? of default\b/],
  ['lien_foreclosure', 'non-tax lien', /\b(?:code[- ]enforcement|vacant[- ]property|non-?tax|metro) liens?\b/],
];

/** Words that ask for several kinds at once, each counted: a lien foreclosure (or a lien filing) is a tax-lien suit as
 *  much as another lien's. */
const GROUPS: [kinds: string[], words: string, asked: RegExp][] = [
  [['tax_delinquent', 'lien_foreclosure'], 'lien foreclosure', /(?<!\btax(?:es)?[- ])\blien[- ]?(?:foreclos\w*|suits?|cases?|actions?)/],
];

export interface KindAsked { kinds: string[]; words: string }

/** The kinds a question asks, or null (none, or two kinds asked apart): one kind's words, else a group's. */
export function distressKindAsked(query: string): KindAsked | null {
  const q = query.toLowerCase();
  const hits = KINDS.filter(([, , re]) => re.test(q));
  if (hits.length) return hits.length === 1 ? { kinds: [hits[0]![0]], words: hits[0]![1] } : null;
  const group = GROUPS.find(([, , re]) => re.test(q));
  return group ? { kinds: group[0], words: group[1] } : null;
}

/** A filing kind in words ("tax-delinquent"). */
export const kindWords = (k: string): string => KINDS.find((x) => x[0] === k)?.[1] ?? k.replaceAll('_', ' ');

/** The kind asked said plainly not recorded for a place whose filings hold only other kinds (h72ask: "tax sales in
 *  pittsburgh 2019" counted Allegheny's mortgage foreclosure filings with the gap in a parenthesis): "Tax sales and
 *  tax-delinquent filings are not recorded for Pittsburgh, PA: its filing records hold pre-foreclosure filings only". */
export function kindNotHeld(asked: KindAsked, where: string, held: readonly string[], names?: string): string {
  const what = asked.kinds.includes('tax_delinquent') && asked.kinds.length === 1 ? 'Tax sales and tax-delinquent filings are' : `${asked.words.charAt(0).toUpperCase()}${asked.words.slice(1)} filings are`;
  return `${what} not recorded for ${where}: its filing records${names ? `, ${names},` : ''} hold ${held.map(kindWords).join(' and ')} filings only`;
}

/** Of the kinds asked, those `held` records; with their split when the words asked cover several ("(30
 *  tax-delinquent, 5 non-tax lien)"), by `count` of each. */
export function kindsHeld(asked: KindAsked, held: readonly string[], count: (k: string) => number): { kinds: string[]; n: number; split: string } {
  const kinds = asked.kinds.filter((k) => held.includes(k));
  const n = kinds.reduce((s, k) => s + count(k), 0);
  const split = asked.kinds.length > 1 && kinds.length ? ` (${kinds.map((k) => `${fmt(count(k))} ${kindWords(k)}`).join(', ')})` : '';
  return { kinds, n, split };
}

/** A city's distressed properties of the kind asked over the window of `months` months to asOf: the count and how it
 *  is worded, or, where its filings do not record that kind, the words saying the count is of every kind. */
export function distressOfKind(data: ResearchData, state: string, city: string, months: number, asOf: string, asked: KindAsked):
  { count: number; words: string } | { note: string } {
  const entry = data.market?.distress_kinds?.[`city|${state}|${slug(city)}`];
  const kinds = entry ? Object.keys(entry[1]) : [];
  if (!entry || entry[0] !== asOf) return { note: `this counts every kind of distress filing together: the kinds are not told apart in this index, so not ${asked.words} alone` };
  const h = kindsHeld(asked, kinds, (k) => entry[1][k]![months - 3] ?? 0);
  if (!h.kinds.length) {
    const not = kindNotHeld(asked, `${city}, ${state}`, kinds);
    return { note: `${not.charAt(0).toLowerCase()}${not.slice(1)}; what they hold is counted here` };
  }
  return { count: h.n, words: `${fmt(h.n)} ${asked.words} ${h.n === 1 ? 'property' : 'properties'}${h.split}` };
}

/** The filing kinds the distress records of a city hold over their whole file (market.json `distress_months`, the
 *  build's distress.kind), or of several cities together (a county's municipalities); none for an index without them. */
export function distressKindsOf(data: ResearchData, places: readonly { state: string; city: string }[]): string[] {
  const months = data.market?.distress_months?.places;
  return [...new Set(places.flatMap((p) => Object.keys(months?.[`city|${p.state}|${slug(p.city)}`]?.[2] ?? {})))].sort();
}
