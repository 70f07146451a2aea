// Location risk of Connecticut's Hartford and Bridgeport against the RAW FEMA and EPA files (audit h72audit): every zip
// shard the build serves whose city is Hartford or Bridgeport, CT (chosen by that rule from the shards on disk, never a
// hand list) against the independent oracle (test/helpers/oracle-location.ts: npl_sites.csv final and proposed sites by
// haversine, the FEMA GeoJSON files by turf, the Gazetteer's ZCTA land area and point). fema-nfhl-flood-zones/SOURCE.md
// holds two maps, Cambridge, MA and Belmont County, OH: neither reaches Connecticut, so each zip is zone D (undetermined),
// `flood_map_loaded` false; the Superfund count is of the sites within the circle's radius plus a mile of the zip's point,
// and the note names both distances (location.md "Flood zone of a zip"). endpoint-oracle.test.ts compares every shard's
// figures; this file adds the notes, the map flag and the Superfund sites by name, for these two cities.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir, readShard } from '../../helpers/build.ts';
import { type Body, haversine } from '../../helpers/location-truth.ts';
import { type LocationOracle, locationOracle, MILE } from '../../helpers/oracle-location.ts';

const miles = (m: number): string => { const x = Math.round((m / MILE) * 10) / 10; return `${x} mile${x === 1 ? '' : 's'}`; };
type Shard = Body & { flood_map_loaded: boolean; superfund_basis: string };
let oracle: LocationOracle;
let served: { zip: string; b: Shard }[];

beforeAll(async () => {
  oracle = await locationOracle();
  const dir = path.join(buildDir(), 'shards', 'location', 'zip');
  served = fs.readdirSync(dir).filter((f) => /^06\d{3}\.json$/.test(f))
    .map((f) => ({ zip: f.slice(0, 5), b: readShard<Shard>(`location/zip/${f}`) }))
    .filter(({ b }) => b.state === 'CT' && (b.city === 'Hartford' || b.city === 'Bridgeport'));
}, 300_000);

describe('Hartford and Bridgeport, CT location risk against the raw FEMA and EPA files', () => {
  it('the served zips are the zips of the two cities, each a zone D zip with no flood map, its figures the oracle\'s', () => {
    const want = oracle.zips.filter((z) => z.state === 'CT' && (z.city === 'Hartford' || z.city === 'Bridgeport')).map((z) => z.zip).sort();
    expect(served.map((s) => s.zip).sort()).toEqual(want);
    expect(served.filter((s) => s.b.city === 'Hartford').length).toBeGreaterThan(5);
    expect(served.filter((s) => s.b.city === 'Bridgeport').length).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const { zip, b } of served) {
      const w = oracle.expectedZip(zip);
      const got = `${b.flood_zone} ${b.flood_risk_label} ${b.flood_map_loaded} ${b.superfund_nearby} ${b.superfund_count_1mi} ${b.environmental_risk_score} ${b.confidence} ${b.as_of}`;
      const exp = `${w.flood_zone} ${w.flood_risk_label} false ${w.superfund_nearby} ${w.superfund_count_1mi} ${w.environmental_risk_score} ${w.confidence} ${w.as_of}`;
      if (got !== exp || w.flood_zone !== 'D') bad.push(`${zip}: ours ${got}, raw ${exp}`);
    }
    expect(bad).toEqual([]);
  });

  it('the notes: zone D undetermined, the circle of the zip\'s equivalent radius and the Superfund reach a mile beyond it', () => {
    const bad: string[] = [];
    for (const { zip, b } of served) {
      const z = oracle.byZip.get(zip)!;
      const notes = String(b.flood_risk_notes);
      const parts = [
        'Zone D (undetermined): no FEMA flood map was loaded for this area',
        `circle of ${miles(z.radius)} around its point`,
        `its Superfund count is of sites within ${miles(z.radius + MILE)} of that point.`,
      ];
      const missing = parts.filter((p) => !notes.includes(p));
      if (missing.length) bad.push(`${zip}: "${notes}" lacks ${JSON.stringify(missing)}`);
    }
    expect(bad).toEqual([]);
  });

  it('the Superfund count: the raw NPL sites (final or proposed) within reach of each zip\'s point, by name', () => {
    const rows: string[] = [];
    for (const { zip, b } of served) {
      const near = oracle.zipSites(zip).near.map((s) => s.epa_id).sort();
      if (near.length !== b.superfund_count_1mi) rows.push(`${zip}: ours ${b.superfund_count_1mi}, raw ${near.length} (${near.join(', ')})`);
    }
    expect(rows).toEqual([]);
    // at the build of 2026-12-03 no counted site is in reach of any of the 46 zips (each count 0): a zip counts 0 exactly
    // when its nearest final or proposed NPL site of the raw file lies beyond its reach, so a 0 is the file's, not a gap
    const nearest = served.map(({ zip }) => {
      const z = oracle.byZip.get(zip)!;
      const [d, id] = oracle.sites.map((s) => [haversine(z.lat!, z.lng!, s.lat, s.lng), s.epa_id] as const).sort((a, c) => a[0] - c[0])[0]!;
      return { zip, beyond: d - (z.radius + MILE), id };
    });
    expect(nearest.filter((n) => (n.beyond > 0) !== (served.find((s) => s.zip === n.zip)!.b.superfund_count_1mi === 0))).toEqual([]);
  });
});
