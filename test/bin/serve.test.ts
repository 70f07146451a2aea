// `reii start` and `reii serve` as real processes (node bin/reii.js, through test/helpers/cli.ts) with an explicit
// environment: `start` over the shared test build serves it without building and drains on SIGTERM; a port
// already taken is a setting to change (exit 2). Servers listen on port 0 of 127.0.0.1.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { artifactsDir, buildDir } from '../helpers/build.ts';
import { STACK_LINE, cleanupCli, env, get, reii, served, stop, tmp, until } from '../helpers/cli.ts';

afterAll(cleanupCli);

// ---------------------------------------------------------------------------------------------------

describe('reii start and serve', () => {
  test('start over an artifacts folder with a published build serves it without building; SIGTERM drains and exits 0', async () => {
    const artifacts = artifactsDir();
    const buildsBefore = fs.readdirSync(path.join(artifacts, 'builds')).sort();
    const manifest = JSON.parse(fs.readFileSync(path.join(buildDir(), 'manifest.json'), 'utf8')) as { build_id: string; as_of: string };
    // A sources folder that does not exist: had `start` tried to build, it would have exited 2.
    const s = await served(['start'], env({ REII_ARTIFACTS: artifacts, REII_STATE: tmp(), REII_SOURCES: path.join(tmp(), 'absent'), PORT: '0' })).ready;
    try {
      const port = Number(new URL(s.url).port);
      expect(new URL(s.url).hostname).toBe('127.0.0.1');
      expect(port).toBeGreaterThan(0);
      expect(s.buildId).toBe(path.basename(buildDir()));
      const health = await get(`${s.url}/v1/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', build_id: manifest.build_id, as_of: manifest.as_of });
      expect(manifest.build_id).toBe(path.basename(buildDir()));
      // one JSON access-log line per request on stdout
      const line = await until('the access-log line of /v1/health', async () => s.out().split('\n').filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['route'] === 'GET /v1/health'), 10_000, 50);
      expect(line).toMatchObject({ method: 'GET', status: 200, key_id: null });
    } finally {
      const exit = await stop(s);
      expect(exit).toEqual({ code: 0, signal: null });
    }
    expect(s.err()).toContain('SIGTERM: draining');
    expect(s.err() + s.out()).not.toMatch(/stage sources|published build|does not exist/);
    expect(fs.readdirSync(path.join(artifacts, 'builds')).sort()).toEqual(buildsBefore);
    expect(fs.existsSync(path.join(artifacts, 'build.lock'))).toBe(false);
  });

  test('serve on a port already taken: exit 2 (a setting to change, not a bug) with a message naming the address, no stack trace', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const r = await reii(['serve', '--port', String(port)], env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp() }), 30_000);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`reii: cannot listen on 127.0.0.1 port ${port}: it is already in use (choose another with --port or PORT, --host or REII_HOST)`);
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stderr).not.toMatch(/^reii serving/m);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});
