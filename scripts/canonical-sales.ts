// `npx tsx scripts/canonical-sales.ts --from SOURCE --out DIR`: converts one real sales source of ../shared/data (read
// in place) into the canonical `sales.csv` format (README "Canonical format") in DIR, so that the valuation can be
// evaluated on it as a market it was never tuned on (`npm run eval:avm -- --sources DIR`, leave-one-market-out: only
// the geography folders are linked beside it). The conversion is the source's SOURCE.md, column by column, and keeps
// every row the format can hold (a price under $10,000 stays: the build's arm's-length rule flags it, as it does for
// the source's own adapter); a row the format cannot hold is left out and counted by reason. Only canonical columns
// are written (the 14 required ones, plus the optional `parcel_id`, `lot_sqft` and `quality_grade` where the source
// has them): a source's other fields (King County's view, waterfront; NYC's tax block) are dropped, so the model sees the
// market as any operator's county export would show it. `--without COLS` (comma-separated) writes those columns empty
// (an optional one not at all): a county export without a lot (`--without lot_sqft`), without a quality grade
// (`--without quality_grade`), without points (`lat,lng`).
//
// Sources:
//   sacramento   985 sales, 15-21 May 2008: street, city, zip, beds, baths, sqft, type, price, point.
//   king_county  21,613 house sales, May 2014 - May 2015 (kc_house_data.csv; lot_sqft from sqft_lot, quality_grade
//                from grade 1-13). It has no
//                street address and no city (SOURCE.md: "No street addresses"); the format requires both, so
//                `address` is a synthetic key, `PARCEL <id>` (the assessor parcel number, also written as
//                `parcel_id`: one key per house, so its repeat sales stay one property), and `city` is the zip's
//                primary city in us-zip-reference (the geography the build itself fills King County's cities from).
//                Every row is a house (sfr); the assessor condition 1-5 maps as the source adapter does (1 poor, 2
//                fair, 3-4 good, 5 excellent); values are written as the file has them (the one 33-bedroom row too:
//                the canonical path has no repair for it, as an operator's file would not).
//   nyc          NYC rolling sales, two 12-month windows: address (+ apartment), zip, building class category ->
//                type (as the source adapter maps it), gross sqft (0 = unknown), year built (0 = unknown), land
//                sqft as lot_sqft (0 = unknown), price,
//                date; no beds, baths, condition or point; city "New York". Left out: $0 prices (the format
//                requires a price above 0; SOURCE.md: "0 for non-market transfers"), zip 0, an unknown category.
//                Without the tax block the canonical path cannot find NYC's portfolio deeds (market.md), so more
//                multi-lot deeds stay comps than in the source's own adapter.
// Denver and Connecticut cannot be converted here: Denver's sales have no street address, zip or point (SOURCE.md: "No
// street address, ZIP or coordinates"; scripts/canonical-denver.ts writes them with a stand-in place, keyed by parcel
// or not), Connecticut's no living area and no zip, and the canonical format requires a 5-digit zip (the valuation also
// needs sqft).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { loadSettings } from '../warehouse/settings.ts';

export const CANONICAL_SALES_COLUMNS = ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type', 'beds', 'baths', 'sqft',
  'year_built', 'condition', 'lat', 'lng'] as const;
type CanonicalRow = Record<(typeof CANONICAL_SALES_COLUMNS)[number], string> & { parcel_id?: string; lot_sqft?: string; quality_grade?: string };
interface Converted { rows: CanonicalRow[]; skipped: Record<string, number> }

export const SACRAMENTO_FILE = path.join('sacramento-real-estate-transactions', 'sacramento_transactions.csv.gz');
export const KING_COUNTY_FILE = path.join('king-county-wa-house-sales', 'kc_house_data.csv.gz');
export const ZIP_REFERENCE_FILE = path.join('us-zip-reference', 'zip_reference.csv.gz');
export const NYC_FOLDER = 'nyc-rolling-sales';
export const CONVERTIBLE = ['sacramento', 'king_county', 'nyc'] as const;

