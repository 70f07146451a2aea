// Which local names `reii sources pull` (pull.ts) gives the files it downloads (the FILE NAMES rules in pull.ts's
// header): the official address's own name, an archive or API answer saved under a hinted name, or, from a mirror,
// every name of the mirror's folder listing that matches the registry glob.
import { request, type Dispatcher } from 'undici';
import type { Logger } from '../../warehouse/log.ts';
import { delayFor, describe, header, isRetryable, parseRetryAfter, sleep, type RetryConfig } from './pull-http.ts';
import { globToRegExp } from './registry.ts';

const ARCHIVE_EXT = /\.(zip|xlsx|xls)$/i;

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

/** Names in a mirror folder listing (JSON array, or HTML hrefs); null when the mirror offers none. */
export async function mirrorListing(folderUrl: string, dispatcher: Dispatcher, cfg: RetryConfig, log: Logger): Promise<string[] | null> {
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
