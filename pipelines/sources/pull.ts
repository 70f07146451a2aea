// `reii sources pull`: download the open-data sources (registry entries with a `url`) into a sources folder
// laid out like ../shared/data, so `reii build --sources <into>` can read them.
//
// WHICH FILES
//   Every file entry with a `url` of every source with `open: true`. With `only`, just those ids; a named
//   source that is not open, or an open source's file without a `url`, is a 'skipped' row saying why;
//   an unknown id is a 'failed' row.
//
// FILE NAMES (the local name inside <into>/<folder>/; pull-names.ts)
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
// DOWNLOAD OF ONE FILE (pull-download.ts, its state file pull-state.ts; undici `request`, p-limit for
// `concurrency` files at a time)
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
//     statuses (4xx, unfollowed 3xx) fail at once. A retry after a cut body resumes from the .part (pull-http.ts).
//   - sha256 of the completed file goes into the state and the report.
//   - Nothing throws: each file ends as one row; log lines per file (info on success, warn on retries and
//     failures). Rows come back in registry order.
import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { Agent, interceptors, type Dispatcher } from 'undici';
import type { Logger } from '../../warehouse/log.ts';
import { CliError, EXIT } from '../../warehouse/errors.ts';
import { SOURCES, globToRegExp } from './registry.ts';
import { pullOne, type Job, type PullRow } from './pull-download.ts';
import type { RetryConfig } from './pull-http.ts';
import { mirrorListing, officialFileName } from './pull-names.ts';
import { StateStore, STATE_FILE } from './pull-state.ts';

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

type Planned = { job: Job } | { row: PullRow };

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
