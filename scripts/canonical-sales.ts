// `npx tsx scripts/canonical-sales.ts --from SOURCE --out DIR` (`--help` for the usage): converts one real sales source
// of ../shared/data (read in place) into a buildable sources folder, DIR/canonical/sales.csv (README "Canonical
// format") with the geography and reference folders linked beside it (scripts/canonical-folder.ts, the layout of
// scripts/canonical-denver.ts too), so that `npx reii build --sources DIR` builds it and the valuation can be evaluated
// on it as a market it was never tuned on (`npm run eval:avm -- --sources DIR`, leave-one-market-out: no other sales
// source is linked). The conversion is the source's SOURCE.md, column by column (NYC's: its own adapter's rows), and
// keeps every row the format can hold (a $0 or nominal price stays: the format takes a price >= 0 and the build's
// arm's-length rule flags it, as it does for the source's own adapter); a row the format cannot hold is left out and
// counted by reason. Only canonical columns
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
//   nyc          NYC rolling sales, two 12-month windows, as the source's own adapter reads them: its rows are made
//                by the native adapter itself (stg_nyc__sales.sql and 30_market_12_sales_nyc.sql run by the build's
//                loader and step runner in memory: nycRows), so its unit (APARTMENT NUMBER, else the ", 16C" after the
//                street; a billing lot's "RESI" gives way to the street's number), its type (a category 11 or rental
//                building's row naming a unit is a condo), its sqft (none for a unit of a building of several units:
//                GROSS SQUARE FEET is the building's, nyc_unit_sqft), its year built and its $0 transfers (kept,
//                flagged nominal) are the native ones. Written: the street line with `APT <unit>`, zip, type, sqft,
//                year built, LAND SQUARE FEET as lot_sqft (0 = unknown; none on a unit's sale of a building of several
//                units, by nyc_unit_sqft: the building's land is not the unit's), price, date, borough-block-lot as parcel_id
//                (with the unit, "3-149-1102-16C": one property per lot and unit, as the native record's identity);
//                no beds, baths, condition or point; city "New York" (the adapter's). Left out: the adapter's rejects
//                (no date, a negative price, an unknown category) and rows without a zip.
//                Without the tax block the canonical path cannot find NYC's portfolio deeds (market.md), so more
//                multi-lot deeds stay comps than in the source's own adapter.
// Denver and Connecticut cannot be converted here: Denver's sales have no street address, zip or point (SOURCE.md: "No
// street address, ZIP or coordinates"; scripts/canonical-denver.ts writes them with a stand-in place, keyed by parcel
// or not), Connecticut's no living area and no zip, and the canonical format requires a 5-digit zip (the valuation also
// needs sqft).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { parse } from 'csv-parse/sync';
import { loadSettings } from '../warehouse/settings.ts';
import { silentLogger } from '../warehouse/log.ts';
import { openWarehouse, queryRows } from '../warehouse/db.ts';
import type { StageContext } from '../warehouse/context.ts';
import { SOURCES } from '../pipelines/sources/registry.ts';
import { createMetaTables, matchFiles } from '../pipelines/sources/index.ts';
import { loadCsv } from '../pipelines/sources/csv-load.ts';
import { runFolder } from '../pipelines/steps.ts';
import { linkReference, readArgs, usageExit } from './canonical-folder.ts';

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

/** The native NYC adapter's own rows (30_market_12_sales_nyc.sql, after stg_nyc__sales.sql), made by the build's
 *  own loader and step runner in a DuckDB in memory: one way to map NYC. Its unit (APARTMENT NUMBER, else the ", 16C"
 *  of the street line, and a billing lot's "RESI" giving way to the street's number), its type (a category 11 or
 *  rental building's row naming a unit is a condo) and its sqft (a unit of a building of several units has none: the
 *  GROSS SQUARE FEET is the building's, nyc_unit_sqft) are the adapter's. The address written is the raw street line,
 *  cleaned, with the unit as `APT <unit>`, a run of characters the canonical adapter's unit pattern does not read
 *  (address_unit: letters, digits, '-') written as one '-' ("PH 3F" -> "PH-3F", "19/20" -> "19-20", 1,601 sales), so
 *  every unit reads back as one unit of its own. */
