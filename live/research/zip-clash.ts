// A zip written next to a city or borough it is not in ("37206 Memphis", "median price in 98103 Denver", "Brooklyn
// 10001"): the zip's own figures, said, never a comparison of the zip with the city nor the city dropped silently
// (review 25: "37206 Memphis" answered zip 37206 and Memphis side by side; "Brooklyn 10001" answered Manhattan's zip as
// if it were Brooklyn's). As state-clash.ts says a state a zip is not in. A zip is in a city when the city's zips hold
// it or it lies in the city's county (a postal city is not always the municipality: 98168 is mailed as Seattle, its
// sales Tukwila's). A neighbourhood read as its city with one of the city's zips named says the zip's figures
// (zipOfHoodCity). Pure (places.ts findPlaces). Rules: warehouse/docs/research.md "Entity rules".
import { BOROUGHS, type Area, type Gazetteer } from './place-words.ts';
import { COMPARED } from './name-parts.ts';
import { quoted } from './quoted.ts';

interface Read { state: string; city?: string; zip?: string; area?: Area; hood?: unknown; at: number; end: number; kind: string }

/** Removes from `found` (in place) a city or borough written just before or after a zip it does not hold, with the state
 *  written just after that city (`stateHits`, in place), and says the zip's reading in `readAs` (the city's own reading
 *  taken back). Two places side by side in a question with a comparison word stay two places. */
export function zipCityClash(q: string, found: Read[], stateHits: { state: string; at: number; end: number }[], gaz: Pick<Gazetteer, 'zips' | 'citiesByName' | 'stateNames'>, readAs: string[]): void {
  zipOfHoodCity(found, gaz, readAs);
  if (COMPARED.test(q.replace(/\bOR\b/g, ' '))) return;
  for (const z of found.filter((f) => f.kind === 'zip' && f.zip)) {
    const zip = gaz.zips.get(z.zip!);
    if (!zip) continue;
    const g = found.find((f) => f.kind === 'city' && !f.zip && !f.hood && f.city
      && /^[\s,()]*(?:zip(?:\s*code)?[\s,:#]*)?$/i.test(f.end <= z.at ? q.slice(f.end, z.at) : f.at >= z.end ? q.slice(z.end, f.at) : 'x'));
    if (!g || !outside(g, z.zip!, zip, gaz)) continue;
    const state = stateHits.findIndex((s) => s.at >= g.end && /^[\s,]*$/.test(q.slice(g.end, s.at)));
    const end = Math.max(z.end, g.end, state >= 0 ? stateHits[state]!.end : 0);
    const own = `"${q.slice(g.at, g.end)}" as `;
    for (let i = readAs.length - 1; i >= 0; i--) if (readAs[i]!.startsWith(own)) readAs.splice(i, 1);
    found.splice(found.indexOf(g), 1);
    if (state >= 0) stateHits.splice(state, 1);
    const where = g.area ? g.area.name : `${g.city}, ${g.state}`;
    // (a zip of New York City is said in its borough: "zip 10001 is in Manhattan (New York, NY)")
    const borough = BOROUGHS.find(([, a]) => a.county_fips === zip.county_fips)?.[1].name;
    const place = zip.city ? `${borough ? `${borough} (${zip.city}, ${zip.state})` : `${zip.city}, ${zip.state}`}` : gaz.stateNames.get(zip.state) ?? zip.state;
    readAs.push(`"${quoted(q, Math.min(z.at, g.at), end)}": zip ${z.zip} is in ${place}, not in ${where}, so the figures are the zip's own; name ${where} alone for its figures`);
  }
}

/** Whether the zip lies outside the city or borough read: another state, another county than the borough's, or none
 *  of the city's zips and either not in its county or another city's own (its USPS city, a city of the state whose
 *  zips hold it: "98004 Seattle" is Bellevue's 98004, in Seattle's King County too; review 27). A zip mailed as the
 *  city written but placed elsewhere (98168, mailed as Seattle) is the city's name, no clash. */
function outside(g: Read, code: string, zip: { city: string; state: string; county_fips?: string }, gaz: Pick<Gazetteer, 'citiesByName'>): boolean {
  if (g.state !== zip.state) return true;
  if (g.area) return !!zip.county_fips && g.area.county_fips !== zip.county_fips;
  const inState = (name: string) => gaz.citiesByName.get(name.toLowerCase())?.find((c) => c.state === g.state);
  const city = inState(g.city!);
  if (!city || city.zips.includes(code)) return false;
  if (!!zip.county_fips && city.county_fips !== zip.county_fips) return true;
  return zip.city.toLowerCase() !== city.name.toLowerCase() && (inState(zip.city)?.zips.includes(code) ?? false);
}

/** A neighbourhood read as its city ("Kensington 19134 Philadelphia", "Capitol Hill 98102 Seattle") with a zip of that
 *  city named: the figures are the zip's (the city named with its own zip qualifies it, places.ts), so its reading says
 *  the zip, not "the city as a whole" (review 27). */
function zipOfHoodCity(found: readonly Read[], gaz: Pick<Gazetteer, 'zips'>, readAs: string[]): void {
  const zips = found.filter((f) => f.kind === 'zip' && f.zip && !f.hood);
  for (let i = 0; i < readAs.length; i++) {
    const m = / as a neighbourhood of (.+?)(?:, not [^:]*)?: we do not resolve neighbourhoods, so the figures are for .+ as a whole$/.exec(readAs[i]!);
    if (!m) continue;
    const z = zips.find((f) => {
      const zip = gaz.zips.get(f.zip!);
      const borough = BOROUGHS.find(([, a]) => m[1]!.startsWith(`${a.name} (`))?.[1];
      return zip && (borough ? zip.county_fips === borough.county_fips : m[1] === `${zip.city}, ${zip.state}`);
    });
    if (z) readAs[i] = readAs[i]!.replace(/so the figures are for .+ as a whole$/, `so the figures are zip ${z.zip}'s, as named`);
  }
}
