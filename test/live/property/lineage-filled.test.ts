// A property field whose value the cited row does not hold is cited where it was read, or says how it was filled
// (warehouse/docs/property.md "Tables"). One real build until the marts, over the real geography (symlinks into
// ../shared/data) and three sources written into a temp folder from the real files:
//   - canonical: Denver's raw deeds of the parcels 1611* keyed by parcel (test/helpers/canonical-denver.ts): sales.csv
//     leaves address, city, state and zip empty and each sale takes them from its parcel's parcels.csv row. Before,
//     the lineage cited those values at the sales.csv line, whose columns are empty;
//   - sacramento and nashville: the real files with the state emptied on a few rows (a sale of a one-sale street line;
//     every application of five parcels), where the adapters write their fallback 'CA'/'TN'. Before, that constant
//     was cited as read at a line whose state is empty.
// The oracle is each cited raw line itself, parsed here with csv-parse: it must hold the value (imputed null), or be
// empty where the value is an adapter's fallback (imputed 'source_constant').
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PINNED_NOW } from '../../helpers/clock.ts';
import { writeDenverCanonical } from '../../helpers/canonical-denver.ts';
import { removeTmpDirs, tmp } from '../../helpers/tmp.ts';
import { SHARED_DATA } from '../../helpers/paths.ts';
import { runBuild } from '../../../pipelines/build.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { silentLogger } from '../../../warehouse/log.ts';

afterAll(removeTmpDirs);

const GEO = ['simplemaps-uscities', 'usgeo-census-tables', 'census-gazetteer-2025', 'census-cbsa-delineation-2023', 'census-acs2023-population',
  'geonames-us-postal-codes', 'hud-usps-zip-county-crosswalk', 'usps-zip-locale-detail', 'us-zip-reference'];
const FILTER = ['market', 'canonical', 'geo', 'simplemaps', 'usgeo', 'gazetteer', 'cbsa_delineation', 'acs_population', 'geonames', 'hud_crosswalk',
  'usps_locale', 'zip_reference', 'unit_sqft', 'property', 'sacramento', 'nashville'].join(',');
const SACRAMENTO = 'sacramento-real-estate-transactions/sacramento_transactions.csv';
const NASHVILLE = 'nashville-building-permit-applications/building_permits.csv';

