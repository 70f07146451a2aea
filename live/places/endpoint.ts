// The place resolver of a build, for the routes that take a city (api/routes.ts): input {state, city} as the request
// gave them, answer {city, state} with the canonical name, or 404 naming the closest cities of the state. Reads
// <build>/live/places/places.json (live/places/build.ts). Rules: warehouse/docs/places.md.
import fs from 'node:fs';
import path from 'node:path';
import type { LiveAnswer, LiveBuild, LiveInstance, LiveModule } from '../../warehouse/live.ts';
import { RecentCache } from '../../warehouse/recent.ts';
import { notFoundMessage, PlaceResolver, type Neighbourhood, type PlacesFile } from './resolver.ts';
import { findFormerCounty } from './former-counties.ts';
import { countiesAnywhere, countyAsCity, countyWithoutState, findCounty } from './counties.ts';

/** state null: the cities of every state the name means, body {matches: [{city, state}], county: string | null} (the
 *  400 of a city sent without its state names them, or, for a name with its county word that is no city, the counties
 *  of that name: `county` is that 400's message, counties.ts countyWithoutState; api/city-state.ts stateRequired). */
export interface PlaceInput { state: string | null; city: string }

/** How many resolved names a build keeps (state and city as typed). */
const RECENT_NAMES = 10_000;

// The server loads a build's resolver for two modules (places, and research's place words): the last build's is
// kept, so both share one (~55 MB of RSS each while it is built). Build folders never change once published.
let lastLoaded: { dir: string; resolver: PlaceResolver | null } | null = null;

/** The resolver of a build folder; null when the build has no place table (an older build). The same object
 *  for the same folder asked again (read-only: a resolver is never changed after it is made). */
export function loadResolver(dir: string): PlaceResolver | null {
  if (lastLoaded?.dir === dir) return lastLoaded.resolver;
  const file = path.join(dir, 'live', 'places', 'places.json');
  const data = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) as PlacesFile : null;
  const resolver = data ? new PlaceResolver(data.cities, data.former_counties ?? [], neighbourhoods(dir), data.counties ?? []) : null;
  lastLoaded = { dir, resolver };
  return resolver;
}

/** The neighbourhoods the build's sales sources name, from the research place file (live/research/build.ts writes
 *  them with hoods.ts, the one neighbourhood rule research reads questions by); none in a build without it. */
function neighbourhoods(dir: string): Neighbourhood[] {
  const file = path.join(dir, 'live', 'research', 'places.json');
  if (!fs.existsSync(file)) return [];
  const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hoods?: [string, string, string, string, string, number, string][] }).hoods ?? [];
  return rows.map(([key, state, city, part, zips, , names]) => ({ key, state, city, part, zips: zips ? zips.split(' ') : [], names: names.split('|') }));
}

export function answerPlace(resolver: PlaceResolver, input: PlaceInput): LiveAnswer {
  const { state, city } = input;
  if (state === null) {
    const counties = countiesAnywhere(resolver.counties, city);
    return { ok: true, body: { matches: resolver.resolveAnywhere(city), county: counties.length ? countyWithoutState(counties, city.trim()) : null } };
  }
  const r = resolver.resolveCity(state, city);
  if (r.ok) return { ok: true, body: { city: r.city, state: r.state } };
  // a former Connecticut county ("Fairfield County"): its towns, and those the city list has (former-counties.ts)
  const county = findFormerCounty(resolver.formerCounties, state, city);
  const former = county && { county, places: county[3].filter((t) => resolver.findCity(state, t)?.ok === true) };
  // a county of the state ("King County"): a 422 naming its cities and zips (counties.ts)
  const asCounty = former ? null : findCounty(resolver.counties, state, city);
  if (asCounty) return { ok: false, code: 'validation_failed', ...countyAsCity(asCounty, city) };
  return { ok: false, code: 'no_data', message: notFoundMessage(city, state, r, former) };
}

const places: LiveModule<PlaceInput> = {
  name: 'places',
  async load(build: LiveBuild): Promise<LiveInstance<PlaceInput>> {
    const resolver = loadResolver(build.dir);
    // no place table: the name is passed through as given (the shard lookup then decides)
    if (!resolver) return { handle: (input) => ({ ok: true, body: input.state === null ? { matches: [] } : { city: input.city, state: input.state } }) };
    // every city request passes here: the answers to the names asked most recently are kept (read-only objects)
    const recent = new RecentCache<LiveAnswer>(RECENT_NAMES);
    return { handle: (input) => recent.get(`${input.state}|${input.city}`, () => answerPlace(resolver, input)) };
  },
};

export default places;
