// The market tier of a city or town of the sales files (investor overview `market_tier`, the geo lookup's), read from
// the RAW files with csv-parse and plain splitting, no warehouse table (geo.md "Market tier rule"; market.md
// mart_investor `market_tier`: a city takes the tier of its county's CBSA, by the CBSA's ACS 2023 population, the sum
// of its counties: primary from 1,000,000, secondary from 250,000, tertiary any smaller CBSA, rural in none).
// The county of a city, independently of the build's place and zip rules: the county most of its raw sales lie in,
// each sale's county that of the zip it records (the ZIP reference's county, matched by name to the 2025 Gazetteer's
// county list: Connecticut's planning regions), a Connecticut sale without a zip that of the ZIP reference point
// nearest its `Location`; a city with neither, the county of most ZIP reference zips named after it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { rawRows } from '../../scripts/raw-lines.ts';
import { SHARED_DATA } from './paths.ts';

export type SalesSource = 'king_county' | 'sacramento' | 'connecticut' | 'philadelphia' | 'denver' | 'nyc';
export interface TownRecord { source: SalesSource; state: string; city: string; zip: string | null; lat: number | null; lng: number | null }
export interface TownTier { tier: string; county: string | null; cbsa: string | null; population: number | null }

const gz = (rel: string): string => { const b = fs.readFileSync(path.join(SHARED_DATA, rel)); return (rel.endsWith('.gz') ? zlib.gunzipSync(b) : b).toString('utf8'); };
const title = (s: string): string => s.trim().toLowerCase().replace(/(^|[\s-])\S/g, (c) => c.toUpperCase());
const CT_FILES = ['connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz', 'connecticut-real-estate-sales/real_estate_sales_2022-01_2022-09_listyear2021.csv.gz'];

interface ZipRef { zip: string; state: string; county: string; city: string; lat: number; lng: number }
let zipRefs: ZipRef[] | null = null;
function zipReference(): ZipRef[] {
  return zipRefs ??= rawRows(SHARED_DATA, 'us-zip-reference/zip_reference.csv.gz').filter((r) => r['zip_code'])
    .map((r) => ({ zip: r['zip_code']!, state: r['state']!, county: (r['county'] ?? '').trim(), city: (r['city'] ?? '').trim(), lat: Number(r['lat']), lng: Number(r['lng']) }));
}

/** Every sale of the six sales sources as (source, state, city, zip, point): the city as the source names it
 *  (King County's by the ZIP reference's city of its zip, the file naming none; NYC's its borough). */
export function townRecords(): TownRecord[] {
  const out: TownRecord[] = [];
  const cityOfZip = new Map(zipReference().filter((z) => z.state === 'WA').map((z) => [z.zip, z.city]));
  for (const r of rawRows(SHARED_DATA, 'king-county-wa-house-sales/kc_house_data.csv.gz')) if (r['zipcode']) out.push({ source: 'king_county', state: 'WA', city: cityOfZip.get(r['zipcode']) ?? '', zip: r['zipcode'], lat: null, lng: null });
  // a Sacramento row of type "Unkown" is no sale of the market (market.md "Sources": its types are Residential, Condo,
  // Multi-Family): Shingle Springs' one row is such, and the build names no city market after it
  for (const r of rawRows(SHARED_DATA, 'sacramento-real-estate-transactions/sacramento_transactions.csv.gz')) if (r['city'] && ['Residential', 'Condo', 'Multi-Family'].includes(r['type'] ?? '')) out.push({ source: 'sacramento', state: 'CA', city: title(r['city']), zip: r['zip']!.trim(), lat: null, lng: null });
  for (const f of CT_FILES) for (const r of rawRows(SHARED_DATA, f)) {
    if (!r['Town']?.trim()) continue;
    const m = /POINT \((-?[\d.]+) (-?[\d.]+)\)/.exec(r['Location'] ?? '');
    out.push({ source: 'connecticut', state: 'CT', city: r['Town'].trim(), zip: null, lat: m ? Number(m[2]) : null, lng: m ? Number(m[1]) : null });
  }
  for (const r of rawRows(SHARED_DATA, 'philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')) if (r['zip_code']) out.push({ source: 'philadelphia', state: 'PA', city: 'Philadelphia', zip: r['zip_code'].slice(0, 5), lat: null, lng: null });
  out.push({ source: 'denver', state: 'CO', city: 'Denver', zip: null, lat: null, lng: null });
  const boroughs: Record<string, string> = { '1': 'Manhattan', '2': 'Bronx', '3': 'Brooklyn', '4': 'Queens', '5': 'Staten Island' };
  for (const f of ['nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz', 'nyc-rolling-sales/nyc_rolling_sales_2023-03_2024-02.csv.gz'])
    for (const r of rawRows(SHARED_DATA, f)) { const b = boroughs[(r['BOROUGH'] ?? '').trim()]; const z = (r['ZIP CODE'] ?? '').trim(); if (b) out.push({ source: 'nyc', state: 'NY', city: b, zip: /^\d{5}$/.test(z) && z !== '00000' ? z : null, lat: null, lng: null }); }
  return out;
}

