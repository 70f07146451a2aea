// An oracle over a canonical sales.csv as its writer wrote it (README "Canonical format"), independent of the build:
// the file parsed with csv-parse (BOM, CRLF, quoted commas, columns in any order), each row read or rejected by the
// README's rules written again here (a required value empty, a date that is no date, a price that is no number or
// negative, a type of no list; `$295,000`, `2023-9-5`, `SFR`, `wa` read with a repair), then the documented market
// rules (warehouse/docs/market.md): arm's-length = not nominal (under $10,000) and not a second copy of the same sale
// (property, date, price; or a near copy: the same facts within 0.5%); comps = arm's-length sales of the type with a living area in the window
// (sale_date > window_end - months, window_end the zip's latest arm's-length sale of any type), price per sqft by
// quantile_cont, null below the minimum cohort of 5; a trends month's count and median price the same way
// (the median null in a month the file covers in part).
// The sales files this oracle serves name no buyer (so the buyer-based rules, related parties, portfolio deeds by
// buyer, same-day chains, cannot apply: the oracle refuses a file with buyer or document columns).
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';

export const PROPERTY_TYPES = ['sfr', 'multi', 'condo', 'land', 'commercial'];
const REQUIRED = ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type'] as const;
const PLACE = ['address', 'city', 'state', 'zip'] as const;

export interface OracleSale { line: number; parcel: string; address: string; city: string; state: string; zip: string; date: string;
  price: number; type: string; sqft: number | null; armsLength: boolean; facts: string }
export interface OracleReject { line: number; column: string; value: string }

