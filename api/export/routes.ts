// /v1/export (scale plan and up): the export manifest of the build being served, and each dataset file as
// Parquet, CSV or NDJSON with Range support. Files are written by pipelines/export/write.ts.
import fs from 'node:fs';
import path from 'node:path';
import { HttpError } from '../errors.ts';
import type { LoadedBuild } from '../builds.ts';
import type { Route } from '../route.ts';
import { EXPORT_DATASET_NAMES, EXPORT_FORMATS, EXTENSION, type ExportFormat, type ExportManifest } from '../../warehouse/export.ts';
import { sendFile } from './files.ts';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};

const manifests = new Map<string, ExportManifest | null>();

/** The export manifest of a build (cached per build folder; null when the build has no export). */
export function exportManifest(build: LoadedBuild): ExportManifest | null {
  if (!manifests.has(build.dir)) {
    let m: ExportManifest | null = null;
    try {
      m = JSON.parse(fs.readFileSync(path.join(build.dir, 'export', 'manifest.json'), 'utf8')) as ExportManifest;
    } catch {
      m = null;
    }
    if (manifests.size > 16) manifests.clear();
    manifests.set(build.dir, m);
  }
  return manifests.get(build.dir) ?? null;
}

function noExport(build: LoadedBuild): HttpError {
  return new HttpError('no_data', `Build ${build.buildId} has no export files`);
}

export const EXPORT_ROUTES: readonly Route[] = [
  {
    method: 'GET', path: '/v1/export', group: 'export', cacheControl: 'private, max-age=300', response: 'ExportList',
    summary: 'Bulk export files of the current build: dataset, format, rows, bytes, sha256 and download path',
    resolve(_v, build) {
      const m = exportManifest(build);
      if (!m) throw noExport(build);
      return {
        kind: 'json',
        body: {
          schema_version: m.schema_version, build_id: m.build_id, as_of: m.as_of, generated_at: m.generated_at,
          datasets: m.datasets.map((d) => ({ dataset: d.dataset, description: d.description, rows: d.rows, columns: d.columns })),
          files: m.files.map((f) => ({ ...f, url: `/v1/export/${f.dataset}?format=${f.format}` })),
        },
      };
    },
  },
  {
    // no-cache: the URL stays the same across builds, so a cached copy is revalidated with its ETag (a 304
    // costs no quota) instead of being served for a day after a new build replaced it.
    method: 'GET', path: '/v1/export/{dataset}', group: 'export', cacheControl: 'private, no-cache', response: 'ExportFile',
    summary: 'Download one dataset file (Parquet by default); supports Range, If-Range and If-None-Match',
    params: [{ name: 'dataset', type: 'enum', enum: EXPORT_DATASET_NAMES, required: true, description: `Dataset: ${EXPORT_DATASET_NAMES.join(', ')}` }],
    query: [{ name: 'format', type: 'enum', enum: EXPORT_FORMATS, default: 'parquet', description: 'parquet (zstd), csv or ndjson; default parquet' }],
    resolve(v, build) {
      const m = exportManifest(build);
      if (!m) throw noExport(build);
      const format = v['format'] as ExportFormat;
      const entry = m.files.find((f) => f.dataset === v['dataset'] && f.format === format);
      if (!entry) {
        const formats = m.files.filter((f) => f.dataset === v['dataset']).map((f) => f.format);
        const why = formats.length ? ` as ${format} (this dataset is exported as ${formats.join(', ')})`
          : m.skipped.some((s) => s.dataset === v['dataset']) ? ' (its table was not built)' : '';
        throw new HttpError('no_data', `Dataset ${String(v['dataset'])} is not in build ${build.buildId}${why}`);
      }
      const abs = path.join(build.dir, 'export', entry.file);
      let size: number;
      try {
        size = fs.statSync(abs).size;
      } catch {
        throw new HttpError('no_data', `Export file ${entry.file} is missing from build ${build.buildId}`);
      }
      return {
        kind: 'custom',
        send: (req, res, head) => sendFile(req, res, {
          abs, size, etag: `"${entry.sha256}"`, contentType: CONTENT_TYPES[format],
          lastModified: build.lastModified,
          downloadName: `reii-${entry.dataset}-${m.build_id}.${EXTENSION[format]}`,
        }, head),
      };
    },
  },
];