async function query<T>(db: string, sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(db, db === ':memory:' ? {} : { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { c.closeSync(); inst.closeSync(); }
}

let sources: string;
let warehouse: string;

type Raw = Record<string, string>;
const parsed = new Map<string, Raw[]>();
/** The cited line of a file of the temp sources folder (line 1 is the header; a quoted value over lines is one line). */
function rawLine(file: string, line: number): Raw | undefined {
  let rows = parsed.get(file);
  if (!rows) {
    let text = fs.readFileSync(path.join(sources, file));
    if (file.endsWith('.gz')) text = zlib.gunzipSync(text);
    rows = parse(text, { columns: true, relax_column_count: true, bom: true }) as Raw[];
    parsed.set(file, rows);
  }
  return rows[line - 2];
}

interface Cite { property_id: string; field: string; value: string; status: string; table: string; file: string; line: number; imputed: string | null }
const cites = (where: string): Promise<Cite[]> => query<Cite>(warehouse, `
  select l.property_id, l.field, l.value, l.status, l.source_table as "table", l.file, l.line::int as line, l.imputed
  from property_lineage l join properties p using (property_id) where ${where} order by all`);
const same = (a: string | undefined, b: string): boolean => (a ?? '').trim().replace(/\s+/g, ' ').toUpperCase() === b.toUpperCase();

/** A CSV field as written back: quoted when it holds a comma, a quote or a line break. */
const csvField = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Writes `<sources>/<rel>` from the shared `<rel>.gz`, every record kept in order, the column emptied on the rows
 *  `pick` selects (given the records and a column's index by name). */
function blankState(rel: string, column: string, pick: (rows: string[][], i: (name: string) => number) => (r: string[]) => boolean): void {
  const [header, ...rows] = parse(zlib.gunzipSync(fs.readFileSync(path.join(SHARED_DATA, `${rel}.gz`))), { bom: true }) as string[][];
  const i = (name: string): number => header!.indexOf(name);
  const blank = pick(rows, i);
  for (const r of rows) if (blank(r)) r[i(column)] = '';
  fs.mkdirSync(path.join(sources, path.dirname(rel)), { recursive: true });
  fs.writeFileSync(path.join(sources, rel), [header!, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n');
}

beforeAll(async () => {
  sources = tmp('reii-lineage-filled-src-');
  for (const g of GEO) fs.symlinkSync(path.join(SHARED_DATA, g), path.join(sources, g));
  await writeDenverCanonical(sources, { keyed: 'parcel', schednum: `like '1611%'` });
  // the real files, the state emptied on a few rows: Sacramento's first five sales of a street line sold once, every
  // application of Nashville's first five parcels (by id) with a zip
  blankState(SACRAMENTO, 'state', (rows, i) => {
    const key = (r: string[]): string => `${r[i('street')]}|${r[i('zip')]}`;
    const once = rows.filter((r) => rows.filter((o) => key(o) === key(r)).length === 1).slice(0, 5);
    return (r) => once.includes(r);
  });
  blankState(NASHVILLE, 'State', (rows, i) => {
    const parcels = new Set([...new Set(rows.filter((r) => r[i('Parcel')] && r[i('ZIP')]).map((r) => r[i('Parcel')]!))].sort().slice(0, 5));
    return (r) => parcels.has(r[i('Parcel')]!);
  });
  const artifacts = tmp('reii-lineage-filled-art-');
  const r = await runBuild({ settings: loadSettings({ artifacts, sources, stepFilter: FILTER }), log: silentLogger, now: PINNED_NOW, until: 'marts' });
  warehouse = path.join(r.dir, 'warehouse.duckdb');
}, 900_000);

describe('a canonical sale\'s place taken from parcels.csv is cited at the parcels.csv line', () => {
  test('every address, city, state and zip citation of the canonical properties holds the value at its line', async () => {
    const all = await cites(`p.source = 'canonical' and l.field in ('address', 'city', 'state', 'zip')`);
    expect(all.length).toBeGreaterThanOrEqual(4 * 279);
    const wrong = all.filter((c) => c.imputed !== null || !same(rawLine(c.file, c.line)?.[c.field], c.value))
      .map((c) => `${c.property_id} ${c.field}=${c.value} (${c.table}) at ${c.file}:${c.line} holds '${rawLine(c.file, c.line)?.[c.field] ?? ''}'`);
    expect(wrong.slice(0, 5)).toEqual([]);
    // the chosen value is the newest sale's, and it cites the parcel's row of parcels.csv (its parcel_id that of the record)
    const chosen = all.filter((c) => c.status === 'chosen');
    expect(new Set(chosen.map((c) => `${c.table} ${c.file}`))).toEqual(new Set(['sales canonical/parcels.csv']));
    const ids = await query<{ property_id: string; parcel_id: string }>(warehouse, `select property_id, parcel_id from properties where source = 'canonical'`);
    const parcelOf = new Map(ids.map((r) => [r.property_id, r.parcel_id]));
    expect(chosen.filter((c) => rawLine(c.file, c.line)?.['parcel_id'] !== parcelOf.get(c.property_id))).toEqual([]);
  });

  test('a value the sales.csv row names itself (its price facts: beds, sqft) is still cited at that row', async () => {
    const facts = await cites(`p.source = 'canonical' and l.field in ('beds', 'sqft', 'year_built') and l.status = 'chosen'`);
    expect(facts.length).toBeGreaterThan(200);
    expect(new Set(facts.map((c) => c.file))).toEqual(new Set(['canonical/sales.csv']));
    const column = { beds: 'beds', sqft: 'sqft', year_built: 'year_built' } as Record<string, string>;
    expect(facts.filter((c) => c.imputed !== null || Number(rawLine(c.file, c.line)?.[column[c.field]!]) !== Number(c.value))).toEqual([]);
  });
});

describe('an adapter\'s fallback state for a row whose file leaves it empty is cited as the source constant', () => {
  test.each([['sacramento', SACRAMENTO, 'state', 'CA'], ['nashville', NASHVILLE, 'State', 'TN']])(
    '%s: a state citation at a line with no state is the adapter\'s constant; any other holds the value', async (source, file, column, constant) => {
      const all = await cites(`p.source = '${source}' and l.field = 'state'`);
      const empty = all.filter((c) => !(rawLine(c.file, c.line)?.[column] ?? '').trim());
      expect(new Set(all.map((c) => c.file))).toEqual(new Set([file]));
      expect(empty.length).toBeGreaterThanOrEqual(3); // the emptied rows are cited
      expect(empty.filter((c) => c.imputed !== 'source_constant' || c.value !== constant)).toEqual([]);
      const read = all.filter((c) => !empty.includes(c));
      expect(read.length).toBeGreaterThan(100);
      expect(read.filter((c) => c.imputed !== null || !same(rawLine(c.file, c.line)?.[column], c.value))).toEqual([]);
    });
});
