// Independent oracle of the Census-place rules of warehouse/docs/geo.md ("Primary county", "Zip codes"), written out
// again from their prose over the raw files (DuckDB read_csv over ../shared/data through RawGeo), for
// test/pipelines/geo-census-places.test.ts and test/api/values-geo-legal.test.ts. Nothing here imports the product.
import { nameKey, sqlPath, type RawGeo } from './oracle-geo.ts';

export interface CensusPlace { geoid: string; state: string; name: string; pop: number | null; land: number }

const loaded = new WeakMap<RawGeo, Promise<void>>();

/** The Gazetteer places, the us_geo crosswalks, HUD and the ZCTA populations as temp tables, read once per connection. */
function crosswalks(geo: RawGeo): Promise<void> {
  let p = loaded.get(geo);
  if (!p) {
    const t = (name: string, file: string, opts = ''): string =>
      `create or replace temp table ${name} as select * from read_csv('${sqlPath(file)}', all_varchar = true${opts})`;
    p = (async () => {
      for (const sql of [
        t('raw_places', 'census-gazetteer-2025/2025_Gaz_place_national.txt.gz', ", delim = '|'"),
        t('raw_place_acs', 'census-acs2023-population/acs5_2023_place_population.csv.gz'),
        t('raw_place_counties', 'usgeo-census-tables/place_counties.csv.gz'),
        t('raw_zcta_places', 'usgeo-census-tables/zcta_places.csv.gz'),
        t('raw_zctas', 'usgeo-census-tables/zctas.csv.gz'),
        t('raw_zcta_acs', 'census-acs2023-population/acs5_2023_zcta_population.csv.gz'),
        t('raw_zcta_counties', 'usgeo-census-tables/zcta_counties.csv.gz'),
        t('raw_hud', 'hud-usps-zip-county-crosswalk/ZIP_COUNTY_032023.csv.gz'),
      ]) await geo.conn.run(sql);
    })();
    loaded.set(geo, p);
  }
  return p;
}

/** The n most populous Census places (Gazetteer 2025 x ACS 2023) of the 50 states and DC. */
export async function largestPlaces(geo: RawGeo, n: number): Promise<CensusPlace[]> {
  await crosswalks(geo);
  return geo.rows<CensusPlace>(`select g.GEOID as geoid, g.USPS as state, g.NAME as name, a.B01003_001E::double as pop, g.ALAND_SQMI::double as land
    from raw_places g join raw_place_acs a on a.geoid = g.GEOID
    where g.USPS <> 'PR' order by a.B01003_001E::bigint desc limit ${n}`);
}

/** The Census place of the state named the city (geo.md "Which name"): one whose Gazetteer name without its legal
 *  descriptor (the trailing lower-case words or "CDP") is the city's name, else one whose name holds the city's name as
 *  whole words; the most populous of either. (Richmond, MO is "Richmond city", not the larger "Richmond Heights city".) */
export async function censusPlace(geo: RawGeo, state: string, city: string): Promise<CensusPlace | null> {
  await crosswalks(geo);
  const places = await geo.rows<CensusPlace>(`select g.GEOID as geoid, g.USPS as state, g.NAME as name, g.ALAND_SQMI::double as land,
      try_cast(a.B01003_001E as double) as pop
    from raw_places g left join raw_place_acs a on a.geoid = g.GEOID
    where g.USPS = '${state.replace(/[^A-Z]/g, '')}'`);
  const key = `-${nameKey(city)}-`;
  const plain = (name: string): string => `-${nameKey(name.replace(/(\s+(CDP|[a-z][^A-Z]*))+$/, ''))}-`;
  const named = places.filter((p) => p.pop !== null && `-${nameKey(p.name)}-`.includes(key)).sort((a, b) => b.pop! - a.pop!);
  return named.find((p) => plain(p.name) === key) ?? named[0] ?? null;
}