/** Sacramento's `type` (SOURCE.md) -> the canonical property type; anything else ("Unkown", 1 row) has none. */
const SACRAMENTO_TYPES: Record<string, string> = { Residential: 'sfr', Condo: 'condo', 'Multi-Family': 'multi' };

/** 0 means unknown in Sacramento's beds, baths and sq__ft, NYC's gross sqft and year built (SOURCE.md): empty. */
const positive = (v: string | undefined): string => (Number(v?.replace(/,/g, '')) > 0 ? String(Number(v!.replace(/,/g, ''))) : '');
const csvRows = (file: string): Record<string, string>[] =>
  parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
const count = (m: Record<string, number>, k: string): void => { m[k] = (m[k] ?? 0) + 1; };

function sacramentoRows(sources: string): Converted {
  const rows: CanonicalRow[] = [];
  const skipped: Record<string, number> = {};
  for (const r of csvRows(path.join(sources, SACRAMENTO_FILE))) {
    const type = SACRAMENTO_TYPES[r['type']!.trim()];
    if (!type) { count(skipped, 'unknown_property_type'); continue; }
    rows.push({
      address: r['street']!.trim(), city: r['city']!.trim(), state: r['state']!.trim(), zip: r['zip']!.trim(), sale_date: r['sale_date_iso']!.trim(),
      sale_price: String(Number(r['price'])), property_type: type, beds: positive(r['beds']), baths: positive(r['baths']), sqft: positive(r['sq__ft']),
      year_built: '', condition: '', lat: r['latitude']!.trim(), lng: r['longitude']!.trim(),
    });
  }
  return { rows, skipped };
}

/** The primary city of every zip in us-zip-reference (the build's own zip geography). */
export function zipCities(sources: string): Map<string, string> {
  return new Map(csvRows(path.join(sources, ZIP_REFERENCE_FILE)).map((r) => [r['zip_code']!.trim(), r['city']!.trim()]));
}

/** King County's assessor condition 1-5 (SOURCE.md) -> canonical, as its adapter maps it (30_market_10_sales_king_county.sql). */
const KC_CONDITION: Record<string, string> = { '1': 'poor', '2': 'fair', '3': 'good', '4': 'good', '5': 'excellent' };

function kingCountyRows(sources: string): Converted {
  const cities = zipCities(sources);
  const rows: CanonicalRow[] = [];
  const skipped: Record<string, number> = {};
  for (const r of csvRows(path.join(sources, KING_COUNTY_FILE))) {
    const zip = r['zipcode']!.trim(), city = cities.get(zip);
    const date = /^(\d{4})(\d{2})(\d{2})T/.exec(r['date']!.trim());
    if (!city) { count(skipped, 'zip_without_city'); continue; }
    if (!date) { count(skipped, 'bad_date'); continue; }
    const id = r['id']!.trim();
    rows.push({
      address: `PARCEL ${id}`, parcel_id: id, city, state: 'WA', zip, sale_date: `${date[1]}-${date[2]}-${date[3]}`,
      sale_price: String(Number(r['price'])), property_type: 'sfr', beds: String(Number(r['bedrooms'])), baths: String(Number(r['bathrooms'])),
      sqft: positive(r['sqft_living']), year_built: positive(r['yr_built']), condition: KC_CONDITION[r['condition']!.trim()] ?? '',
      lat: r['lat']!.trim(), lng: r['long']!.trim(), lot_sqft: positive(r['sqft_lot']), quality_grade: positive(r['grade']),
    });
  }
  return { rows, skipped };
}

/** NYC's building class category (its two-digit code) -> canonical type, as 30_market_12_sales_nyc.sql maps it. */
export function nycType(category: string): string | null {
  const code = /^(\d\d) /.exec(category.trim())?.[1];
  if (!code) return null;
  if (code === '01') return 'sfr';
  if (['02', '03', '07', '08', '11', '14'].includes(code)) return 'multi';
  if (['04', '09', '10', '12', '13', '15', '16', '17'].includes(code)) return 'condo';
  if (['05', '31'].includes(code)) return 'land';
  return 'commercial';
}

