// A newly published build is served without a restart and without failing requests in flight;
// SIGTERM drains what is in flight (a half-sent POST, a slow export download), refuses new connections,
// persists usage and exits 0: a real `reii serve` process, its sockets watched event by event.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { publish } from '../../pipelines/publish.ts';
import { currentBuildDir } from '../../warehouse/build-folder.ts';
import { FORMAT_VERSION } from '../../warehouse/layout.ts';
import { fakeBuild } from '../helpers/fake-build.ts';
import { startTestServer } from '../helpers/server.ts';
import { KeyStore } from '../../api/keys.ts';
import type { ExportManifest } from '../../warehouse/export.ts';
import { artifactsDir } from '../helpers/build.ts';
import { REPO } from '../helpers/paths.ts';
import { usageMonths } from '../helpers/state-db.ts';


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

// ------------------------------------------------------------------ SIGTERM with answers in flight

/** p, or a rejection naming what did not happen within ms (a deadline against hangs, never a timing assertion). */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms); });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Polls cond every 20 ms until it holds or the deadline passes. */
async function until(what: string, cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface RawAnswer { status: number; headers: Record<string, string>; body: Buffer }

/** One HTTP/1.1 connection written by hand: a request can be left half-sent, and every byte of every answer
 *  (interim 100 Continue included) is seen. Answers are read by Content-Length. */
class RawConnection {
  private buf = Buffer.alloc(0);
  private wakers: (() => void)[] = [];
  private ended = false;
  private failure: Error | null = null;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => { this.buf = Buffer.concat([this.buf, d]); this.wake(); });
    socket.on('end', () => { this.ended = true; this.wake(); });
    socket.on('error', (err) => { this.failure = err; this.wake(); });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.off('error', reject); resolve(new RawConnection(socket)); });
      socket.once('error', reject);
    });
  }

  write(data: string): void {
    this.socket.write(data);
  }

  private wake(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /** The next answer on the connection; fails when the server closes or resets it first. */
  async next(): Promise<RawAnswer> {
    for (;;) {
      const answer = this.parse();
      if (answer) return answer;
      if (this.ended || this.failure) {
        throw new Error(`connection ${this.failure ? `failed (${this.failure.message})` : 'closed by the server'} with ${this.buf.length} bytes of an unfinished answer`);
      }
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  private parse(): RawAnswer | null {
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const [statusLine, ...lines] = this.buf.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) { const i = line.indexOf(':'); headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim(); }
    const length = status < 200 || status === 204 || status === 304 ? 0 : Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`answer ${status} without a Content-Length`);
    if (this.buf.length < headEnd + 4 + length) return null;
    const body = Buffer.from(this.buf.subarray(headEnd + 4, headEnd + 4 + length));
    this.buf = this.buf.subarray(headEnd + 4 + length);
    return { status, headers, body };
  }
}

/** `reii serve` as a real process: its stderr lines, its access-log lines (stdout) and its exit. `drainMs`: its
 *  REII_DRAIN_TIMEOUT_MS, past which a SIGTERM cuts what is still open (far above what a loaded machine needs, unless
 *  the cut itself is tested). */
