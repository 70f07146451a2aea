// The thirty-first research review's answers: a county's and a city's flood answer beside a loaded FEMA map that
// reaches little of them (live/research/flood-maps.ts: Belmont County, OH's 26 zips all read "with no FEMA flood map
// loaded", though 43912 lies partly inside the map around Bridgeport); wholesaling asked as law (not-recorded.ts: "is
// wholesaling legal in Illinois" answered "investor activity is reported per city"); a home's size priced beside
// another topic (size-value.ts: "flood risk and price of a 2000 sq ft house in 98103" answered the flood risk alone).
// Over the shared real build on the pinned clock; figures from the raw files (FEMA GeoJSON, Gazetteer, legal-facts.csv,
// the sales files) or the warehouse, never typed in.
import fs from 'node:fs';
import path from 'node:path';
import { bboxClip, booleanPointInPolygon } from '@turf/turf';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchEngine, type ResearchBody } from '../../../live/research/endpoint.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';
import { buildDir, warehouseRows } from '../../helpers/build.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { dataFile, rawComps, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import { researchData } from '../../helpers/research.ts';
import { CHICAGO, CHICAGO_KIND, NASHVILLE, NASHVILLE_KIND, permitCounts, permitKindList } from '../../helpers/oracle-raw-permits.ts';

let engine: ResearchEngine;
beforeAll(() => { engine = new ResearchEngine(researchData(), null, PINNED_TODAY); });
const full = (query: string): Promise<ResearchBody> => engine.answer({ query, depth: 'quick' });
const ask = async (query: string): Promise<string> => (await full(query)).answer;
const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** The share of a zip's equivalent disk (raw Gazetteer centroid and land area) inside the raw Belmont County flood
 *  polygons clipped to their detailed-study extent (location.md "Mapped area"), on a grid of our own (not the build's
 *  H3 cells). */
async function belmontShare(zip: string): Promise<number> {
  const [g] = await rawQuery<{ lat: string; lng: string; aland: string }>(`select "INTPTLAT" as lat, trim("INTPTLONG") as lng, "ALAND" as aland
    from read_csv('${dataFile('census-gazetteer-2025/2025_Gaz_zcta_national.txt.gz')}', all_varchar = true, delim = '|') where trim("GEOID") = '${zip}'`);
  const [lat, lng, r] = [Number(g!.lat), Number(g!.lng), Math.max(400, Math.sqrt(Number(g!.aland) / Math.PI))];
  const extent: [number, number, number, number] = [-80.7555, 40.0387, -80.7311, 40.0851];
  const file = path.join(SHARED_DATA, 'fema-nfhl-flood-zones', 'belmont_county_oh_39013_fld_haz_ar_dissolved.geojson');
  const polys = (JSON.parse(fs.readFileSync(file, 'utf8')) as GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon>).features.map((f) => bboxClip(f, extent) as GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>);
  const [dLat, dLng] = [r / 111_320, r / (111_320 * Math.cos((lat * Math.PI) / 180))];
  let inside = 0, total = 0;
  const n = 60;
  for (let i = -n; i <= n; i++) for (let j = -n; j <= n; j++) {
    if (i * i + j * j > n * n) continue;
    const p: [number, number] = [lng + (i / n) * dLng, lat + (j / n) * dLat];
    total++;
    if (p[0] >= extent[0] && p[0] <= extent[2] && p[1] >= extent[1] && p[1] <= extent[3] && polys.some((f) => f.geometry.coordinates.length && booleanPointInPolygon(p, f))) inside++;
  }
  return inside / total;
}

