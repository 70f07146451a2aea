// Place readings around places.ts (pure, no I/O): "New York County" is Manhattan; a town written in lower case at the
// end of a question that found no place ("distressed properties in monroeville", "what about redmond?", "monroeville
// boro") read as the town when the gazetteer or the filings know it; "Seattle area", "Philly suburbs", "Denver metro"
// said to be answered for the city alone. Rules: warehouse/docs/research.md "Entity rules".
import type { Understanding } from './intent.ts';
import { COMMON_WORDS, STATE_NAME_SET } from './place-words.ts';
import { windowFigure, type MarketWindows } from './market-window.ts';

/** The five counties of New York City are its boroughs: the county names the sales source does not use, read as the
 *  borough ("New York County" is Manhattan; Kings, Queens and Richmond are read by county-place.ts). */
const NYC_COUNTY = /\bnew york county\b|\bnew york co\.?(?=\s|$)/i;

/** The question with "New York County" written as Manhattan, and what was read. */
export function nycCounty(q: string): { text: string; readAs: string | null } {
  const m = NYC_COUNTY.exec(q);
  if (!m) return { text: q, readAs: null };
  return { text: q.replace(NYC_COUNTY, 'Manhattan'), readAs: `"${m[0]}" as Manhattan (New York, NY): New York County is the borough of Manhattan` };
}

/** The gazetteer's towns and the filing municipalities (data.ts). */
export interface Towns { citiesByName: ReadonlyMap<string, readonly { population: number }[]>; filingPlaces: readonly { name: string }[] }

/** Words a town's name is followed by that are not part of it ("monroeville boro"). */
const MUNI = /\s+(boro|borough|township|twp\.?|village|city|town)$/i;
/** The last words after "in", "about", "near", "for", "around" or "of" ending the question, written in lower case. */
const TRAILING = /\b(?:in|about|near|around|for|of)\s+([a-z][a-z'.]*(?:[ -][a-z][a-z'.]*){0,2})\s*[?.!]*\s*$/;

/** A question that found no place, ending with a town's name in lower case that the gazetteer holds with 10,000 people
 *  or more (or that a filing municipality is named): the question with the name capitalised, so places.ts reads it as a
 *  capitalised name (its namesakes said); null when there is none. */
export function lowerTown(u: Pick<Understanding, 'targets' | 'unknown'>, q: string, gaz: Towns): string | null {
  if (u.targets.length || u.unknown.some((x) => !x.startsWith('a place named '))) return null;
  const m = TRAILING.exec(q);
  if (!m) return null;
  const name = m[1]!.replace(MUNI, '').replace(/\.$/, '');
  const key = name.toLowerCase();
  if (!key || STATE_NAME_SET.has(key) || key.split(/[\s-]+/).some((w) => COMMON_WORDS.has(w))) return null;
  const cities = gaz.citiesByName.get(key) ?? [];
  const filed = gaz.filingPlaces.some((f) => f.name.toLowerCase().replace(/\s+(township|borough)$/, '') === key) 
  if (!filed && !cities.some((c) => c.population >= 10_000)) return null;
  const cased = name.replace(/(^|[\s-])([a-z])/g, (_, s: string, c: string) => s + c.toUpperCase());
  return q.slice(0, m.index) + m[0].replace(m[1]!, cased);
}

/** "Seattle area", "Philly suburbs", "Denver metro", "greater Boston": the city alone is answered, said. */
const METRO = /\b(suburbs?|suburban|metro|metropolitan|metro area|area|region|surrounding (area|towns|cities)|and (its )?surroundings)\b/i;

/** The note that a metro area or suburbs asked are answered for the city alone (market figures are kept per city and
 *  zip, and per county where a county is named); null when none is asked. */
export function metroNote(u: Pick<Understanding, 'targets' | 'intents' | 'propertyType'>, q: string, data?: Counties): string | null {
  const city = u.targets.find((t) => t.city && !t.zip && !t.area);
  if (!city || !u.intents.length) return null;
  const m = /\bgreater\s+[A-Z]/.test(q) ? ['greater'] : METRO.exec(q.replace(/\b(area|region)s? (of|in|around)\b/gi, (s) => s));
  if (!m) return null;
  // "which area of Seattle", "zips in the area": an area within the city is not its metro
  if (/\b(which|what|an?) (area|region|suburb)s?\b|\bareas? (of|in|within)\b/i.test(q)) return null;
  const county = data ? widerCounty(data, city.city!, city.state, u.propertyType) : null;
  return `"${m[0]}" as ${city.city}, ${city.state} alone: market figures are kept per city and zip (and per county when one is named, as "King County"), not for a metro area or its suburbs${county ? `; ${county}` : ''}`;
}

/** What the county of a city needs of the research data (data.ts). */
export interface Counties {
  cityInState(name: string, state: string): { county_fips?: string | null } | null;
  zips: ReadonlyMap<string, { city: string; state: string; county_fips?: string }>;
  countiesByName: ReadonlyMap<string, readonly { fips: string; name: string; state: string }[]>;
  market: MarketWindows | null;
}

/** The offer of a city's county when the build keeps sales of its zips outside the city ("Seattle area": King County's
 *  zips, 48 of them outside Seattle), else null. */
function widerCounty(data: Counties, city: string, state: string, type: string): string | null {
  const fips = data.cityInState(city, state)?.county_fips;
  if (!fips || !data.market) return null;
  const outside = [...data.zips].filter(([z, x]) => x.county_fips === fips && x.city.toLowerCase() !== city.toLowerCase() && (windowFigure(data.market, { zip: z, state }, type, 24)?.sales ?? 0) > 0).length;
  if (!outside) return null;
  const name = [...data.countiesByName.values()].flat().find((c) => c.fips === fips)?.name;
  return name ? `${name}'s zips can be asked ("median sale price in ${name}"): ${outside} of its zips outside ${city} have sales` : null;
}
