// A build that fails a data gate (the reject share, README "Exit codes"), as real processes (node bin/reii.js, through
// test/helpers/cli.ts): its builds/<id>.failed folder keeps manifest.json (status failed, the stage, file and
// message, the rejects by file) and its warehouse, which `reii query --build <id>` reads; nothing is served from it.
// The canonical sales file is written here, so every expected figure is counted from the lines this file wrote.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { FIX, STACK_LINE, cleanupCli, env, get, reii, served, stop, tmp } from '../helpers/cli.ts';

afterAll(cleanupCli);

// 20 canonical sales; lines 5 and 9 of the file (sales 3 and 7) carry a sale date that is no date: 10% rejected,
// over the default 5% allowed.
const BAD = new Set([3, 7]);
function badSources(): string {
  const dir = tmp('reii-cli-src-bad-');
  fs.mkdirSync(path.join(dir, 'canonical'));
  const lines = Array.from({ length: 20 }, (_, i) =>
    `${i + 1} ELM ST,AUSTIN,TX,78701,${BAD.has(i) ? `2025-13-${10 + i}` : '2025-03-04'},${400000 + i * 1000},sfr,3,2,1500,1988,good,30.27,-97.74`);
  fs.writeFileSync(path.join(dir, 'canonical', 'sales.csv'), ['address,city,state,zip,sale_date,sale_price,property_type,beds,baths,sqft,year_built,condition,lat,lng', ...lines].join('\n') + '\n');
  return dir;
}
const BAD_LINES = [...BAD].map((i) => ({ line: i + 2, rule: 'not_a_date', column_name: 'sale_date', value: `2025-13-${10 + i}` }));

interface FailedManifest {
  status: string; build_id: string;
  failure: { stage: string | null; file: string | null; message: string; exit_code: number; checks: string[] } | null;
  rejects: { total: number; by_file: { file: string; rows: number; rejected: number; share: number }[] };
  sources: { id: string; files: { file: string; rows: number }[] }[];
  stages: { name: string }[];
}
const readManifest = (dir: string): FailedManifest => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as FailedManifest;
const failedBuilds = (artifacts: string): string[] => fs.readdirSync(path.join(artifacts, 'builds')).filter((n) => n.endsWith('.failed')).sort();
const rejectsSql = `select line::int as line, rule, column_name, value from meta.rejects order by line`;