function nycRows(sources: string): Converted {
  const rows: CanonicalRow[] = [];
  const skipped: Record<string, number> = {};
  const files = fs.readdirSync(path.join(sources, NYC_FOLDER)).filter((f) => f.endsWith('.csv.gz')).sort();
  for (const f of files) {
    for (const r of csvRows(path.join(sources, NYC_FOLDER, f))) {
      const type = nycType(r['BUILDING CLASS CATEGORY']!);
      const price = Number(r['SALE PRICE']!.replace(/,/g, ''));
      const zip = r['ZIP CODE']!.trim();
      if (!type) { count(skipped, 'unknown_property_type'); continue; }
      if (!(price > 0)) { count(skipped, 'no_price'); continue; }
      if (!/^\d{5}$/.test(zip) || zip === '00000') { count(skipped, 'no_zip'); continue; }
      const [street, unitInAddress] = r['ADDRESS']!.split(',').map((s) => s.trim());
      const unit = r['APARTMENT NUMBER']!.trim() || unitInAddress || '';
      rows.push({
        address: unit ? `${street} APT ${unit}` : street!, parcel_id: `${r['BOROUGH']!.trim()}-${r['BLOCK']!.trim()}-${r['LOT']!.trim()}`,
        city: 'New York', state: 'NY', zip, sale_date: r['SALE DATE']!.trim(), sale_price: String(price), property_type: type,
        beds: '', baths: '', sqft: positive(r['GROSS SQUARE FEET']), year_built: positive(r['YEAR BUILT']), condition: '', lat: '', lng: '',
        lot_sqft: positive(r['LAND SQUARE FEET']),
      });
    }
  }
  return { rows, skipped };
}

/** The optional canonical columns this script writes where the source has them. */
const OPTIONAL = ['parcel_id', 'lot_sqft', 'quality_grade'] as const;

const csvValue = (v: string): string => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes DIR/sales.csv from a source of the sources folder; returns the rows written and left out (by reason).
 *  `without`: columns written empty (a required one) or left out (an optional one: `lot_sqft`, `parcel_id`), to
 *  evaluate a market whose records lack them (a county export with no lot, no points or no living area). */
export function writeCanonicalSales(from: string, outDir: string, sources = loadSettings().sources, without: readonly string[] = []):
  { file: string; rows: number; skipped: number; reasons: Record<string, number> } {
  const convert = { sacramento: sacramentoRows, king_county: kingCountyRows, nyc: nycRows }[from];
  if (!convert) throw new Error(`--from ${from}: only ${CONVERTIBLE.join(', ')} can be converted (see the header of scripts/canonical-sales.ts)`);
  const { rows, skipped } = convert(sources);
  const unknown = without.filter((c) => !(CANONICAL_SALES_COLUMNS as readonly string[]).includes(c) && !OPTIONAL.includes(c as (typeof OPTIONAL)[number]));
  if (unknown.length) throw new Error(`--without ${unknown.join(',')}: not a column this script writes`);
  for (const r of rows) for (const c of without) (r as Record<string, string | undefined>)[c] = (CANONICAL_SALES_COLUMNS as readonly string[]).includes(c) ? '' : undefined;
  const optional = OPTIONAL.filter((c) => rows.some((r) => r[c] !== undefined));
  const columns: string[] = [...CANONICAL_SALES_COLUMNS, ...optional];
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'sales.csv');
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvValue((r as Record<string, string | undefined>)[c] ?? '')).join(','))];
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, rows: rows.length, skipped: Object.values(skipped).reduce((a, b) => a + b, 0), reasons: skipped };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'sacramento' }, out: { type: 'string' }, without: { type: 'string' } } });
  if (!values.out) throw new Error(`usage: npx tsx scripts/canonical-sales.ts --from ${CONVERTIBLE.join('|')} --out DIR [--without lot_sqft,quality_grade,lat,lng,...]`);
  const r = writeCanonicalSales(values.from!, path.resolve(values.out), undefined, values.without ? values.without.split(',').map((c) => c.trim()) : []);
  const why = Object.entries(r.reasons).map(([k, n]) => `${n} ${k}`).join(', ');
  process.stdout.write(`${r.file}: ${r.rows} sales (${r.skipped} left out${why ? `: ${why}` : ''})\n`);
}
