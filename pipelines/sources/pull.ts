// `reii sources pull`: download the open-data sources (registry entries with a `url`) into a sources folder
// laid out like ../shared/data, so `reii build --sources <into>` can read them.
//
// WHICH FILES
//   Every file entry with a `url` of every source with `open: true`. With `only`, just those ids; a named
//   source that is not open, or an open source's file without a `url`, is a 'skipped' row saying why;
//   an unknown id is a 'failed' row.
//
// FILE NAMES (the local name inside <into>/<folder>/)
//   Official addresses (no baseUrl), in order:
//     1. the URL's last path segment (percent-decoded) when it matches the registry glob: ready to build;
//     2. else, when that segment names an archive or spreadsheet (.zip, .xlsx, .xls): saved as-is under that
//        name, and the row says so ("zip archive saved; unpack before building"): the build's glob does not
//        match it, so nothing half-usable is loaded;
//     3. else, an API endpoint (a query string, e.g. the Census API): the glob without its `*` wildcards with
//        the extension replaced by .json ("API JSON saved; convert to CSV before building");
//     4. else (an extensionless export such as .../SEMS_ACTIVE_SITES/CSV): the glob without its `*`
//        wildcards (sems_active_sites_*.csv* -> sems_active_sites_.csv).
//   Mirror (baseUrl set; laid out like ../shared/data): the URL is <baseUrl>/<folder>/<name>. The names are
//   read from the mirror's folder listing (GET <baseUrl>/<folder>/: a JSON array of names, or an HTML
//   index with href links as nginx autoindex or `python -m http.server` serve), keeping every name that
//   matches the glob (several may). Without a listing, the glob without its `*` wildcards. A listing with
//   no matching name is a 'failed' row.
//
// DOWNLOAD OF ONE FILE (undici `request`, p-limit for `concurrency` files at a time)
//   - Bytes go to <folder>/.<name>.part (hidden: the build's globs, e.g. `2025_Gaz_place_national.txt*`,
//     would otherwise match `<name>.part`), renamed into place only when complete and, when the server
//     announced a length (Content-Length, or the total of Content-Range), exactly that long. A failure never
//     leaves anything at the final name; the previous complete file there (if any) is kept.
//   - Conditional: <into>/.pull-state.json keeps, per <folder>/<name>: url, ETag, Last-Modified, sha256,
//     bytes. When the final file is there with the recorded size and the same url, the request carries
//     If-None-Match / If-Modified-Since; a 304 is 'not_modified' (bytes and sha256 from the state).
//   - Resume: when a .part exists the request carries `Range: bytes=<size>-` (and If-Range with the ETag,
//     else Last-Modified, the server gave for that partial download, recorded in the state when it began).
//     206 with a Content-Range starting at <size> appends ('resumed'); 200 restarts from zero; 416 or a
//     Content-Range starting elsewhere drops the .part and restarts.
//   - Retries, up to `retries` more attempts, with exponential backoff plus jitter
//     (backoffMs * 2^(n-1), at most maxBackoffMs, randomised between half and all of it): network errors,
//     timeouts (`fetchTimeoutMs` for connecting, for the headers and between body chunks), a body shorter
//     than announced, 5xx and 429. Retry-After (seconds or an HTTP date) is honoured, up to 2 minutes. Other
//     statuses (4xx, unfollowed 3xx) fail at once. A retry after a cut body resumes from the .part.
//   - sha256 of the completed file goes into the state and the report.
//   - Nothing throws: each file ends as one row; log lines per file (info on success, warn on retries and
//     failures). Rows come back in registry order.
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pLimit from 'p-limit';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { Logger } from '../../warehouse/log.ts';
import { CliError, EXIT } from '../../warehouse/errors.ts';
import { SOURCES, type SourceDef, type SourceFile } from './registry.ts';
import { sha256File } from '../hash.ts';

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

export interface PullOptions {
  into: string;
  baseUrl?: string;
  concurrency: number;
  only?: string[];
  log: Logger;
  /** Connect, headers and body-idle timeout of one request. Default 60 s. */
  fetchTimeoutMs?: number;
  /** Further attempts after the first one fails for a retryable reason. Default 4. */
  retries?: number;
  /** First backoff delay; doubles each retry. Default 500 ms. */
  backoffMs?: number;
  /** Longest backoff delay (Retry-After may ask for up to 2 minutes). Default 30 s. */
  maxBackoffMs?: number;
}

