// How a route names its shard: a family's path from the request's keys (api/routes.ts), and the city a request names,
// as typed when the build has a shard of that name, else by the build's place resolver.
import { HttpError } from './errors.ts';
import { shardPath, type FamilyName } from '../warehouse/layout.ts';
import type { Reply } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import places from '../live/places/endpoint.ts';
import { CLOSEST_NAMES, IS_NO_CITY } from '../live/places/resolver.ts';
import { municipalityNames } from '../live/places/names.ts';
import { PROPERTY_TYPES } from '../warehouse/property-types.ts';
import { flaggedOnly, salesCoverOf, salesRecorded, zipOfCoveredCity } from './market-source.ts';

const keyStrings = (keys: Record<string, unknown>): Record<string, string | null> =>
  Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v === undefined || v === null ? null : String(v)]));

export function shard(family: FamilyName, keys: Record<string, unknown>, notFound: string): Reply {
  const sp = shardPath(family, keyStrings(keys));
  // An unrepresentable key (a city name that slugs to nothing) has no shard: a clean 404.
  if (!sp.ok) throw new HttpError('no_data', notFound);
  return { kind: 'shard', path: sp.path, notFound };
}

/** The city a request names, by the build's place resolver (live/places: aliases, Census names, case, accents): its
 *  canonical name, or, for a name it does not know, the name as given with `hint` naming the closest cities of the
 *  state for the 404 (the legal and investor shards also hold cities outside `cities`: overlay and sales cities).
 *  Strict (geo lookup, whose shards are exactly `cities`): an unknown or ambiguous name is a 404 at once. A build
 *  without the place table passes the name through. Synchronous: the resolver answers in-process, and shard routes
 *  stay free of awaits (api/app.ts answers a synchronous reply without a microtask). */
export function canonicalCity(build: LoadedBuild, state: unknown, city: unknown, strict = false): { city: string; hint: string } {
  const inst = build.live.get(places);
  if (!inst || typeof state !== 'string' || typeof city !== 'string') return { city: String(city), hint: '' };
  const answer = inst.handle({ state, city } as never);
  if (answer instanceof Promise) throw new Error('the place resolver must answer synchronously');
  if (answer.ok) return { city: (answer.body as { city: string }).city, hint: '' };
  // a county sent as a city ("King County"): a 422 naming its cities and zips (live/places/counties.ts)
  if (answer.code === 'validation_failed') throw new HttpError(answer.code, answer.message, { errors: answer.errors });
  // a town or township the market's records name but the Census does not as a place (Fairfield, CT; Mount Lebanon
  // Township, PA): it is known to this build, and the 404 says where (review: "no city of that name is known" while
  // /v1/market/investor-overview answered for Fairfield's 152 sales)
  const market = marketName(build, state, city);
  // the endpoints that answer it: the investor overview (marketName's shard), the trends where a sales source covers it
  const answering = market === null ? [] : [...(salesSourceCovers(build, { state, city: market }) ? ['/v1/market/trends'] : []), '/v1/market/investor-overview'];
  const note = market === null ? null
    : `: ${market}, ${state} is known to this build's market endpoints from its sales or filings (${answering.join(', ')}) `
      + 'but is no Census place of its geo `cities` table, which the geo lookup and the city legal answers cover';
  if (strict) throw new HttpError(answer.code, note === null ? answer.message : `${answer.message}${note}`, { errors: answer.errors });
  if (note !== null) return { city: city.trim(), hint: note };
  // a neighbourhood (Queens Village, Flushing) or a borough with a municipality's word ("Manhattan City"): what it is
  const isNo = answer.message.indexOf(`${city}${IS_NO_CITY}`);
  if (isNo >= 0) return { city: city.trim(), hint: `: ${answer.message.slice(isNo)}` };
  // a name a sales source's records give with no answer of its own (Sloughhouse, CA: its one sale is flagged) is known
  // to the build: the market 404 says why (noMarketSales), never "no city of that name"
  if (salesRecorded(build, { state, city })) return { city: city.trim(), hint: '' };
  const at = answer.message.indexOf(CLOSEST_NAMES);
  // a name the build knows no city by is said to be one, with the closest names when there are some (review 10 #10:
  // "No sfr sales for Zzqx, WA" read as a real city without sales)
  const known = `: no city of that name in ${state} is known to this build`;
  return { city: city.trim(), hint: at >= 0 ? `${known}${answer.message.slice(at)}` : known };
}

/** The market's name of a city the market endpoints answer for (it has an investor shard: the city of a sale or
 *  filing, as typed or as its records file it), else null. */
function marketName(build: LoadedBuild, state: string, city: string): string | null {
  for (const name of municipalityNames(city)) {
    const own = shardPath('investor', keyStrings({ state, city: name, months: 12 }));
    if (own.ok && build.shards.has(own.path)) return name;
  }
  return null;
}

/** The shard of a city-keyed family for the city a request names: the market's own name when the build has a shard of
 *  it, as typed or as its records file it (municipalityNames: "Penn Hills" is Penn Hills Township), even where the
 *  Census names the place otherwise ("Milford city" for the town of Milford, CT) or names another place so (the
 *  borough of Baldwin beside Baldwin Township, PA; review 5A); else canonicalCity's name. */
