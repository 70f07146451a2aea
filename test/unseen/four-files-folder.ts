// A canonical folder with all four files, written as a stranger would write it (README "Canonical format"), from
// real rows of ../shared/data, a few zips drawn by a seeded draw (scripts/rng.ts):
// - parcels.csv: Philadelphia's OPA roll (single and multi family) of two zips: a BOM, columns in another order, an
//   unknown `market_value` column, a ZIP+4 now and then (read as its 5 digits), a 0 bedrooms (unknown);
// - sales.csv: the same parcels' last sales (2015-2022, the roll's 2068-2071 typos left out as a stranger would),
//   with the address and parcel_id, so parcels and sales meet (every ninth keyed by parcel alone, its place left
//   empty for parcels.csv to give); `$` amounts, a date without its zeros;
// - permits.csv: Nashville's applications of two zips, the type mapped as its SOURCE.md allows (Residential Rehab ->
//   renovation, Roofing / Siding -> repair, Addition, New, Demolition; the rest other), `building_use` from the
//   type's word (Residential / Commercial, empty otherwise), CRLF, an unknown `contractor` column holding quoted
//   commas, `$1,200` costs, a cost of 0 (unknown), a use written `Residential` or `mixed`, a latitude `NA`;
// - distress.csv: Louisville's lien foreclosures (Metro -> lien_foreclosure, Commonwealth -> tax_delinquent), the
//   commissioner sale's date as `closed_date`, the ZIP+4 as the file writes it, every fourth case without its parcel
//   (a property by its address), an `amount` of `$1,200`, `NA`, 0 or empty, one exact copy.
// Each file also gets broken copies of good lines, rejected with their line number, so no figure may move.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { gunzipSync } from 'node:zlib';
import { rng } from '../../scripts/rng.ts';
import { GEOGRAPHY } from '../helpers/canonical-sources.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

export interface BadLine { file: string; line: number; rule: string; column: string }
export interface FourFolder { sources: string; dir: string; phillyZips: string[]; nashvilleZips: string[]; bad: BadLine[]; distressCopyLine: number }

