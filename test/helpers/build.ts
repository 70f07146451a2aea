// Access to the shared real build made by global-setup.ts. Importing this module waits until that build is
// published (it runs while the files that do not import this module are tested).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openWarehouse, queryRows, withConnection, type Warehouse } from '../../warehouse/db.ts';
import { waitForSharedBuild } from './build-status.ts';
import { startTestServer, type TestServer } from './server.ts';

await waitForSharedBuild(inject('sharedBuild'));

export function artifactsDir(): string {
  return inject('artifacts');
}

export function buildDir(): string {
  const dir = currentBuildDir(artifactsDir());
  if (!dir) throw new Error('the shared test build was not published');
  return dir;
}

export function readShard<T = unknown>(rel: string): T {
  return JSON.parse(fs.readFileSync(path.join(buildDir(), 'shards', rel), 'utf8')) as T;
}

/** Read-only SQL against the shared build's warehouse. */
export async function warehouseRows<T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
  const wh = await openWarehouse(path.join(buildDir(), 'warehouse.duckdb'), { readOnly: true });
  try {
    return await withConnection(wh, (conn) => queryRows<T>(conn, sql, params));
  } finally {
    wh.close();
  }
}

/** A read-only connection to the shared build's warehouse for the calling test file (opened before its tests, closed
 *  after them): `db.conn`. */
export function connectSharedWarehouse(): { readonly conn: DuckDBConnection } {
  let wh: Warehouse | undefined;
  let conn: DuckDBConnection | undefined;
  beforeAll(async () => {
    wh = await openWarehouse(path.join(buildDir(), 'warehouse.duckdb'), { readOnly: true });
    conn = await wh.connect();
  });
  afterAll(() => { conn?.closeSync(); wh?.close(); });
  return { get conn() { return conn!; } };
}

/** A real server over the shared build for the calling test file (started before its tests, closed after them) and
 *  requests sent with a key of `plan`: `api.get(path)`, `api.post(path, body)`; `api.server` and `api.key` for the rest. */
export function serveSharedBuild(plan: string, rpm: number | null = null): { readonly server: TestServer; readonly key: string; get: (p: string, headers?: Record<string, string>) => Promise<Response>; post: (p: string, body: unknown, headers?: Record<string, string>) => Promise<Response> } {
  let server: TestServer | undefined;
  let key = '';
  beforeAll(async () => { server = await startTestServer(artifactsDir()); key = server.key(plan, rpm); });
  afterAll(async () => { await server?.close(); });
  return {
    get server() { return server!; },
    get key() { return key; },
    get: (p, headers) => server!.get(p, key, headers),
    post: (p, body, headers) => server!.post(p, body, key, headers),
  };
}
