// A real server on 127.0.0.1 port 0 over a given artifacts folder, with its own key and usage state.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Agent } from 'undici';
import { startServer, type RunningServer } from '../../api/server.ts';
import { loadSettings } from '../../warehouse/settings.ts';
import { SCHEMAS } from '../../api/schemas.ts';

export interface TestServer extends RunningServer {
  state: string;
  logs: Record<string, unknown>[];
  key(plan: string, rpm?: number | null): string;
  get(pathAndQuery: string, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  post(pathname: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<Response>;
}

/** The tests' HTTP client: a connection per request. The server runs in the test's own process, so a test that keeps
 *  the event loop busy for seconds between two requests (parsing a raw file, a research answer) delays the client's
 *  keep-alive expiry and the server's alike: the client could send on a pooled socket the server's 5 s keep-alive timer
 *  then closes (ECONNRESET, CI run of 2026-12-01: superfund-address.test.ts). Tests of keep-alive itself use raw sockets. */
const NO_KEEP_ALIVE = new Agent({ pipelining: 0 });
const request = (url: string, init: RequestInit): Promise<Response> => fetch(url, { ...init, dispatcher: NO_KEEP_ALIVE } as RequestInit);

/** `now`: the server's clock (rate windows, quotas, reset headers); a test that holds it (test/helpers/clock.ts)
 *  can never straddle a window boundary. */
export async function startTestServer(artifacts: string, opts: { state?: string; redisUrl?: string; anonymous?: { requestsPerMinute: number; failedAuthPer10Min: number }; requestTimeoutMs?: number; trustedProxies?: string; refusalHoldMs?: number; now?: () => number; liveTimeoutMs?: number } = {}): Promise<TestServer> {
  const state = opts.state ?? fs.mkdtempSync(path.join(os.tmpdir(), 'reii-state-'));
  const settings = loadSettings({ artifacts, state, port: '0', host: '127.0.0.1', redisUrl: opts.redisUrl ?? '', requestTimeoutMs: opts.requestTimeoutMs?.toString(), trustedProxies: opts.trustedProxies, refusalHoldMs: opts.refusalHoldMs?.toString(), liveTimeoutMs: opts.liveTimeoutMs?.toString() });
  const logs: Record<string, unknown>[] = [];
  const server = await startServer({ settings, accessLog: (l) => logs.push(l), log: () => {}, anonymous: opts.anonymous, now: opts.now });
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
    get: (p, key, headers = {}) => request(server.url + p, { headers: { ...(key ? { 'X-Service-Key': key } : {}), ...headers } }),
    post: (p, body, key, headers = {}) => request(server.url + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Service-Key': key } : {}), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  };
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
// The one format the schemas use, checked for real (RFC 3339 with a zone, a date that exists) instead of Ajv's
// "unknown format ignored" warning at every compile.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;
ajv.addFormat('date-time', (s: string) => {
  const day = Date.parse(s.slice(0, 10));
  return RFC3339.test(s) && !Number.isNaN(Date.parse(s)) && !Number.isNaN(day) && new Date(day).toISOString().slice(0, 10) === s.slice(0, 10);
});
ajv.addSchema({ $id: 'reii', components: { schemas: SCHEMAS } });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/** Checks a response body against the named schema of api/schemas.ts; returns the failures. */
export function schemaErrors(name: string, body: unknown): string[] {
  let validate = compiled.get(name);
  if (!validate) { validate = ajv.compile({ $ref: `reii#/components/schemas/${name}` }); compiled.set(name, validate); }
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** A GET's status and its JSON body's `message` (the 404 tests read the two together). */
export async function statusAndMessage(srv: TestServer, path: string, key: string): Promise<[number, string]> {
  const res = await srv.get(path, key);
  return [res.status, ((await res.json()) as { message: string }).message];
}
