// A zip with no area of its own (review 23 #3): `GET /v1/location/risk?zip=02238` (a Cambridge PO-box zip) said "Zone X
// (unshaded) covers 99% of the zip's area ... A loaded FEMA flood map covers the whole zip", but a zip that is no Census
// ZCTA has no area: its flood shares are of a 1-mile circle around its coordinate (GeoNames'), and its Superfund count
// of sites within 2 miles of that point (warehouse/docs/location.md "Flood zone of a zip", "Superfund within 1 mile").
// Review 24: a ZCTA whose boundary polygon is not loaded (the 2010 polygons are DE, DC and RI's) is sampled the same way,
// as the circle of its equivalent radius around its Gazetteer centroid, and said so: 02139 (Cambridge) read "covers 95%
// of the zip's area ... A loaded FEMA flood map covers the whole zip" for that circle.
// The mart (pipelines/marts/40_mart_location_risk.ts) is run over the shared build's own input tables; that 02238 and
// 98111 are no ZCTA and where their points are is read from the raw Gazetteer ZCTA and GeoNames files, 02139's land area
// from the Gazetteer and its missing polygon from the raw boundary files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { buildDir } from '../helpers/build.ts';
import { makeContext, type TestContext } from '../helpers/context.ts';
import { dataFile, rawQuery } from '../helpers/oracle-raw-comps.ts';
import { run, requires } from '../../pipelines/marts/40_mart_location_risk.ts';

let ctx: TestContext;
let notes: Map<string, string>;
beforeAll(async () => {
  ctx = await makeContext();
  await ctx.db.run(`attach '${path.join(buildDir(), 'warehouse.duckdb')}' as wh (read_only)`);
  for (const t of requires) await ctx.db.run(`create table ${t} as select * from wh.${t}`);
  await ctx.db.run('detach wh');
  await run(ctx);
  notes = new Map((await ctx.rows<{ zip: string; n: string }>(`select zip, flood_risk_notes as n from mart_location_risk where zip in ('02238', '98111', '02139', '02818')`)).map((r) => [r.zip, r.n]));
}, 120_000);
afterAll(() => ctx?.close());

describe('flood notes of a zip with no area of its own', () => {
  it('02238 and 98111 are no ZCTA in the raw Gazetteer and have a GeoNames point; 02139 is a ZCTA', async () => {
    const zctas = await rawQuery<{ z: string }>(`select "GEOID" as z from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|')
      where trim("GEOID") in ('02238', '98111', '02139')`);
    expect(zctas.map((r) => r.z.trim())).toEqual(['02139']);
    const geonames = await rawQuery<{ z: string }>(`select zipcode as z from read_csv('${dataFile('geonames-us-postal-codes/zipcodes.us.csv.gz')}', all_varchar = true)
      where zipcode in ('02238', '98111') order by zipcode`);
    expect(geonames.map((r) => r.z)).toEqual(['02238', '98111']);
  });

  it('02238: the shares are of the 1-mile circle around its GeoNames point, never of "the zip\'s area" or "the whole zip"', () => {
    const n = notes.get('02238')!;
    expect(n).toMatch(/^Zone X \(unshaded\): area of minimal flood hazard, outside the 0\.2% annual chance floodplain\. Zone X \(unshaded\) covers \d+% of the circle\./);
    expect(n).toContain('A loaded FEMA flood map covers the whole circle.');
    expect(n).toContain('Zip 02238 has no area of its own (no Census ZCTA: a PO-box or unique zip), so its flood figures are those of the circle of 1 mile around its point (its GeoNames coordinate), and its Superfund count is of sites within 2 miles of that point.');
    expect(n).not.toMatch(/zip's area|whole zip/);
  });

  it('98111 (no map reaches it): its undetermined zone says the same of its circle', () => {
    const n = notes.get('98111')!;
    expect(n.startsWith('Zone D (undetermined): no FEMA flood map was loaded for this area')).toBe(true);
    expect(n).toContain('Zip 98111 has no area of its own (no Census ZCTA: a PO-box or unique zip), so its flood figures are those of the circle of 1 mile around its point (its GeoNames coordinate)');
  });

  it('02139, a ZCTA with no loaded polygon: the circle of its land area around its Gazetteer centroid, never "the zip\'s area"', async () => {
    const dir = dataFile('zcta-boundaries-2010');
    const loaded = new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.json')).flatMap((f) =>
      (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { features: { properties: { ZCTA5CE10: string } }[] }).features.map((x) => x.properties.ZCTA5CE10)));
    expect(loaded.has('02139')).toBe(false);
    expect(loaded.has('02818')).toBe(true);
    // the equivalent radius sqrt(ALAND / pi) (location.md "Flood zone of a zip", step 1), in miles to one decimal
    const [g] = await rawQuery<{ aland: string }>(`select "ALAND" as aland from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|') where trim("GEOID") = '02139'`);
    const r = Math.sqrt(Number(g!.aland) / Math.PI);
    const mi = (m: number): string => `${Math.round((m / 1609.344) * 10) / 10} miles`;
    const n = notes.get('02139')!;
    expect(n).toMatch(/covers \d+% of the circle\./);
    expect(n).toContain(`Zip 02139's Census ZCTA boundary is not loaded in this build, so its flood figures are those of the circle of ${mi(r)} around its point (its Census Gazetteer ZCTA centroid), not of its own boundary, and its Superfund count is of sites within ${mi(r + 1609.344)} of that point.`);
    expect(n).not.toMatch(/zip's area|whole zip/);
  });

  it('02818 (Rhode Island, its polygon loaded) is sampled by its polygon: no circle', () => {
    expect(notes.get('02818')).toBeDefined();
    expect(notes.get('02818')).not.toContain('circle');
  });
});
