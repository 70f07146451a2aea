// `reii sources list`: each registered source, present or absent, with file and row counts.
import fs from 'node:fs';
import { scanSources } from './index.ts';

export interface SourceListRow {
  id: string;
  folder: string;
  present: boolean;
  files: number;
  rows: number | null; // lines of the CSV files (header excluded); null when absent or not CSV
  vintage: string;
  licence: string;
  attribution: string | null;
  open_data: boolean;
}

async function countLines(file: string): Promise<number> {
  const { createGunzip } = await import('node:zlib');
  let stream: NodeJS.ReadableStream = fs.createReadStream(file);
  if (file.endsWith('.gz')) stream = stream.pipe(createGunzip());
  let n = 0;
  for await (const chunk of stream) for (const b of chunk as Buffer) if (b === 10) n++;
  return n;
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
      for (const p of paths) count = (count ?? 0) + Math.max(0, (await countLines(p)) - 1);
    }
    rows.push({ id: source.id, folder: source.folder, present, files: fileCount, rows: count, vintage: source.vintage, licence: source.licence, attribution: source.attribution ?? null, open_data: source.open });
  }
  return rows;
}