describe('a failed build keeps a manifest and its warehouse (reii query --build), and is never served', () => {
  test('a first build over too many bad rows: exit 3; <id>.failed holds the manifest; query --build reads its rejects; the server still answers 503', async () => {
    const artifacts = tmp('reii-cli-art-');
    const e = env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp(), REII_SOURCES: badSources(), PORT: '0' });
    const r = await reii(['build'], e);
    expect(r.code, r.stderr).toBe(3);
    const [failed] = failedBuilds(artifacts);
    expect(failed).toBeDefined();
    const id = failed!.replace(/\.failed$/, '');
    expect(r.stderr).toContain(`reii: stage intermediate failed in canonical/sales.csv: 10% of its rows were rejected (2 of 20)`);
    // the folder this build was given (REII_ARTIFACTS, not the default): the command runs as printed (review 25 #4)
    expect(r.stderr).toContain(`(every rejected row: reii query --artifacts ${artifacts} --build ${id} "select * from meta.rejects")`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(fs.existsSync(path.join(artifacts, 'current'))).toBe(false);

    const dir = path.join(artifacts, 'builds', failed!);
    expect(fs.readdirSync(dir).sort()).toEqual(['manifest.json', 'report.html', 'warehouse.duckdb']);
    const m = readManifest(dir);
    expect(m).toMatchObject({ status: 'failed', build_id: id });
    expect(m.failure).toEqual({ stage: 'intermediate', file: 'canonical/sales.csv', message: expect.stringMatching(/^stage intermediate failed in canonical\/sales\.csv: 10% /), exit_code: 3, checks: [] });
    expect(m.rejects.total).toBe(2);
    expect(m.rejects.by_file).toEqual([expect.objectContaining({ file: 'canonical/sales.csv', rows: 20, rejected: 2, share: 0.1 })]);
    expect(m.sources.find((s) => s.id === 'canonical')?.files).toEqual([expect.objectContaining({ file: 'canonical/sales.csv', rows: 20 })]);
    expect(m.stages.map((s) => s.name)).toEqual(['sources', 'staging']); // intermediate is where it stopped
    expect(fs.readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('not published: stage intermediate failed in canonical/sales.csv');

    // without --build there is still no published build to read; the message names the failed one
    const plain = await reii(['query', 'select 1'], e);
    expect(plain.code).toBe(6);
    expect(plain.stderr).toBe(`reii: no published build in ${artifacts}: run \`reii build\` first; the last failed build is read with --build ${id}\n`);
    // --build with the id (or the folder name) reads the failed build's warehouse: the two lines written bad
    for (const name of [id, failed!]) {
      const q = await reii(['query', rejectsSql, '--build', name, '--format', 'json'], e);
      expect(q.code, q.stderr).toBe(0);
      expect(JSON.parse(q.stdout)).toEqual(BAD_LINES);
      expect(q.stderr).toBe(`reii: build ${failed} was not published (status failed: stage intermediate in canonical/sales.csv; its manifest.json says why)\n`);
    }
    const raw = await reii(['query', `select count(*)::int as n from raw."canonical__sales"`, '--build', id, '--format', 'json'], e);
    expect(JSON.parse(raw.stdout)).toEqual([{ n: 20 }]);
    // --build is a build id, never a path; an unknown one is exit 6
    for (const bad of ['../../etc', 'nope']) {
      const q = await reii(['query', 'select 1', '--build', bad], e);
      expect(q.code, bad).toBe(6);
      expect(q.stderr).toBe(`reii: no build ${bad} in ${path.join(artifacts, 'builds')} (give a build id as \`reii build\` printed it, or its folder name)\n`);
    }

    // a server over this folder serves nothing: health says no_build, data routes answer 503
    const key = JSON.parse((await reii(['keys', 'create', '--plan', 'starter', '--json'], e)).stdout) as { key: string };
    const s = await served(['serve'], e).ready;
    try {
      expect(s.buildId).toBe('none');
      expect((await get(`${s.url}/v1/health`)).body).toMatchObject({ status: 'no_build', build_id: null });
      const states = await get(`${s.url}/v1/geo/states`, key.key);
      expect(states.status).toBe(503);
      expect(states.body).toEqual({ message: 'No data build has been published yet' }); // api/errors.ts no_build
    } finally {
      expect(await stop(s)).toEqual({ code: 0, signal: null });
    }
  });

  test('after a published build: the failed build leaves current and the served build as they were; its manifest has the published shape', async () => {
    const artifacts = tmp('reii-cli-art-');
    const e = env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp(), PORT: '0' });
    const good = await reii(['build', '--sources', path.join(FIX, 'good')], e);
    expect(good.code, good.stderr).toBe(0);
    const current = fs.readlinkSync(path.join(artifacts, 'current'));
    const published = JSON.parse(fs.readFileSync(path.join(artifacts, current, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const s = await served(['serve'], e).ready;
    try {
      const r = await reii(['build', '--sources', badSources()], e);
      expect(r.code, r.stderr).toBe(3);
      expect(fs.readlinkSync(path.join(artifacts, 'current'))).toBe(current);
      const [failed] = failedBuilds(artifacts);
      const m = readManifest(path.join(artifacts, 'builds', failed!));
      expect(Object.keys(m).sort()).toEqual(Object.keys(published).sort());
      expect(published).toMatchObject({ status: 'published', failure: null });
      expect(m.status).toBe('failed');
      // the server follows `current`, which did not move: it still answers from the published build
      const q = await reii(['query', `select count(*)::int as n from raw."canonical__sales"`, '--format', 'json'], e);
      expect(JSON.parse(q.stdout)).toEqual([{ n: 3 }]); // the three sales of test/fixtures/cli/good
      const qf = await reii(['query', `select count(*)::int as n from raw."canonical__sales"`, '--build', failed!, '--format', 'json'], e);
      expect(JSON.parse(qf.stdout)).toEqual([{ n: 20 }]);
      expect((await get(`${s.url}/v1/health`)).body).toMatchObject({ status: 'ok', build_id: path.basename(current) });
    } finally {
      expect(await stop(s)).toEqual({ code: 0, signal: null });
    }
  });
});
