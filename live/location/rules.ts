// Location risk rules shared by the build (pipelines/intermediate/40_location_*, marts/40_mart_location_risk.ts)
// and the live point lookup (live/location/endpoint.ts), so a zip shard and a point answer use one definition of
// every label, note, score and confidence. warehouse/docs/location.md documents each rule.
import type { Confidence } from '../../warehouse/confidence.ts';

/** One statute mile in metres: the radius of "within 1 mile" (superfund_count_1mi). */
export const MILE_M = 1609.344;
export const EARTH_RADIUS_M = 6_371_008.8; // mean Earth radius (IUGG), the haversine sphere

/** H3 resolutions (warehouse/docs/location.md "H3 resolutions"). */
export const RES = {
  flood: 9, // ~0.1 km2 cells (~200 m edge): flood polygons are parcel-scale
  superfund: 8, // ~0.74 km2 cells (~530 m edge): a 1-mile disk is ~15-25 cells
  zcta: 8, // ZCTA polygons -> cells for point -> zip
  zipCentroid: 4, // ~1,770 km2 cells: bucket of zip centroids for the nearest-centroid fallback
} as const;

/** A zone must cover at least this share of a zip's sampled area to be the zip's flood_zone. */
export const ZONE_SHARE_MIN = 0.10;
/**
 * A class of at least this rank (shaded X 40, A* 50, V* 60) over ZONE_SHARE_MIN wins a zip whatever its mapped
 * share; lower classes (open water 35, FEMA D 30, levee X 20, minimal X 10) win only when the zip is mostly mapped.
 */
export const ZONE_WIN_RANK = 40;
/** Below this mapped share (and with no hazard zone over ZONE_SHARE_MIN) the zip's zone is D. */
export const MAPPED_SHARE_MIN = 0.5;
/** Mapped share at or above which a zip with an exact ZCTA polygon has high confidence. */
export const MAPPED_SHARE_HIGH = 0.9;

/** A zip centroid reaches points within max(NEAREST_MIN_M, NEAREST_RADIUS_FACTOR x the zip's equivalent radius). */
export const NEAREST_MIN_M = 16_000;
export const NEAREST_RADIUS_FACTOR = 2;

/** The Superfund snapshot date: EPA SEMS extract of 2021-06-13 (epa-superfund-sems/SOURCE.md). */
export const SUPERFUND_AS_OF = '2021-06-13';

/** What superfund_nearby and superfund_count_1mi count (location.md "NPL status"); the zip shard writes the same words
 *  (pipelines/shards/location-zip.sql). */
export const SUPERFUND_BASIS = 'EPA National Priorities List sites, final and proposed, within 1 mile (EPA SEMS 2021-06-13); deleted NPL sites and active SEMS sites not on the NPL are not counted';

/** A counted NPL site EPA files under a zip's address whose coordinate lies beyond the zip's 1-mile count
 *  (live/location/zip-superfund.ts); distance_m: from EPA's coordinate for the site to the zip's point. */
export interface AddressSite { epa_id: string; site_name: string; distance_m: number }

/** The sentence of a zip's notes that names the NPL sites EPA lists at an address in the zip but that
 *  superfund_count_1mi does not count, their one coordinate lying beyond the mile (empty when none): the count is a
 *  distance (review 58), and "0 Superfund" alone misled for Neville Island's 15225, where EPA lists OHIO RIVER PARK
 *  (review 29). */
export function superfundAddressNote(sites: readonly AddressSite[]): string {
  if (!sites.length) return '';
  const away = (s: AddressSite): string => `${milesOf(s.distance_m)} from the zip's point`;
  const large = '(EPA gives one coordinate for a site that may be large)';
  if (sites.length === 1) {
    const s = sites[0]!;
    return `EPA lists ${s.site_name} (EPA ${s.epa_id}) at an address in this zip; its one coordinate is ${away(s)}, more than 1 mile outside the zip's area as measured here, beyond the 1-mile count, so superfund_count_1mi does not count it ${large}.`;
  }
  const list = sites.map((s) => `${s.site_name} (EPA ${s.epa_id}, ${away(s)})`).join('; ');
  return `EPA lists ${sites.length} NPL sites at addresses in this zip whose one coordinate lies more than 1 mile outside the zip's area as measured here, beyond the 1-mile count, so superfund_count_1mi does not count them ${large}: ${list}.`;
}

/** Metres as miles with one decimal ("2.2 miles", "1 mile"). */
const milesOf = (m: number): string => { const x = Math.round((m / MILE_M) * 10) / 10; return `${x} mile${x === 1 ? '' : 's'}`; };

export type RiskLabel = 'Minimal' | 'Low' | 'Moderate' | 'High' | 'Very High';

