// What a zip's flood answer says of the loaded FEMA flood maps near it (research's location facts, market-facts.ts,
// and a county's or city's summary over its zips, city-summary.ts LOCATION_TOPIC), read from the zip's own
// flood_risk_notes (live/location/rules.ts zipFloodNotes, never research's own wording): a zone undetermined because
// no map reaches the zip, or because a map covers too little of it (43912: 1% of its sampled circle inside the Belmont
// County map around Bridgeport). Before (review: Belmont County, OH), a county's 26 zips all read "with no FEMA flood
// map loaded", though one of them lies partly inside the loaded map, and nothing said where the map is.
// Rules: warehouse/docs/research.md "Flood maps of a place".
import { zoneDWhy } from '../location/rules.ts';
import { superfundNotLoaded } from '../location/superfund-loaded.ts';

/** A loaded map named by a zip's notes: its declared area (`map`), and, where the zip lies partly inside it, the share
 *  of the zip's sampled area inside (`share`, "1%") with that area's noun (`of`) and its zones there (`there`). */
export interface FloodMapOf { map: string; share: string | null; of: string | null; there: string | null }

const PARTLY = /^Zone D \(undetermined\): only (under 1%|\d+%) of (.+?) lies inside a loaded FEMA flood map \((.*?)\)(?:: there, (.*?))?; no flood hazard zone/;
const NOT_REACHED = /^Zone D \(undetermined\): no FEMA flood map was loaded for this zip: the one loaded for its county \((.*)\) does not reach it/;

/** The loaded map a zip's notes name, or null (a zip with a zone, or with no map anywhere near). */
export function floodMapOf(notes: string): FloodMapOf | null {
  const p = PARTLY.exec(notes);
  if (p) return { map: p[3]!, share: p[1]!, of: p[2]!, there: p[4] ?? null };
  const n = NOT_REACHED.exec(notes);
  return n ? { map: n[1]!, share: null, of: null, there: null } : null;
}

interface ZipFlood { flood_zone: string; flood_risk_label: string; flood_risk_notes: string; flood_map_loaded: boolean }

/** The group a zip's flood answer falls in, in a summary over zips ("25 with no FEMA flood map loaded (zone D), 1 ..."). */
export function floodGroup(r: ZipFlood): string {
  if (r.flood_zone !== 'D') return `in flood zone ${r.flood_zone} (${r.flood_risk_label.toLowerCase()} risk)`;
  const m = r.flood_map_loaded ? null : floodMapOf(r.flood_risk_notes);
  if (m?.share) return 'only partly inside a loaded FEMA flood map, too little of it to set a zone (zone D, undetermined)';
  return m ? 'that no loaded FEMA flood map reaches (zone D)' : 'with no FEMA flood map loaded (zone D)';
}

/** A zip's flood sentence: its zone, or why it is undetermined and (beside a loaded map) where a property's own zone is found. */
export function floodSentence(r: ZipFlood, where: string, rest: string): string {
  if (r.flood_map_loaded) return `${where} is in ${r.flood_zone === 'D' ? `flood zone D (${zoneDWhy(r.flood_risk_notes)})` : `FEMA flood zone ${r.flood_zone} (${r.flood_risk_label} flood risk)`}, with ${rest}`;
  const m = floodMapOf(r.flood_risk_notes);
  const why = zoneDWhy(r.flood_risk_notes).replace(/^no FEMA flood map was loaded for this area$/, 'no FEMA flood map is loaded for this zip').replace(/^no FEMA flood map was loaded/, 'no FEMA flood map is loaded');
  return `${where}: ${why}, so its flood zone is undetermined (FEMA zone D)${m?.share ? `, though a property inside that map gets its own zone from GET /v1/location/risk with its latitude and longitude` : ''}; it has ${rest}`;
}

/** A summary's clause on the loaded maps its zips' notes name: which zips each reaches and how much of them, and where
 *  a property's own zone is found; '' when none is named. */
export function mapsClause(place: string, figs: { zip: string; group: string | null; flood?: FloodMapOf | null }[]): string {
  const maps = [...new Set(figs.flatMap((f) => (f.flood ? [f.flood.map] : [])))];
  // a zip with a zone of its own takes it from a loaded map, which its notes do not name: then no "no other zip"
  const zoned = figs.some((f) => f.group?.startsWith('in flood zone'));
  return maps.map((map) => {
    const reached = figs.filter((f) => f.flood?.map === map && f.flood.share);
    const each = reached.map((f) => `zip ${f.zip} (${f.flood!.share} of ${f.flood!.of!.replace(/the zip's point/, 'its point')} lies inside it${f.flood!.there ? `; there, ${f.flood!.there}` : ''})`);
    const list = each.length > 1 ? `${each.slice(0, -1).join(', ')} and ${each.at(-1)}` : each[0] ?? '';
    const little = `too little to set ${reached.length > 1 ? 'their zones' : 'a zone'}`;
    const reach = !reached.length ? `reaches none of the zips of ${place}`
      : zoned ? `reaches ${list} in part only, ${little}` : `reaches only ${list}, ${little}, and no other zip of ${place}`;
    return `; the FEMA flood map loaded for this area (${map}) ${reach}; inside that map, a property's own zone is given by GET /v1/location/risk with its latitude and longitude`;
  }).join('');
}

/** The answer's words when the zip's shard holds no Superfund count (null): the build read no EPA Superfund file, so
 *  neither the count nor the score built on it is known (live/location/superfund-loaded.ts); null otherwise. */
export function superfundUnknown(r: { superfund_count_1mi: number | null } | null, zip: string): string | null {
  return r && r.superfund_count_1mi === null ? superfundNotLoaded(`zip ${zip}`) : null;
}
