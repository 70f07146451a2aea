// JSON Schemas of the export routes (spread into api/schemas.ts SCHEMAS) and the OpenAPI touch-ups of the file
// route, whose answer is a file (Parquet, CSV or NDJSON) with 206/304/416, not JSON.
import { EXPORT_DATASET_NAMES, EXPORT_FORMATS } from '../../warehouse/export.ts';
import { CONTENT_TYPES } from './routes.ts';

type Schema = Record<string, unknown>;
const str = { type: 'string' };
const int = { type: 'integer' };
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required, additionalProperties: false });
const dataset = { type: 'string', enum: EXPORT_DATASET_NAMES };

export const EXPORT_SCHEMAS: Record<string, Schema> = {
  ExportList: obj({
    schema_version: int, build_id: str, as_of: str, generated_at: str,
    datasets: { type: 'array', items: obj({ dataset, description: str, rows: int, columns: { type: 'array', items: obj({ name: str, type: str }) } }) },
    files: {
      type: 'array',
      items: obj({
        dataset, format: { type: 'string', enum: [...EXPORT_FORMATS] }, file: str, rows: int, bytes: int,
        sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' }, url: str,
      }),
    },
  }),
  ExportFile: { type: 'string', contentEncoding: 'binary', description: 'The file bytes (Parquet, CSV or NDJSON)' },
};

/** The file route answers with a file: content types per format, 206 (Range), 304 and 416. */
export function patchExportPaths(paths: Record<string, Record<string, unknown>>): void {
  const op = paths['/v1/export/{dataset}']?.['get'] as { responses?: Record<string, unknown>; parameters?: unknown[] } | undefined;
  if (!op?.responses?.['200']) return;
  op.parameters = [
    ...(op.parameters ?? []),
    { name: 'Range', in: 'header', required: false, description: 'One byte range: bytes=a-b, bytes=a- or bytes=-n (206); several ranges get the whole file. The ranges of one file count toward the month once per key per UTC day (the first part sent that day)', schema: str },
    { name: 'If-Range', in: 'header', required: false, description: 'The ETag (or Last-Modified date) the range is for; otherwise the whole file', schema: str },
    { name: 'If-None-Match', in: 'header', required: false, description: 'The ETag: 304 when the file is unchanged', schema: str },
  ];
  const ok = op.responses['200'] as { headers?: Record<string, unknown> };
  const content = Object.fromEntries(EXPORT_FORMATS.map((f) => [CONTENT_TYPES[f].split(';')[0]!, { schema: { $ref: '#/components/schemas/ExportFile' } }]));
  const fileHeaders = {
    ...ok.headers,
    ETag: { description: 'Strong: the quoted sha256 of the file (as in the manifest)', schema: str },
    'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
    'Content-Disposition': { description: 'attachment; filename="reii-<dataset>-<build>.<ext>"', schema: str },
  };
  op.responses = {
    ...op.responses,
    '200': { description: 'The whole file', headers: fileHeaders, content },
    '206': { description: 'The requested byte range (Range, optionally with If-Range)', headers: { ...fileHeaders, 'Content-Range': { schema: str } }, content },
    '304': { description: 'Not modified (If-None-Match matched the ETag)' },
    '416': { description: 'Range not satisfiable; Content-Range: bytes */<size>', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
  };
}
