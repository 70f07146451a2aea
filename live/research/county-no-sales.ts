// Why a county or city has no sale figure for any of its zips ("Jefferson County KY home prices", "pittsburgh home
// prices", "is philly cheaper than pittsburgh"), and what the build holds there instead (h67ask: before, "We have no
// single-family median sale prices for any zip of Jefferson County, KY." and nothing more, where the build does hold
// Louisville's lien foreclosure filings; h67ask2: a city of filings alone, Pittsburgh or Louisville, alone or compared,
// said "no data" with no why). The sales sources are the build's own (market.json `sources`, by their manifest
// titles); the filings and permits the place holds are those its filing municipalities (places.json `filings`) and its
// county or city permit counts (`permit_months`) name.
import type { ResearchData } from './data.ts';
import type { Target } from './places.ts';
import { slug } from '../../warehouse/layout.ts';

const list = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** ": no sales source of this build covers it (...); what it holds there: ..." for a county or city (no zip) of no
 *  sales; '' for another place, or where one of its zips has a sales record (the figure is then missing for another
 *  reason). `brief`: without the list of the build's sales sources (a comparison's "no data"). */
export function noSalesWhy(data: ResearchData, t: Target, zips: readonly string[], brief = false): string {
  const fips = !t.city && !t.zip ? t.area?.county_fips : undefined;
  const bySource = data.market?.sources;
  if (t.zip || (!fips && !t.city) || (t.city && t.area) || !bySource || zips.some((z) => bySource[`zip|${z}`]?.length)) return '';
  const sales = [...new Set(Object.values(bySource).flat())].sort().map((s) => data.titles.get(s) ?? s);
  const where = fips ? `${t.area!.name}, ${t.state}` : `${t.city}, ${t.state}`;
  const held: string[] = [];
  const filed = data.filingPlaces.filter((f) => (fips ? f.county_fips === fips : f.state === t.state && f.name.toLowerCase() === t.city!.toLowerCase()));
  const filers = filed.map((f) => f.name);
  // the filing sources of its municipalities (distress_months: each city's sources)
  const filings = [...new Set(filed.flatMap((f) => data.market?.distress_months?.places[`city|${f.state}|${slug(f.name)}`]?.[1] ?? []))].sort().map((s) => data.titles.get(s) ?? s);
  if (filers.length && filings.length) held.push(`foreclosure and lien filings (${list(filings)}${fips ? `, naming ${list(filers.slice(0, 3))}${filers.length > 3 ? ` and ${filers.length - 3} more` : ''}` : ''}): ask "foreclosures in ${where}"`);
  if (data.market?.permit_months?.places[fips ? `county|${fips}` : `city|${t.state}|${slug(t.city!)}`]) held.push(`building permits: ask "permits in ${where}"`);
  // a city of neither filings nor permits: its missing figure keeps its own words (a zip without sales, a typeless file)
  if (!fips && !held.length) return '';
  return `: no sales source of this build covers it${brief ? '' : ` (its sales sources are ${list(sales)})`}${held.length ? `; what it holds there is ${held.join('; and ')}` : ''}`;
}

/** noSalesWhy of a county or city by its own zips (a compared place's "no data", a city's missing price). */
export const placeNoSalesWhy = (data: ResearchData, t: Target, brief = false): string =>
  noSalesWhy(data, t, t.area && !t.city ? data.zipsOfCounty(t.area.county_fips) : t.city ? data.zipsOfCity(t.city, t.state) : [], brief);