export const STATE_FILE = '.pull-state.json';
const MAX_RETRY_AFTER_MS = 120_000;
const ARCHIVE_EXT = /\.(zip|xlsx|xls)$/i;

interface FileState {
  url: string;
  etag: string | null;
  lastModified: string | null;
  sha256: string;
  bytes: number;
  pulledAt: string;
}
interface PartState {
  url: string;
  etag: string | null;
  lastModified: string | null;
}
interface PullState {
  version: 1;
  files: Record<string, FileState>;
  parts: Record<string, PartState>;
}

interface Job {
  source: SourceDef;
  entry: SourceFile;
  name: string;
  url: string;
  note: string; // appended to the success message (archive / API hints)
}

type Planned = { job: Job } | { row: PullRow };

export function globToRegExp(glob: string): RegExp {
  return new RegExp('^' + glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
}

/** Local name for an official address (rules 1-4 of the header) and the hint for the report. */
export function officialFileName(glob: string, url: string): { name: string; note: string } {
  const u = new URL(url);
  const segments = u.pathname.split('/').filter(Boolean);
  let last = segments.at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch { /* keep it encoded */ }
  const stem = glob.replaceAll('*', '');
  if (last && globToRegExp(glob).test(last)) return { name: last, note: '' };
  if (ARCHIVE_EXT.test(last)) {
    const zip = /\.zip$/i.test(last);
    return {
      name: last,
      note: zip ? `zip archive saved; unpack before building (the build reads ${glob})` : `spreadsheet saved; export it as ${stem} before building`,
    };
  }
  if (u.search) {
    const name = /\.[^.]+$/.test(stem) ? stem.replace(/\.[^.]+$/, '.json') : `${stem}.json`;
    return { name, note: `API JSON saved; convert to CSV as ${stem} before building` };
  }
  return { name: stem, note: '' };
}

export async function pullSources(opts: PullOptions): Promise<PullRow[]> {
  const { into, log } = opts;
  if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1 || opts.concurrency > 64) {
    throw new CliError(`--concurrency must be a whole number from 1 to 64, got ${String(opts.concurrency)}`, { exitCode: EXIT.usage });
  }
  let baseUrl: string | undefined;
  if (opts.baseUrl !== undefined) {
    try {
      const u = new URL(opts.baseUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      throw new CliError(`--base-url must be an http(s) address, got "${opts.baseUrl}"`, { exitCode: EXIT.usage });
    }
    baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }
  const timeout = opts.fetchTimeoutMs ?? 60_000;
  const cfg: RetryConfig = {
    retries: Math.max(0, opts.retries ?? 4),
    backoffMs: Math.max(0, opts.backoffMs ?? 500),
    maxBackoffMs: Math.max(0, opts.maxBackoffMs ?? 30_000),
  };
  fs.mkdirSync(into, { recursive: true });
  const agent = new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
  const store = new StateStore(path.join(into, STATE_FILE), log);
  try {
    const planned = await plan({ baseUrl, only: opts.only, dispatcher, cfg, log });
    const limit = pLimit(opts.concurrency);
    const jobs = planned.filter((p): p is { job: Job } => 'job' in p).length;
    log.info(`sources pull: ${jobs} file(s) into ${into}${baseUrl ? ` from mirror ${baseUrl}` : ' from official addresses'}`);
    return await Promise.all(planned.map((p) => ('row' in p ? Promise.resolve(p.row) : limit(() => pullOne(p.job, { into, dispatcher, cfg, log, store })))));
  } finally {
    await agent.close().catch(() => {});
  }
}

// ---------------------------------------------------------------- planning

async function plan(o: { baseUrl: string | undefined; only: string[] | undefined; dispatcher: Dispatcher; cfg: RetryConfig; log: Logger }): Promise<Planned[]> {
  const out: Planned[] = [];
  const known = new Set(SOURCES.map((s) => s.id));
  for (const id of o.only ?? []) {
    if (!known.has(id)) {
      out.push({ row: { source: id, file: '', status: 'failed', bytes: 0, sha256: null, attempts: 0, message: `unknown source id "${id}" (open sources: ${SOURCES.filter((s) => s.open).map((s) => s.id).join(', ')})` } });
      o.log.warn(`sources pull: unknown source id "${id}"`);
    }
  }
  const selected = o.only ? SOURCES.filter((s) => o.only!.includes(s.id)) : SOURCES.filter((s) => s.open);
  for (const source of selected) {
    const skip = (file: string, message: string): void => {
      out.push({ row: { source: source.id, file, status: 'skipped', bytes: 0, sha256: null, attempts: 0, message } });
    };
    if (!source.open) {
      skip(source.folder, `not an open-data source (${source.licence}): place its files in ${source.folder}/ by hand`);
      continue;
    }
    let listing: string[] | null | undefined; // undefined: not fetched yet; null: the mirror has none
    for (const entry of source.files) {
      if (!entry.url) {
        skip(`${source.folder}/${entry.glob}`, `no official download address: place ${entry.glob} in ${source.folder}/ by hand`);
        continue;
      }
      if (!o.baseUrl) {
        const { name, note } = officialFileName(entry.glob, entry.url);
        out.push({ job: { source, entry, name, url: entry.url, note } });
        continue;
      }
      const folderUrl = `${o.baseUrl}/${encodeURIComponent(source.folder)}/`;
      if (listing === undefined) listing = await mirrorListing(folderUrl, o.dispatcher, o.cfg, o.log);
      const re = globToRegExp(entry.glob);
      const names = listing === null
        ? [entry.glob.replaceAll('*', '')]
        : listing.filter((n) => re.test(n) && !n.endsWith('.md') && !n.endsWith('.part')).sort();
      if (names.length === 0) {
        out.push({ row: { source: source.id, file: `${source.folder}/${entry.glob}`, status: 'failed', bytes: 0, sha256: null, attempts: 1, message: `the mirror's listing ${folderUrl} has no file matching ${entry.glob}` } });
        o.log.warn(`sources pull: ${source.id}: mirror lists no file matching ${entry.glob}`, { url: folderUrl });
        continue;
      }
      for (const name of names) {
        const note = /\.zip$/i.test(name) ? `zip archive saved; unpack before building (the build reads ${entry.glob})` : '';
        out.push({ job: { source, entry, name, url: folderUrl + encodeURIComponent(name), note } });
      }
    }
  }
  return out;
}

/** Names in a mirror folder listing (JSON array, or HTML hrefs); null when the mirror offers none. */
async function mirrorListing(folderUrl: string, dispatcher: Dispatcher, cfg: RetryConfig, log: Logger): Promise<string[] | null> {
  for (let attempt = 1; ; attempt++) {
    let why: string;
    let retryAfter: number | null = null;
    try {
      const res = await request(folderUrl, { dispatcher, method: 'GET', headers: { accept: 'application/json, text/html;q=0.9', 'user-agent': 'reii-sources-pull' } });
      if (res.statusCode === 200) {
        const text = await res.body.text();
        const names = parseListing(text, header(res.headers, 'content-type') ?? '');
        if (names) return names;
        log.warn(`sources pull: ${folderUrl} is not a folder listing; using the registry globs without wildcards as names`);
        return null;
      }
      await res.body.dump().catch(() => {});
      if (res.statusCode !== 429 && res.statusCode < 500) {
        log.warn(`sources pull: no folder listing at ${folderUrl} (HTTP ${res.statusCode}); using the registry globs without wildcards as names`);
        return null;
      }
      why = `HTTP ${res.statusCode}`;
      retryAfter = parseRetryAfter(header(res.headers, 'retry-after'));
    } catch (err) {
      if (!isRetryable(err)) {
        log.warn(`sources pull: folder listing ${folderUrl} failed: ${describe(err)}; using the registry globs without wildcards as names`);
        return null;
      }
      why = describe(err);
    }
    if (attempt > cfg.retries) {
      log.warn(`sources pull: folder listing ${folderUrl} failed after ${attempt} attempts (${why}); using the registry globs without wildcards as names`);
      return null;
    }
    await sleep(delayFor(attempt, retryAfter, cfg));
  }
}

export function parseListing(text: string, contentType: string): string[] | null {
  if (/json/i.test(contentType) || /^\s*\[/.test(text)) {
    try {
      const v: unknown = JSON.parse(text);
      if (Array.isArray(v)) {
        return v.map((x) => (typeof x === 'string' ? x : x && typeof x === 'object' && typeof (x as { name?: unknown }).name === 'string' ? (x as { name: string }).name : null))
          .filter((x): x is string => x !== null && !x.includes('/'));
      }
    } catch { /* not JSON */ }
    if (/json/i.test(contentType)) return null;
  }
  if (!/<a\s/i.test(text)) return null;
  const names = new Set<string>();
  for (const m of text.matchAll(/href\s*=\s*["']([^"'?#]+)["']/gi)) {
    let href = m[1]!.replace(/^\.\//, '');
    try {
      href = decodeURIComponent(href);
    } catch { continue; }
    if (!href || href.includes('/') || href.startsWith('.')) continue;
    names.add(href);
  }
  return [...names];
}

// ---------------------------------------------------------------- one file

interface RetryConfig {
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
}

interface FileCtx {
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

async function pullOne(job: Job, ctx: FileCtx): Promise<PullRow> {
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

// ---------------------------------------------------------------- state

class StateStore {
  readonly state: PullState;
  constructor(private readonly file: string, log: Logger) {
    this.state = { version: 1, files: {}, parts: {} };
    let text: string | null = null;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch { /* first pull */ }
    if (text !== null) {
      try {
        const v = JSON.parse(text) as Partial<PullState>;
        if (v && typeof v === 'object') {
          if (v.files && typeof v.files === 'object') this.state.files = v.files;
          if (v.parts && typeof v.parts === 'object') this.state.parts = v.parts;
        }
      } catch (err) {
        log.warn(`sources pull: ignoring unreadable ${file} (every file is downloaded again)`, { error: describe(err) });
      }
    }
  }
  setFile(rel: string, s: FileState, o: { dropPart?: boolean } = {}): void {
    this.state.files[rel] = s;
    if (o.dropPart) delete this.state.parts[rel];
    this.save();
  }
  setPart(rel: string, p: PartState): void {
    this.state.parts[rel] = p;
    this.save();
  }
  clearPart(rel: string): void {
    if (!(rel in this.state.parts)) return;
    delete this.state.parts[rel];
    this.save();
  }
  /** Synchronous and atomic (temp file + rename): concurrent downloads in this process never interleave writes. */
  private save(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    const sorted = (r: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]]));
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, files: sorted(this.state.files), parts: sorted(this.state.parts) }, null, 2) + '\n');
    fs.renameSync(tmp, this.file);
  }
}

