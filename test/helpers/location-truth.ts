// Location tests' ground truth, written from warehouse/docs/location.md and read from the raw files, never with the
// product's rules (live/location/rules.ts): the spec's fields of the Location risk object, haversine, the FEMA sample
// maps, the documented zone table and interior points of a feature. Shared by test/live/location/endpoint*.test.ts,
// test/pipelines/location-build.test.ts and the oracle (oracle-location.ts).
import fs from 'node:fs';
import path from 'node:path';
import { booleanPointInPolygon, pointOnFeature } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { loadSettings } from '../../warehouse/settings.ts';

// interface-v1.md "Location risk object", in the spec's order
export const SPEC_FIELDS = ['zip_code', 'city', 'state', 'flood_zone', 'flood_risk_label', 'flood_risk_notes', 'superfund_nearby',
  'superfund_count_1mi', 'environmental_risk_score', 'confidence', 'as_of',
  'superfund_basis', 'sems_non_npl_count_1mi']; // the last two additive (location.md "NPL status")
/** An answer's fields (a point, or a zip over HTTP): the shard's, then the additive flood_map_loaded the answer adds
 *  (location.md "Flood zone, label and notes", review 18). */
export const ANSWER_FIELDS = [...SPEC_FIELDS, 'flood_map_loaded'];
export const LABELS = ['Minimal', 'Low', 'Moderate', 'High', 'Very High'];

export interface Body {
  zip_code: string; city: string; state: string; flood_zone: string; flood_risk_label: string; flood_risk_notes: string;
  superfund_nearby: boolean; superfund_count_1mi: number; environmental_risk_score: number; confidence: string; as_of: string;
}

/** Independent haversine (mean Earth radius) for the 1-mile checks. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

export const sourcesDir = (): string => loadSettings().sources;
export type GeoFeature = Feature<Polygon | MultiPolygon, Record<string, unknown>>;
export const readFeatures = (file: string): GeoFeature[] =>
  (JSON.parse(fs.readFileSync(path.join(sourcesDir(), 'fema-nfhl-flood-zones', file), 'utf8')) as { features: GeoFeature[] }).features;
export const CAMBRIDGE = 'cambridge_ma_25017C_fld_haz_ar.geojson';
export const BELMONT = 'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson';

/**
 * The zone table of warehouse/docs/location.md "Flood zone, label and notes", written here from the doc (not the
 * product's classifyZone): `order` is the doc's rank order (VE > A* > shaded X > open water > D > levee X > minimal X),
 * `points` the score points, `wins` whether the class can win a zip at 10 % (shaded X, A*, V*). Null: not a flood zone.
 */
export interface DocZone { zone: string; key: string; label: string; points: number; order: number; wins: boolean }
export function docZone(fld: unknown, subtype: unknown): DocZone | null {
  const z = String(fld ?? '').trim().toUpperCase().replace(/^ZONE\s+/, '');
  const sub = String(subtype ?? '').toUpperCase();
  if (/^V(E|[0-9]{1,2})?$/.test(z)) return { zone: z, key: z, label: 'Very High', points: 100, order: 7, wins: true };
  if (/^A(E|O|H|R|99|[0-9]{1,2})?$/.test(z)) return { zone: z, key: z, label: 'High', points: 80, order: 6, wins: true };
  if (z === 'B' || (z === 'X' && /0\.2 PCT|1 PCT DEPTH|FUTURE CONDITIONS/.test(sub))) return { zone: z, key: 'X-shaded', label: 'Moderate', points: 45, order: 5, wins: true };
  if (z === 'OPEN WATER') return { zone: z, key: z, label: 'Moderate', points: 45, order: 4, wins: false };
  if (z === 'D') return { zone: 'D', key: 'D', label: 'Moderate', points: 35, order: 3, wins: false };
  if (z === 'X' && /LEVEE/.test(sub)) return { zone: 'X', key: 'X-levee', label: 'Low', points: 15, order: 2, wins: false };
  if (z === 'X' || z === 'C') return { zone: z === 'C' ? 'C' : 'X', key: 'X-minimal', label: 'Minimal', points: 0, order: 1, wins: false };
  return null;
}
export const MINIMAL_X: DocZone = { zone: 'X', key: 'X-minimal', label: 'Minimal', points: 0, order: 1, wins: false };

/**
 * A point strictly inside a feature (not on any edge): turf pointOnFeature when that is interior, else the
 * centroid of a triangle of consecutive outer-ring vertices that is. (pointOnFeature may return a vertex.)
 */
export function interiorPoint(f: GeoFeature): [number, number] | null {
  const strict = (p: number[]): boolean => booleanPointInPolygon(p, f, { ignoreBoundary: true });
  const first = pointOnFeature(f).geometry.coordinates;
  if (strict(first)) return [first[1]!, first[0]!];
  const rings = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  for (const poly of rings) {
    const r = poly[0]!;
    for (let i = 0; i + 2 < r.length; i++) {
      const p = [(r[i]![0]! + r[i + 1]![0]! + r[i + 2]![0]!) / 3, (r[i]![1]! + r[i + 1]![1]! + r[i + 2]![1]!) / 3];
      if (strict(p)) return [p[1]!, p[0]!];
    }
  }
  return null;
}