export interface ZoneClass {
  zone: string; // FEMA FLD_ZONE as published (AE, X, VE, ...), or D
  subtype: string | null; // ZONE_SUBTY, upper case
  sfha: boolean;
  label: RiskLabel;
  /** Order of hazard: higher wins when a point or a zip's area has several zones. */
  rank: number;
  /** Short key of the class: zone plus shaded/unshaded for X. */
  key: string;
}

const norm = (s: unknown): string => (typeof s === 'string' ? s : s == null ? '' : String(s)).trim().toUpperCase().replace(/\s+/g, ' ');

/**
 * Classifies an NFHL S_FLD_HAZ_AR zone (FLD_ZONE, ZONE_SUBTY, SFHA_TF). Returns null for values that are not a
 * flood zone ("AREA NOT INCLUDED", blank, unknown codes): such polygons are rejected, never guessed.
 */
export function classifyZone(zoneRaw: unknown, subtypeRaw: unknown, sfhaRaw: unknown): ZoneClass | null {
  let zone = norm(zoneRaw).replace(/^ZONE /, '');
  const subtype = norm(subtypeRaw) || null;
  const sfhaFlag = norm(sfhaRaw);
  if (!zone) return null;
  const sub = subtype ?? '';
  let label: RiskLabel;
  let rank: number;
  let key = zone;
  if (/^V(E|\d{1,2})?$/.test(zone)) { label = 'Very High'; rank = 60; }
  else if (/^(A|AE|AH|AO|AR|A99|A\d{1,2})$/.test(zone) || zone.startsWith('AR/')) { label = 'High'; rank = 50; }
  else if (zone === 'X' || zone === 'B' || zone === 'C' || zone === 'X500') {
    if (zone === 'B' || zone === 'X500' || /0\.2 PCT|1 PCT|FUTURE CONDITIONS|500/.test(sub)) { label = 'Moderate'; rank = 40; key = 'X-shaded'; }
    else if (/LEVEE/.test(sub)) { label = 'Low'; rank = 20; key = 'X-levee'; }
    else { label = 'Minimal'; rank = 10; key = 'X-minimal'; }
    if (zone === 'X500') zone = 'X';
  }
  else if (zone === 'D') { label = 'Moderate'; rank = 30; }
  else if (zone === 'OPEN WATER') { label = 'Moderate'; rank = 35; }
  else return null;
  const sfha = sfhaFlag === 'T' || sfhaFlag === 'TRUE' || sfhaFlag === 'Y' ? true
    : sfhaFlag === 'F' || sfhaFlag === 'FALSE' || sfhaFlag === 'N' ? false
    : rank >= 50;
  return { zone, subtype, sfha, label, rank, key };
}

/** The class of a point inside a loaded flood map but outside every one of its polygons: unshaded X. */
export const MAPPED_MINIMAL: ZoneClass = { zone: 'X', subtype: 'AREA OF MINIMAL FLOOD HAZARD', sfha: false, label: 'Minimal', rank: 10, key: 'X-minimal' };
/** No flood map loaded: FEMA's "undetermined" zone D (DESIGN.md: never invent a zone). */
export const UNMAPPED: ZoneClass = { zone: 'D', subtype: null, sfha: false, label: 'Moderate', rank: 30, key: 'D-unmapped' };

/** Plain-English description of a zone class (first sentence of flood_risk_notes). */
export function zoneDescription(c: ZoneClass, opts: { outsidePolygons?: boolean } = {}): string {
  if (c.key === 'D-unmapped') {
    return 'Zone D (undetermined): no FEMA flood map was loaded for this area, so the flood hazard is undetermined; check the FEMA Flood Map Service Center before relying on it.';
  }
  const sfha = ' Special Flood Hazard Area: flood insurance is required for federally backed mortgages.';
  const floodway = c.subtype && /FLOODWAY/.test(c.subtype) ? ' This is the regulatory floodway, where building is restricted.' : '';
  switch (true) {
    case /^V/.test(c.zone):
      return `Zone ${c.zone}: coastal high-hazard area, 1% annual chance (100-year) flood with storm-driven waves.${sfha}`;
    case c.zone === 'AE' || /^A\d/.test(c.zone):
      return `Zone ${c.zone}: 1% annual chance (100-year) floodplain with base flood elevations determined.${sfha}${floodway}`;
    case c.zone === 'A':
      return `Zone A: 1% annual chance (100-year) floodplain; no base flood elevation determined.${sfha}${floodway}`;
    case c.zone === 'AO':
      return `Zone AO: 1% annual chance shallow flooding (sheet flow, 1 to 3 feet deep).${sfha}`;
    case c.zone === 'AH':
      return `Zone AH: 1% annual chance shallow flooding (ponding, 1 to 3 feet deep).${sfha}`;
    case c.zone === 'AR' || c.zone.startsWith('AR/'):
      return `Zone ${c.zone}: 1% annual chance floodplain behind a levee being restored.${sfha}`;
    case c.zone === 'A99':
      return `Zone A99: 1% annual chance floodplain to be protected by a levee under construction.${sfha}`;
    case c.key === 'X-shaded':
      return `Zone ${c.zone} (shaded): 0.2% annual chance (500-year) floodplain or 1% chance with depths under 1 foot; outside the Special Flood Hazard Area, flood insurance is optional.`;
    case c.key === 'X-levee':
      return `Zone ${c.zone}: area with reduced flood risk due to a levee; outside the Special Flood Hazard Area.`;
    case c.key === 'X-minimal':
      return opts.outsidePolygons
        ? 'Zone X (unshaded): area of minimal flood hazard, outside every flood-hazard polygon of the loaded FEMA flood map.'
        : `Zone ${c.zone} (unshaded): area of minimal flood hazard, outside the 0.2% annual chance floodplain.`;
    case c.zone === 'D':
      return 'Zone D: FEMA mapped this area as possible but undetermined flood hazard.';
    case c.zone === 'OPEN WATER':
      return 'Open water on the FEMA flood map.';
    default:
      return `Zone ${c.zone}.`;
  }
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** The shares behind a zip's flood_risk_notes; zones, mapLabel and countyMap (the build's int_location_zip and
 *  flood_maps) name the zones of the part inside a loaded map, that map, and a map loaded for the zip's county. */
