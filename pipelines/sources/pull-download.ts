// One file of `reii sources pull` (pull.ts): its HTTP download into a hidden .part file with conditional requests,
// resume and retries, renamed into place only when complete (the DOWNLOAD OF ONE FILE rules in pull.ts's header),
// ending as one report row. Never throws.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { Logger } from '../../warehouse/log.ts';
import type { SourceDef, SourceFile } from './registry.ts';
import { sha256File } from '../hash.ts';
import { delayFor, describe, header, isRetryable, parseContentRange, parseRetryAfter, reason, sleep, type RetryConfig } from './pull-http.ts';
import type { StateStore } from './pull-state.ts';

export type PullStatus = 'downloaded' | 'not_modified' | 'resumed' | 'failed' | 'skipped';

export interface PullRow {
  source: string;
  file: string; // <folder>/<name> (or the glob / folder when there is no name)
  status: PullStatus;
  bytes: number;
  sha256: string | null;
  attempts: number; // HTTP requests made for this file
  message: string;
}

export interface Job {
  source: SourceDef;
  entry: SourceFile;
  name: string;
  url: string;
  note: string; // appended to the success message (archive / API hints)
}

export interface FileCtx {
  into: string;
  dispatcher: Dispatcher;
  cfg: RetryConfig;
  log: Logger;
  store: StateStore;
}

/** The outcome of one HTTP attempt. */
type Attempt =
  | { kind: 'done'; status: 'downloaded' | 'not_modified' | 'resumed'; bytes: number; sha256: string }
  | { kind: 'retry'; why: string; retryAfterMs: number | null; immediate?: boolean }
  | { kind: 'fail'; why: string };

export async function pullOne(job: Job, ctx: FileCtx): Promise<PullRow> {
  const rel = `${job.source.folder}/${job.name}`;
  const dir = path.join(ctx.into, job.source.folder);
  const finalPath = path.join(dir, job.name);
  const partPath = path.join(dir, `.${job.name}.part`);
  let attempts = 0;
  let appended = false; // some bytes of this file came from a resumed (206) response
  const row = (status: PullStatus, bytes: number, sha256: string | null, message: string): PullRow =>
    ({ source: job.source.id, file: rel, status, bytes, sha256, attempts, message });
  for (;;) {
    attempts++;
    let out: Attempt;
    try {
      out = await attemptOnce(job, rel, dir, finalPath, partPath, ctx, (v) => { appended = v; });
    } catch (err) {
      out = isRetryable(err) ? { kind: 'retry', why: describe(err), retryAfterMs: null } : { kind: 'fail', why: describe(err) };
    }
    if (out.kind === 'done') {
      const status = out.status === 'downloaded' && appended ? 'resumed' : out.status;
      const message = status === 'not_modified'
        ? 'not modified since the last pull (304)'
        : [status === 'resumed' ? 'resumed a partial download (Range)' : 'downloaded', job.note].filter(Boolean).join('; ');
      ctx.log.info(`pull ${rel}: ${status}`, { bytes: out.bytes, sha256: out.sha256, attempts });
      return row(status, out.bytes, out.sha256, message);
    }
    if (out.kind === 'fail') {
      ctx.log.warn(`pull ${rel}: failed`, { url: job.url, attempts, error: out.why });
      return row('failed', 0, null, `${out.why} (${job.url})`);
    }
    if (attempts > ctx.cfg.retries) {
      ctx.log.warn(`pull ${rel}: failed`, { url: job.url, attempts, error: out.why });
      return row('failed', 0, null, `gave up after ${attempts} attempts: ${out.why} (${job.url})`);
    }
    const wait = out.immediate ? 0 : delayFor(attempts, out.retryAfterMs, ctx.cfg);
    ctx.log.warn(`pull ${rel}: ${out.why}; retrying in ${wait} ms`, { attempt: attempts, of: ctx.cfg.retries + 1 });
    await sleep(wait);
  }
}

