// Consolidated city-counties over HTTP (warehouse/docs/geo.md "Zip codes"; review: Louisville's geo lookup listed the
// 46 zips of "Louisville/Jefferson County metro government (balance)" and none of the old "Louisville city", downtown
// and the west end, where 283 of the 396 rows of the Louisville lien file lie). Every expected figure comes from the
// raw files through the test's own SQL: the Gazetteer's FUNCSTAT and names, us_geo's ZCTA-place relationship file, the
// Louisville lien file, and the Census-place oracle of test/helpers/geo-census-oracle.ts. The lookup's name for a place
// is its row of the canonical `cities` table, found by GEOID (as test/pipelines/geo-census-places.test.ts); no mart is read.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir, warehouseRows } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { RawGeo, sqlPath } from '../helpers/oracle-geo.ts';
import { mergedPlaces, placeZips, type CensusPlace } from '../helpers/geo-census-oracle.ts';

let srv: TestServer;
let key: string;
let geo: RawGeo;

beforeAll(async () => {
  srv = await startTestServer(artifactsDir());
  key = srv.key('pro', 10_000);
  geo = await RawGeo.open();
});
afterAll(async () => {
  await srv?.close();
  geo?.close();
});

async function lookupZips(city: string, state: string): Promise<string[]> {
  const res = await srv.get(`/v1/geo/lookup?city=${encodeURIComponent(city)}&state=${state}`, key);
  const text = await res.text();
  expect(res.status, `${city}, ${state}: ${text.slice(0, 200)}`).toBe(200);
  return (JSON.parse(text) as { zip_codes: string[] }).zip_codes;
}

const GAZ = `read_csv('${sqlPath('census-gazetteer-2025/2025_Gaz_place_national.txt.gz')}', delim = '|', all_varchar = true)`;
const ACS = `read_csv('${sqlPath('census-acs2023-population/acs5_2023_place_population.csv.gz')}', all_varchar = true)`;
const ZCTA_PLACES = `read_csv('${sqlPath('usgeo-census-tables/zcta_places.csv.gz')}', all_varchar = true)`;
const ZCTAS = `read_csv('${sqlPath('usgeo-census-tables/zctas.csv.gz')}', all_varchar = true)`;

/** The ZCTAs of a Gazetteer place by geo.md's 10% rule (10% of the ZCTA's land in the place, or 10% of the place's). */
async function ownZctas(state: string, name: string): Promise<string[]> {
  const rows = await geo.rows<{ z: string }>(`
    select zp.ZCTA5 as z from ${GAZ} g join ${ZCTA_PLACES} zp on zp."Place GEOID" = g.GEOID join ${ZCTAS} zz using (ZCTA5)
    where g.USPS = '${state}' and g.NAME = '${name.replaceAll("'", "''")}' and zp."Land Area"::double > 0
      and (zp."Land Area"::double >= 0.1 * zz."Land Area"::double or zp."Land Area"::double >= 0.1 * g.ALAND_SQMI::double)
    order by 1`);
  return rows.map((r) => r.z);
}

/** The consolidated city-county balances of the Gazetteer (FUNCSTAT F, "... (balance)") of the 50 states and DC. */
async function balances(): Promise<CensusPlace[]> {
  return geo.rows<CensusPlace>(`select g.GEOID as geoid, g.USPS as state, g.NAME as name, try_cast(a.B01003_001E as double) as pop,
      g.ALAND_SQMI::double as land
    from ${GAZ} g left join ${ACS} a on a.geoid = g.GEOID
    where g.FUNCSTAT = 'F' and g.NAME like '%(balance)' and g.USPS <> 'PR' order by g.GEOID`);
}

describe('a consolidated city-county lookup lists the zips of its pre-consolidation city', () => {
  test('Louisville, KY: the 14 ZCTAs of the old "Louisville city" (FUNCSTAT N) that the balance lacks are listed', async () => {
    const [old] = await geo.rows<{ f: string }>(`select FUNCSTAT as f from ${GAZ} where USPS = 'KY' and NAME = 'Louisville city'`);
    expect(old?.f, 'the premise: the Gazetteer keeps "Louisville city" as a nonfunctioning place').toBe('N');
    const balance = await ownZctas('KY', 'Louisville/Jefferson County metro government (balance)');
    const city = await ownZctas('KY', 'Louisville city');
    const missing = city.filter((z) => !balance.includes(z));
    expect(missing).toEqual(['40041', '40202', '40203', '40204', '40205', '40206', '40208', '40210', '40212', '40215',
      '40217', '40221', '40231', '40280']);
    const zips = await lookupZips('Louisville', 'KY');
    expect(missing.filter((z) => !zips.includes(z))).toEqual([]);
    expect(balance.filter((z) => !zips.includes(z))).toEqual([]);
  });

  test('every row of the Louisville lien file has a ZIP the Louisville lookup lists (283 of 396 had not)', async () => {
    const rows = await geo.rows<{ zip: string }>(`select left("ZIP", 5) as zip
      from read_csv('${sqlPath('louisville-metro-lien-foreclosures/foreclosures.csv.gz')}', all_varchar = true)`);
    expect(rows).toHaveLength(396);
    const zips = new Set(await lookupZips('Louisville', 'KY'));
    expect(rows.filter((r) => !zips.has(r.zip)).map((r) => r.zip)).toEqual([]);
  });

  test('every balance: its lookup lists its own ZCTAs and those of the nonfunctioning places of its county (only Louisville and Greeley County have any)', async () => {
    const all = await balances();
    expect(all.map((b) => b.name)).toEqual(expect.arrayContaining(['Louisville/Jefferson County metro government (balance)',
      'Nashville-Davidson metropolitan government (balance)', 'Indianapolis city (balance)',
      'Athens-Clarke County unified government (balance)', 'Augusta-Richmond County consolidated government (balance)']));
    const merged: string[] = [];
    const wrong: string[] = [];
    for (const b of all) {
      for (const n of await mergedPlaces(geo, b)) merged.push(`${n.name} -> ${b.name}`);
      const [row] = await warehouseRows<{ city_name: string }>('select city_name from cities where place_geoid = $g', { g: b.geoid });
      if (!row) { wrong.push(`${b.name}: no city`); continue; }
      const want = await placeZips(geo, b, row.city_name);
      const got = await lookupZips(row.city_name, b.state);
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${b.name}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    }
    expect(merged.sort()).toEqual(['Louisville city -> Louisville/Jefferson County metro government (balance)',
      'Tribune city -> Greeley County unified government (balance)']);
    expect(wrong).toEqual([]);
  });

  test('an independent city inside a consolidated government keeps its own lookup and zips: Beech Grove and Lawrence stay out of Indianapolis', async () => {
    const indy = await lookupZips('Indianapolis', 'IN');
    for (const [city, name] of [['Beech Grove', 'Beech Grove city'], ['Lawrence', 'Lawrence city']] as const) {
      const own = await ownZctas('IN', name);
      const zcta = own.find((z) => !indy.includes(z));
      expect(zcta, `${name} has a ZCTA that is not Indianapolis'`).toBeDefined();
      expect(await lookupZips(city, 'IN')).toContain(zcta);
    }
  });
});
