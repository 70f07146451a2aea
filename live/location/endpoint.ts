// GET /v1/location/risk?lat=&lng=: the Location risk object of a point, answered in-process from the files the
// build wrote under <build>/live/location/ (live/location/build.ts). Rules (warehouse/docs/location.md):
//   zip        the ZCTA polygon containing the point where loaded (DE, DC, RI), else the nearest zip centroid for
//              its size (distance / equivalent radius) among zips reaching the point (max(16 km, 2 x the zip's
//              equivalent radius)), said in the note; inside a loaded flood file's polygon, only the zips of that
//              file's declared area (county/place) compete when one reaches the point; outside the polygons but in
//              the box of a floodplain-only file, a zip of its area within NEAR_TIE of the best score wins (a near
//              tie at a city line); no zip reaches -> 404
//   flood      highest-risk flood polygon containing the point (H3 res-9 cell -> candidate polygons; cells wholly
//              inside need no test, boundary cells use turf booleanPointInPolygon); outside every polygon but in the
//              declared area (community/county) of a floodplain-only map, judged by the point's zip (the answer's
//              zip_code) -> X (minimal hazard); otherwise D, "no map loaded"
//   superfund  counted NPL sites within exactly 1 mile (haversine), candidates from the res-8 cell index
//   score, confidence, as_of  live/location/rules.ts and score.ts, the same functions as the zip shards
import fs from 'node:fs';
import path from 'node:path';
import { unavailable, type LiveAnswer, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import type { FloodData, SiteData, ZctaData, ZipData } from './data.ts';
import { FloodIndex } from './flood-index.ts';
import { inBBox, type BBox } from './geo.ts';
import { SiteIndex } from './site-index.ts';
import { ZipLocator } from './zip-locator.ts';
import {
  type AreaKey, BODY_FIELDS, SUPERFUND_AS_OF, SUPERFUND_BASIS, inFloodArea, maxDate, pointConfidence, zoneDescription, type LocationRiskBody,
} from './rules.ts';
import { environmentalScore, scoreBasisNote } from './score.ts';
import { superfundNotLoaded } from './superfund-loaded.ts';

/** Size-weighted zip scores within this ratio are a tie the declared area of a nearby flood file breaks. */
export const NEAR_TIE = 1.05;

export interface LocationInput {
  lat: number;
  lng: number;
}

export interface LocationMeta {
  format: number;
  build_id: string;
  superfund_as_of: string;
  /** false: the build read no EPA Superfund file (./superfund-loaded.ts); absent in older builds (read one) */
  superfund_loaded?: boolean;
}

/** The loaded indexes of one build; `answer` is the whole point lookup (exported for tests and the bench). */
export class LocationEngine {
  constructor(
    readonly flood: FloodIndex,
    readonly sites: SiteIndex,
    readonly zips: ZipLocator,
    readonly meta: LocationMeta,
  ) {
    // Where a zip of some declared flood-map area can be a point's area zip: outside these boxes the
    // size-weighted zip search of `where` below cannot find one, so it is skipped (most of the country).
    this.areaBoxes = flood.maps.filter((m) => !m.complete && m.area)
      .map((m) => zips.reachBox((z) => inFloodArea(m.area, { city: z[4], state: z[5], county: z[7] ?? null })))
      .filter((b): b is BBox => b !== null);
  }

  private readonly areaBoxes: BBox[];

  private areaOf(pos: number): AreaKey {
    const z = this.zips.row(pos);
    return { city: z[4], state: z[5], county: z[7] ?? null };
  }

  static fromDir(dir: string): LocationEngine {
    const read = <T,>(name: string): T => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as T;
    const meta = read<LocationMeta>('meta.json');
    return new LocationEngine(
      new FloodIndex(read<FloodData>('flood.json')),
      new SiteIndex(read<SiteData>('superfund.json')),
      new ZipLocator(read<ZipData>('zips.json'), read<ZctaData>('zcta.json')),
      meta,
    );
  }

  answer(lat: number, lng: number): LiveAnswer {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) {
      return { ok: false, code: 'validation_failed', message: 'lat must be within -90..90 and lng within -180..180',
        errors: [{ field: Number.isFinite(lat) && lat >= -90 && lat <= 90 ? 'lng' : 'lat', code: 'range', message: 'out of range' }] };
    }
    if (this.meta.superfund_loaded === false) return { ok: false, code: 'no_data', message: superfundNotLoaded(`${lat}, ${lng}`) };
    // a point inside a loaded flood file's polygon lies in that file's declared area (county/place): its zip is taken
    // among that area's zips when one reaches it, never across a state or county line the file itself draws
    const inPoly = this.flood.polygonHit(lat, lng);
    const fileArea = inPoly?.map?.area ?? null;
    let zipArea: string | null = null; // the declared area the zip was taken in, for the note
    let zipHit = this.zips.locate(lat, lng, fileArea ? (z) => inFloodArea(fileArea, { city: z[4], state: z[5], county: z[7] ?? null }) : undefined);
    // outside every polygon, near a floodplain-only file's declared area: a zip of that area within NEAR_TIE of the
    // best score is taken (between Harvard and Inman Sq, Somerville's 02143 scored 1.218, Cambridge's 02139 1.225)
    if (zipHit && !inPoly && zipHit.source === 'nearest_centroid') {
      for (const m of this.flood.nearbyAreas(lat, lng)) {
        if (m.complete || inFloodArea(m.area, this.areaOf(zipHit.pos))) continue;
        const alt = this.zips.nearest(lat, lng, true, (z) => inFloodArea(m.area, { city: z[4], state: z[5], county: z[7] ?? null }));
        if (alt && alt.score <= zipHit.score * NEAR_TIE) {
          zipArea = `${m.area!.label} (within ${Math.round((NEAR_TIE - 1) * 100)}% of the best score, ${zipHit.zip}: a near tie)`;
          zipHit = alt; break;
        }
      }
    }
    if (!zipHit) {
      return { ok: false, code: 'no_data', message: `No zip code covers or lies near ${lat}, ${lng}: the point is outside coverage (US zip codes only)` };
    }
    if (fileArea && inFloodArea(fileArea, this.areaOf(zipHit.pos))) zipArea = `${fileArea.label} (the flood file the point lies in)`;
    const [zip, , , , city, state, nri, county] = this.zips.row(zipHit.pos);
    // the point's declared flood-map area goes by the answer's own zip (zip-locator.ts: one zip for both)
    const where = (): AreaKey | null => (zipHit.source !== 'zcta_polygon' && !this.areaBoxes.some((b) => inBBox(b, lng, lat)) ? null : { city, state, county: county ?? null });
    // inside a polygon, that is the flood hit; outside, no polygon test again (cell null: the declared-area rule only)
    const hit = inPoly ?? this.flood.classify(lat, lng, null, where);
    const sites = this.sites.within(lat, lng);
    const mapped = hit.map !== null;
    let notes = zoneDescription(hit.cls, { outsidePolygons: mapped && !hit.inPolygon });
    if (mapped) {
      const m = hit.map!;
      notes += ` Source: FEMA flood map ${m.file}${m.as_of ? ` (effective ${m.as_of})` : ''}.`;
      if (!hit.inPolygon && m.area) notes += ` That file maps only the floodplains of ${m.area.label}; this point lies there by its zip ${zip} (${city}, ${state}).`;
    } else {
      const near = this.flood.nearbyAreas(lat, lng).map((m) => m.area!.label);
      if (near.length) notes += ` The loaded FEMA flood map nearby covers only ${[...new Set(near)].join('; ')}.`;
    }
    if (zipHit.source === 'nearest_centroid') {
      const among = zipArea ? ` among the zips of ${zipArea}` : '';
      notes += ` No ZCTA boundary is loaded here, so zip ${zip} is estimated from zip centroids: the nearest for its size${among} (its centroid ${(zipHit.distance_m / 1000).toFixed(1)} km away).`;
    }
    const basis = scoreBasisNote(hit.cls, nri);
    if (basis) notes += ` ${basis}`;
    const body: LocationRiskBody = {
      zip_code: zip,
      city,
      state,
      flood_zone: hit.cls.zone,
      flood_risk_label: hit.cls.label,
      flood_risk_notes: notes,
      superfund_nearby: sites.length > 0,
      superfund_count_1mi: sites.length,
      environmental_risk_score: environmentalScore(hit.cls, sites.length, nri),
      confidence: pointConfidence(mapped, zipHit.source === 'zcta_polygon'),
      as_of: maxDate(this.meta.superfund_as_of ?? SUPERFUND_AS_OF, hit.map?.as_of) ?? SUPERFUND_AS_OF,
      superfund_basis: SUPERFUND_BASIS,
      sems_non_npl_count_1mi: this.sites.othersWithin(lat, lng),
      flood_map_loaded: hit.cls.key !== 'D-unmapped',
    };
    return { ok: true, body: orderBody(body) };
  }
}

