// A server whose clock the test holds: per-minute windows, the failed-key window, monthly quotas,
// X-RateLimit-Reset and Retry-After read the injected clock (startServer's `now`), so a limit test can
// never straddle a window boundary, and the window's end can be checked exactly and then crossed at will.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../api/server.ts';
import { loadSettings } from '../../pipelines/settings.ts';
import type { TestServer } from './server.ts';

export interface ManualClock {
  now(): number;
  set(t: number): void;
  advance(ms: number): void;
}

/** A clock that stands still until the test moves it. */
export function manualClock(start: number | string): ManualClock {
  let t = typeof start === 'number' ? start : Date.parse(start);
  if (!Number.isFinite(t)) throw new Error(`bad clock start ${String(start)}`);
  return { now: () => t, set: (x) => { t = x; }, advance: (ms) => { t += ms; } };
}

/** Like startTestServer (test/helpers/server.ts), over a memory key store, with its clock injected. */
export async function startClockedServer(artifacts: string, clock: ManualClock, opts: { state?: string; anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number }; trustedProxies?: string } = {}): Promise<TestServer> {
  const state = opts.state ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reii-state-'));
  const settings = loadSettings({ artifacts, state, port: '0', host: '127.0.0.1', redisUrl: '', trustedProxies: opts.trustedProxies });
  const logs: Record<string, unknown>[] = [];
  const server = await startServer({ settings, accessLog: (l) => logs.push(l), log: () => {}, anonymous: opts.anonymous, now: () => clock.now() });
  const keys = new Map<string, string>();
  return {
    ...server,
    state,
    logs,
    key(plan, rpm = null) {
      const id = `${plan}:${rpm}`;
      if (!keys.has(id)) keys.set(id, server.keys.create({ plan, name: `test ${plan}`, rpm }).key);
      return keys.get(id)!;
    },
    get: (p, key, headers = {}) => fetch(server.url + p, { headers: { ...(key ? { 'X-Service-Key': key } : {}), ...headers } }),
    post: (p, body, key, headers = {}) => fetch(server.url + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Service-Key': key } : {}), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  };
}
