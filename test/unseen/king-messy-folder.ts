// A canonical sources folder written as a stranger would write it (README "Canonical format"): King County's raw house
// sales (../shared/data, kc_house_data.csv.gz) of a few zips drawn by a seeded draw (scripts/rng.ts), in the county's
// own words rather than scripts/canonical-sales.ts's: a UTF-8 BOM, CRLF line ends, the columns in another order, two
// columns the format does not know (`waterfront`, `notes`, the notes holding quoted commas), the optional buyer,
// seller, list and deed columns absent, a few values in a form the README reads with a repair (`$450,000`, a date
// without its zeros, `wa`, `SFR`), and bad lines the README says are rejected with their line number: a date that is
// no date, a negative price, an empty required value, a type of no list. Each bad line is a broken copy of a good
// sale of the file, so the good sale is still there and no figure may move. One sale is also written twice (an exact
// copy: a duplicate, kept and flagged, never priced twice).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { gunzipSync } from 'node:zlib';
import { rng } from '../../scripts/rng.ts';
import { GEOGRAPHY } from '../helpers/canonical-sources.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

export const HEADER = ['sale_price', 'sale_date', 'zip', 'city', 'state', 'address', 'parcel_id', 'property_type', 'sqft', 'beds', 'baths',
  'year_built', 'lat', 'lng', 'condition', 'waterfront', 'quality_grade', 'lot_sqft', 'notes'] as const;

/** The bad lines written, by file line (the header is line 1), with the rule the README gives them. */
export interface BadLine { line: number; rule: string; column: string }
export interface MessyFolder { sources: string; file: string; zips: string[]; bad: BadLine[]; duplicateLine: number; rows: number }

const read = (rel: string): Record<string, string>[] =>
  parse(gunzipSync(fs.readFileSync(path.join(SHARED_DATA, rel))), { columns: true, skip_empty_lines: true }) as Record<string, string>[];

const CONDITION: Record<string, string> = { '1': 'poor', '2': 'fair', '3': 'average', '4': 'good', '5': 'excellent' };
const field = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Writes DIR/canonical/sales.csv (+ the geography links) from `zipCount` King County zips drawn with `seed`. */
export function writeKingMessyFolder(dir: string, seed = 75, zipCount = 3): MessyFolder {
  const raw = read('king-county-wa-house-sales/kc_house_data.csv.gz');
  const cities = new Map(read('us-zip-reference/zip_reference.csv.gz').map((r) => [r['zip_code']!, r['city']!]));
  // the smaller zips only (under 250 sales), so that the folder builds in seconds
  const counts = new Map<string, number>();
  for (const r of raw) counts.set(r['zipcode']!, (counts.get(r['zipcode']!) ?? 0) + 1);
  const pool = [...counts].filter(([z, n]) => n < 250 && cities.has(z)).map(([z]) => z).sort();
  const draw = rng(seed);
  const zips: string[] = [];
  while (zips.length < zipCount) { const z = pool[Math.floor(draw() * pool.length)]!; if (!zips.includes(z)) zips.push(z); }
  const lines: string[] = [HEADER.join(',')];
  const bad: BadLine[] = [];
  let duplicateLine = 0;
  const push = (v: Record<string, string>): number => lines.push(HEADER.map((h) => field(v[h] ?? '')).join(','));
  let k = 0;
  for (const r of raw) {
    if (!zips.includes(r['zipcode']!)) continue;
    const d = /^(\d{4})(\d{2})(\d{2})T/.exec(r['date']!)!;
    const v: Record<string, string> = {
      sale_price: String(Number(r['price'])), sale_date: `${d[1]}-${d[2]}-${d[3]}`, zip: r['zipcode']!, city: cities.get(r['zipcode']!)!.toUpperCase(),
      state: 'WA', address: `${r['id']} PARCEL`, parcel_id: r['id']!, property_type: 'sfr', sqft: r['sqft_living']!, beds: r['bedrooms']!,
      baths: r['bathrooms']!, year_built: r['yr_built']!, lat: r['lat']!, lng: r['long']!, condition: CONDITION[r['condition']!] ?? '',
      waterfront: r['waterfront'] === '1' ? 'Y' : 'N', quality_grade: r['grade']!, lot_sqft: r['sqft_lot']!,
      notes: r['yr_renovated'] !== '0' ? `renovated ${r['yr_renovated']}, "per assessor"` : '',
    };
    k++;
    // values in a form the README reads with a repair, the sale kept
    if (k % 17 === 0) v['sale_price'] = `$${Number(v['sale_price']).toLocaleString('en-US')}`;
    if (k % 19 === 0) v['sale_date'] = `${d[1]}-${Number(d[2])}-${Number(d[3])}`;
    if (k % 23 === 0) v['state'] = 'wa';
    if (k % 29 === 0) v['property_type'] = 'SFR';
    push(v);
    // broken copies of this sale (each rejected), and one exact copy (a duplicate)
    const broken = (column: string, value: string, rule: string): void => { bad.push({ line: push({ ...v, [column]: value }), rule, column }); };
    if (k === 11) broken('sale_date', '2014-13-45', 'not_a_date');
    if (k === 31) broken('sale_price', '-5000', 'out_of_range');
    // an empty zip beside a parcel_id reads as a deed keyed by parcel (README): with no parcels.csv, unknown_parcel
    if (k === 53) bad.push({ line: push({ ...v, zip: '' }), rule: 'unknown_parcel', column: 'parcel_id' });
    if (k === 71) broken('property_type', 'Single Family', 'not_in_list');
    if (k === 97) duplicateLine = push(v);
  }
  fs.mkdirSync(path.join(dir, 'canonical'), { recursive: true });
  const file = path.join(dir, 'canonical', 'sales.csv');
  fs.writeFileSync(file, '\uFEFF' + lines.join('\r\n') + '\r\n');
  for (const g of [...GEOGRAPHY, 'zcta-boundaries-2010', 'epa-superfund-sems', 'fema-nfhl-flood-zones', 'fema-nri']) fs.symlinkSync(path.join(SHARED_DATA, g), path.join(dir, g));
  return { sources: dir, file, zips, bad, duplicateLine, rows: lines.length - 1 };
}
