// report.html against the previous published build: the stage-timings chart has both builds and the diff names
// the tables whose row count changed, by how much; with no earlier build it says so. Manifests written here. Over the
// shared real build: the trends chart's points are the warehouse's monthly medians.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeReport } from '../../pipelines/report.ts';
import { chartSpecs } from '../../pipelines/report-charts.ts';
import type { Manifest } from '../../pipelines/manifest.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';
import { buildDir, warehouseRows } from '../helpers/build.ts';
import { readReportSections } from '../../warehouse/build-folder.ts';

afterAll(removeTmpDirs);

const manifest = (id: string, status: Manifest['status'], tables: [string, number][], seconds: number): Manifest => ({
  format_version: 1, build_id: id, as_of: '2026-11-21', built_at: '2026-11-21T06:00:00.000Z', status, only_stages: null,
  sources: [{ id: 'nyc', present: true, files: [{ file: 'nyc/a.csv', rows: 10 }], rejected_rows: 1, licence: 'x', vintage: '2021-04..2022-03' }],
  stages: [{ name: 'sources', seconds }, { name: 'marts', seconds: seconds * 2 }],
  rejects: { total: 1, by_source: [{ source: 'nyc', rule: 'bad_date', rows: 1, breaks_contract: true }], by_file: [] },
  checks: [], shards: { total: 3, by_family: { comps: 3 }, bytes: 10 }, tables: tables.map(([name, rows]) => ({ name, rows })), attribution: [], peak_rss_mb: 100,
} as Manifest);

function builds(): string {
  const root = path.join(tmp('reii-report-diff-'), 'builds');
  fs.mkdirSync(root, { recursive: true });
  return root;
}
function put(root: string, m: Manifest): string {
  const dir = path.join(root, m.build_id);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
  return dir;
}

test('against the previous published build: timings of both, and the tables whose rows changed', async () => {
  const root = builds();
  put(root, manifest('20261120T000000000Z-aaaaaa', 'published', [['sales', 100], ['mart_comps', 50], ['gone_table', 5]], 10));
  put(root, manifest('20261120T120000000Z-bbbbbb', 'checks_failed', [['sales', 1]], 99)); // not published: not compared
  const m = manifest('20261121T000000000Z-cccccc', 'published', [['sales', 120], ['mart_comps', 50], ['new_table', 7]], 12);
  const dir = put(root, m);
  const timings = chartSpecs(dir, m, []).find((c) => c.id === 'stage-timings')!;
  const values = (timings.spec['data'] as { values: { stage: string; build: string; seconds: number }[] }).values;
  expect(values.filter((v) => v.build.startsWith('previous')).map((v) => [v.stage, v.seconds])).toEqual([['sources', 10], ['marts', 20]]);
  expect(values.filter((v) => v.build.startsWith('this')).map((v) => [v.stage, v.seconds])).toEqual([['sources', 12], ['marts', 24]]);

  await writeReport(dir, m);
  const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  expect(html).toContain('Against build 20261120T000000000Z-aaaaaa');
  expect(html).toContain('<tr><td>sales</td><td>100</td><td>120</td><td>20</td><td>20.0%</td></tr>');
  expect(html).toContain('<tr><td>gone_table</td><td>5</td><td>gone</td><td></td><td></td></tr>');
  expect(html).toContain('<tr><td>new_table</td><td>new</td><td>7</td><td></td><td></td></tr>');
  expect(html).not.toContain('<td>mart_comps</td><td>50</td>'); // unchanged tables are not listed
  expect(html).toContain('<td>2021-04..2022-03</td>'); // the source's vintage
  expect(html.match(/<figure class="chart"/g)?.length).toBeGreaterThanOrEqual(4);
});

test('the first build: no comparison, said in words', async () => {
  const root = builds();
  const m = manifest('20261121T000000000Z-cccccc', 'published', [['sales', 1]], 1);
  const dir = put(root, m);
  await writeReport(dir, m);
  const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  expect(html).toContain('No earlier published build in this artifacts folder to compare with.');
  expect(html).toContain('Stage timings (no previous published build to compare)');
});

describe('over the shared real build', () => {
  test('the trends chart draws the last 24 months of each source\'s largest market, each point the warehouse\'s market_monthly median', async () => {
    const dir = buildDir();
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const sections = readReportSections(dir);
    const section = sections.find((s) => s.title.startsWith('Market trends: the largest market of each source'))!;
    expect(section.rows.length).toBeGreaterThanOrEqual(5); // one per sales source
    const chart = chartSpecs(dir, m, sections).find((c) => c.id === 'trends-largest-markets')!;
    const points = (chart.spec['data'] as { values: { market: string; month: string; median_price: number }[] }).values;
    const monthly = await warehouseRows<{ label: string; month: string; median_price: number | null; last: string }>(`
      select city || ', ' || state_code || ' (' || s.source || ', ' || m.property_type || ')' as label, month_label as month, median_price,
             max(month_label) over (partition by m.market_kind, m.state_code, m.city_slug, m.property_type) as last
      from market_monthly m join (values ${section.rows.map((r) => `(${[r[0], r[1], r[2]].map(lit).join(', ')})`).join(', ')}) s(source, market, type)
        on m.market_kind = 'city' and city || ', ' || state_code = s.market and m.property_type = s.type`);
    // every month of the last 24 with a median is a point, with that median; none else
    const expected = monthly.filter((r) => r.median_price !== null && monthsBetween(r.month, r.last) < 24)
      .map((r) => `${r.label} ${r.month} ${Math.round(r.median_price!)}`).sort(); // the shards hold whole dollars
    expect(expected.length).toBeGreaterThan(24);
    expect(points.map((p) => `${p.market} ${p.month} ${p.median_price}`).sort()).toEqual(expected);
  });
});

const lit = (v: unknown): string => `'${String(v).replaceAll("'", "''")}'`;
const monthsBetween = (a: string, b: string): number =>
  (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