function serveProcess(artifacts: string, state: string, drainMs = 120_000): {
  child: ChildProcess; stderr: string[]; access: Record<string, unknown>[]; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for the "reii serving" line (the process failing before it throws) and gives the port it names. */
  serving: () => Promise<number>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--artifacts', artifacts, '--state', state], {
    cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'],
    // No Redis (usage in the state folder), and a request timeout that a held-back body cannot reach: this
    // test is about the drain, not the slow-client cut-off (test/api/security.test.ts has that).
    env: { ...process.env, REII_REDIS_URL: '', REII_REQUEST_TIMEOUT_MS: '120000', REII_DRAIN_TIMEOUT_MS: String(drainMs) },
  });
  const lines = (stream: NodeJS.ReadableStream, onLine: (l: string) => void): void => {
    let rest = '';
    stream.on('data', (d: Buffer) => {
      rest += d.toString();
      let i: number;
      while ((i = rest.indexOf('\n')) >= 0) { onLine(rest.slice(0, i)); rest = rest.slice(i + 1); }
    });
  };
  const stderr: string[] = [];
  const access: Record<string, unknown>[] = [];
  lines(child.stderr!, (l) => stderr.push(l));
  lines(child.stdout!, (l) => { if (l.trim()) access.push(JSON.parse(l) as Record<string, unknown>); });
  // 'close', not 'exit': it comes after the last stdout and stderr bytes, so every access-log line is in.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const serving = async (): Promise<number> => {
    await until('"reii serving" line', () => {
      if (child.exitCode !== null) throw new Error(`reii serve exited ${child.exitCode} before serving:\n${stderr.join('\n')}`);
      return stderr.some((l) => l.includes('reii serving'));
    }, 60_000);
    return Number(/serving http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr.find((l) => l.includes('reii serving'))!)![1]);
  };
  return { child, stderr, access, exit, serving };
}

const sha256 = (buf: Buffer): string => crypto.createHash('sha256').update(buf).digest('hex');
const month = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

