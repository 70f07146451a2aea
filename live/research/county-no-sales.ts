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
  // a city of neither filings nor permits keeps its own words where a sales source names it (a typeless file, a source
  // whose sales carry no zip) or nothing is known of its zips; else it is said plainly not covered, with the build's
  // sales sources named (h74ask: "median home price in austin" said no sales, naming no market that has them)
  if (!fips && !held.length && (bySource[`city|${t.state}|${slug(t.city!)}`]?.length || !zips.length)) return '';
  return `: no sales source of this build covers it${brief ? '' : ` (its sales sources are ${list(sales)})`}${held.length ? `; what it holds there is ${held.join('; and ')}` : ''}`;
}

/** noSalesWhy of a county or city by its own zips (a compared place's "no data", a city's missing price). */
export const placeNoSalesWhy = (data: ResearchData, t: Target, brief = false): string =>
  noSalesWhy(data, t, t.area && !t.city ? data.zipsOfCounty(t.area.county_fips) : t.city ? data.zipsOfCity(t.city, t.state) : [], brief);

/** The filing and permit records a zip of no sales holds, each with the question that asks it (h68ask: "compare 98103
 *  and 60614 home prices" said "zip 60614 (Chicago, IL) no data", with no why, where the build holds its permits). */
function zipHolds(data: ResearchData, zip: string): string[] {
  const held: string[] = [];
  const filings = data.market?.distress_months?.places[`zip|${zip}`]?.[1] ?? [];
  if (filings.length) held.push(`foreclosure and lien filings (${list([...filings].sort().map((s) => data.titles.get(s) ?? s))}): ask "foreclosures in ${zip}"`);
  if (data.market?.permit_months?.places[`zip|${zip}`]) held.push(`building permits: ask "permits in ${zip}"`);
  if (data.redfin.has(zip)) held.push(`a Redfin zip snapshot, for days on market only: ask "days on market in ${zip}"`);
  return held;
}

/** ": no sales source of this build covers it; what it holds there is ..." for a zip with no sales record of any type in
 *  the build (no market of its own), '' for any other target. */
export function zipNoSalesWhy(data: ResearchData, t: Target): string {
  const bySource = data.market?.sources;
  if (!t.zip || !bySource || bySource[`zip|${t.zip}`]?.length) return '';
  const held = zipHolds(data, t.zip);
  return `: no sales source of this build covers it${held.length ? `; what it holds there is ${held.join('; and ')}` : ''}`;
}

/** The sentence for a whole state asked a market figure where no sales source of the build has a sale in it ("compare
 *  texas and ohio home prices": before, "price trends are reported per zip code or city; name one in Texas", as if a
 *  city of it would answer), with the build's sales sources named; null for a state with sales (its cities or zips
 *  answer, state-market.ts) or a build without market.json. */
export function stateNoSalesWhy(data: ResearchData, t: Target, what: string): string | null {
  const bySource = data.market?.sources;
  if (t.zip || t.city || t.area || !bySource || bySource[`state|${t.state}`]?.length) return null;
  const sales = [...new Set(Object.values(bySource).flat())].sort().map((s) => data.titles.get(s) ?? s);
  return `We have no ${what} for ${data.stateName(t.state)}: no sales source of this build has a sale anywhere in it (its sales sources are ${list(sales)}), so no city or zip code there has one either`;
}
