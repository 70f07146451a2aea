// `reii sources list`: each registered source, present or absent, with file and row counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { canonicalFolderFindings, scanSources, type MisnamedFile } from './index.ts';

export interface SourceListRow {
  id: string;
  folder: string;
  present: boolean;
  files: number;
  rows: number | null; // CSV records (header excluded); null when absent or not CSV
  vintage: string;
  licence: string;
  attribution: string | null;
  open_data: boolean;
  /** Files in the source's folder that look like its data but are not read: `reii build` fails on each (canonical). */
  misnamed: MisnamedFile[];
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * CSV records in `buf` (the header included), read as csv-parse reads them with relax_quotes and
 * skip_empty_lines: a quote opens a quoted field only at the start of a field (elsewhere it is a literal
 * character), a doubled quote inside a quoted field is one quote, a line break inside quotes belongs to the
 * field, blank lines are no record and a missing final newline still ends the last record. One pass over the
 * bytes, no parsing into fields: about ten times faster than csv-parse on the shared data.
 */
export function countCsvRecords(buf: Uint8Array, delimiter: string): number {
  const delim = delimiter.charCodeAt(0);
  let records = 0;
  let quoted = false;
  let fieldStart = true;
  let lineHasData = false;
  for (let i = 0, n = buf.length; i < n; i++) {
    const c = buf[i]!;
    if (quoted) {
      if (c === QUOTE) {
        if (buf[i + 1] === QUOTE) i++;
        else quoted = false;
      }
      continue;
    }
    if (c === LF) {
      if (lineHasData) records++;
      lineHasData = false;
      fieldStart = true;
    } else if (c !== CR) {
      lineHasData = true;
      if (c === QUOTE && fieldStart) quoted = true;
      fieldStart = c === delim;
    }
  }
  return lineHasData || quoted ? records + 1 : records;
}

/** CSV records of one file (the header excluded; a leading byte-order mark is part of the header). */
function countFile(file: string, delimiter: string): number {
  let buf: Uint8Array = fs.readFileSync(file);
  if (file.endsWith('.gz')) buf = gunzipSync(buf);
  return Math.max(0, countCsvRecords(buf, delimiter) - 1);
}

/**
 * Counts already made, by file path, size and modification time: a second `reii sources list` over unchanged
 * files reads no file. Kept in the user's cache folder ($XDG_CACHE_HOME, else ~/.cache); a cache that cannot be
 * read or written is only slower.
 */
class CountCache {
  private readonly file: string;
  private entries: Record<string, number> = {};
  private changed = false;
  constructor() {
    const base = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
    this.file = path.join(base, 'reii', 'source-rows.json');
    try { this.entries = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, number>; } catch { /* none yet */ }
  }
  count(file: string, delimiter: string): number {
    const st = fs.statSync(file);
    const id = `${path.resolve(file)}\0${st.size}\0${st.mtimeMs}\0${delimiter}`;
    const known = this.entries[id];
    if (typeof known === 'number') return known;
    const n = countFile(file, delimiter);
    this.entries[id] = n;
    this.changed = true;
    return n;
  }
  save(): void {
    if (!this.changed) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(this.entries));
      fs.renameSync(tmp, this.file);
    } catch { /* a read-only home: counted again next time */ }
  }
}

export async function listSources(sourcesDir: string, opts: { cache?: boolean } = {}): Promise<SourceListRow[]> {
  const cache = opts.cache === false ? null : new CountCache();
  const rows: SourceListRow[] = [];
  for (const { source, present, files } of scanSources(sourcesDir)) {
    let count: number | null = null;
    let fileCount = 0;
    for (const f of source.files) {
      const paths = files.get(f.key) ?? [];
      fileCount += paths.length;
      if (f.format !== 'csv') continue;
      const delim = f.delim ?? ',';
      for (const p of paths) count = (count ?? 0) + (cache ? cache.count(p, delim) : countFile(p, delim));
    }
    const misnamed = source.id === 'canonical' && present ? canonicalFolderFindings(sourcesDir).misnamed : [];
    rows.push({ id: source.id, folder: source.folder, present, files: fileCount, rows: count, vintage: source.vintage, licence: source.licence, attribution: source.attribution ?? null, open_data: source.open, misnamed });
  }
  cache?.save();
  return rows;
}
