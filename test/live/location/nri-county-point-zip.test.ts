// Two gaps of location risk a reviewer found, over the shared real build against the raw files (warehouse/docs/location.md
// "NRI county of a zip" and "Point lookups"): Connecticut and two Alaska census areas had no NRI score, so with no flood
// map their zips scored the Superfund points alone (0: "lowest risk"); and a point could answer a PO-box or unique zip
// (02238, 84199), a zip that delivers to no area, because its GeoNames point was the nearest centroid.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDir, readShard, warehouseRows } from '../../helpers/build.ts';
import { type Body, sourcesDir } from '../../helpers/location-truth.ts';
import { type Expected, type LocationOracle, locationOracle } from '../../helpers/oracle-location.ts';
import { LocationEngine } from '../../../live/location/endpoint.ts';

const SUPERFUND_ALONE = /rests on Superfund proximity alone/;

describe('location risk: the NRI county of CT and AK zips, and the zip of a point', () => {
  let oracle: LocationOracle;
  let engine: LocationEngine;
  beforeAll(async () => {
    oracle = await locationOracle();
    engine = LocationEngine.fromDir(path.join(buildDir(), 'live', 'location'));
  });
  const shard = (zip: string): Body => readShard<Body>(`location/zip/${zip}.json`);
  // the additive superfund_basis and sems_non_npl_count_1mi are checked in superfund-basis.test.ts, flood_map_loaded in
  // test/pipelines/market-shard-fields.test.ts
  const specOf = (b: Body): Expected => {
    const { flood_risk_notes: _notes, superfund_basis: _basis, sems_non_npl_count_1mi: _sems, flood_map_loaded: _map, ...rest } = b as Body & { superfund_basis?: string; sems_non_npl_count_1mi?: number | null; flood_map_loaded?: boolean };
    return rest;
  };

  it('scores the reviewer\'s Connecticut zips with their old county\'s NRI score (raw HUD crosswalk and NRI table)', () => {
    const named: Record<string, [string, number]> = { // zip -> old county, its raw NRI RISK_SCORE (to 2 decimals)
      '06820': ['09001', 9.05], '06902': ['09001', 9.05], '06010': ['09003', 14.95], '06473': ['09009', 13.72], '06001': ['09003', 14.95],
    };
    for (const [zip, [county, score]] of Object.entries(named)) {
      const z = oracle.byZip.get(zip)!;
      expect(z.county, zip).toMatch(/^091[1-9]0$/); // the zip's current county is a planning region, which the NRI lacks
      expect(z.nriCounty, zip).toBe(county);
      expect(oracle.nri.get(county)!, zip).toBeCloseTo(score, 2);
      const body = shard(zip);
      expect(specOf(body), zip).toEqual(oracle.expectedZip(zip));
      expect(body.environmental_risk_score, zip).toBeGreaterThan(0);
      expect(body.flood_risk_notes, zip).not.toMatch(SUPERFUND_ALONE);
    }
    // Darien: no flood map, no Superfund site within a mile: (0.30 x 0 + 0.25 x 9.05) / 0.55 = 4.1
    expect(shard('06820')).toMatchObject({ flood_zone: 'D', superfund_count_1mi: 0, environmental_risk_score: 4, confidence: 'low' });
  });

  it('gives every Connecticut and Alaska zip an NRI county, so none scores on Superfund proximity alone', () => {
    const zips = oracle.zips.filter((z) => z.state === 'CT' || z.state === 'AK');
    expect(zips.filter((z) => z.state === 'CT').length).toBeGreaterThan(400);
    expect(zips.filter((z) => !z.nriCounty || !oracle.nri.has(z.nriCounty)).map((z) => z.zip)).toEqual([]);
    const bad = zips.filter((z) => JSON.stringify(specOf(shard(z.zip))) !== JSON.stringify(oracle.expectedZip(z.zip))).map((z) => z.zip);
    expect(bad).toEqual([]);
    expect(zips.filter((z) => SUPERFUND_ALONE.test(shard(z.zip).flood_risk_notes)).map((z) => z.zip)).toEqual([]);
    // the Valdez-Cordova rule: Chugach and Copper River zips read 02261's score
    expect(zips.filter((z) => z.nriCounty === '02261').map((z) => z.zip).sort())
      .toEqual(['99566', '99573', '99574', '99586', '99588', '99677', '99686', '99693']);
  });

  it('the Valdez-Cordova rule agrees with EPA SEMS, which still files Chugach and Copper River sites under 02261', async () => {
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    const file = path.join(sourcesDir(), 'epa-superfund-sems', 'sems_active_sites_2021.csv.gz').replaceAll("'", "''");
    const sems = (await con.runAndReadAll(`select distinct left(trim(SITE_ZIP_CODE), 5) as zip from read_csv('${file}', all_varchar = true)
      where trim(SITE_FIPS_CODE) = '02261'`)).getRowObjectsJson() as { zip: string }[];
    con.closeSync(); inst.closeSync();
    const counties = await warehouseRows<{ zip: string; county_fips: string }>(
      `select zip, county_fips from zips where zip in (${sems.map((s) => `'${s.zip}'`).join(',') || "''"})`);
    expect(counties.length).toBeGreaterThanOrEqual(2);
    for (const c of counties) expect(['02063', '02066'], c.zip).toContain(c.county_fips);
  });

  it('answers a point with a zip that delivers to an area, never a PO-box or unique zip', () => {
    const zipOf = (lat: number, lng: number): string => {
      const a = engine.answer(lat, lng);
      if (!a.ok) throw new Error(`${lat}, ${lng}: ${a.message}`);
      return (a.body as Body).zip_code;
    };
    expect(oracle.byZip.get('02238')!.area).toBe(false);
    expect(zipOf(42.37, -71.1)).not.toBe('02238');
    expect(zipOf(42.37, -71.1)).toBe(oracle.expectedPoint(42.37, -71.1)!.zip_code);
    expect(zipOf(40.7259, -111.9394)).not.toBe('84199');
    // at the point of every zip that is not a Gazetteer ZCTA (GeoNames' post-office or town point), the answer's zip is one
    const poBox = oracle.zips.filter((z) => !z.area && z.lat !== null && z.lng !== null);
    expect(poBox.length).toBeGreaterThan(7000);
    const bad: string[] = [];
    for (const z of poBox) {
      const a = engine.answer(z.lat!, z.lng!);
      if (a.ok && !oracle.byZip.get((a.body as Body).zip_code)?.area) bad.push(`${z.zip} -> ${(a.body as Body).zip_code}`);
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });
});
