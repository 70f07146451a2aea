// A zip whose USPS city has city figures that leave the zip's sales out: 98168 is mailed as Seattle, but the geo
// lookup places its sales in Tukwila, so "the median price of Seattle" never counts them. An answer about the zip alone
// says so, from the build's own placement of its sales (market.json zip_cities, build.ts), never a list of zips kept
// here; a figure kept per city is the placing city's (placedCity); rankings of a city's zips say it their way (sales-facts.ts zipPriceFacts). Rules: warehouse/docs/research.md
// "Neighbourhoods" (a zip labelled with a city whose figures leave it out).
import type { ResearchData } from './data.ts';
import { plural, type Fact } from './facts.ts';
import { slug } from '../../warehouse/layout.ts';

/** The clause for zip `zip`, or null when its USPS city's figures hold all its sales (or the build keeps no placement). */
export function zipCityNote(data: Pick<ResearchData, 'market' | 'zips'>, zip: string): string | null {
  const placed = data.market?.zip_cities?.[zip];
  const label = data.zips.get(zip)?.city;
  if (!placed?.length || !label) return null;
  const own = placed.find(([c]) => slug(c) === slug(label))?.[1] ?? 0;
  const others = placed.filter(([c]) => slug(c) !== slug(label));
  const total = placed.reduce((n, [, k]) => n + k, 0);
  const elsewhere = others.reduce((n, [, k]) => n + k, 0);
  if (!others.length) return null;
  const where = others.length === 1 ? others[0]![0] : others.map(([c, k]) => `${c} (${plural(k, 'sale')})`).join(', ');
  const them = others.length === 1 ? `${others[0]![0]}'s city figures` : 'those cities\' figures';
  return own
    ? `zip ${zip} is mailed as ${label}, but the geo lookup places ${elsewhere.toLocaleString('en-US')} of its ${plural(total, "arm's-length sale")} in the data in ${where}, so those count in ${them}, not ${label}'s`
    : `zip ${zip} is mailed as ${label} (its USPS name), but the geo lookup places ${total === 1 ? 'its one' : `all ${total.toLocaleString('en-US')} of its`} arm's-length sale${total === 1 ? '' : 's'} in the data in ${where}, so they count in ${them}, not ${label}'s`;
}

/** The one city the geo lookup places all of a zip's sales in when it is not the zip's USPS city (98168: Tukwila), so
 *  a figure kept per city (investor activity) is that city's for the zip; else null. */
export function placedCity(data: Pick<ResearchData, 'market' | 'zips'>, zip: string): string | null {
  const placed = data.market?.zip_cities?.[zip];
  const label = data.zips.get(zip)?.city;
  return placed?.length === 1 && label && slug(placed[0]![0]) !== slug(label) ? placed[0]![0] : null;
}

/** A zip's market fact with the note after it (its sentence), when one applies. */
export function withZipCity(data: Pick<ResearchData, 'market' | 'zips'>, f: Fact, zip: string): Fact {
  const note = f.source ? zipCityNote(data, zip) : null;
  return note ? { ...f, sentence: `${f.sentence}; ${note}` } : f;
}

/** For a city of no sales of its own whose zips' sales the build places in other cities (SeaTac, WA: its zips are mailed
 *  as Seattle and the sales file names no city, so each zip's sales take the incorporated place holding most of its land,
 *  Burien, Tukwila or Des Moines; warehouse/docs/market.md "City from zip"): the clause saying where they count and
 *  that a zip answers, '' else (h74ask: "median price in seatac wa" said no sales, as if none fell in its zips). */
export function cityZipsPlaced(data: Pick<ResearchData, 'market' | 'zips' | 'titles' | 'zipsOfCity'>, t: { city?: string | null; state: string; zip?: string | null }): string {
  if (!t.city || t.zip || data.market?.sources?.[`city|${t.state}|${slug(t.city)}`]?.length) return '';
  const zips = data.zipsOfCity(t.city, t.state).filter((z) => data.market?.zip_cities?.[z]?.length).sort();
  if (!zips.length) return '';
  const parts = zips.map((z) => `zip ${z} (${data.market!.zip_cities![z]!.map(([c, k]) => `${plural(k, "arm's-length sale")} in ${c}`).join(', ')})`);
  const files = [...new Set(zips.flatMap((z) => data.market?.sources?.[`zip|${z}`] ?? []))].sort().map((s) => data.titles.get(s) ?? s);
  return `: ${files.join(' and ')} ${files.length > 1 ? 'record' : 'records'} no city, only a zip, and each sale counts in the city holding the most of its zip's land, so ${t.city}'s zips with sales count elsewhere: ${parts.join(', ')}; ${t.city} has no city figure of its own, and each of these zips answers for itself (ask "home prices in ${zips[0]}")`;
}
