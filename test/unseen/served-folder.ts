// The build-and-serve part every unseen-market test shares: a stranger's sources folder built by the real build as
// the only market source (every stage, published), its warehouse read once (canonical rejects, repairs), and served on
// 127.0.0.1 port 0 with a pro key, with the two ways the tests ask it (a GET answering 200, a research question).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { expect } from 'vitest';
import { runBuild } from '../../pipelines/build.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { silentLogger } from '../../warehouse/log.ts';
import { openWarehouse } from '../../warehouse/db.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { PINNED_NOW } from '../helpers/clock.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

export interface ServedFolder {
  artifacts: string;
  srv: TestServer;
  key: string;
  /** GET with the key; the answer must be 200. */
  json(p: string): Promise<Record<string, any>>;
  /** A research question's answer text (POST /v1/research/query, 200). */
  ask(query: string): Promise<string>;
}

/** Builds `sources` into a new artifacts folder, runs `read` over its warehouse (read-only) and serves the build. */
export async function buildAndServe<R>(sources: string, prefix: string, read: (c: DuckDBConnection) => Promise<R>): Promise<ServedFolder & { read: R }> {
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  await runBuild({ settings: loadSettings({ artifacts, sources }), log: silentLogger, now: PINNED_NOW });
  const wh = await openWarehouse(`${currentBuildDir(artifacts)}/warehouse.duckdb`, { readOnly: true });
  const c = await wh.connect();
  let got: R;
  try { got = await read(c); } finally { c.closeSync(); wh.close(); }
  const srv = await startTestServer(artifacts);
  const key = srv.key('pro');
  return {
    artifacts, srv, key, read: got,
    async json(p) { const r = await srv.get(p, key); expect(r.status, p).toBe(200); return r.json() as never; },
    async ask(query) {
      const r = await srv.post('/v1/research/query', { query }, key);
      expect(r.status).toBe(200);
      return ((await r.json()) as { answer: string }).answer;
    },
  };
}

/** Stops the server and removes the test's folders. The build's ~350,000 files (its legal and location shards,
 *  mostly) take minutes to remove on a busy machine: a detached rm removes them after the file is done, not in its hook. */
export async function closeServed(s: ServedFolder | undefined): Promise<void> {
  await s?.srv.close();
  removeTmpDirs();
  if (s) spawn('nice', ['-n', '10', 'rm', '-rf', s.artifacts], { detached: true, stdio: 'ignore' }).unref();
}
