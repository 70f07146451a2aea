// `npx tsx scripts/canonical-sales.ts --from sacramento --out DIR`: converts one real sales source of ../shared/data
// (read in place) into the canonical `sales.csv` format (README "Canonical format") in DIR, so that the valuation can be
// evaluated on it as a market it was never tuned on (`npm run eval:avm -- --sources DIR`, leave-one-market-out: only
// the geography folders are linked beside it). The conversion is the source's SOURCE.md, column by column, and keeps
// every row the format can hold (a price under $10,000 stays: the build's arm's-length rule flags it, as it does for
// the source's own adapter); a row the format cannot hold (no known property type) is left out and counted.
//
// Sources: sacramento (985 sales, 15-21 May 2008, street, city, zip, beds, baths, sqft, type, price, point). Denver and
// Connecticut cannot be converted: Denver's sales have no street address, zip or point (SOURCE.md: "No street
// address, ZIP or coordinates"), Connecticut's no living area and no zip, and the canonical format requires a 5-digit
// zip (the valuation also needs sqft).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { loadSettings } from '../warehouse/settings.ts';

export const CANONICAL_SALES_COLUMNS = ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type', 'beds', 'baths', 'sqft',
  'year_built', 'condition', 'lat', 'lng'] as const;
type CanonicalRow = Record<(typeof CANONICAL_SALES_COLUMNS)[number], string>;

/** Sacramento's `type` (SOURCE.md) -> the canonical property type; anything else ("Unkown", 1 row) has none. */
const SACRAMENTO_TYPES: Record<string, string> = { Residential: 'sfr', Condo: 'condo', 'Multi-Family': 'multi' };
export const SACRAMENTO_FILE = path.join('sacramento-real-estate-transactions', 'sacramento_transactions.csv.gz');

/** 0 means unknown in Sacramento's beds, baths and sq__ft (SOURCE.md): empty in the canonical file. */
const positive = (v: string): string => (Number(v) > 0 ? String(Number(v)) : '');

function sacramentoRows(sources: string): { rows: CanonicalRow[]; skipped: number } {
  const raw = parse(zlib.gunzipSync(fs.readFileSync(path.join(sources, SACRAMENTO_FILE))), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const rows: CanonicalRow[] = [];
  let skipped = 0;
  for (const r of raw) {
    const type = SACRAMENTO_TYPES[r['type']!.trim()];
    if (!type) { skipped++; continue; }
    rows.push({
      address: r['street']!.trim(), city: r['city']!.trim(), state: r['state']!.trim(), zip: r['zip']!.trim(), sale_date: r['sale_date_iso']!.trim(),
      sale_price: String(Number(r['price'])), property_type: type, beds: positive(r['beds']!), baths: positive(r['baths']!), sqft: positive(r['sq__ft']!),
      year_built: '', condition: '', lat: r['latitude']!.trim(), lng: r['longitude']!.trim(),
    });
  }
  return { rows, skipped };
}

const csvValue = (v: string): string => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes DIR/sales.csv from a source of the sources folder; returns the rows written and left out. */
export function writeCanonicalSales(from: string, outDir: string, sources = loadSettings().sources): { file: string; rows: number; skipped: number } {
  if (from !== 'sacramento') throw new Error(`--from ${from}: only sacramento can be converted (see the header of scripts/canonical-sales.ts)`);
  const { rows, skipped } = sacramentoRows(sources);
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'sales.csv');
  const lines = [CANONICAL_SALES_COLUMNS.join(','), ...rows.map((r) => CANONICAL_SALES_COLUMNS.map((c) => csvValue(r[c])).join(','))];
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, rows: rows.length, skipped };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'sacramento' }, out: { type: 'string' } } });
  if (!values.out) throw new Error('usage: npx tsx scripts/canonical-sales.ts --from sacramento --out DIR');
  const r = writeCanonicalSales(values.from!, path.resolve(values.out));
  process.stdout.write(`${r.file}: ${r.rows} sales (${r.skipped} without a known property type left out)\n`);
}
