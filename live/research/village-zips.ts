// A village named alone ("home prices in Cos Cob", "Niantic CT", "Southport CT"): a census-designated place, part of
// a town, that no sales source of the build names, while the zip mailed under its name has sales. The Connecticut
// sales file names the town (Greenwich, Fairfield, East Lyme), never its villages, and the build places each sale in
// the nearest of its town's ZCTAs (warehouse/docs/market.md "Zips guessed from coordinates"), so a village's sales
// are its zip's: read as that zip, said. Review 27: before, "We have no single-family sales ... in Cos Cob, CT" while
// its zip 06807 had 28 in 6 months. Found from the data, not a list: a city of the gazetteer that is no incorporated
// place (`incorporated` false: a CDP), with no city market of its own, and zips whose USPS city (`zips`) is its name
// with sales (market windows). An incorporated village is a municipality of its own: with no sales, the build does
// not cover it (Floral Park, NY, whose 11001 has Queens' sales), and it is left as it is; so is a zip another place with
// sales lists (its figures would be that place's too). A USPS name that is no place of the gazetteer, written as two
// place names ("Storrs Mansfield"), is its zips too (readMailingNames). Pure (places.ts findPlaces).
import type { Area, Gazetteer } from './place-words.ts';

interface Read { state: string; city?: string; zip?: string; area?: Area; hood?: unknown; at: number; end: number; kind: 'state' | 'city' | 'zip' }

/** Whether a zip's USPS city names the village: its name, or (a zip the place lists) a USPS name holding it as whole
 *  words (review 27: Storrs, CT is mailed as "Storrs Mansfield", 06268 and 06269; Rockville, CT as "Vernon Rockville",
 *  06066; before, "home prices in Storrs" had no sales). A name holding it of a zip the place does not list is another
 *  place's (North Highlands, CA's 95660 is no zip of Highlands). */
function mailedAs(usps: string, name: string, listed: boolean): boolean {
  const u = usps.toLowerCase();
  return u === name || (listed && ` ${u} `.includes(` ${name} `));
}

/** The zips with sales mailed under a village's name, when `state`/`city` is such a village (see above); else none. */
export function villageZips(state: string, city: string, gaz: Pick<Gazetteer, 'citiesByName' | 'zips' | 'hasSales'>): string[] {
  if (!gaz.hasSales || gaz.hasSales(state, city)) return [];
  const place = gaz.citiesByName.get(city.toLowerCase())?.find((c) => c.state === state);
  if (!place || place.incorporated !== false) return [];
  const name = place.name.toLowerCase();
  const out: string[] = [];
  for (const [zip, z] of gaz.zips) if (z.state === state && mailedAs(z.city, name, place.zips.includes(zip)) && gaz.hasSales(state, '', zip)) out.push(zip);
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
  readMailingNames(q, found, gaz, readAs);
  for (const f of [...found]) {
    if (f.kind !== 'city' || f.zip || f.area || f.hood || !f.city) continue;
    const zips = villageZips(f.state, f.city, gaz);
    if (!zips.length) continue;
    const written = q.slice(f.at, f.end);
    for (let i = readAs.length - 1; i >= 0; i--) if (readAs[i]!.startsWith(`"${written}" as `)) readAs.splice(i, 1);
    found.splice(found.indexOf(f), 1, ...zips.map((zip) => ({ state: f.state, city: gaz.zips.get(zip)!.city, zip, at: f.at, end: f.end, kind: 'zip' as const })));
    const which = zips.length === 1 ? `zip ${zips[0]}` : `its zips ${zips.join(', ')}`;
    const mailed = [...new Set(zips.map((z) => gaz.zips.get(z)!.city))].join(' or ');
    readAs.push(`"${written}" as ${which} (${f.city}, ${f.state} is a village, a census-designated place no sales source of this build names: its sales are recorded under the town it lies in, so the figures are those of the ${zips.length === 1 ? 'zip' : 'zips'} mailed as ${mailed})`);
  }
}

/** The zips with sales the USPS mails under a name that is no city of the gazetteer ("Storrs Mansfield"); else none. */
export function postalZips(name: string, gaz: Pick<Gazetteer, 'citiesByName' | 'zips' | 'hasSales'>): { zip: string; city: string; state: string }[] {
  const n = name.replace(/\s+/g, ' ').toLowerCase();
  if (gaz.citiesByName.has(n)) return [];
  return [...gaz.zips].filter(([zip, z]) => z.city.toLowerCase() === n && gaz.hasSales?.(z.state, '', zip)).map(([zip, z]) => ({ zip, city: z.city, state: z.state }));
}

/** A USPS name of two place names written ("Storrs Mansfield", "Vernon Rockville": a village and its town), no city
 *  of the gazetteer: the zips with sales mailed under it, in place of its words' two places (review 27: "median price
 *  in Storrs Mansfield" compared Storrs, with no sales, with Mansfield, CT). */
function readMailingNames(q: string, found: Read[], gaz: Pick<Gazetteer, 'citiesByName' | 'zips' | 'hasSales'>, readAs: string[]): void {
  const towns = found.filter((f) => f.kind === 'city' && !f.zip && !f.area && !f.hood).sort((a, b) => a.at - b.at);
  for (let i = 0; i + 1 < towns.length; i++) {
    const [a, b] = [towns[i]!, towns[i + 1]!];
    if (!/^ +$/.test(q.slice(a.end, b.at))) continue;
    const name = q.slice(a.at, b.end).replace(/\s+/g, ' ');
    const zips = postalZips(name, gaz);
    const state = zips[0]?.state;
    if (!state || zips.some((z) => z.state !== state)) continue;
    for (let k = readAs.length - 1; k >= 0; k--) if ([a, b].some((f) => readAs[k]!.startsWith(`"${q.slice(f.at, f.end)}" as `))) readAs.splice(k, 1);
    found.splice(found.indexOf(a), 1);
    found.splice(found.indexOf(b), 1, ...zips.sort((x, y) => x.zip.localeCompare(y.zip)).map((z) => ({ state, city: z.city, zip: z.zip, at: a.at, end: b.end, kind: 'zip' as const })));
    readAs.push(`"${name}" as ${zips.length === 1 ? `zip ${zips[0]!.zip}` : `the zips ${zips.map((z) => z.zip).join(', ')}`}, mailed by the USPS as ${zips[0]!.city}, ${state} (a postal name, no town of its own)`);
    i++;
  }
}