export interface ZipFloodShares {
  zoneShare: number; sfhaShare: number; mappedShare: number; samples: number;
  zones?: Record<string, number> | null; mapLabel?: string | null; countyMap?: string | null;
  /** a zip sampled as a circle of radiusM around its coordinate (from: the source of that coordinate,
   *  `zips.centroid_source`): one with no area of its own (not a Census ZCTA: PO-box and unique zips), or a ZCTA
   *  (`zcta` true) whose boundary polygon is not loaded (the circle of its land area); absent for a zip sampled by its polygon */
  point?: { zip: string; radiusM: number; from: string | null; zcta?: boolean } | null;
}

/** What a point zip's shares are of, and the sentence that says so (review 23 #3: 02238, a Cambridge PO-box zip, read
 *  "Zone X covers 99% of the zip's area ... the whole zip" for a 1-mile circle around its post office's point; review
 *  24: 02139, a Cambridge ZCTA whose polygon is not loaded, read the same for the 0.7-mile circle of its land area, the equivalent radius). */
function pointArea(p: NonNullable<ZipFloodShares['point']>): { of: string; self: string; says: string } {
  const from = p.from === 'geonames' ? ' (its GeoNames coordinate)' : p.from === 'gazetteer_zcta' ? ' (its Census Gazetteer ZCTA centroid)' : p.from ? ` (its ${p.from} coordinate)` : '';
  const why = p.zcta
    ? `Zip ${p.zip}'s Census ZCTA boundary is not loaded in this build, so its flood figures are those of the circle of ${milesOf(p.radiusM)} around its point${from}, not of its own boundary`
    : `Zip ${p.zip} has no area of its own (no Census ZCTA: a PO-box or unique zip), so its flood figures are those of the circle of ${milesOf(p.radiusM)} around its point${from}`;
  // the undetermined zone's first clause names the circle in full: research quotes that clause alone (zoneDWhy)
  const self = `the ${milesOf(p.radiusM).replace(/ miles?$/, '-mile')} circle around the zip's point`;
  return { of: 'the circle', self, says: `${why}, and its Superfund count is of sites within ${milesOf(p.radiusM + MILE_M)} of that point.` };
}

const ZONE_KEY_WORDS: Record<string, string> = { 'X-minimal': 'X (unshaded, minimal hazard)', 'X-shaded': 'X (shaded, 0.2% annual chance)', 'X-levee': 'X (levee-protected)' };

/**
 * flood_risk_notes of a zip: the zone's description, then how much of the zip it covers and how much of the zip
 * a loaded FEMA map covers (shares of the zip's sampled H3 cells).
 */
export function zipFloodNotes(c: ZoneClass, s: ZipFloodShares): string {
  if (!s.point) return areaFloodNotes(c, s, "the zip's area", 'the zip', 'this zip');
  const { of, self, says } = pointArea(s.point);
  return `${areaFloodNotes(c, s, of, of, self)} ${says}`;
}