let counties: Map<string, string> | null = null; // `ST|name without its kind` -> GEOID (Gazetteer 2025)
function countyOfName(state: string, name: string): string | null {
  counties ??= new Map(gz('census-gazetteer-2025/2025_Gaz_counties_national.txt.gz').split('\n').slice(1).filter(Boolean).map((l) => {
    const c = l.split('|');
    return [`${c[0]}|${c[4]!.replace(/ (County|Planning Region|Parish|Borough|Census Area|Municipality|city)$/, '').toLowerCase()}`, c[1]!] as [string, string];
  }));
  return counties.get(`${state}|${name.toLowerCase()}`) ?? null;
}

/** The county of one sale: its zip's, else the nearest ZIP reference point's (same state). */
function recordCounty(r: TownRecord, byZip: Map<string, ZipRef>, refs: ZipRef[]): string | null {
  const z = r.zip ? byZip.get(r.zip) : undefined;
  if (z) return countyOfName(z.state, z.county);
  if (r.lat === null || r.lng === null) return null;
  let best: ZipRef | null = null, bestD = Infinity;
  for (const c of refs) { const d = (c.lat - r.lat) ** 2 + ((c.lng - r.lng) * Math.cos((r.lat * Math.PI) / 180)) ** 2; if (d < bestD) { bestD = d; best = c; } }
  return best ? countyOfName(best.state, best.county) : null;
}

const majority = (xs: (string | null)[]): string | null => {
  const n = new Map<string, number>();
  for (const x of xs) if (x) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
};

/** The county of each (state, city) of `records` by the rule above. */
export function townCounties(records: TownRecord[]): Map<string, string | null> {
  const refs = zipReference(), byZip = new Map(refs.map((z) => [z.zip, z]));
  const refsOf = new Map<string, ZipRef[]>();
  for (const z of refs) refsOf.set(z.state, [...(refsOf.get(z.state) ?? []), z]);
  const groups = new Map<string, TownRecord[]>();
  for (const r of records) groups.set(`${r.state}|${r.city}`, [...(groups.get(`${r.state}|${r.city}`) ?? []), r]);
  const out = new Map<string, string | null>();
  for (const [k, rs] of groups) {
    const [state, city] = k.split('|') as [string, string];
    const pts = rs.filter((r) => r.zip || r.lat !== null);
    out.set(k, majority(pts.map((r) => recordCounty(r, byZip, refsOf.get(state) ?? [])))
      ?? majority(refs.filter((z) => z.state === state && z.city.toLowerCase() === city.toLowerCase()).map((z) => countyOfName(z.state, z.county))));
  }
  return out;
}

/** The tier of the county `fips` by its CBSA's ACS 2023 population (the 2023 delineation list's counties summed). */
export function tierOfCounty(fips: string | null): TownTier {
  const d = rawRows(SHARED_DATA, 'census-cbsa-delineation-2023/list1_Jul_2023.csv').filter((r) => r['FIPS County Code'])
    .map((r) => ({ cbsa: r['CBSA Code']!, fips: r['FIPS State Code']!.padStart(2, '0') + r['FIPS County Code']!.padStart(3, '0') }));
  const pop = new Map(rawRows(SHARED_DATA, 'census-acs2023-population/acs5_2023_county_population.csv').map((r) => [r['geoid']!.padStart(5, '0'), Number(r['B01003_001E'])]));
  const cbsa = fips ? d.find((x) => x.fips === fips)?.cbsa ?? null : null;
  const population = cbsa ? d.filter((x) => x.cbsa === cbsa).reduce((s, x) => s + (pop.get(x.fips) ?? 0), 0) : null;
  const tier = population === null ? 'rural' : population >= 1_000_000 ? 'primary' : population >= 250_000 ? 'secondary' : 'tertiary';
  return { tier, county: fips, cbsa, population };
}