async function nycRows(sources: string): Promise<Converted> {
  const wh = await openWarehouse(':memory:');
  const db = await wh.connect();
  const settings = loadSettings({ sources });
  const ctx: StageContext = {
    db, settings, buildId: 'canonical-sales', builtAt: new Date(), log: silentLogger,
    paths: { sources, build: fs.mkdtempSync(path.join(os.tmpdir(), 'reii-canonical-nyc-')), warehouse: ':memory:', shards: '' },
    sourceFiles: () => [], addRejects: async () => {},
  };
  try {
    await createMetaTables(ctx);
    const source = SOURCES.find((s) => s.id === 'nyc')!;
    const files = matchFiles(sources, source, source.files[0]!);
    if (!files.length) throw new Error(`no NYC rolling sales under ${path.join(sources, NYC_FOLDER)}`);
    await loadCsv(ctx, source, source.files[0]!, files);
    const pipelines = path.resolve(import.meta.dirname, '..', 'pipelines');
    await runFolder(ctx, 'staging', path.join(pipelines, 'staging'), (f) => f === 'stg_nyc__sales.sql');
    await runFolder(ctx, 'intermediate', path.join(pipelines, 'intermediate'), (f) => /^30_market_(00|12)_/.test(f));
    const rows = await queryRows<Record<string, string | null>>(db, `
      select coalesce(address_street_part(address_clean(split_part(st.address, ',', 1))), '') || coalesce(' APT ' || nullif(trim(regexp_replace(upper(s.unit), '[^A-Z0-9-]+', '-', 'g'), '-'), ''), '') as address,
             -- one property per (lot, unit), as the native identity (property_identity: a co-op's or billing lot's
             -- apartments share the building's tax lot, compared without punctuation)
             s.parcel_id || coalesce('-' || nullif(regexp_replace(upper(s.unit), '[^A-Z0-9]', '', 'g'), ''), '') as parcel_id,
             s.city, s.state_code as state, s.zip, strftime(s.sale_date, '%Y-%m-%d') as sale_date,
             cast(s.sale_price as varchar) as sale_price, s.property_type, cast(cast(s.sqft as bigint) as varchar) as sqft,
             cast(s.year_built as varchar) as year_built, -- the lot, by the living area's rule: a unit of a building of several units has no lot of its own
             cast(cast(nyc_unit_sqft(st.land_sqft, s.unit, st.residential_units, st.total_units) as bigint) as varchar) as lot_sqft
      from sales s join stg_nyc__sales st on s.sale_id = market_row_id('nyc', st.file, st.row_number)
      order by st.file, st.row_number`);
    const skipped: Record<string, number> = {};
    for (const r of await queryRows<{ reason: string; n: number }>(db, `select reason, count(*)::int as n from meta.rejects where source = 'nyc' group by all`)) skipped[r.reason] = r.n;
    const out: CanonicalRow[] = [];
    for (const r of rows) {
      if (!r['zip'] || r['zip'] === '00000') { count(skipped, 'no_zip'); continue; }
      if (!r['address']) { count(skipped, 'no_address'); continue; }
      out.push({
        address: r['address'], parcel_id: r['parcel_id']!, city: r['city']!, state: r['state']!, zip: r['zip'], sale_date: r['sale_date']!,
        sale_price: String(Number(r['sale_price'])), property_type: r['property_type']!, beds: '', baths: '', sqft: r['sqft'] ?? '',
        year_built: r['year_built'] ?? '', condition: '', lat: '', lng: '', lot_sqft: r['lot_sqft'] ?? '',
      });
    }
    return { rows: out, skipped };
  } finally {
    db.closeSync();
    wh.close();
    fs.rmSync(ctx.paths.build, { recursive: true, force: true });
  }
}

