// A tax sale asked of a city or county whose filing records hold other kinds only ("pittsburgh tax sales", "tax lien
// sales allegheny county"): the state's rule is answered, and beside it the place is said plainly to have no tax sale
// or tax-delinquent filing recorded, with what its records do hold and the question that asks it (h74ask: before, the
// rule alone, while "tax sales in pittsburgh 2019" said the gap; distress-kinds.ts kindNotHeld). A place whose records
// hold tax-delinquent filings (Louisville), or that no filing records cover, keeps the rule alone. Rules:
// warehouse/docs/research.md "Distressed properties by kind".
import type { ResearchData } from './data.ts';
import type { Target } from './places.ts';
import type { Fact } from './facts.ts';
import { distressKindsOf, kindNotHeld } from './distress-kinds.ts';
import { slug } from '../../warehouse/layout.ts';

const list = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** The fact saying tax sales are not recorded for the city or county asked, or null (a state, a zip, a place whose
 *  filings hold tax-delinquent ones, a place no filings cover). */
export function taxSaleNotHeld(data: ResearchData, t: Target): Fact | null {
  if (t.zip || (!t.city && !t.area)) return null;
  const fips = !t.city ? t.area!.county_fips : undefined;
  const filed = data.filingPlaces.filter((f) => (fips ? f.county_fips === fips : f.state === t.state && f.name.toLowerCase() === t.city!.toLowerCase()));
  if (!filed.length) return null;
  const kinds = distressKindsOf(data, filed.map((f) => ({ state: f.state, city: f.name })));
  if (!kinds.length || kinds.includes('tax_delinquent')) return null;
  const names = [...new Set(filed.flatMap((f) => data.market?.distress_months?.places[`city|${f.state}|${slug(f.name)}`]?.[1] ?? []))].sort().map((s) => data.titles.get(s) ?? s);
  const where = fips ? `${t.area!.name}, ${t.state}` : `${t.city}, ${t.state}`;
  return {
    intent: 'tax_sale', target: t, value: 'tax sales not recorded',
    sentence: `${kindNotHeld({ kinds: ['tax_delinquent'], words: 'tax-delinquent' }, where, kinds, list(names))}, so no tax sale or tax lien of ${where} is counted here (the sales themselves, their dates, buyers and prices, are recorded by no source of this build); what they hold is counted if you ask "foreclosures in ${where}"`,
    detail: [], source: null, confidence: 'medium', primary: true, uncertain: null,
  };
}