/** A date as the README reads it (zeros optional), or null. */
function readDate(s: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** A plain number, or one with a dollar sign and thousands separators in groups of three; else null. */
function readNumber(s: string): number | null {
  const t = s.replace(/^\$/, '');
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return Number(t.replaceAll(',', ''));
  return null;
}

/** A parcel's place as `parcels.csv` writes it (its first line), for the sales keyed by parcel (README "A deed file keyed by parcel"). */
export type ParcelPlaces = Map<string, { address: string; city: string; state: string; zip: string }>;

/** `places`: where the folder has a parcels.csv, a sale leaving address, city, state or zip empty takes each from its
 *  parcel's line, and one whose parcel_id no line lists is rejected (`unknown_parcel`, column parcel_id). */
export function readCanonicalSales(file: string, places?: ParcelPlaces): { sales: OracleSale[]; rejects: OracleReject[] } {
  const records = parse(fs.readFileSync(file), { bom: true, columns: true, info: true, skip_empty_lines: true }) as { record: Record<string, string>; info: { lines: number } }[];
  const cols = Object.keys(records[0]?.record ?? {});
  if (cols.some((c) => ['buyer_name', 'seller_name', 'document_id', 'deed_type', 'recorded_date'].includes(c))) throw new Error('this oracle reads sales files without parties or deeds only');
  const sales: OracleSale[] = [];
  const rejects: OracleReject[] = [];
  for (const { record: r, info } of records) {
    const line = info.lines; // the file's line of the record (header line 1)
    const own = (c: string): string => (r[c] ?? '').trim();
    const keyed = places != null && own('parcel_id') !== '' && PLACE.some((c) => own(c) === '');
    const place = keyed ? places.get(own('parcel_id')) : undefined;
    if (keyed && !place) { rejects.push({ line, column: 'parcel_id', value: own('parcel_id') }); continue; }
    const v = (c: string): string => (own(c) === '' && place && c in place ? place[c as keyof typeof place] : own(c));
    const empty = REQUIRED.find((c) => v(c) === '');
    const date = readDate(v('sale_date')), price = readNumber(v('sale_price')), type = v('property_type').toLowerCase();
    const bad = empty ?? (date == null ? 'sale_date' : price == null || price < 0 ? 'sale_price' : !PROPERTY_TYPES.includes(type) ? 'property_type'
      : !/^\d{5}(-\d{4})?$/.test(v('zip')) ? 'zip' : null);
    if (bad) { rejects.push({ line, column: bad, value: v(bad) }); continue; }
    const sqft = readNumber(v('sqft'));
    sales.push({ line, parcel: v('parcel_id'), address: v('address'), city: v('city'), state: v('state').toUpperCase(), zip: v('zip').slice(0, 5), date: date!,
      price: price!, type, sqft: sqft != null && sqft > 0 ? sqft : null, armsLength: price! >= 10_000,
      facts: ['beds', 'baths', 'sqft', 'year_built'].map(v).join('|') });
  }
  // a second record of the same sale is a duplicate, one copy kept: the same property on the same date at the same
  // price, or a near copy, the same facts at a price within 0.5% of the higher (market.md "Duplicate")
  const kept: OracleSale[] = [];
  for (const s of sales) {
    const copy = kept.find((k) => (k.parcel || `${k.address}|${k.zip}`) === (s.parcel || `${s.address}|${s.zip}`) && k.date === s.date
      && k.type === s.type && k.facts === s.facts && Math.abs(k.price - s.price) <= 0.005 * Math.max(k.price, s.price));
    if (copy) s.armsLength = false; else kept.push(s);
  }
  return { sales, rejects };
}

/** Continuous quantile (quantile_cont) of ascending values. */
export function quantileCont(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Half away from zero to `d` decimals, as the shards round (market.md "Rounding in the answers"). */
export const roundTo = (x: number, d: number): number => Math.sign(x) * Math.round(Math.abs(x) * 10 ** d + 1e-9) / 10 ** d;

/** `iso` minus `months` calendar months (the day clamped to the month's last, as DuckDB's date - interval). */
export function minusMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

export interface OracleComps { windowEnd: string; count: number; p25: number | null; median: number | null; p75: number | null }

/** GET /v1/market/comps?zip=&months=&property_type= recomputed. */
export function compsOf(sales: OracleSale[], zip: string, months: number, type = 'sfr'): OracleComps {
  const arm = sales.filter((s) => s.armsLength && s.zip === zip);
  const windowEnd = arm.map((s) => s.date).sort().at(-1)!;
  const start = minusMonths(windowEnd, months);
  const ppsf = arm.filter((s) => s.type === type && s.sqft != null && s.date > start && s.date <= windowEnd).map((s) => s.price / s.sqft!).sort((a, b) => a - b);
  const q = (p: number): number | null => (ppsf.length >= 5 ? roundTo(quantileCont(ppsf, p), 2) : null);
  return { windowEnd, count: ppsf.length, p25: q(0.25), median: q(0.5), p75: q(0.75) };
}

/** Whether the file covers a month whole (market.md "A month covered in part"): the span of the file's arm's-length
 *  sales (its first to its last, every zip) reaches the month's first and last days, 3 days' slack at each edge
 *  (COVER_EDGE_DAYS: King County's file starts on 2014-05-02). The thin-extract rule (a month of a source's partial
 *  volume, partialMonths) is not written here: the files this oracle serves are whole extracts, King County's and
 *  Sacramento's, whose months inside their span the build counts as solid. */
export function monthCovered(sales: OracleSale[], month: string): boolean {
  const dates = sales.filter((s) => s.armsLength).map((s) => s.date).sort();
  const [y, m] = month.split('-').map(Number) as [number, number];
  const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
  return dates[0]! <= day(Date.UTC(y, m - 1, 1 + 3)) && dates.at(-1)! >= day(Date.UTC(y, m, 0 - 3));
}

/** A month's arm's-length sales of a type in a market (by zip or by city name, upper-cased): count and median price
 *  (whole dollars, half away from zero, as the trends answer rounds it), both null below 5 sales (market.md
 *  market_monthly "Minimum cohort 5"); the median null too in a month the file covers in part. */
export function monthOf(sales: OracleSale[], where: { zip?: string; city?: string }, month: string, type = 'sfr'): { count: number | null; median: number | null } {
  const prices = sales.filter((s) => s.armsLength && s.type === type && s.date.startsWith(month)
    && (where.zip ? s.zip === where.zip : s.city.toUpperCase() === where.city!.toUpperCase())).map((s) => s.price).sort((a, b) => a - b);
  if (prices.length < 5) return { count: null, median: null };
  return { count: prices.length, median: monthCovered(sales, month) ? roundTo(quantileCont(prices, 0.5), 0) : null };
}
