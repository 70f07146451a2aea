// In a real browser: Debian's headless chromium (scripts/ensure-chromium.sh installs it; CI runs that script),
// driven by puppeteer-core. /docs shows every path of /v1/openapi.json; the build report shows its charts; a page
// on another origin calls the API with the key header, allowed when its origin is listed in REII_CORS_ORIGINS
// and refused by the browser when not. Screenshots are kept in reports/browser/ (git-ignored; CI's artifact).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeReport } from '../../pipelines/report.ts';
import type { Manifest } from '../../pipelines/manifest.ts';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { cleanupCli, env, reii, served, stop, tmp, type Served } from '../helpers/cli.ts';
import { repoPath } from '../helpers/paths.ts';

const SHOTS = repoPath('reports', 'browser');

function chromiumPath(): string {
  for (const name of [process.env['REII_CHROMIUM'], 'chromium', 'chromium-browser'].filter(Boolean) as string[]) {
    try { return execFileSync('sh', ['-c', `command -v "${name}"`], { encoding: 'utf8' }).trim(); } catch { /* next */ }
  }
  throw new Error('no chromium on PATH: run `bash scripts/ensure-chromium.sh` (CI does) or set REII_CHROMIUM');
}

/** A page server on its own origin (127.0.0.1, a port of its own): an empty page to run fetch from. */
async function pageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('<!doctype html><title>another origin</title><p>page'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // close() waits for every open connection, and chromium keeps its idle (and speculative) sockets to the page open
  // while it runs: that wait was 98 of this file's 112 seconds. The pages are done when this runs, so cut them.
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

let browser: Browser;
beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
  cleanupCli();
});

describe('in headless chromium', () => {
  let s: Served;
  let key: string;
  let allowed: Awaited<ReturnType<typeof pageServer>>;
  let other: Awaited<ReturnType<typeof pageServer>>;
  beforeAll(async () => {
    [allowed, other] = await Promise.all([pageServer(), pageServer()]);
    const e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp(), REII_CORS_ORIGINS: allowed.origin });
    const created = await reii(['keys', 'create', '--plan', 'starter', '--json'], e);
    expect(created.code, created.stderr).toBe(0);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    s = await served(['serve', '--port', '0'], e).ready;
  });
  afterAll(async () => {
    if (s) await stop(s);
    await Promise.all([allowed?.close(), other?.close()]);
  });

  test('/docs shows every path of /v1/openapi.json, each with its operations', async () => {
    const doc = (await (await fetch(`${s.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>>; webhooks?: Record<string, Record<string, unknown>> };
    const want = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'delete', 'put', 'patch'].includes(m)).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith(s.url) && !r.url().startsWith('data:')) external.push(r.url()); });
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${s.url}/docs`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${want.length}`, { timeout: 60_000 });
    const shown = await page.$$eval('.opblock', (els) => els.map((el) => `${el.querySelector('.opblock-summary-method')?.textContent?.trim()} ${el.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`));
    expect(shown.filter((x) => x.split(' ')[1]!.startsWith('/')).sort()).toEqual(want);
    // the document's webhooks (events the service sends) are shown too, after the paths
    const events = Object.entries(doc.webhooks ?? {}).flatMap(([name, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${name}`)).sort();
    expect(shown.filter((x) => !x.split(' ')[1]!.startsWith('/')).sort()).toEqual(events);
    expect(await page.$eval('#getting-started', (el) => el.textContent)).toBe('Getting started');
    expect(external).toEqual([]); // nothing from a CDN
    await page.screenshot({ path: path.join(SHOTS, 'docs.png'), fullPage: false });
    await page.close();
  }, 120_000);

  test('a page on a listed origin fetches with the key header; a page on another origin is refused by the browser', async () => {
    const call = async (origin: string): Promise<{ ok: boolean; status?: number; plan?: string; error?: string }> => {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        return await page.evaluate(async (api: string, k: string) => {
          try {
            const r = await fetch(`${api}/v1/usage`, { headers: { 'X-Service-Key': k } });
            return { ok: true, status: r.status, plan: ((await r.json()) as { plan: string }).plan };
          } catch (e) { return { ok: false, error: String(e) }; }
        }, s.url, key);
      } finally { await page.close(); }
    };
    expect(await call(allowed.origin)).toEqual({ ok: true, status: 200, plan: 'starter' });
    const refused = await call(other.origin);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/Failed to fetch/);
    // the public coverage summary is readable from any origin, without a key
    const page = await browser.newPage();
    await page.goto(`${other.origin}/`);
    const coverage = await page.evaluate(async (api: string) => ((await (await fetch(`${api}/v1/coverage/summary`)).json()) as { states: number }).states, s.url);
    await page.close();
    expect(coverage).toBe(50);
  }, 120_000);
});

test('the build report shows at least six charts, each drawn as SVG with marks', async () => {
  // The report of the shared test build, written into a copy of its folder (manifest, sections, the shards linked).
  const root = tmp('reii-report-');
  const src = buildDir();
  const dir = path.join(root, 'builds', path.basename(src));
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['manifest.json', 'report-sections.json']) if (fs.existsSync(path.join(src, f))) fs.copyFileSync(path.join(src, f), path.join(dir, f));
  fs.symlinkSync(path.join(src, 'shards'), path.join(dir, 'shards'));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  await writeReport(dir, manifest);
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 1400 });
  await page.goto(`file://${path.join(dir, 'report.html')}`, { waitUntil: 'load' });
  const charts = await page.$$eval('figure.chart', (figs) => figs.map((f) => {
    const svg = f.querySelector('svg');
    const box = svg?.getBoundingClientRect();
    // the data marks (Vega's role-mark groups: bars, map shapes), each drawn with an area, not the axes
    const marks = [...(svg?.querySelectorAll('g.role-mark path, g.role-mark rect') ?? [])].filter((m) => {
      const b = (m as unknown as { getBBox(): { width: number; height: number } }).getBBox();
      return b.width > 0 && b.height > 0;
    }).length;
    return { title: f.querySelector('figcaption')?.textContent ?? '', marks, width: box?.width ?? 0, height: box?.height ?? 0 };
  }));
  expect(charts.length).toBeGreaterThanOrEqual(6);
  for (const c of charts) {
    expect(c.marks, c.title).toBeGreaterThanOrEqual(3);
    expect(c.width * c.height, c.title).toBeGreaterThan(10_000);
  }
  const titles = charts.map((c) => c.title).join('\n');
  for (const t of ['Rows read per source', 'Rows per table, by stage', 'Rejected rows by rule', 'Stage timings', 'AVM back-test', 'AVM calibration', 'Coverage by state', 'Comps of the largest markets']) expect(titles).toContain(t);
  await page.screenshot({ path: path.join(SHOTS, 'report.png'), fullPage: false });
  await page.close();
}, 180_000);
