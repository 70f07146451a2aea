// Access to the shared real build made by global-setup.ts. Importing this module waits until that build is
// published (it runs while the files that do not import this module are tested).
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { openWarehouse, queryRows, withConnection } from '../../warehouse/db.ts';
import { waitForSharedBuild } from './build-status.ts';

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
