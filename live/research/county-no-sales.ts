// Why a county has no sale figure for any of its zips ("Jefferson County KY home prices"), and what the build holds
// there instead (h67ask: before, "We have no single-family median sale prices for any zip of Jefferson County, KY." and
// nothing more, where the build does hold Louisville's lien foreclosure filings). The sales sources are the build's
// own (market.json `sources`, by their manifest titles); the filings and permits the county holds are those its
// filing municipalities (places.json `filings`) and its county permit counts (`permit_months`) name.
import type { ResearchData } from './data.ts';
import type { Target } from './places.ts';
import { slug } from '../../warehouse/layout.ts';

const list = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** ": no sales source of this build covers it (...); what it holds there: ..." for a county (no city) of no sales; ''
 *  for another place, or where one of its zips has a sales record (the figure is then missing for another reason). */
export function countyNoSalesWhy(data: ResearchData, t: Target, zips: readonly string[]): string {
  const fips = !t.city && !t.zip ? t.area?.county_fips : undefined;
  const bySource = data.market?.sources;
  if (!fips || !bySource || zips.some((z) => bySource[`zip|${z}`]?.length)) return '';
  const sales = [...new Set(Object.values(bySource).flat())].sort().map((s) => data.titles.get(s) ?? s);
  const where = `${t.area!.name}, ${t.state}`;
  const held: string[] = [];
  const filed = data.filingPlaces.filter((f) => f.county_fips === fips);
  const filers = filed.map((f) => f.name);
  // the filing sources of its municipalities (distress_months: each city's sources)
  const filings = [...new Set(filed.flatMap((f) => data.market?.distress_months?.places[`city|${f.state}|${slug(f.name)}`]?.[1] ?? []))].sort().map((s) => data.titles.get(s) ?? s);
  if (filers.length && filings.length) held.push(`foreclosure and lien filings (${list(filings)}, naming ${list(filers.slice(0, 3))}${filers.length > 3 ? ` and ${filers.length - 3} more` : ''}): ask "foreclosures in ${where}"`);
  if (data.market?.permit_months?.places[`county|${fips}`]) held.push(`building permits: ask "permits in ${where}"`);
  return `: no sales source of this build covers it (its sales sources are ${list(sales)})${held.length ? `; what it holds there is ${held.join('; and ')}` : ''}`;
}
