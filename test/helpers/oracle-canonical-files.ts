// An oracle over a canonical folder's parcels.csv, permits.csv and distress.csv as their writer wrote them (README
// "Canonical format"), independent of the build: each file parsed with csv-parse (BOM, CRLF, quoted commas, columns in
// any order), each line read or rejected by the README's rules written again here, then the documented market rules
// (warehouse/docs/market.md): "Residential rehab" (a rehab type on a residential building, or of unknown use at a
// declared cost of $500,000 or less), mart_rehab "Window" (the months to the last permit of the source, any zip),
// mart_investor's distressed pipeline (distinct properties, parcel id else address and zip, with an open filing filed
// in the months to the source's last filing; a case closed on or before that day is not open).
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { minusMonths, type ParcelPlaces } from './oracle-canonical-sales.ts';

type Row = { line: number; v: (c: string) => string };

function rowsOf(file: string): Row[] {
  const records = parse(fs.readFileSync(file), { bom: true, columns: true, info: true, skip_empty_lines: true }) as { record: Record<string, string>; info: { lines: number } }[];
  return records.map(({ record, info }) => ({ line: info.lines, v: (c: string) => (record[c] ?? '').trim() }));
}

/** A date as the README reads it (zeros optional), or null. */
export function readDate(s: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** A plain number, or one with a dollar sign and thousands separators in groups of three; else null. */
export function readNumber(s: string): number | null {
  const t = s.replace(/^\$/, '');
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return Number(t.replaceAll(',', ''));
  return null;
}

const zip5 = (s: string): string | null => /^(\d{5})(-\d{4})?$/.exec(s)?.[1] ?? null;
const positive = (s: string): number | null => { const n = readNumber(s); return n != null && n > 0 ? n : null; };

export interface OracleReject { file: string; line: number; column: string }

export interface OracleParcel { line: number; parcel: string; address: string; city: string; state: string; zip: string; type: string; beds: number | null; baths: number | null;
  sqft: number | null; yearBuilt: number | null; owner: string }

/** parcels.csv: a required place or type empty or bad rejects; a parcel_id seen on an earlier line is `duplicate_parcel`. */
export function readCanonicalParcels(file: string): { parcels: OracleParcel[]; rejects: OracleReject[] } {
  const parcels: OracleParcel[] = [], rejects: OracleReject[] = [];
  const seen = new Set<string>();
  for (const { line, v } of rowsOf(file)) {
    const type = v('property_type').toLowerCase();
    const bad = ['address', 'city', 'state', 'zip', 'property_type'].find((c) => v(c) === '')
      ?? (zip5(v('zip')) == null ? 'zip' : !['sfr', 'multi', 'condo', 'land', 'commercial'].includes(type) ? 'property_type' : seen.has(v('parcel_id')) ? 'parcel_id' : null);
    if (bad) { rejects.push({ file: 'parcels.csv', line, column: bad }); continue; }
    if (v('parcel_id')) seen.add(v('parcel_id'));
    const year = readNumber(v('year_built'));
    parcels.push({ line, parcel: v('parcel_id'), address: v('address'), city: v('city'), state: v('state'), zip: zip5(v('zip'))!, type, beds: positive(v('beds')), baths: positive(v('baths')),
      sqft: positive(v('sqft')), yearBuilt: year != null && year >= 1700 ? year : null, owner: v('owner_name') });
  }
  return { parcels, rejects };
}

/** The place of each parcel_id as its (first, kept) parcels.csv line writes it, for the sales keyed by parcel. */
export function parcelPlaces(parcels: OracleParcel[]): ParcelPlaces {
  const places: ParcelPlaces = new Map();
  for (const p of parcels) if (p.parcel && !places.has(p.parcel)) places.set(p.parcel, { address: p.address, city: p.city, state: p.state, zip: p.zip });
  return places;
}

export interface OraclePermit { line: number; zip: string; date: string; type: string; use: string | null; valuation: number | null }

/** permits.csv: an empty or bad required value (address, zip, issue_date, permit_type) rejects the line. */
export function readCanonicalPermits(file: string): { permits: OraclePermit[]; rejects: OracleReject[] } {
  const permits: OraclePermit[] = [], rejects: OracleReject[] = [];
  for (const { line, v } of rowsOf(file)) {
    const date = readDate(v('issue_date')), type = v('permit_type').toLowerCase();
    const bad = ['address', 'zip', 'issue_date', 'permit_type'].find((c) => v(c) === '')
      ?? (zip5(v('zip')) == null ? 'zip' : date == null ? 'issue_date' : !['renovation', 'addition', 'repair', 'new', 'demolition', 'other'].includes(type) ? 'permit_type' : null);
    if (bad) { rejects.push({ file: 'permits.csv', line, column: bad }); continue; }
    const use = v('building_use').toLowerCase();
    permits.push({ line, zip: zip5(v('zip'))!, date: date!, type, use: ['residential', 'nonresidential'].includes(use) ? use : null, valuation: positive(v('valuation')) });
  }
  return { permits, rejects };
}

/** market.md "Residential rehab": a rehab type on a residential building, or of unknown use declaring $500,000 or less. */
export const isResidentialRehab = (p: OraclePermit): boolean =>
  ['renovation', 'addition', 'repair'].includes(p.type) && (p.use === 'residential' || (p.use == null && (p.valuation == null || p.valuation <= 500_000)));

/** The rehab score's permit counts of a zip over `months` to the source's last permit (any zip). */
export function rehabPermitsOf(permits: OraclePermit[], zip: string, months: number): { asOf: string; start: string; rehab: number; all: number; nonresidential: number } {
  const asOf = permits.map((p) => p.date).sort().at(-1)!;
  const start = minusMonths(asOf, months);
  const inWindow = permits.filter((p) => p.zip === zip && p.date > start && p.date <= asOf);
  const rehabType = inWindow.filter((p) => ['renovation', 'addition', 'repair'].includes(p.type));
  return { asOf, start, rehab: inWindow.filter(isResidentialRehab).length, all: inWindow.length, nonresidential: rehabType.filter((p) => !isResidentialRehab(p)).length };
}

export interface OracleFiling { line: number; property: string; city: string; zip: string; kind: string; filed: string; closed: string | null; amount: number | null }

/** distress.csv: an empty or bad required value rejects; an exact copy of an earlier line is `duplicate_filing`; an
 *  `amount` that is no number (`NA`) or 0 is unknown. */
export function readCanonicalDistress(file: string): { filings: OracleFiling[]; rejects: OracleReject[]; copies: number[] } {
  const filings: OracleFiling[] = [], rejects: OracleReject[] = [], copies: number[] = [];
  const raw = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstOf = new Map<string, number>();
  for (const { line, v } of rowsOf(file)) {
    const text = raw[line - 1]!;
    const filed = readDate(v('filing_date')), kind = v('kind').toLowerCase();
    const bad = ['address', 'city', 'state', 'zip', 'kind', 'filing_date'].find((c) => v(c) === '')
      ?? (zip5(v('zip')) == null ? 'zip' : filed == null ? 'filing_date' : !['pre_foreclosure', 'tax_delinquent', 'lien_foreclosure'].includes(kind) ? 'kind' : null);
    if (bad) { rejects.push({ file: 'distress.csv', line, column: bad }); continue; }
    if (firstOf.has(text)) { copies.push(line); continue; }
    firstOf.set(text, line);
    const closed = readDate(v('closed_date'));
    filings.push({ line, property: v('parcel_id') || `${v('address').toUpperCase()}|${zip5(v('zip'))}`, city: v('city'), zip: zip5(v('zip'))!, kind, filed: filed!,
      closed: closed != null && closed >= filed! ? closed : null, amount: positive(v('amount')) });
  }
  return { filings, rejects, copies };
}

/** The distressed pipeline of a city: distinct properties with a filing filed in (as_of - months, as_of] still open at
 *  as_of, as_of the source's last filing. */
export function distressedOf(filings: OracleFiling[], city: string, months: number): { asOf: string; count: number; filed: number } {
  const asOf = filings.map((f) => f.filed).sort().at(-1)!;
  const start = minusMonths(asOf, months);
  const inWindow = filings.filter((f) => f.city.toUpperCase() === city.toUpperCase() && f.filed > start && f.filed <= asOf);
  const open = inWindow.filter((f) => f.closed == null || f.closed > asOf);
  return { asOf, count: new Set(open.map((f) => f.property)).size, filed: inWindow.length };
}