function orderBody(b: LocationRiskBody): LocationRiskBody {
  const out = {} as Record<string, unknown>;
  for (const k of BODY_FIELDS) out[k] = b[k];
  return out as unknown as LocationRiskBody;
}


const location: LiveModule<LocationInput> = {
  name: 'location',
  async load(build: LiveBuild): Promise<LiveInstance<LocationInput>> {
    const dir = path.join(build.dir, 'live', 'location');
    if (!fs.existsSync(path.join(dir, 'meta.json'))) {
      return unavailable(`Point lookups are unavailable: build ${build.buildId} has no location data (query by zip instead)`);
    }
    let engine: LocationEngine;
    try {
      engine = LocationEngine.fromDir(dir);
    } catch (err) {
      return unavailable(`Point lookups are unavailable: the location data of build ${build.buildId} is unreadable (${(err as Error).message})`);
    }
    return {
      handle(input: LocationInput): LiveAnswer {
        try {
          return engine.answer(Number(input.lat), Number(input.lng));
        } catch (err) {
          // h3-js or turf failing on an odd coordinate is "no answer here", never a 500
          return { ok: false, code: 'no_data', message: `No location risk answer for ${input.lat}, ${input.lng} (${(err as Error).message})` };
        }
      },
    };
  },
};

export default location;
