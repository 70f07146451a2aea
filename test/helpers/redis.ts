// A real redis-server on a free 127.0.0.1 port (installed by .ci/run from Debian's packages).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { waitFor } from './wait.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const port = (s.address() as net.AddressInfo).port; s.close(() => resolve(port)); });
  });
}

/** Sends PING and returns the first reply line, or null when nothing answers. */
function ping(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    let out = '';
    const s = net.connect(port, '127.0.0.1', () => s.write('PING\r\n'));
    s.setTimeout(2000, () => { s.destroy(); resolve(null); });
    s.on('data', (d) => { out += d.toString('latin1'); if (out.includes('\r\n')) { s.end(); resolve(out.split('\r\n')[0]!); } });
    s.on('error', () => resolve(null));
    s.on('close', () => resolve(out ? out.split('\r\n')[0]! : null));
  });
}

export interface TestRedis { url: string; port: number; stop(): Promise<void>; start(): Promise<void> }

/** `aofDir`: keep an append-only file there, fsynced before each answer (as production should), so a
 *  SIGKILL loses nothing Redis acknowledged and a restart reloads it. Without it, a restart is empty. */
export async function startRedis(port?: number, opts: { aofDir?: string } = {}): Promise<TestRedis> {
  const p = port ?? (await freePort());
  let child: ChildProcess | null = null;
  const persistence = opts.aofDir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', opts.aofDir] : ['--appendonly', 'no'];
  const start = async (): Promise<void> => {
    const c = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: 'ignore' });
    child = c;
    let spawnError: Error | null = null;
    c.on('error', (err) => { spawnError = err; });
    // Ready when it answers PING with PONG (a Redis still loading its append-only file answers -LOADING).
    await waitFor(async () => {
      if (spawnError) throw new Error(`redis-server could not be started (is it installed? scripts/ensure-redis.sh installs it): ${(spawnError as Error).message}`);
      if (c.exitCode !== null) throw new Error(`redis-server exited with ${c.exitCode} (port ${p} taken?)`);
      return (await ping(p)) === '+PONG';
    }, { what: `redis-server on port ${p} to answer PING` });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    start,
    stop: () => new Promise((resolve) => { if (!child || child.exitCode !== null) { resolve(); return; } child.once('exit', () => resolve()); child.kill('SIGKILL'); }),
  };
}