async function attemptOnce(job: Job, rel: string, dir: string, finalPath: string, partPath: string, ctx: FileCtx, markAppended: (appended: boolean) => void): Promise<Attempt> {
  const { store } = ctx;
  const partSize = fileSize(partPath) ?? 0;
  const prev = store.state.files[rel];
  const headers: Record<string, string> = { 'user-agent': 'reii-sources-pull', 'accept-encoding': 'identity' };
  let conditional = false;
  if (partSize > 0) {
    headers['range'] = `bytes=${partSize}-`;
    const part = store.state.parts[rel];
    if (part && part.url === job.url) {
      if (part.etag && !part.etag.startsWith('W/')) headers['if-range'] = part.etag;
      else if (part.lastModified) headers['if-range'] = part.lastModified;
    }
  } else if (prev && prev.url === job.url && fileSize(finalPath) === prev.bytes && (prev.etag || prev.lastModified)) {
    if (prev.etag) headers['if-none-match'] = prev.etag;
    if (prev.lastModified) headers['if-modified-since'] = prev.lastModified;
    conditional = true;
  }

  const res = await request(job.url, { dispatcher: ctx.dispatcher, method: 'GET', headers, highWaterMark: BODY_HIGH_WATER_MARK });
  const status = res.statusCode;
  const etag = header(res.headers, 'etag');
  const lastModified = header(res.headers, 'last-modified');

  if (status === 304) {
    await res.body.dump().catch(() => {});
    if (!conditional || !prev) return { kind: 'fail', why: 'HTTP 304 to a request that was not conditional' };
    // Keep the validators fresh (a server may send a new Last-Modified with the 304).
    store.setFile(rel, { ...prev, etag: etag ?? prev.etag, lastModified: lastModified ?? prev.lastModified });
    return { kind: 'done', status: 'not_modified', bytes: prev.bytes, sha256: prev.sha256 };
  }
  if (status === 416 && partSize > 0) {
    await res.body.dump().catch(() => {});
    dropPart(partPath, rel, store);
    return { kind: 'retry', why: `HTTP 416 for bytes=${partSize}- (stale partial download dropped)`, retryAfterMs: null, immediate: true };
  }
  if (status === 429 || status >= 500) {
    await res.body.dump().catch(() => {});
    return { kind: 'retry', why: `HTTP ${status}${reason(status)}`, retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')) };
  }
  if (status !== 200 && status !== 206) {
    await res.body.dump().catch(() => {});
    return { kind: 'fail', why: `HTTP ${status}${reason(status)}${status >= 300 && status < 400 ? ' (redirect not followed)' : ''}` };
  }

  let flags: 'w' | 'a' = 'w';
  let total: number | null = null;
  if (status === 206) {
    const cr = parseContentRange(header(res.headers, 'content-range'));
    if (!cr || cr.start !== partSize) {
      await res.body.dump().catch(() => {});
      dropPart(partPath, rel, store);
      return { kind: 'retry', why: `HTTP 206 with an unexpected Content-Range "${header(res.headers, 'content-range') ?? ''}" for bytes=${partSize}- (partial download dropped)`, retryAfterMs: null, immediate: true };
    }
    flags = 'a';
    total = cr.total;
    markAppended(true);
  } else {
    const len = header(res.headers, 'content-length');
    total = len !== undefined && /^\d+$/.test(len) ? Number(len) : null;
    markAppended(false);
    if (partSize > 0) ctx.log.info(`pull ${rel}: the server sent the whole file; restarting the partial download`);
  }
  // Remember the validators of this download so a later attempt or run can resume it safely.
  if (status === 200 || !store.state.parts[rel]) store.setPart(rel, { url: job.url, etag: etag ?? null, lastModified: lastModified ?? null });

  try {
    fs.mkdirSync(dir, { recursive: true }); // only now: a source whose downloads all fail leaves no empty folder
  } catch (err) {
    await res.body.dump().catch(() => {});
    return { kind: 'fail', why: `cannot create ${dir}: ${describe(err)}` };
  }
  try {
    await writeBody(res.body, partPath, flags);
  } catch (err) {
    const have = fileSize(partPath) ?? 0;
    const e = err as NodeJS.ErrnoException;
    if (!isRetryable(err)) return { kind: 'fail', why: `writing ${partPath}: ${describe(err)}` };
    return { kind: 'retry', why: `${describe(e)} after ${have}${total !== null ? ` of ${total}` : ''} bytes`, retryAfterMs: null };
  }
  const size = fileSize(partPath) ?? 0;
  if (total !== null && size !== total) {
    if (size > total) {
      dropPart(partPath, rel, store);
      return { kind: 'retry', why: `got ${size} bytes, more than the ${total} announced (partial download dropped)`, retryAfterMs: null };
    }
    return { kind: 'retry', why: `connection ended after ${size} of ${total} bytes`, retryAfterMs: null };
  }
  const sha256 = await sha256File(partPath);
  fs.renameSync(partPath, finalPath);
  const part = store.state.parts[rel];
  store.setFile(rel, {
    url: job.url,
    etag: etag ?? part?.etag ?? null,
    lastModified: lastModified ?? part?.lastModified ?? null,
    sha256, bytes: size, pulledAt: new Date().toISOString(),
  }, { dropPart: true });
  return { kind: 'done', status: 'downloaded', bytes: size, sha256 };
}

// undici 7 (through 7.30.2) crashes the process with an uncatchable `AssertionError: assert(!this.paused)`
// when a server closes the connection (Connection: close, HTTP/1.0 servers) while the response parser is
// paused by backpressure (nodejs/undici#5360, fixed only in undici 8). So the body is never allowed to
// push back: it is consumed in flowing mode and each chunk is written synchronously before the next one is
// parsed, with a high-water mark far above one socket read.
const BODY_HIGH_WATER_MARK = 8 * 1024 * 1024;

async function writeBody(body: Readable, file: string, flags: 'w' | 'a'): Promise<void> {
  const fd = fs.openSync(file, flags);
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown): void => {
        if (settled) return;
        settled = true;
        reject(err);
      };
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        try {
          for (let off = 0; off < chunk.length;) off += fs.writeSync(fd, chunk, off, chunk.length - off);
        } catch (err) {
          fail(err);
          body.destroy();
        }
      });
      body.once('end', () => {
        if (!settled) { settled = true; resolve(); }
      });
      body.once('error', fail);
      body.once('close', () => fail(Object.assign(new Error('the response body closed before its end'), { code: 'UND_ERR_SOCKET' })));
    });
  } finally {
    fs.closeSync(fd);
  }
}

function dropPart(partPath: string, rel: string, store: StateStore): void {
  fs.rmSync(partPath, { force: true });
  store.clearPart(rel);
}

function fileSize(p: string): number | null {
  try {
    return fs.statSync(p).size;
  } catch {
    return null;
  }
}
