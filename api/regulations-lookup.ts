// GET /v1/regulations/lookup: the query's checks and the answer, filtered from the state's `regulations` shard (the
// records of warehouse/regulations, most specific first as stored). The route row is in api/routes.ts.
import crypto from 'node:crypto';
import { HttpError, type FieldError } from './errors.ts';
import type { Reply, Values } from './route.ts';
import type { LoadedBuild } from './builds.ts';
import { shardPath } from '../warehouse/layout.ts';
import { placeKey } from '../live/places/names.ts';
import { STATE_FIPS, SUBCATEGORY_KEYS } from '../warehouse/regulations/schema.ts';
import { escapeRegExp } from '../warehouse/regexp.ts';

interface RegulationRecord {
  id: string;
  jurisdiction_level: string;
  county_fips: string | null;
  city: string | null;
  category: string;
  subcategory: string;
  status: string;
}

/** Documented subcategories per category (warehouse/regulations/SCHEMA.md, SUBCATEGORY_KEYS). */
const subcategoriesOf = (category: string): string[] =>
  Object.keys(SUBCATEGORY_KEYS).filter((k) => k.startsWith(`${category}/`)).map((k) => k.slice(category.length + 1));
export const ALL_SUBCATEGORIES = [...new Set(Object.keys(SUBCATEGORY_KEYS).map((k) => k.slice(k.indexOf('/') + 1)))].sort();

/** A county_fips of the state asked for (its first two digits are the state's FIPS code), and a documented
 *  subcategory (of the category, when one is given); each failure names what is allowed. */
export function checkRegulationsQuery(v: Values): FieldError[] {
  const fips = v['county_fips'];
  const stateFips = STATE_FIPS[v['state'] as keyof typeof STATE_FIPS];
  if (typeof fips === 'string' && stateFips && !fips.startsWith(stateFips)) {
    const other = Object.entries(STATE_FIPS).find(([, f]) => fips.startsWith(f))?.[0];
    return [{ field: 'county_fips', code: 'conflict', message: `county ${fips} is ${other ? `in ${other}` : 'in no state'} (state FIPS ${fips.slice(0, 2)}), not in ${String(v['state'])} (${stateFips})` }];
  }
  const sub = v['subcategory'];
  if (typeof sub !== 'string') return [];
  const cat = typeof v['category'] === 'string' ? v['category'] : null;
  const allowed = cat ? subcategoriesOf(cat) : ALL_SUBCATEGORIES;
  if (allowed.includes(sub)) return [];
  const known = ALL_SUBCATEGORIES.includes(sub);
  return [{
    field: 'subcategory', code: 'enum',
    message: `${known && cat ? `"${sub}" is not a subcategory of ${cat}` : `unknown subcategory "${sub}"`}; allowed${cat ? ` for ${cat}` : ''}: ${allowed.join(', ')}`,
  }];
}

/** The city a request names, as the lookup matches it: the name as given (lower case), the place resolver's name by
 *  its key, whether the build has a landlord profile of that city (a legal market: every city the geo lookup knows),
 *  and the ids of the local ordinances that profile lists (local_overlays: the city's own, its city's for a part of a
 *  city such as a New York City borough, and the county ordinances that may apply to it). */
interface CityScope { raw: string; key: string; known: boolean; ids: Set<string> }

async function cityScope(build: LoadedBuild, state: string, given: string, named: string): Promise<CityScope> {
  const sp = shardPath('legal-landlord', { state, city: named });
  const file = sp.ok ? (build.shards.cached(sp.path) ?? await build.shards.get(sp.path)) : null;
  const body = file ? JSON.parse(file.body.toString('utf8')) as { rent_control?: { local_overlays?: { id: string }[] } } : null;
  return {
    raw: given.trim().toLowerCase(), key: placeKey(named), known: body !== null,
    ids: new Set((body?.rent_control?.local_overlays ?? []).map((o) => o.id)),
  };
}


/** A record applies to the city asked for. A known city (one with a landlord profile) gets the state's records, the
 *  local ordinances its profile lists, and records whose city is its whole name (never a name that only holds it:
 *  York, NY is not New York); a name the build does not know matches a record's city from the start of a word
 *  ("francisco" finds San Francisco, "ork" finds nothing), and gets no state records, since no place is known. */
function appliesToCity(r: RegulationRecord, city: CityScope): boolean {
  if (city.known) {
    return r.jurisdiction_level === 'state' || city.ids.has(r.id)
      || (r.city !== null && (r.city.toLowerCase() === city.raw || (city.key !== '' && placeKey(r.city) === city.key)));
  }
  return r.city !== null && city.raw !== '' && new RegExp(`(^|[^a-z0-9])${escapeRegExp(city.raw)}`).test(r.city.toLowerCase());
}

/** The active records matching the query, most specific first as stored, at most 100. */
function filterRegulations(records: RegulationRecord[], v: Values, city: CityScope | null): RegulationRecord[] {
  return records.filter((r) =>
    r.status === 'active'
    && (v['category'] === undefined || r.category === v['category'])
    && (v['subcategory'] === undefined || r.subcategory === v['subcategory'])
    && (v['jurisdiction_level'] === undefined || r.jurisdiction_level === v['jurisdiction_level'])
    && (v['county_fips'] === undefined || r.county_fips === v['county_fips'])
    && (city === null || appliesToCity(r, city))).slice(0, 100);
}

/** The answer: `named` is the city as the place resolver names it, with the hint of a name it does not know (the
 *  closest cities), null without a city; see appliesToCity. A name the build does not know that matches no record's
 *  city either (a typo: Seatle) is a 404 naming the closest cities, as on every city-keyed route, not an empty list
 *  that reads as "no rules here" (review 15 #4: WA's 17 state records dropped). */
export async function regulationsAnswer(build: LoadedBuild, v: Values, named: { city: string; hint: string } | null): Promise<Reply> {
  const state = String(v['state']);
  const sp = shardPath('regulations', { state });
  const file = sp.ok ? (build.shards.cached(sp.path) ?? await build.shards.get(sp.path)) : null;
  if (!file) throw new HttpError('no_data', `No regulations for ${state}`);
  const city = typeof v['city'] === 'string' && named !== null ? await cityScope(build, state, v['city'], named.city) : null;
  const records = JSON.parse(file.body.toString('utf8')) as RegulationRecord[];
  if (city && !city.known && !records.some((r) => r.status === 'active' && appliesToCity(r, city))) {
    const why = named!.hint || `: no city of that name in ${state} has a landlord profile in this build`;
    throw new HttpError('no_data', `No regulations for city ${String(v['city']).trim()}, ${state}${why}; no ${state} regulation record names a city that matches it`);
  }
  // a weak ETag from the state's shard tag and the normalised query: the same answer while the shard is unchanged
  const norm = JSON.stringify([v['state'], v['category'] ?? null, v['subcategory'] ?? null, v['jurisdiction_level'] ?? null, v['county_fips'] ?? null,
    city && { raw: city.raw, key: city.key, known: city.known, ids: [...city.ids].sort() }]);
  const etag = `W/"${crypto.createHash('sha256').update(`${file.etag}|${norm}`).digest('base64url').slice(0, 22)}"`;
  return { kind: 'json', body: filterRegulations(records, v, city), etag, headers: { 'Last-Modified': build.lastModified } };
}
