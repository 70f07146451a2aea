// Serving one export file: strong ETag from the manifest's sha256, 304 on If-None-Match, single byte ranges
// (206 + Content-Range; If-Range with an ETag or the Last-Modified date; 416 when unsatisfiable), attachment
// disposition, and a stream that never holds the file in memory. Multi-range requests get the whole file (200).
import fs from 'node:fs';
import type http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../errors.ts';
import type { HeadFor } from '../route.ts';
import { contentLength, NOSNIFF, send, sendsBody } from '../send.ts';

export interface FileToSend {
  abs: string;
  size: number;
  etag: string; // strong, quoted
  lastModified: string; // HTTP date
  contentType: string;
  downloadName: string;
}

export type RangeResult = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range of a file of `size` bytes; null = ignore the header (absent, malformed or several ranges). */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return null;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m) return null; // several ranges, other units or garbage: serve the whole file
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (b !== '' && Number(b) < start) return null; // invalid: ignored (RFC 9110 14.1.1)
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

function ifRangeMatches(ifRange: string, etag: string, lastModified: string): boolean {
  const v = ifRange.trim();
  if (v.startsWith('W/')) return false; // weak validators never match If-Range
  if (v.startsWith('"')) return v === etag;
  const d = Date.parse(v);
  return !Number.isNaN(d) && d === Date.parse(lastModified);
}

function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => { const x = t.trim(); return x === '*' || x === etag || x === `W/${etag}`; });
}

/** Sends the file (or a range of it); returns the status sent. */
export async function sendFile(req: http.IncomingMessage, res: http.ServerResponse, f: FileToSend, head: HeadFor): Promise<number> {
  const headers: Record<string, string> = {
    ...NOSNIFF,
    'Accept-Ranges': 'bytes',
    ETag: f.etag,
    'Last-Modified': f.lastModified,
    'Content-Disposition': `attachment; filename="${f.downloadName}"`,
  };
  if (noneMatch(req.headers['if-none-match'], f.etag)) {
    send(res, req.method, 304, { ...(await head(304)), ...headers });
    return 304;
  }
  let range = parseRange(typeof req.headers.range === 'string' ? req.headers.range : undefined, f.size);
  const ifRange = req.headers['if-range'];
  if (range !== null && typeof ifRange === 'string' && !ifRangeMatches(ifRange, f.etag, f.lastModified)) range = null;
  if (range === 'unsatisfiable') {
    throw new HttpError('range_not_satisfiable', `Range not satisfiable: the file has ${f.size} bytes`, { headers: { 'Content-Range': `bytes */${f.size}`, 'Accept-Ranges': 'bytes' } });
  }
  const status = range ? 206 : 200;
  const start = range?.start ?? 0;
  const end = range?.end ?? f.size - 1;
  const length = f.size === 0 ? 0 : end - start + 1;
  const contentRange = range ? `bytes ${start}-${end}/${f.size}` : undefined;
  // The body is streamed from the file, not held: only the head goes by send.ts's rules.
  res.writeHead(status, {
    ...(await head(status, contentRange, f.etag)),
    ...headers,
    'Content-Type': f.contentType,
    ...contentLength(status, length),
    ...(contentRange ? { 'Content-Range': contentRange } : {}),
  });
  if (!sendsBody(req.method, status) || length === 0) {
    res.end();
    return status;
  }
  try {
    await pipeline(fs.createReadStream(f.abs, { start, end }), res);
  } catch {
    res.destroy(); // client went away mid-download: nothing more to send
  }
  return status;
}