/** geo.md "Primary county": the place's estimated people (else land) in each candidate county; one candidate: it. */
export async function primaryCounty(geo: RawGeo, p: CensusPlace): Promise<string> {
  await crosswalks(geo);
  const listed = (await geo.rows<{ c: string }>(`select "County GEOID" as c from raw_place_counties where "Place GEOID" = '${p.geoid}'`))
    .map((r) => r.c).filter((c) => geo.counties.has(c));
  const pieces = await geo.rows<{ z: string; pland: number; zland: number; zpop: number | null }>(`
    with zp as (select ZCTA5 as z, "Land Area"::double as pland from raw_zcta_places where "Place GEOID" = '${p.geoid}' and "Land Area"::double > 0),
         zz as (select ZCTA5 as z, "Land Area"::double as zland, try_cast(Population as bigint) as upop from raw_zctas),
         za as (select geoid as z, try_cast(B01003_001E as bigint) as apop from raw_zcta_acs)
    select zp.z, zp.pland, zz.zland, coalesce(za.apop, zz.upop)::double as zpop from zp join zz using (z) left join za using (z) where zz.zland > 0`);
  const inZ = `(${pieces.map((r) => `'${r.z}'`).join(', ') || "''"})`;
  // the ZIP's residential addresses per county (HUD) and the ZCTA's land per county (2020 relationship file)
  const res = await geo.rows<{ z: string; c: string; w: number }>(`select ZIP as z, COUNTY as c, RES_RATIO::double as w from raw_hud
    where ZIP in ${inZ} and RES_RATIO::double > 0`);
  const lands = await geo.rows<{ z: string; c: string; w: number }>(`select ZCTA5 as z, "County GEOID" as c, "Land Area"::double as w
    from raw_zcta_counties where ZCTA5 in ${inZ} and "Land Area"::double > 0`);
  const candidates = listed.length ? listed : [...new Set(lands.map((r) => r.c))].filter((c) => geo.counties.has(c));
  if (candidates.length === 1) return candidates[0]!;
  /** each piece's amount split among the candidate counties by the weights of its ZCTA */
  const split = (weights: { z: string; c: string; w: number }[], amount: (r: (typeof pieces)[number]) => number | null): Map<string, number> => {
    const out = new Map<string, number>();
    for (const piece of pieces) {
      const v = amount(piece);
      const ws = weights.filter((w) => w.z === piece.z && candidates.includes(w.c));
      const total = ws.reduce((a, w) => a + w.w, 0);
      if (v === null || total === 0) continue;
      for (const w of ws) out.set(w.c, (out.get(w.c) ?? 0) + v * w.w / total);
    }
    return out;
  };
  const people = split(res, (r) => (r.zpop === null ? null : r.zpop * r.pland / r.zland));
  const land = split(lands, (r) => r.pland);
  const best = (m: Map<string, number>): string | null =>
    [...m.entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]))[0]?.[0] ?? null;
  return best(people) ?? best(land) ?? '';
}

/** ZCTAs 10% inside the place (or holding 10% of it), geo.md "int_geo_place_zips". */
async function ownZctas(geo: RawGeo, p: { geoid: string; land: number }): Promise<string[]> {
  const rows = await geo.rows<{ z: string }>(`
    select zp.ZCTA5 as z from raw_zcta_places zp join raw_zctas zz using (ZCTA5)
    where zp."Place GEOID" = '${p.geoid}' and zp."Land Area"::double > 0
      and (zp."Land Area"::double >= 0.1 * zz."Land Area"::double or zp."Land Area"::double >= 0.1 * ${p.land})`);
  return rows.map((r) => r.z);
}

/** The nonfunctioning places (Gazetteer FUNCSTAT N) merged into a consolidated city-county's balance (NAME
 *  "... (balance)", FUNCSTAT F): those of its state whose primary county is the balance's. None for another place. */
export async function mergedPlaces(geo: RawGeo, p: CensusPlace): Promise<CensusPlace[]> {
  await crosswalks(geo);
  const [own] = await geo.rows<{ f: string }>(`select FUNCSTAT as f from raw_places where GEOID = '${p.geoid}'`);
  if (own?.f !== 'F' || !p.name.endsWith('(balance)')) return [];
  const nonfunctioning = await geo.rows<CensusPlace>(`select g.GEOID as geoid, g.USPS as state, g.NAME as name,
      try_cast(a.B01003_001E as double) as pop, g.ALAND_SQMI::double as land
    from raw_places g left join raw_place_acs a on a.geoid = g.GEOID where g.USPS = '${p.state}' and g.FUNCSTAT = 'N'`);
  const county = await primaryCounty(geo, p);
  const out: CensusPlace[] = [];
  for (const n of nonfunctioning) if (await primaryCounty(geo, n) === county) out.push(n);
  return out;
}

/** geo.md "Zip codes": ZCTAs 10% inside the place (or holding 10% of it), and for a consolidated city-county's balance
 *  those of its merged nonfunctioning places too, and the city's non-ZCTA USPS ZIPs (HUD). */
export async function placeZips(geo: RawGeo, p: CensusPlace, cityName: string): Promise<string[]> {
  await crosswalks(geo);
  const zctas = await ownZctas(geo, p);
  for (const n of await mergedPlaces(geo, p)) zctas.push(...await ownZctas(geo, n));
  const hud = await geo.rows<{ z: string; city: string }>(`
    select distinct ZIP as z, USPS_ZIP_PREF_CITY as city from raw_hud
    where USPS_ZIP_PREF_STATE = '${p.state}' and ZIP not in (select ZCTA5 from raw_zctas)`);
  const mail = hud.filter((h) => nameKey(h.city) === nameKey(cityName)).map((h) => h.z);
  return [...new Set([...zctas, ...mail])].sort();
}
