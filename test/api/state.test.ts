// Issue 21: state that several processes write at once is kept whole (api/state-db.ts, SQLite in WAL mode).
// Reproduces the defects of the JSON files it replaced: 20 concurrent `reii keys create` kept 6 of them; usage
// written by one process overwrote another's. Real processes, a real server on 127.0.0.1, the state read back
// with node:sqlite directly (test/helpers/state-db.ts). No timing: every wait is for a state to be reached.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { cleanupCli, env, get, served, tmp, until } from '../helpers/cli.ts';
import { REPO } from '../helpers/paths.ts';
import { usageMonths, withStateDb } from '../helpers/state-db.ts';
import { startTestServer } from '../helpers/server.ts';

afterAll(cleanupCli);

/** Runs the key-making fixture in its own process; resolves with the keys it printed. */
function makeKeys(state: string, n: number, label: string, plan = 'starter'): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/state/make-keys.ts', state, String(n), label, plan], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`make-keys exited ${code}: ${err}`))));
  });
}

describe('keys from several processes at once', () => {
  test('100 keys made by 4 processes at once while a server runs: all 100 kept, each works in the running server at once', async () => {
    const state = tmp('reii-state-');
    const srv = await startTestServer(artifactsDir(), { state });
    try {
      const made = (await Promise.all([0, 1, 2, 3].map((p) => makeKeys(state, 25, `p${p}`)))).flat();
      expect(made).toHaveLength(100);
      expect(new Set(made).size).toBe(100);
      const stored = withStateDb(state, (db) => (db.prepare('SELECT id FROM keys').all() as { id: string }[]).map((r) => r.id));
      expect(new Set(stored)).toEqual(new Set(made.map((k) => k.split('_')[2]!)));
      // No poll wait: the server looks a key it does not know up again in the database before refusing it.
      const statuses = await Promise.all(made.map(async (k) => (await srv.get('/v1/usage', k)).status));
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      await srv.close();
    }
  });
});

describe('usage across a crash', () => {
  test('SIGKILL mid-load loses at most the counts of the last flush interval (1 s), never the counts already flushed; a restart goes on from them', async () => {
    const state = tmp('reii-state-');
    const key = (await makeKeys(state, 1, 'crash', 'enterprise'))[0]!;
    const id = key.split('_')[2]!;
    const e = env({ REII_STATE: state });
    const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--artifacts', artifactsDir(), '--state', state];
    const first = await served(args, e).ready;
    const counted = (): number => Object.values(usageMonths(state).months).reduce((n, m) => n + (m[id] ?? 0), 0);
    for (let i = 0; i < 20; i++) expect((await get(`${first.url}/v1/geo/states`, key)).status).toBe(200);
    // The once-a-second flush reaches the database without any shutdown.
    await until('the 20 counts in state.db', async () => (counted() === 20 ? true : undefined), 30_000);
    // Ten more, then a kill with no chance to flush.
    await Promise.all(Array.from({ length: 10 }, async () => expect((await get(`${first.url}/v1/geo/states`, key)).status).toBe(200)));
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');
    const kept = counted();
    expect(kept).toBeGreaterThanOrEqual(20);
    expect(kept).toBeLessThanOrEqual(30);
    const second = await served(args, e).ready;
    try {
      const usage = await get(`${second.url}/v1/usage`, key);
      expect(usage.status).toBe(200);
      expect(usage.body).toMatchObject({ used: kept });
      expect((await get(`${second.url}/v1/geo/states`, key)).status).toBe(200);
      await until('the count after the restart', async () => (counted() === kept + 1 ? true : undefined), 30_000);
    } finally {
      second.child.kill('SIGTERM');
      await second.exit;
    }
  });
});
