// A newly published build is served without a restart and without failing requests in flight;
// SIGTERM drains and exits cleanly.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { FORMAT_VERSION } from '../../pipelines/shards/layout.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startTestServer } from '../helpers/server.ts';
import { KeyStore } from '../../api/keys.ts';

const REPO = path.resolve(import.meta.dirname, '../..');

describe('build switching', () => {
  test('a build published under load is picked up with no failed request', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-switch-'));
    publish(artifacts, fakeBuild(artifacts, 'b1', 1));
    const srv = await startTestServer(artifacts);
    try {
      const key = srv.key('enterprise');
      const seen: number[] = [];
      const statuses: number[] = [];
      let switched = false;
      const worker = async (): Promise<void> => {
        const until = Date.now() + 4000;
        while (Date.now() < until) {
          const res = await srv.get('/v1/geo/states', key);
          statuses.push(res.status);
          seen.push(((await res.json()) as { count: number }).count);
          if (!switched && seen.length > 50) { switched = true; publish(artifacts, fakeBuild(artifacts, 'b2', 2)); }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(seen[0]).toBe(1);
      expect(seen.at(-1)).toBe(2);
      expect(srv.buildId()).toBe('b2');
    } finally {
      await srv.close();
    }
  });

  test('a build with another shard format version is refused; the old one keeps serving', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-switch-'));
    publish(artifacts, fakeBuild(artifacts, 'b1', 1));
    const srv = await startTestServer(artifacts);
    try {
      publish(artifacts, fakeBuild(artifacts, 'b9', 9, FORMAT_VERSION + 1));
      await srv.holder.check();
      expect(srv.buildId()).toBe('b1');
      expect(await (await srv.get('/v1/geo/states', srv.key('starter'))).json()).toEqual({ count: 1, states: [] });
    } finally {
      await srv.close();
    }
  });

  test('no published build: 503 with Retry-After, health says so', async () => {
    const srv = await startTestServer(fs.mkdtempSync(path.join(os.tmpdir(), 'reii-empty-')));
    try {
      const res = await srv.get('/v1/geo/states', srv.key('starter'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(await (await srv.get('/v1/health', null)).json()).toMatchObject({ status: 'no_build', build_id: null });
    } finally {
      await srv.close();
    }
  });

  test('ETag is the content hash: 304 on If-None-Match, and the same tag for identical content in another build', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-etag-'));
    publish(artifacts, fakeBuild(artifacts, 'b1', 1));
    const srv = await startTestServer(artifacts);
    try {
      const key = srv.key('enterprise');
      const first = await srv.get('/v1/geo/states', key);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
      const again = await srv.get('/v1/geo/states', key, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
      publish(artifacts, fakeBuild(artifacts, 'b2', 1));
      await srv.holder.check();
      expect(srv.buildId()).toBe('b2');
      expect((await srv.get('/v1/geo/states', key)).headers.get('etag')).toBe(etag);
    } finally {
      await srv.close();
    }
  });
});

describe('SIGTERM', () => {
  test('drains in-flight requests, persists usage and exits 0', async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-drain-'));
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-drain-state-'));
    publish(artifacts, fakeBuild(artifacts, 'b1', 1));
    const { key, record } = new KeyStore(state).create({ plan: 'enterprise', name: 'drain', rpm: null });
    const child = spawn('node', ['--import', 'tsx', 'pipelines/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', state], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await new Promise<string>((resolve) => {
      child.stderr.on('data', (d: Buffer) => { const m = /serving (http:\/\/\S+)/.exec(d.toString()); if (m) resolve(m[1]!); });
    });
    const agent = Array.from({ length: 20 }, () => fetch(`${url}/v1/geo/states`, { headers: { 'X-Service-Key': key } }).then((r) => r.status));
    const statuses = await Promise.all(agent);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const usage = JSON.parse(fs.readFileSync(path.join(state, 'usage.json'), 'utf8')) as { months: Record<string, Record<string, number>> };
    expect(Object.values(usage.months)[0]![record.id]).toBe(20);
  });
});
