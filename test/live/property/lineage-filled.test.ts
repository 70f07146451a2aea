// A property field whose value the cited row does not hold is cited where it was read, or says how it was filled
// (warehouse/docs/property.md "Tables"). The run's one build until the marts of a canonical deed file keyed by parcel
// (test/helpers/denver-parcel-build.ts, shared with test/pipelines/canonical-parcel-keyed-build.test.ts), over the
// real geography and three sources written into a temp folder from the real files:
//   - canonical: Denver's raw deeds of the parcels 1611* keyed by parcel (test/helpers/canonical-denver.ts): sales.csv
//     leaves address, city, state and zip empty and each sale takes them from its parcel's parcels.csv row. Before,
//     the lineage cited those values at the sales.csv line, whose columns are empty;
//   - sacramento and nashville: the real files with the state emptied on a few rows (a sale of a one-sale street line;
//     every application of five parcels), where the adapters write their fallback 'CA'/'TN'. Before, that constant
//     was cited as read at a line whose state is empty.
// The oracle is each cited raw line itself, parsed with csv-parse (scripts/raw-lines.ts): it must hold the value
// (imputed null), or be empty where the value is an adapter's fallback (imputed 'source_constant').
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, test } from 'vitest';
import { denverParcelBuild, NASHVILLE, SACRAMENTO } from '../../helpers/denver-parcel-build.ts';
import { rawLine as rawLineOf, rawRows, type RawRow } from '../../../scripts/raw-lines.ts';

async function query<T>(db: string, sql: string): Promise<T[]> {
  const inst = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  try { return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[]; } finally { c.closeSync(); inst.closeSync(); }
}

let sources: string;
let warehouse: string;
beforeAll(async () => { ({ sources, warehouse } = await denverParcelBuild()); }, 900_000);

/** The cited line of a file of the build's sources folder. */
const rawLine = (file: string, line: number): RawRow | undefined => rawLineOf(sources, file, line);

interface Cite { property_id: string; field: string; value: string; status: string; table: string; file: string; line: number; imputed: string | null }
const cites = (where: string): Promise<Cite[]> => query<Cite>(warehouse, `
  select l.property_id, l.field, l.value, l.status, l.source_table as "table", l.file, l.line::int as line, l.imputed
  from property_lineage l join properties p using (property_id) where ${where} order by all`);
const same = (a: string | undefined, b: string): boolean => (a ?? '').trim().replace(/\s+/g, ' ').toUpperCase() === b.toUpperCase();

describe('a canonical sale\'s place taken from parcels.csv is cited at the parcels.csv line', () => {
  test('every address, city, state and zip citation of the canonical properties holds the value at its line', async () => {
    const all = await cites(`p.source = 'canonical' and l.field in ('address', 'city', 'state', 'zip')`);
    // each parcel parcels.csv lists (279 of 1611*, less the one left out) is a property citing the four
    expect(all.length).toBeGreaterThanOrEqual(4 * rawRows(sources, 'canonical/parcels.csv').length);
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