// ---------------------------------------------------------------- helpers

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function fileSize(p: string): number | null {
  try {
    return fs.statSync(p).size;
  } catch {
    return null;
  }
}

export function parseContentRange(v: string | undefined): { start: number; end: number; total: number | null } | null {
  const m = v ? /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(v.trim()) : null;
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

/** Retry-After in ms (delta seconds or an HTTP date), or null. */
export function parseRetryAfter(v: string | undefined, now = Date.now()): number | null {
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

function delayFor(attempt: number, retryAfterMs: number | null, cfg: RetryConfig): number {
  const exp = Math.min(cfg.maxBackoffMs, cfg.backoffMs * 2 ** (attempt - 1));
  const jittered = Math.round(exp / 2 + Math.random() * (exp / 2));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// Errors that retrying cannot fix: bad arguments, local disk trouble, a name that does not resolve.
const FATAL_CODES = new Set([
  'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL', 'UND_ERR_HEADERS_OVERFLOW',
  'ENOSPC', 'EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOTDIR', 'EDQUOT', 'EMFILE', 'ENOTFOUND',
]);

function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && FATAL_CODES.has(code));
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const cause = err.cause instanceof Error ? err.cause : null;
  const causeCode = cause ? (cause as NodeJS.ErrnoException).code : undefined;
  const what: Record<string, string> = {
    UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
    UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response headers',
    UND_ERR_BODY_TIMEOUT: 'timed out waiting for body data',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'body shorter than its Content-Length',
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
  };
  const c = code && what[code] ? code : causeCode && what[causeCode] ? causeCode : null;
  if (c) {
    const host = (err as { hostname?: unknown }).hostname ?? (cause as { hostname?: unknown } | null)?.hostname;
    return `${what[c]}${typeof host === 'string' ? ` ${host}` : ''} (${c})`;
  }
  const msg = err.message || cause?.message || 'error';
  return code ? `${msg} (${code})` : msg;
}

function reason(status: number): string {
  const r: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 429: 'Too Many Requests',
    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return r[status] ? ` ${r[status]}` : '';
}