/** zipFloodNotes over an area named `area` ("the zip's area"), `whole` ("the zip") and `self` ("this zip"). */
function areaFloodNotes(c: ZoneClass, s: ZipFloodShares, area: string, whole: string, self: string): string {
  if (c.key === 'D-unmapped') {
    const check = 'so its flood hazard is undetermined; check the FEMA Flood Map Service Center before relying on it.';
    // a map loaded for the zip's county that does not reach it (review r16b #3: "no FEMA flood map was loaded" in
    // Belmont County, whose map covers around Bridgeport only)
    if (s.mappedShare <= 0) return s.countyMap ? `Zone D (undetermined): no FEMA flood map was loaded for this zip: the one loaded for its county (${s.countyMap}) does not reach it, ${check}` : zoneDescription(c);
    // the zones of the part inside the map, largest first (zone_shares of int_location_zip)
    const zones = Object.entries(s.zones ?? {}).filter(([k, v]) => k !== 'D-unmapped' && v > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, v]) => `zone ${ZONE_KEY_WORDS[k] ?? k} ${v < 0.005 ? 'under 1%' : pct(v)}`);
    const inside = `${s.mapLabel ? ` (${s.mapLabel})` : ''}${zones.length ? `: there, ${zones.join(', ')} of ${whole}` : ''}`;
    return `Zone D (undetermined): only ${pct(s.mappedShare)} of ${self} lies inside a loaded FEMA flood map${inside}; no flood hazard zone covers ${pct(ZONE_SHARE_MIN)} or more of it, ${check}`;
  }
  const parts = [`${zoneDescription(c)}`, `Zone ${c.zone}${c.key === 'X-shaded' ? ' (shaded)' : c.key === 'X-minimal' ? ' (unshaded)' : ''} covers ${pct(s.zoneShare)} of ${area}.`];
  if (s.sfhaShare > 0 && pct(s.sfhaShare) !== pct(s.zoneShare)) parts.push(`${pct(s.sfhaShare)} of ${whole} is in the Special Flood Hazard Area.`);
  parts.push(s.mappedShare >= 0.995 ? `A loaded FEMA flood map covers the whole ${whole.replace(/^the /, '')}.` : `A loaded FEMA flood map covers ${pct(s.mappedShare)} of ${whole}.`);
  return parts.join(' ');
}

/** Why a zip's zone is D, in its flood_risk_notes' words (the share inside a loaded map and its zones there, or that
 *  no map reaches the zip), for research's sentence (review r16b #3: never a wording of research's own). */
export const zoneDWhy = (notes: string): string =>
  /^Zone D \(undetermined\): (.*?),? so (?:its|the) flood hazard is undetermined/.exec(notes)?.[1] ?? notes.split('. ')[0]!.replace(/\.$/, '');


/** The zone class stored for a zip or polygon (key D-unmapped is the no-map answer). */
export function zoneClassOf(zone: string, subtype: string | null, sfha: boolean, key: string): ZoneClass {
  if (key === UNMAPPED.key) return UNMAPPED;
  return classifyZone(zone, subtype, sfha ? 'T' : 'F') ?? UNMAPPED;
}

// declared mapped area of a flood file: flood-area.ts
export { inFloodArea, parseFloodArea, type AreaKey, type FloodArea } from './flood-area.ts';

export type { Confidence };

/** Zip confidence by spatial coverage: the flood-map share of the zip and whether its area is an exact ZCTA polygon. */
export function zipConfidence(mappedShare: number, exactArea: boolean): Confidence {
  if (mappedShare < MAPPED_SHARE_MIN) return 'low';
  return mappedShare >= MAPPED_SHARE_HIGH && exactArea ? 'high' : 'medium';
}

/** Point confidence: low outside every loaded flood map; high when the zip also came from a ZCTA polygon. */
export function pointConfidence(mapped: boolean, zipFromPolygon: boolean): Confidence {
  if (!mapped) return 'low';
  return zipFromPolygon ? 'high' : 'medium';
}

/** Great-circle distance in metres (haversine on the mean-radius sphere): the exact 1-mile test. */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLng = (lng2 - lng1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The later of ISO dates (null ignored). */
export function maxDate(...dates: (string | null | undefined)[]): string | null {
  let best: string | null = null;
  for (const d of dates) if (d && (!best || d > best)) best = d;
  return best;
}

export interface LocationRiskBody {
  zip_code: string;
  city: string;
  state: string;
  flood_zone: string;
  flood_risk_label: RiskLabel;
  flood_risk_notes: string;
  superfund_nearby: boolean;
  superfund_count_1mi: number;
  environmental_risk_score: number;
  confidence: Confidence;
  as_of: string;
  superfund_basis: string;
  sems_non_npl_count_1mi: number | null;
  flood_map_loaded: boolean;
}

/** The spec's field order (interface-v1 "Location risk object"). */
export const BODY_FIELDS = [
  'zip_code', 'city', 'state', 'flood_zone', 'flood_risk_label', 'flood_risk_notes',
  'superfund_nearby', 'superfund_count_1mi', 'environmental_risk_score', 'confidence', 'as_of',
  'superfund_basis', 'sems_non_npl_count_1mi', 'flood_map_loaded', // additive
] as const satisfies readonly (keyof LocationRiskBody)[];