const read = (rel: string): Record<string, string>[] =>
  parse(gunzipSync(fs.readFileSync(path.join(SHARED_DATA, rel))), { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
const field = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const money = (n: number): string => `$${n.toLocaleString('en-US')}`;

/** A CSV file writer: push returns the file line of the row written (the header is line 1). */
function writer(header: string[]): { push: (v: Record<string, string>) => number; text: (eol: string) => string } {
  const lines = [header.join(',')];
  return { push: (v) => lines.push(header.map((h) => field(v[h] ?? '')).join(',')), text: (eol) => lines.join(eol) + eol };
}

function drawZips(draw: () => number, counts: Map<string, number>, lo: number, hi: number, n: number): string[] {
  const pool = [...counts].filter(([z, c]) => c >= lo && c <= hi && /^\d{5}$/.test(z)).map(([z]) => z).sort();
  const zips: string[] = [];
  while (zips.length < n) { const z = pool[Math.floor(draw() * pool.length)]!; if (!zips.includes(z)) zips.push(z); }
  return zips.sort();
}

const PHILLY_TYPE: Record<string, string> = { 'SINGLE FAMILY': 'sfr', 'MULTI FAMILY': 'multi' };

export const PERMIT_TYPE = (t: string): string =>
  /Residential - Rehab$/.test(t) ? 'renovation' : /Roofing \/ Siding$/.test(t) ? 'repair' : /- Addition$/.test(t) ? 'addition'
    : /- New$/.test(t) ? 'new' : /^Building Demolition Permit$/.test(t) ? 'demolition' : /Commercial - Rehab$/.test(t) ? 'renovation' : 'other';
const PERMIT_USE = (t: string): string => (/^Building Residential/.test(t) ? 'residential' : /^Building Commercial/.test(t) ? 'nonresidential' : '');

export function writeFourFilesFolder(dir: string, seed = 77): FourFolder {
  const draw = rng(seed);
  const canon = path.join(dir, 'canonical');
  fs.mkdirSync(canon, { recursive: true });
  const bad: BadLine[] = [];

  // parcels.csv and sales.csv: Philadelphia
  const opa = read('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz').filter((r) => PHILLY_TYPE[r['category_code_description']!]);
  const zipOf = (r: Record<string, string>): string => r['zip_code']!.slice(0, 5);
  const pc = new Map<string, number>();
  for (const r of opa) pc.set(zipOf(r), (pc.get(zipOf(r)) ?? 0) + 1);
  const phillyZips = drawZips(draw, pc, 60, 130, 2);
  const rows = opa.filter((r) => phillyZips.includes(zipOf(r)));
  const parcels = writer(['parcel_id', 'owner_name', 'address', 'zip', 'city', 'state', 'market_value', 'property_type', 'sqft', 'beds', 'baths', 'year_built', 'lat', 'lng']);
  const sales = writer(['sale_date', 'sale_price', 'parcel_id', 'property_type', 'address', 'city', 'state', 'zip', 'sqft', 'beds', 'baths', 'year_built', 'condition', 'lat', 'lng']);
  let k = 0;
  for (const r of rows) {
    k++;
    const num = (c: string): string => (r[c] ? String(Number(r[c])) : '');
    const address = r['unit']?.trim() ? `${r['location']!.trim()} APT ${r['unit'].trim()}` : r['location']!.trim();
    const p: Record<string, string> = {
      parcel_id: r['parcel_number']!, owner_name: [r['owner_1'], r['owner_2']].map((s) => (s ?? '').trim()).filter(Boolean).join(' '),
      address, zip: k % 13 === 0 && r['zip_code']!.length === 5 ? `${r['zip_code']}-1234` : zipOf(r), city: 'PHILADELPHIA', state: 'PA',
      market_value: r['market_value'] ? money(Number(r['market_value'])) : '', property_type: PHILLY_TYPE[r['category_code_description']!]!,
      sqft: num('total_livable_area'), beds: num('number_of_bedrooms'), baths: num('number_of_bathrooms'), year_built: r['year_built']!.trim(),
      lat: r['lat']!, lng: r['lng']!,
    };
    parcels.push(p);
    if (k === 9) bad.push({ file: 'parcels.csv', line: parcels.push({ ...p, address: `${p['address']} REAR` }), rule: 'duplicate_parcel', column: 'parcel_id' });
    if (k === 21) bad.push({ file: 'parcels.csv', line: parcels.push({ ...p, parcel_id: `${p['parcel_id']}X`, property_type: 'Row Home' }), rule: 'not_in_list', column: 'property_type' });
    const date = r['sale_date']!.slice(0, 10), price = Number(r['sale_price']);
    if (!(date >= '2015-01-01' && date <= '2022-12-31') || !Number.isFinite(price)) continue;
    const [y, m, d] = date.split('-');
    const s: Record<string, string> = {
      sale_date: k % 11 === 0 ? `${y}-${Number(m)}-${Number(d)}` : date, sale_price: k % 7 === 0 ? money(price) : String(price), parcel_id: p['parcel_id']!,
      property_type: k % 5 === 0 ? p['property_type']!.toUpperCase() : p['property_type']!, address, city: 'PHILADELPHIA', state: 'PA', zip: zipOf(r),
      sqft: p['sqft']!, beds: p['beds']!, baths: p['baths']!, year_built: p['year_built']!, condition: '', lat: p['lat']!, lng: p['lng']!,
    };
    // a deed keyed by parcel now and then (README "A deed file keyed by parcel"): no place, the parcel's line gives it
    sales.push(k % 9 === 0 ? { ...s, address: '', city: '', state: '', zip: '' } : s);
    if (k === 45) bad.push({ file: 'sales.csv', line: sales.push({ ...s, parcel_id: '999999999', address: '', city: '', state: '', zip: '' }), rule: 'unknown_parcel', column: 'parcel_id' });
    if (k === 15) bad.push({ file: 'sales.csv', line: sales.push({ ...s, sale_price: '-5000' }), rule: 'out_of_range', column: 'sale_price' });
    if (k === 33) bad.push({ file: 'sales.csv', line: sales.push({ ...s, sale_date: '2022-02-30' }), rule: 'not_a_date', column: 'sale_date' });
  }
  fs.writeFileSync(path.join(canon, 'parcels.csv'), '\uFEFF' + parcels.text('\n'));
  fs.writeFileSync(path.join(canon, 'sales.csv'), sales.text('\n'));

  // permits.csv: Nashville
  const nash = read('nashville-building-permit-applications/building_permits.csv.gz');
  const nc = new Map<string, number>();
  for (const r of nash) nc.set(r['ZIP']!, (nc.get(r['ZIP']!) ?? 0) + 1);
  const nashvilleZips = drawZips(draw, nc, 100, 260, 2);
  const permits = writer(['permit_id', 'issue_date', 'address', 'zip', 'permit_type', 'building_use', 'valuation', 'contractor', 'lat', 'lng']);
  k = 0;
  for (const r of nash) {
    if (!nashvilleZips.includes(r['ZIP']!)) continue;
    k++;
    const cost = Number(r['Const_Cost']);
    const v: Record<string, string> = {
      permit_id: r['Permit__']!, issue_date: new Date(Number(r['Date_Entered'])).toISOString().slice(0, 10), address: r['Address']!.trim(), zip: r['ZIP']!,
      permit_type: PERMIT_TYPE(r['Permit_Type_Description']!), building_use: PERMIT_USE(r['Permit_Type_Description']!),
      valuation: k % 6 === 0 && cost >= 1000 ? money(cost) : String(cost), contractor: r['Contact']!, lat: r['Lat']!, lng: r['Lon']!,
    };
    // a use in capitals (read lower-cased), a use of no list (nulled: unknown), a point written NA (nulled)
    if (k % 10 === 0 && v['building_use']) v['building_use'] = v['building_use'][0]!.toUpperCase() + v['building_use'].slice(1);
    if (k % 10 === 1) v['building_use'] = 'mixed';
    if (k % 10 === 2) v['lat'] = 'NA';
    permits.push(v);
    if (k === 12) bad.push({ file: 'permits.csv', line: permits.push({ ...v, issue_date: 'NA' }), rule: 'not_a_date', column: 'issue_date' });
    if (k === 40) bad.push({ file: 'permits.csv', line: permits.push({ ...v, permit_type: 'Roofing' }), rule: 'not_in_list', column: 'permit_type' });
  }
  fs.writeFileSync(path.join(canon, 'permits.csv'), permits.text('\r\n'));

  // distress.csv: Louisville
  const lou = read('louisville-metro-lien-foreclosures/foreclosures.csv.gz');
  const distress = writer(['filing_date', 'kind', 'parcel_id', 'address', 'city', 'state', 'zip', 'amount', 'closed_date', 'case_style']);
  let distressCopyLine = 0;
  k = 0;
  for (const r of lou) {
    k++;
    const style = r['Civil Case Style']!;
    // by the case number, so that the file's own repeated lines stay exact copies: every fourth case names no parcel
    // (a property by its address), and the amount is written in the forms the README reads or nulls
    const c = Number(r['Civil Case Number']!.replace(/\D/g, '')) % 20;
    const v: Record<string, string> = {
      filing_date: r['Date Action Filed']!, kind: /^Metro/i.test(style) ? 'lien_foreclosure' : 'tax_delinquent', parcel_id: r['PRCLID'] === 'NA' || c % 4 === 0 ? '' : r['PRCLID']!,
      amount: ['$1,200', 'NA', '0', '2500', ''][c % 5]!,
      address: r['full_address']!.split(',')[0]!.trim(), city: 'Louisville', state: 'KY', zip: r['ZIP']!, closed_date: r['Sale Date'] === 'NA' ? '' : r['Sale Date']!,
      case_style: style,
    };
    distress.push(v);
    if (k === 5) bad.push({ file: 'distress.csv', line: distress.push({ ...v, filing_date: '6/3/2016' }), rule: 'not_a_date', column: 'filing_date' });
    if (k === 50) bad.push({ file: 'distress.csv', line: distress.push({ ...v, kind: 'foreclosure' }), rule: 'not_in_list', column: 'kind' });
    if (k === 77) distressCopyLine = distress.push(v);
  }
  fs.writeFileSync(path.join(canon, 'distress.csv'), distress.text('\r\n'));

  for (const g of [...GEOGRAPHY, 'zcta-boundaries-2010', 'epa-superfund-sems', 'fema-nfhl-flood-zones', 'fema-nri']) fs.symlinkSync(path.join(SHARED_DATA, g), path.join(dir, g));
  return { sources: dir, dir: canon, phillyZips, nashvilleZips, bad, distressCopyLine };
}