describe('flood answers beside a loaded FEMA map that reaches little of a place (Belmont County, OH)', () => {
  it('"flood risk in Belmont County Ohio": the zips no map reaches and the zip partly inside it, said apart, with the map and the point lookup', async () => {
    const zips = await warehouseRows<{ zip: string; mapped_share: number }>(`select z.zip, l.mapped_share from zips z join int_location_zip l using (zip) where z.county_fips = '39013' order by 1`);
    expect(zips.length).toBeGreaterThan(1);
    // no zip of the county has a mapped zone (under half of each is mapped): every one is undetermined
    expect(zips.every((z) => z.mapped_share < 0.5)).toBe(true);
    const partly = zips.filter((z) => z.mapped_share > 0);
    expect(partly.map((z) => z.zip)).toEqual(['43912']);
    // the build's share of 43912 inside the map is our own raw recomputation's, to a point
    const raw = await belmontShare('43912');
    expect(raw).toBeGreaterThan(0);
    expect(Math.abs(raw - partly[0]!.mapped_share)).toBeLessThan(0.01);
    for (const q of ['flood risk in Belmont County Ohio', 'is Belmont County OH in a flood zone']) {
      const a = await ask(q);
      expect(a, q).toContain(`Of ${zips.length} zips of Belmont County, OH, ${zips.length - partly.length} that no loaded FEMA flood map reaches (zone D), ${partly.length} only partly inside a loaded FEMA flood map, too little of it to set a zone (zone D, undetermined)`);
      expect(a, q).toMatch(new RegExp(`the FEMA flood map loaded for this area \\(Belmont County, OH, around Bridgeport only \\([^)]*\\)\\) reaches only zip 43912 \\(${pct(partly[0]!.mapped_share)} of the [0-9.]+-mile circle around its point lies inside it; there, zone X \\(unshaded, minimal hazard\\) ${pct(partly[0]!.mapped_share)} of the circle\\), too little to set a zone, and no other zip of Belmont County, OH; inside that map, a property's own zone is given by GET /v1/location/risk with its latitude and longitude`));
      // before: "all 26 with no FEMA flood map loaded (zone D)"
      expect(a, q).not.toMatch(/all \d+ with no FEMA flood map loaded/);
    }
  });

  it('"flood risk in Middlesex County MA": the zips partly inside the Cambridge map named, never "no other zip" beside the zips it zones', async () => {
    const zips = await warehouseRows<{ zip: string; mapped_share: number; flood_zone: string }>(`select z.zip, l.mapped_share, l.flood_zone from zips z join int_location_zip l using (zip) where z.county_fips = '25017' order by 1`);
    const partly = zips.filter((z) => z.flood_zone === 'D' && z.mapped_share > 0).map((z) => z.zip);
    expect(partly.length).toBeGreaterThan(0);
    expect(zips.some((z) => z.flood_zone !== 'D')).toBe(true);
    const a = await ask('flood risk in Middlesex County MA');
    expect(a).toContain(`${partly.length} only partly inside a loaded FEMA flood map, too little of it to set a zone (zone D, undetermined)`);
    expect(a).toContain('the FEMA flood map loaded for this area (the City of Cambridge, MA) reaches zip ');
    for (const zip of partly) expect(a).toContain(`zip ${zip} (`);
    expect(a).toContain(' in part only, too little to set ');
    expect(a).not.toContain('no other zip of Middlesex County');
  });

  it('"is Bridgeport OH in a flood zone": the zip undetermined, and where a property inside the map gets its own zone', async () => {
    const a = await ask('is Bridgeport OH in a flood zone');
    expect(a).toMatch(/^Zip 43912 \(Bridgeport, OH\): only \d+% of the [0-9.]+-mile circle around the zip's point lies inside a loaded FEMA flood map/);
    expect(a).toContain('so its flood zone is undetermined (FEMA zone D), though a property inside that map gets its own zone from GET /v1/location/risk with its latitude and longitude');
    // a zip no map reaches gets no pointer into the map
    expect(await ask('flood zone 43950')).not.toContain('GET /v1/location/risk');
  });

  it('a city no map is loaded for keeps its words (Seattle: every zip "with no FEMA flood map loaded")', async () => {
    const n = (await warehouseRows<{ n: number }>(`select count(*)::int as n from zips z join int_location_zip l using (zip) where z.city = 'Seattle' and z.state_code = 'WA' and l.mapped_share = 0`))[0]!.n;
    const a = await ask('flood risk in Seattle');
    expect(a).toMatch(/all \d+ with no FEMA flood map loaded \(zone D\)/);
    expect(a).not.toContain('FEMA flood map loaded for this area');
    expect(n).toBeGreaterThan(1);
  });
});

describe('wholesaling asked as law: said not recorded, never investor activity', () => {
  it('"is wholesaling legal in Illinois", "do I need a license to wholesale in Pennsylvania": no fact held covers it, said plainly', async () => {
    // the facts held: legal-facts.csv and the build's regulation records name no wholesaling rule
    expect(fs.readFileSync(path.join(SHARED_DATA, '..', 'reference', 'legal-facts.csv'), 'utf8')).not.toMatch(/wholesal/i);
    expect(fs.readFileSync(path.join(buildDir(), 'live', 'research', 'regulations.json'), 'utf8')).not.toMatch(/wholesal/i);
    for (const q of ['is wholesaling legal in Illinois', 'do I need a license to wholesale in Pennsylvania', 'wholesaling laws in Ohio', 'is wholesaling real estate allowed in Texas']) {
      const r = await full(q);
      expect(r.answer, q).toMatch(/^I don't have that: we record no rule on real estate wholesaling \(assigning or double-closing a purchase contract\) or on real estate licences, in any state: none of the state legal facts or regulation records we hold addresses wholesaling/);
      expect(r.answer, q).not.toMatch(/investor activity is reported per city/i);
      expect(r.sources, q).toEqual([]);
      expect(r.confidence, q).toBe('low');
    }
    // wholesaling asked as a market word stays the investor topic
    expect(await ask('wholesaling activity in Chicago')).not.toContain('no rule on real estate wholesaling');
  });
});

describe('a home size priced beside another topic', () => {
  it('"flood risk and price of a 2000 sq ft house in 98103": the flood risk and the size priced at the raw median per sqft', async () => {
    const c = (await rawComps()).get('98103|sfr|6')!;
    const priced = `at that median, 2,000 sqft comes to about $${(Math.round((c.median * 2000) / 1000) * 1000).toLocaleString('en-US')}`;
    const flood = await ask('flood risk in 98103');
    for (const q of ['flood risk and price of a 2000 sq ft house in 98103', 'how much is a 2000 sqft house in 98103 worth and is it in a flood zone']) {
      const a = await ask(q);
      expect(a, q).toMatch(/^Reading "2000 (sq ft|sqft)" as the size to price: the zip's median price per sqft of single-family sales times 2,000 sqft/);
      expect(a, q).toContain(`${c.n} single-family sales in the 6 months to`);
      expect(a, q).toContain(priced);
      expect(a, q).toContain(flood);
      expect(a, q).not.toMatch(/not applied/);
    }
  });
});

describe('permit counts of a kind (demolition, new construction): the raw files\' permits, and "last year" said as read', () => {
  it('"how many demolition permits in Chicago in 2023": the raw file\'s 2023 demolitions among its permits of every kind', async () => {
    const c = await permitCounts(CHICAGO, CHICAGO_KIND, 'year(d) = 2023');
    expect(await ask('how many demolition permits in Chicago in 2023')).toBe(`In Chicago, IL, ${c.of('demolition').toLocaleString('en-US')} demolition permits were issued in 2023, of ${c.all.toLocaleString('en-US')} permits of every kind (${permitKindList(c)}), from the permit records of Chicago building permits.`);
  });
  it('"new construction permits in Nashville last year": the 12 months to the file\'s last application, said so (not a calendar year)', async () => {
    const last = (await rawQuery<{ b: string }>(`select max(d)::varchar as b from ${NASHVILLE}`))[0]!.b;
    const c = await permitCounts(NASHVILLE, NASHVILLE_KIND, `upper(trim(city)) = 'NASHVILLE' and d > date '${last}' - interval 12 month and d <= date '${last}'`);
    const a = await ask('new construction permits in Nashville last year');
    expect(a).toMatch(/^Reading "last year" as the 12 months to where each place's permit records end, not a calendar year \(name the year for a calendar year's permits\); new construction permits as the permit records' new-construction kind, which counts Nashville's applications of types New, Shell, Foundation, Structural Frame and Tenant Finish Out \(a tenant finish-out builds out the interior of a new building's shell\): /);
    // the reading matters: tenant finish-outs are among the window's new-construction applications in the raw file
    const tfo = await permitCounts(NASHVILLE, `case when t ilike '%tenant finish out%' then 'tfo' else 'other' end`, `upper(trim(city)) = 'NASHVILLE' and d > date '${last}' - interval 12 month and d <= date '${last}'`);
    expect(tfo.of('tfo')).toBeGreaterThan(0);
    expect(a).toContain(`In Nashville, TN, ${c.of('new').toLocaleString('en-US')} new construction permits were applied for in the 12 months to ${last}`);
    expect(a).toContain(`of ${c.all.toLocaleString('en-US')} permits of every kind (${permitKindList(c)})`);
    // a zip's new construction permits asked with no count word: counted (before, its rehab score, which counts none)
    const z = await permitCounts(NASHVILLE, NASHVILLE_KIND, `zip = '37206' and d > date '${last}' - interval 12 month and d <= date '${last}'`);
    const zipA = await ask('new construction permits in 37206');
    expect(zipA).toContain(`In zip 37206 (Nashville, TN), ${z.of('new')} new construction permits were applied for in the 12 months to ${last}`);
    expect(zipA).toContain(`of ${z.all} permits of every kind (${permitKindList(z)})`);
    expect(zipA).not.toContain('rehab momentum score');
    // Chicago's likewise, to its own file's end; a comparison with last year is no reading of it
    const end = (await rawQuery<{ b: string }>(`select max(d)::varchar as b from ${CHICAGO}`))[0]!.b;
    const d = await permitCounts(CHICAGO, CHICAGO_KIND, `d > date '${end}' - interval 12 month and d <= date '${end}'`);
    expect(await ask('demolition permits in Chicago last year')).toContain(`Reading "last year" as the 12 months to where each place's permit records end, not a calendar year (name the year for a calendar year's permits): In Chicago, IL, ${d.of('demolition').toLocaleString('en-US')} demolition permits were issued in the 12 months to ${end}`);
  });
});