export function cityShard(build: LoadedBuild, family: FamilyName, keys: Record<string, unknown>, notFound: (city: string, hint: string) => string): Reply {
  for (const name of typeof keys['city'] === 'string' ? municipalityNames(keys['city']) : []) {
    const own = shardPath(family, keyStrings({ ...keys, city: name }));
    if (own.ok && build.shards.has(own.path)) return { kind: 'shard', path: own.path, notFound: notFound(name, '') };
  }
  const { city, hint } = canonicalCity(build, keys['state'], keys['city']);
  return shard(family, { ...keys, city }, notFound(city, hint));
}

/** Whether the build has an arm's-length sale of a market (a zip, or a state and city): a trends shard of it of any
 *  type (market_monthly holds every type of every market with an arm's-length sale). A market without one may still
 *  have flagged records of a source (noMarketSales). */
export function salesSourceCovers(build: LoadedBuild, keys: { zip: unknown } | { state: unknown; city: unknown }): boolean {
  return PROPERTY_TYPES.some((type) => {
    const sp = shardPath('trends', keyStrings({ ...keys, property_type: type }));
    return sp.ok && build.shards.has(sp.path);
  });
}

/** The 404 of a market no sales source covers: it has no sales because no source of this build records any there, not
 *  because none happened (review: "No sfr sales for zip 60614" of Chicago, which no source of the build covers). */
export const noSalesSource = (where: string): string =>
  `No sales source covers ${where}: this build has no sales records there (its sales sources are county and city files of other markets), which says nothing of the sales that happened`;

/** noSalesSource for the investor overview, which counts a city's distress filings as well as its sales: neither kind
 *  of source records one there (Nashville's permits count in no investor figure). */
export const noInvestorSource = (where: string): string =>
  `No investor data for ${where}: no sales source and no distress filing source of this build covers it (no sale or filing is recorded there: its sales and filing sources are county and city files of other markets), which says nothing of the investors active there`;

/** The 404 of a zip the build knows nothing of: the location endpoint's words (a zip of no reference file has no
 *  location shard, every zip of the `zips` table has one). */
export const zipOutsideCoverage = (zip: string): string => `Zip ${zip} is outside coverage`;

/** The 404 of a zip of no reference file (it has no location shard; every zip of the `zips` table has one): outside
 *  coverage, and so no source has `what` there; null for a zip the build knows. */
export function outsideCoverage(build: LoadedBuild, zip: string, what: string): string | null {
  const sp = shardPath('location-zip', { zip });
  if (sp.ok && build.shards.has(sp.path)) return null;
  return `${zipOutsideCoverage(zip)}: it is in none of this build's zip reference files, so no source has ${what} there`;
}

/** The 404 of a market (a zip, or a state and city) no sales source records a sale in, whose county one does (review
 *  24 C: Skykomish's 98288 in King County was told the sources were "files of other markets"): the county's source and
 *  its sales there, and that none is in this market; null otherwise. */
export function marketOfCoveredCounty(build: LoadedBuild, keys: { zip: unknown } | { state: unknown; city: unknown }, where: string, what: string): string | null {
  const c = salesCoverOf(build, keys)?.county;
  if (!c) return null;
  const by = c.source ? `the ${c.source.name} source (${c.source.id})` : `the sales sources ${c.sources.join(', ')}`;
  const of = 'zip' in keys ? "the zip's county" : "the city's county";
  // its sales in so many of the county's zips, never "across" the county: the NYC file's 134 in Nassau County are Queens
  // sales in 11001 and 11040, zips mostly of Nassau (h25), and Sacramento's 3 in Yolo County are in one zip
  const sales = c.arms_length === 1 ? "1 arm's-length sale" : `${c.arms_length.toLocaleString('en-US')} arm's-length sales`;
  return `No ${what} for ${where}: ${by} records ${sales} in ${c.zips} of the zips of ${c.county}, ${c.state}, ${of}, but none in ${'zip' in keys ? 'this zip' : where}`;
}

/** The 404 of a market without an arm's-length sale: where a source records only flagged sales there, the source, the
 *  count and why they are flagged (review 18: zip 06779 answered "no sales records" over its one flagged land sale);
 *  a zip of a city a source covers, that city's sales (zipOfCoveredCity); a zip or city of a county a source covers,
 *  the county's (marketOfCoveredCounty); a zip of no reference file, outside coverage; else `none` (noSalesSource).
 *  `what`: what there is none of ("sfr sales to compare"). */
export const noMarketSales = (build: LoadedBuild, keys: { zip: unknown } | { state: unknown; city: unknown }, where: string, what: string, none = noSalesSource): string => {
  const zip = 'zip' in keys && typeof keys.zip === 'string' ? keys.zip : null;
  return flaggedOnly(build, keys, where, what) ?? (zip !== null ? zipOfCoveredCity(build, zip, what) : null) ?? marketOfCoveredCounty(build, keys, where, what)
    ?? (zip !== null ? outsideCoverage(build, zip, what) : null)
    ?? none(where);
};
