// A real redis-server on a free 127.0.0.1 port (installed by .ci/run from Debian's packages).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const port = (s.address() as net.AddressInfo).port; s.close(() => resolve(port)); });
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
    child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const s = net.connect(p, '127.0.0.1', () => { s.end(); resolve(true); });
        s.on('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start (is it installed? .ci/run installs it)');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    start,
    stop: () => new Promise((resolve) => { if (!child || child.exitCode !== null) { resolve(); return; } child.once('exit', () => resolve()); child.kill('SIGKILL'); }),
  };
}
