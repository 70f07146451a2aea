// `reii sources list`: each registered source, present or absent, with file and row counts.
import fs from 'node:fs';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { scanSources } from './index.ts';

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
}

/** CSV records (the header excluded), parsed properly: quoted line breaks and a missing final newline count right. */
async function countRecords(file: string, delimiter: string): Promise<number> {
  let stream: NodeJS.ReadableStream = fs.createReadStream(file);
  if (file.endsWith('.gz')) stream = stream.pipe(createGunzip());
  const parser = stream.pipe(parse({ delimiter, bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }));
  let n = 0;
  for await (const _record of parser) n++;
  return Math.max(0, n - 1);
}

export async function listSources(sourcesDir: string): Promise<SourceListRow[]> {
  const rows: SourceListRow[] = [];
  for (const { source, present, files } of scanSources(sourcesDir)) {
    let count: number | null = null;
    let fileCount = 0;
    for (const f of source.files) {
      const paths = files.get(f.key) ?? [];
      fileCount += paths.length;
      if (f.format !== 'csv') continue;
      for (const p of paths) count = (count ?? 0) + (await countRecords(p, f.delim ?? ','));
    }
    rows.push({ id: source.id, folder: source.folder, present, files: fileCount, rows: count, vintage: source.vintage, licence: source.licence, attribution: source.attribution ?? null, open_data: source.open });
  }
  return rows;
}
