// A real server instance in its own process (`reii serve` on port 0), for the tests of several instances sharing one
// Redis: an in-process pair would share one module's memory, and so hide what only Redis may share.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RedisLimits } from '../../api/redis-limits.ts';
import { REPO } from './paths.ts';

export interface Instance { url: string; child: ChildProcess; state: string }

/** Serves `artifacts` with REII_REDIS_URL `redisUrl`, its key state in `state` (default: a fresh folder). */
export async function startInstance(artifacts: string, redisUrl: string, state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-instance-'))): Promise<Instance> {
  const child = spawn('node', ['--import', 'tsx', 'bin/cli.ts', 'serve', '--port', '0', '--artifacts', artifacts, '--state', state],
    { cwd: REPO, env: { ...process.env, REII_REDIS_URL: redisUrl }, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => { const m = /serving (http:\/\/\S+)/.exec(d.toString()); if (m) resolve(m[1]!); });
    child.on('exit', (code) => reject(new Error(`instance exited ${code}`)));
  });
  return { url, child, state };
}

/** Stops an instance (SIGTERM) and waits for its exit; at once when it has exited. */
export const stopInstance = (i: Instance): Promise<void> => new Promise((r) => {
  if (i.child.exitCode !== null || i.child.signalCode !== null) { r(); return; }
  i.child.once('exit', () => r());
  i.child.kill('SIGTERM');
});

/** A key's month count as the instances on the Redis at `url` share it. */
export async function sharedCount(url: string, id: string): Promise<number> {
  const limits = new RedisLimits(url);
  try {
    await limits.ready();
    return await limits.monthCount(id, Date.now());
  } finally {
    await limits.close();
  }
}