/** The optional canonical columns this script writes where the source has them. */
const OPTIONAL = ['parcel_id', 'lot_sqft', 'quality_grade'] as const;

const csvValue = (v: string): string => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes DIR/canonical/sales.csv from a source of the sources folder (the command line then links the geography and
 *  reference folders beside it: scripts/canonical-folder.ts); returns the rows written and left out (by reason).
 *  `without`: columns written empty (a required one) or left out (an optional one: `lot_sqft`, `parcel_id`), to
 *  evaluate a market whose records lack them (a county export with no lot, no points or no living area). */
export async function writeCanonicalSales(from: string, outDir: string, sources = loadSettings().sources, without: readonly string[] = []):
  Promise<{ file: string; rows: number; skipped: number; reasons: Record<string, number> }> {
  const convert = { sacramento: sacramentoRows, king_county: kingCountyRows, nyc: nycRows }[from];
  if (!convert) throw new Error(`--from ${from}: only ${CONVERTIBLE.join(', ')} can be converted (see the header of scripts/canonical-sales.ts)`);
  const unknown = without.filter((c) => !(CANONICAL_SALES_COLUMNS as readonly string[]).includes(c) && !OPTIONAL.includes(c as (typeof OPTIONAL)[number]));
  if (unknown.length) throw new Error(`--without ${unknown.join(',')}: not a column this script writes`);
  const { rows, skipped } = await convert(sources);
  for (const r of rows) for (const c of without) (r as Record<string, string | undefined>)[c] = (CANONICAL_SALES_COLUMNS as readonly string[]).includes(c) ? '' : undefined;
  const optional = OPTIONAL.filter((c) => rows.some((r) => r[c] !== undefined));
  const columns: string[] = [...CANONICAL_SALES_COLUMNS, ...optional];
  fs.mkdirSync(path.join(outDir, 'canonical'), { recursive: true });
  const file = path.join(outDir, 'canonical', 'sales.csv');
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvValue((r as Record<string, string | undefined>)[c] ?? '')).join(','))];
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, rows: rows.length, skipped: Object.values(skipped).reduce((a, b) => a + b, 0), reasons: skipped };
}

const USAGE = `usage: npx tsx scripts/canonical-sales.ts --from ${CONVERTIBLE.join('|')} --out DIR [--without COLS]

Converts one real sales source of the sources folder (REII_SOURCES, default ../shared/data) into a buildable sources
folder: DIR/canonical/sales.csv (README "Canonical format") and the geography and reference folders linked beside it.
Then: npx reii build --sources DIR --artifacts ART, or npm run eval:avm -- --sources DIR.
  --from SOURCE   ${CONVERTIBLE.join(', ')} (required)
  --out DIR       the sources folder to write (required; created if absent)
  --without COLS  comma-separated columns to write empty (a required one) or leave out (lot_sqft, quality_grade, parcel_id)
`;

if (import.meta.main) {
  const values = readArgs(process.argv.slice(2), USAGE, { from: { type: 'string' }, out: { type: 'string' }, without: { type: 'string' } }, ['from', 'out']);
  if (!(CONVERTIBLE as readonly string[]).includes(values['from']!)) usageExit(`--from ${values['from']}: only ${CONVERTIBLE.join(', ')} can be converted`, USAGE);
  const without = values['without'] ? values['without'].split(',').map((c) => c.trim()) : [];
  let r: Awaited<ReturnType<typeof writeCanonicalSales>>;
  try {
    const sources = loadSettings().sources;
    r = await writeCanonicalSales(values['from']!, path.resolve(values['out']!), sources, without);
    linkReference(sources, path.resolve(values['out']!));
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const why = Object.entries(r.reasons).map(([k, n]) => `${n} ${k}`).join(', ');
  process.stdout.write(`${r.file}: ${r.rows} sales (${r.skipped} left out${why ? `: ${why}` : ''})\n`);
}