describe('SIGTERM', () => {
  test('with a POST body half-sent, an idle keep-alive connection and a back-pressured export download in flight: every answer completes in full, new connections are refused, usage is persisted, exit 0', async () => {
    // The shared real build: its export/ folder has the files a scale key downloads.
    const artifacts = artifactsDir();
    const build = currentBuildDir(artifacts)!;
    const exportFiles = (JSON.parse(fs.readFileSync(path.join(build, 'export', 'manifest.json'), 'utf8')) as ExportManifest).files;
    const big = [...exportFiles].sort((a, b) => b.bytes - a.bytes)[0]!;
    const onDisk = fs.readFileSync(path.join(build, 'export', big.file));
    // Far larger than the loopback socket buffers, so most of the file is still in the server at SIGTERM.
    expect(onDisk.length, `largest export file ${big.file}`).toBeGreaterThan(8 * 1024 * 1024);

    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-drain-state-'));
    const { key, record } = new KeyStore(state).create({ plan: 'scale', name: 'drain', rpm: null });
    const firstCall = Date.now();
    const srv = serveProcess(artifacts, state);
    const sockets: RawConnection[] = [];
    let download: http.ClientRequest | null = null;
    try {
      const port = await srv.serving();
      const base = `http://127.0.0.1:${port}`;
      const counted: number[] = []; // statuses of every call made with the key that may count (not /v1/usage)

      // The answer the held-back POST must give in full: the same request made whole beforehand.
      const body = JSON.stringify({ zip: '98115', address: '7500 35th Ave NE', sqft: 1800 });
      const reference = await fetch(`${base}/v1/valuation/estimate`, { method: 'POST', headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' }, body });
      const referenceBody = Buffer.from(await reference.arrayBuffer());
      counted.push(reference.status);
      const invalid = await fetch(`${base}/v1/geo/lookup?city=X&state=zz`, { headers: { 'X-Service-Key': key } });
      await invalid.arrayBuffer();
      counted.push(invalid.status);

      // 1. An idle keep-alive connection: one answered request, then nothing. The server has finished that
      //    answer once its access-log line (written on 'finish') is out.
      const idle = await RawConnection.open(port);
      sockets.push(idle);
      idle.write(`GET /v1/geo/states HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Key: ${key}\r\n\r\n`);
      const idleAnswer = await within(30_000, 'idle connection answer', idle.next());
      counted.push(idleAnswer.status);
      expect(idleAnswer.headers['connection']).toBe('keep-alive');
      await until('access-log line of the idle connection\'s answer', () => srv.access.some((l) => l['request_id'] === idleAnswer.headers['x-request-id']));

      // 2. A keep-alive connection with a POST whose body is half-sent: the first request (free) proves the
      //    connection is accepted; 100 Continue proves the server has the POST's head and is reading its body.
      const slow = await RawConnection.open(port);
      sockets.push(slow);
      slow.write(`GET /v1/usage HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Key: ${key}\r\n\r\n`);
      expect((await within(30_000, 'usage answer', slow.next())).status).toBe(200);
      slow.write(`POST /v1/valuation/estimate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-Key: ${key}\r\nContent-Type: application/json\r\n`
        + `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`);
      expect((await within(30_000, '100 Continue', slow.next())).status).toBe(100);
      const half = Math.floor(body.length / 2);
      slow.write(body.slice(0, half));

      // 3. A download read slowly: after its first bytes the client stops reading, so the server's stream
      //    stalls on back-pressure with most of the file unsent.
      const hash = crypto.createHash('sha256');
      let received = 0;
      let released = false;
      let firstBytes!: (res: http.IncomingMessage) => void;
      const started = new Promise<http.IncomingMessage>((resolve) => { firstBytes = resolve; });
      const downloaded = new Promise<http.IncomingMessage>((resolve, reject) => {
        download = http.get(`${base}/v1/export/${big.dataset}?format=${big.format}`, { headers: { 'X-Service-Key': key }, agent: false }, (res) => {
          res.on('data', (chunk: Buffer) => {
            hash.update(chunk);
            received += chunk.length;
            res.pause();
            if (!released) firstBytes(res);
            else setImmediate(() => res.resume()); // one chunk per turn of the event loop: a slow reader
          });
          res.on('end', () => resolve(res));
          res.on('error', reject);
          res.on('aborted', () => reject(new Error(`download aborted after ${received} bytes`)));
        });
        download.on('error', reject);
      });
      downloaded.catch(() => {}); // awaited below; a failure before then is reported there, not as an unhandled rejection
      const exportStream = await within(30_000, 'first bytes of the download', started);
      expect(received).toBeLessThan(onDisk.length);

      // SIGTERM with all three in flight.
      srv.child.kill('SIGTERM');
      await until('"SIGTERM: draining" line', () => srv.stderr.some((l) => l.includes('SIGTERM: draining')));
      // The idle connection is closed by the server (and so the listener is already closed: both happen in close()).
      await within(30_000, 'close of the idle keep-alive connection', idle.closed);
      // A new connection is refused: the listening socket is gone.
      const refused = await within(30_000, 'answer to a new connection', new Promise<string>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve('connected'); });
        s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      }));
      expect(refused).toBe('ECONNREFUSED');
      // Still running: it is waiting for the answers in flight.
      expect(srv.child.exitCode).toBeNull();
      expect(srv.child.signalCode).toBeNull();

      // The rest of the download, slowly; then the rest of the POST body, so that the POST is the last answer
      // counted and the process exits right after it (its count reaches state.db only by the shutdown flush,
      // not by the once-a-second one).
      released = true;
      exportStream.resume();
      const exportRes = await within(60_000, 'end of the download', downloaded);
      slow.write(body.slice(half));
      const postAnswer = await within(30_000, 'answer to the held-back POST', slow.next());
      // The server ends that connection itself once the answer is out: a client that sends more on it is not
      // served keep-alive (which would hold the drain open until the REII_DRAIN_TIMEOUT_MS backstop cuts the download and all):
      // either the connection is already closed, or the extra answer says Connection: close and it closes.
      slow.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const extra = await within(30_000, 'an answer or a close after the POST', slow.next().catch(() => null));
      if (extra) expect(extra.headers['connection']).toBe('close');
      await within(30_000, 'the server closing the POST connection', slow.closed);
      counted.push(exportRes.statusCode!, postAnswer.status);

      expect(postAnswer.status).toBe(200);
      expect(postAnswer.body.equals(referenceBody)).toBe(true);
      expect(exportRes.statusCode).toBe(200);
      expect(exportRes.complete).toBe(true);
      expect(Number(exportRes.headers['content-length'])).toBe(onDisk.length);
      expect(received).toBe(onDisk.length);
      expect(hash.digest('hex')).toBe(sha256(onDisk));

      const { code, signal } = await within(60_000, 'exit of the server process', srv.exit);
      const lastCall = Date.now();
      expect({ code, signal }).toEqual({ code: 0, signal: null });

      // Every answer was logged before the exit, the two finished during the drain included.
      const logged = (id: string | undefined): unknown => srv.access.find((l) => l['request_id'] === id)?.['status'];
      expect(logged(postAnswer.headers['x-request-id'])).toBe(200);
      expect(srv.access.filter((l) => l['route'] === 'GET /v1/export/{dataset}').map((l) => l['status'])).toEqual([200]);

      // Usage persisted on exit: exactly the 2xx answers made with the key (the 422 and /v1/usage are not counted),
      // under the calendar month(s) the calls were made in.
      expect(counted).toEqual([200, 422, 200, 200, 200]);
      const usage = usageMonths(state);
      const months = Object.keys(usage.months);
      expect(months.every((m) => m === month(firstCall) || m === month(lastCall))).toBe(true);
      expect(months.reduce((n, m) => n + (usage.months[m]![record.id] ?? 0), 0)).toBe(counted.filter((s) => s >= 200 && s < 300).length);
    } finally {
      for (const s of sockets) s.socket.destroy();
      (download as http.ClientRequest | null)?.destroy();
      if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill('SIGKILL');
      await srv.exit;
      fs.rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('SIGTERM drain backstop', () => {
  test('a download its client stops reading is cut once REII_DRAIN_TIMEOUT_MS has passed after SIGTERM; the process still exits 0', async () => {
    const artifacts = artifactsDir();
    const build = currentBuildDir(artifacts)!;
    const big = [...(JSON.parse(fs.readFileSync(path.join(build, 'export', 'manifest.json'), 'utf8')) as ExportManifest).files].sort((a, b) => b.bytes - a.bytes)[0]!;
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-drain-cut-'));
    const { key } = new KeyStore(state).create({ plan: 'scale', name: 'drain-cut', rpm: null });
    const drainMs = 1000;
    const srv = serveProcess(artifacts, state, drainMs);
    let download: http.ClientRequest | null = null;
    try {
      const port = await srv.serving();
      // The client reads the first chunk and then never again: the server's stream stalls on back-pressure.
      let received = 0;
      let firstBytes!: (res: http.IncomingMessage) => void, reading = false;
      const started = new Promise<http.IncomingMessage>((resolve) => { firstBytes = resolve; });
      const ended = new Promise<string>((resolve) => {
        download = http.get(`http://127.0.0.1:${port}/v1/export/${big.dataset}?format=${big.format}`, { headers: { 'X-Service-Key': key }, agent: false }, (res) => {
          res.on('data', (chunk: Buffer) => { received += chunk.length; if (!reading) { res.pause(); firstBytes(res); } });
          res.on('close', () => resolve(res.complete ? 'complete' : 'cut'));
          res.on('error', () => {});
        });
        download.on('error', () => {});
        download.on('close', () => resolve('cut'));
      });
      const res = await within(30_000, 'first bytes of the download', started);
      const signalled = Date.now();
      srv.child.kill('SIGTERM');
      const { code, signal } = await within(60_000, 'exit of the server process', srv.exit);
      const exitedAfter = Date.now() - signalled;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // not before the backstop: the drain waited for the download as long as it was allowed to
      expect(exitedAfter).toBeGreaterThanOrEqual(drainMs);
      // and by the setting, not the 10 s default: the exit follows the cut closely
      expect(exitedAfter).toBeLessThan(9000);
      // the client reads again: what the server sent before the cut, then the connection's end, short of the file
      reading = true;
      res.resume();
      expect(await within(30_000, 'end of the download', ended)).toBe('cut');
      expect(received).toBeLessThan(big.bytes);
    } finally {
      (download as http.ClientRequest | null)?.destroy();
      if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill('SIGKILL');
      await srv.exit;
      fs.rmSync(state, { recursive: true, force: true });
    }
  });
});
