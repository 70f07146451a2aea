// A village named alone ("home prices in Cos Cob", "Niantic CT", "Southport CT"): a census-designated place, part of
// a town, that no sales source of the build names, while the zip mailed under its name has sales. The Connecticut
// sales file names the town (Greenwich, Fairfield, East Lyme), never its villages, and the build places each sale in
// the nearest of its town's ZCTAs (warehouse/docs/market.md "Zips guessed from coordinates"), so a village's sales
// are its zip's: read as that zip, said. Review 27: before, "We have no single-family sales ... in Cos Cob, CT" while
// its zip 06807 had 28 in 6 months. Found from the data, not a list: a city of the gazetteer that is no incorporated
// place (`incorporated` false: a CDP), with no city market of its own, and zips whose USPS city (`zips`) is its name
// with sales (market windows). An incorporated village is a municipality of its own: with no sales, the build does
// not cover it (Floral Park, NY, whose 11001 has Queens' sales), and it is left as it is; so is a zip another place with
// sales lists (its figures would be that place's too). Pure (places.ts findPlaces).
import type { Area, Gazetteer } from './place-words.ts';

interface Read { state: string; city?: string; zip?: string; area?: Area; hood?: unknown; at: number; end: number; kind: 'state' | 'city' | 'zip' }

/** The zips with sales mailed under a village's name, when `state`/`city` is such a village (see above); else none. */
export function villageZips(state: string, city: string, gaz: Pick<Gazetteer, 'citiesByName' | 'zips' | 'hasSales'>): string[] {
  if (!gaz.hasSales || gaz.hasSales(state, city)) return [];
  const place = gaz.citiesByName.get(city.toLowerCase())?.find((c) => c.state === state);
  if (!place || place.incorporated !== false) return [];
  const name = place.name.toLowerCase();
  const out: string[] = [];
  for (const [zip, z] of gaz.zips) if (z.state === state && z.city.toLowerCase() === name && gaz.hasSales(state, '', zip)) out.push(zip);
  if (!out.length) return out;
  // a zip another place with sales of its own lists is no village's alone (95682, Shingle Springs, CA: its sales are
  // mostly Cameron Park's; 06796, West Cornwall: Cornwall's), so its figures would be another place's: none read
  const shared = new Set<string>();
  for (const list of gaz.citiesByName.values()) {
    for (const c of list) if (c.state === state && c !== place && c.zips.some((z) => out.includes(z)) && gaz.hasSales(c.state, c.name)) for (const z of c.zips) shared.add(z);
  }
  return out.filter((z) => !shared.has(z)).sort();
}

/** Replaces in `found` (in place) each city read that is such a village by the zips mailed under its name, and says
 *  the reading in `readAs` (the city's own reading taken back). */
export function readVillages(q: string, found: Read[], gaz: Pick<Gazetteer, 'citiesByName' | 'zips' | 'hasSales'>, readAs: string[]): void {
  for (const f of [...found]) {
    if (f.kind !== 'city' || f.zip || f.area || f.hood || !f.city) continue;
    const zips = villageZips(f.state, f.city, gaz);
    if (!zips.length) continue;
    const written = q.slice(f.at, f.end);
    for (let i = readAs.length - 1; i >= 0; i--) if (readAs[i]!.startsWith(`"${written}" as `)) readAs.splice(i, 1);
    found.splice(found.indexOf(f), 1, ...zips.map((zip) => ({ state: f.state, city: gaz.zips.get(zip)!.city, zip, at: f.at, end: f.end, kind: 'zip' as const })));
    const which = zips.length === 1 ? `zip ${zips[0]}` : `its zips ${zips.join(', ')}`;
    readAs.push(`"${written}" as ${which} (${f.city}, ${f.state} is a village, a census-designated place no sales source of this build names: its sales are recorded under the town it lies in, so the figures are those of the ${zips.length === 1 ? 'zip' : 'zips'} mailed as ${f.city})`);
  }
}
