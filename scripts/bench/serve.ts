// Shared by the HTTP bench parts: the real server and a bare node:http server in child processes,
// an enterprise key (in the state folder, or in Redis for Redis mode), a redis-server of its own,
// autocannon runs and the server's RSS.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import autocannon from 'autocannon';
import { KeyStore } from '../../api/keys.ts';
import { RedisKeys } from '../../api/redis-keys.ts';
import { connectRedis, whenReady } from '../../api/redis.ts';

export interface Spawned { url: string; pid: number; stop(): Promise<void> }

function waitForUrl(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer): void => { const m = pattern.exec(d.toString()); if (m) resolve(m[1]!); };
    child.stderr!.on('data', onData);
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const stopper = (child: ChildProcess) => (): Promise<void> => new Promise((resolve) => { child.on('exit', () => resolve()); child.kill('SIGTERM'); });

const serveScript = (repo: string): string[] =>
  ((JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['serve'] ?? '').split(/\s+/);

/** node's arguments in `npm run serve` (package.json: its V8 flags and the CLI), so the bench measures the server
 *  as it is run, not a variant of it. */
export function serveArgs(repo: string): string[] {
  const words = serveScript(repo);
  const at = words.indexOf('node');
  if (at < 0 || words.at(-1) !== 'serve') throw new Error(`package.json scripts.serve is not "... node <args> serve": ${words.join(' ')}`);
  return words.slice(at + 1);
}

/** The environment `npm run serve` sets before it execs node (`NAME=VALUE exec node ...`: glibc's malloc settings). */
export function serveEnv(repo: string): Record<string, string> {
  const words = serveScript(repo);
  return Object.fromEntries(words.slice(0, Math.max(words.indexOf('exec'), 0)).filter((w) => w.includes('=')).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

export async function startReal(repo: string, artifacts: string, env: Record<string, string> = {}): Promise<Spawned & { key: string; state: string }> {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-bench-state-'));
  let key: string;
  if (env['REII_REDIS_URL']) {
    const reg = new RedisKeys(env['REII_REDIS_URL']);
    try { key = (await reg.create({ plan: 'enterprise', name: 'bench', rpm: null })).key; } finally { reg.close(); }
  } else {
    const store = new KeyStore(state);
    key = store.create({ plan: 'enterprise', name: 'bench', rpm: null }).key;
    store.close();
  }
  const child = spawn('node', [...serveArgs(repo), '--port', '0', '--artifacts', artifacts, '--state', state], { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...serveEnv(repo), ...env } });
  const url = await waitForUrl(child, /serving (http:\/\/\S+)/);
  // the state folder (keys, usage) is the run's own: removed once the server has stopped
  const stop = stopper(child);
  return { url, pid: child.pid!, key, state, stop: () => stop().then(() => fs.rmSync(state, { recursive: true, force: true })) };
}

/** A bare node:http server answering every request with the given bytes (and, when given, the same headers). */
export async function startBare(bodyFile: string, headers: Record<string, string> = {}): Promise<Spawned> {
  const code = `const http=require('node:http');const b=require('node:fs').readFileSync(${JSON.stringify(bodyFile)});const h=${JSON.stringify(headers)};` +
    `const s=http.createServer((q,r)=>{r.writeHead(200,{'Content-Type':'application/json; charset=utf-8',...h,'Content-Length':b.length});r.end(b)});` +
    `s.listen(0,'127.0.0.1',()=>process.stderr.write('bare http://127.0.0.1:'+s.address().port+'\\n'));process.on('SIGTERM',()=>s.close(()=>process.exit(0)));`;
  const child = spawn('node', ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await waitForUrl(child, /bare (http:\/\/\S+)/);
  return { url, pid: child.pid!, stop: stopper(child) };
}

/** The headers a real response carries (those Node sets itself left out), for a bare server to replay. */
export async function responseHeaders(url: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) out[k] = v; });
  return out;
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function load(url: string, opts: { headers?: Record<string, string>; connections?: number; duration?: number; method?: string; body?: string; requests?: { method?: string; body?: string }[] } = {}): Promise<{ rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number }> {
  const r = await autocannon({ url, connections: opts.connections ?? 50, duration: opts.duration ?? 8, headers: opts.headers, ...(opts.method ? { method: opts.method } : {}), ...(opts.body ? { body: opts.body } : {}), ...(opts.requests ? { requests: opts.requests } : {}) });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, total: r.requests.total };
}

export interface BenchRedis { url: string; stop(): Promise<void>; /** Script calls (EVALSHA/EVAL: one per round trip of the hot path) so far. */ scriptCalls(): Promise<number> }

/** A redis-server of the bench's own on a free loopback port (no persistence), or why there is none. */
export async function startRedisServer(): Promise<BenchRedis | string> {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<string>((resolve) => {
    child.on('error', (err) => resolve(`no redis-server binary (${(err as NodeJS.ErrnoException).code ?? err.message}): scripts/ensure-redis.sh installs it`));
    child.on('exit', (code) => resolve(`redis-server exited with ${code}`));
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = connectRedis(url);
  client.on('error', () => {});
  let gaveUp = false;
  const ready = (async (): Promise<boolean> => { while (!gaveUp && !(await whenReady(client, 1000))) { /* still starting */ } return !gaveUp; })();
  const outcome = await Promise.race([ready, failed]);
  if (outcome !== true) { gaveUp = true; client.disconnect(); return typeof outcome === 'string' ? outcome : 'redis-server did not start'; }
  return {
    url,
    async scriptCalls() {
      const info = await client.info('commandstats');
      let n = 0;
      for (const m of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)) n += Number(m[2]);
      return n;
    },
    stop: () => new Promise((resolve) => { client.disconnect(); if (child.exitCode !== null) { resolve(); return; } child.once('exit', () => resolve()); child.kill('SIGKILL'); }),
  };
}
