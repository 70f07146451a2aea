// The NRI county of each zip for the location oracle (oracle-location.ts), recomputed from the raw files by the rule
// of warehouse/docs/location.md "NRI county of a zip", never with the product's SQL (int_nri_zips): the zip's own
// county when the NRI county table has it; else (Connecticut, whose zips carry the 2022 planning regions) the NRI
// county with the largest share of the zip's addresses in the raw HUD-USPS crosswalk (old CT counties); else the
// census area two Alaska census areas were made of (Census Bureau county changes, 2019); else the NRI county of the
// nearest area zip (a Gazetteer ZCTA) of the same county, by haversine distance.
import { haversine } from './location-truth.ts';

interface Zip { zip: string; county: string | null; lat: number | null; lng: number | null; area: boolean }
type Query = <T>(sql: string) => Promise<T[]>;

/** Chugach (02063) and Copper River (02066) Census Areas were made of the whole Valdez-Cordova Census Area (02261). */
const SUCCESSORS: Record<string, string> = { '02063': '02261', '02066': '02261' };

export async function oracleNriCounties(q: Query, hudFile: string, zips: Zip[], nri: Set<string>): Promise<Map<string, string>> {
  const hud = await q<{ zip: string; county: string; tot: number | null; res: number | null }>(`
    select trim(ZIP) as zip, trim(COUNTY) as county, try_cast(TOT_RATIO as double) as tot, try_cast(RES_RATIO as double) as res
    from read_csv('${hudFile}', all_varchar = true)`);
  const best = new Map<string, { county: string; tot: number; res: number }>();
  for (const h of hud) {
    if (!nri.has(h.county)) continue;
    const tot = h.tot ?? 0, res = h.res ?? 0;
    const b = best.get(h.zip);
    if (!b || tot > b.tot || (tot === b.tot && (res > b.res || (res === b.res && h.county > b.county)))) best.set(h.zip, { county: h.county, tot, res });
  }
  const out = new Map<string, string>();
  for (const z of zips) {
    const c = z.county && nri.has(z.county) ? z.county
      : z.county && SUCCESSORS[z.county] && nri.has(SUCCESSORS[z.county]!) ? SUCCESSORS[z.county]!
      : best.get(z.zip)?.county;
    if (c) out.set(z.zip, c);
  }
  const direct = new Map(out);
  for (const z of zips) {
    if (direct.has(z.zip) || z.lat === null || z.lng === null || !z.county) continue;
    let bestD = Infinity, county: string | null = null;
    for (const a of zips) {
      if (!a.area || a.county !== z.county || a.lat === null || a.lng === null || !direct.has(a.zip)) continue;
      const d = haversine(z.lat, z.lng, a.lat, a.lng);
      if (d < bestD) { bestD = d; county = direct.get(a.zip)!; }
    }
    if (county) out.set(z.zip, county);
  }
  return out;
}
