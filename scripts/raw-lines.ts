// The raw source files read line by line, as a lineage cites them (a file under a sources folder, line 1 the header,
// a quoted value spanning lines one line): parsed with csv-parse, independently of the build's loader and SQL, for the
// checks that follow a citation back to its row (scripts/property-lineage-audit.ts, test/live/property/lineage*.test.ts).
// Each file is parsed once per process.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';

export type RawRow = Record<string, string>;

/** The bytes of a raw file (a `.gz` one unzipped). */
function rawBytes(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  return file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes;
}

const parsed = new Map<string, RawRow[]>();

/** Every record of `<sources>/<file>`, by column name: record i is the file's line i + 2. */
export function rawRows(sources: string, file: string): RawRow[] {
  const full = path.join(sources, file);
  let rows = parsed.get(full);
  if (!rows) {
    rows = parse(rawBytes(full), { columns: true, relax_column_count: true, relax_quotes: true, bom: true }) as RawRow[];
    parsed.set(full, rows);
  }
  return rows;
}

/** The record at `line` of `<sources>/<file>` (line 1 is the header); undefined past the file's end. */
export function rawLine(sources: string, file: string, line: number): RawRow | undefined {
  return rawRows(sources, file)[line - 2];
}

const headers = new Map<string, string[]>();

/** The column names of `<sources>/<file>` (its first line), without parsing the rest. */
export function rawHeader(sources: string, file: string): string[] {
  const full = path.join(sources, file);
  let names = headers.get(full);
  if (!names) {
    const text = rawBytes(full);
    const first = text.subarray(0, Math.max(text.indexOf(10), 0) || text.length).toString('utf8');
    names = (parse(first, { bom: true }) as string[][])[0]!;
    headers.set(full, names);
  }
  return names;
}
