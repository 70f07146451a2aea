// CORS and the /docs page on a real server (`reii serve` as a process, with its environment): keyed endpoints
// are closed to other origins by default and open only to the origins of REII_CORS_ORIGINS (preflight for the
// key header, Vary: Origin); public endpoints are open to all; /docs is the reference page with no key, served
// from the package's own files.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { cleanupCli, env, reii, served, stop, tmp, type Served } from '../helpers/cli.ts';

afterAll(cleanupCli);

const ALLOWED = 'http://allowed.example:8081';
const OTHER = 'http://other.example';

async function startWith(extra: Record<string, string>): Promise<{ s: Served; key: string }> {
  const state = tmp();
  const e = env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: state, ...extra });
  const created = await reii(['keys', 'create', '--plan', 'starter', '--json'], e);
  expect(created.code, created.stderr).toBe(0);
  const s = await served(['serve', '--port', '0'], e).ready;
  return { s, key: (JSON.parse(created.stdout) as { key: string }).key };
}

const preflight = (url: string, origin: string, method = 'GET', headers = 'x-service-key'): Promise<Response> =>
  fetch(url, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers } });
const vary = (r: Response): string[] => (r.headers.get('vary') ?? '').split(',').map((x) => x.trim()).filter(Boolean);

describe('CORS with REII_CORS_ORIGINS unset (the default)', () => {
  let s: Served;
  let key: string;
  beforeAll(async () => { ({ s, key } = await startWith({})); });
  afterAll(async () => { if (s) await stop(s); });

  test('a keyed endpoint gives no origin access, and its preflight grants nothing', async () => {
    const r = await fetch(`${s.url}/v1/usage`, { headers: { Origin: ALLOWED, 'X-Service-Key': key } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const p = await preflight(`${s.url}/v1/usage`, ALLOWED);
    expect(p.status).toBe(204);
    expect(p.headers.get('access-control-allow-origin')).toBeNull();
    expect(p.headers.get('access-control-allow-headers')).toBeNull();
  });

  test('the public coverage summary is open to every origin, preflight included', async () => {
    const r = await fetch(`${s.url}/v1/coverage/summary`, { headers: { Origin: OTHER } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    const p = await preflight(`${s.url}/v1/coverage/summary`, OTHER);
    expect(p.headers.get('access-control-allow-origin')).toBe('*');
    expect(p.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
  });
});

describe(`CORS with REII_CORS_ORIGINS=${ALLOWED}`, () => {
  let s: Served;
  let key: string;
  beforeAll(async () => { ({ s, key } = await startWith({ REII_CORS_ORIGINS: ALLOWED })); });
  afterAll(async () => { if (s) await stop(s); });

  test('the listed origin: preflight granted for the key header, the answer readable, Vary: Origin', async () => {
    const p = await preflight(`${s.url}/v1/usage`, ALLOWED);
    expect(p.status).toBe(204);
    expect(p.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(p.headers.get('access-control-allow-headers')!.toLowerCase().split(', ')).toContain('x-service-key');
    expect(p.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(Number(p.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(vary(p)).toContain('Origin');
    const r = await fetch(`${s.url}/v1/usage`, { headers: { Origin: ALLOWED, 'X-Service-Key': key } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(vary(r)).toContain('Origin');
    expect(r.headers.get('access-control-expose-headers')).toContain('X-Quota-Remaining');
    // an error answers the page too (it can read why)
    const denied = await fetch(`${s.url}/v1/usage`, { headers: { Origin: ALLOWED } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  test('another origin: no grant on the preflight or the answer, and still Vary: Origin', async () => {
    const p = await preflight(`${s.url}/v1/usage`, OTHER);
    expect(p.headers.get('access-control-allow-origin')).toBeNull();
    expect(vary(p)).toContain('Origin');
    const r = await fetch(`${s.url}/v1/usage`, { headers: { Origin: OTHER, 'X-Service-Key': key } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(vary(r)).toContain('Origin');
    // a method the path does not have is not granted either
    const post = await preflight(`${s.url}/v1/usage`, ALLOWED, 'DELETE');
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  // review 15 #7: a 404 path and a 405 were refused before the CORS headers were set, so a page could not read why;
  // and the headers a page needs (the quota's reset, degraded limits, a created webhook's Location) were not exposed.
  test('refusals before the route is known (404 path, 405, 414) carry the grant for the listed origin', async () => {
    for (const [method, target, status] of [['GET', '/v1/no-such-path', 404], ['DELETE', '/v1/usage', 405], ['GET', `/v1/usage?x=${'a'.repeat(4200)}`, 414]] as const) {
      const r = await fetch(`${s.url}${target}`, { method, headers: { Origin: ALLOWED, 'X-Service-Key': key } });
      expect(r.status, `${method} ${target.slice(0, 40)}`).toBe(status);
      expect(r.headers.get('access-control-allow-origin'), `${method} ${target.slice(0, 40)}`).toBe(ALLOWED);
      const other = await fetch(`${s.url}${target}`, { method, headers: { Origin: OTHER, 'X-Service-Key': key } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    }
    // a 405 on a public path is open to every origin, as its answers are
    const pub = await fetch(`${s.url}/v1/coverage/summary`, { method: 'DELETE', headers: { Origin: OTHER } });
    expect(pub.status).toBe(405);
    expect(pub.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('the headers a page reads are exposed: X-Quota-Reset, X-Limits-Degraded, Location, Retry-After', async () => {
    const r = await fetch(`${s.url}/v1/usage`, { headers: { Origin: ALLOWED, 'X-Service-Key': key } });
    const exposed = r.headers.get('access-control-expose-headers')!.split(', ');
    for (const h of ['X-Quota-Reset', 'X-Limits-Degraded', 'Location', 'Retry-After', 'X-Quota-Remaining']) expect(exposed).toContain(h);
  });

  test('a shard answer keeps Vary: Accept-Encoding beside Origin', async () => {
    const r = await fetch(`${s.url}/v1/coverage/summary`, { headers: { Origin: OTHER } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(vary(r)).toContain('Accept-Encoding');
  });
});

test('a REII_CORS_ORIGINS that is not a list of origins stops serve with exit 2 and one line', async () => {
  const r = await reii(['serve', '--port', '0'], env({ REII_ARTIFACTS: artifactsDir(), REII_STATE: tmp(), REII_CORS_ORIGINS: 'https://ok.example,https://bad.example/path' }), 30_000);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('reii: setting corsOrigins must be * or comma-separated origins (https://app.example.com, http://localhost:3000), got "https://bad.example/path"\n');
});

describe('/docs', () => {
  let s: Served;
  beforeAll(async () => { ({ s } = await startWith({})); });
  afterAll(async () => { if (s) await stop(s); });

  test('the page needs no key, loads only its own files, and has the getting-started section', async () => {
    const r = await fetch(`${s.url}/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    for (const h of ['Getting started', 'A key', 'A first call', 'Limits', 'Errors', 'Webhooks: checking the signature']) expect(html).toContain(h);
    expect(html).toContain('X-Service-Key');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((u) => /^(https?:)?\/\//.test(u))).toEqual([]); // no CDN
    const assets = refs.filter((u) => u.startsWith('/docs/assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const a of assets) {
      const f = await fetch(s.url + a);
      expect(f.status, a).toBe(200);
      expect((await f.arrayBuffer()).byteLength, a).toBeGreaterThan(0);
    }
    expect(await (await fetch(`${s.url}/docs/assets/init.js`)).text()).toContain("'/v1/openapi.json'");
    expect((await fetch(`${s.url}/docs/assets/../../v1/usage`)).status).toBe(401); // the URL is normalised: no file escape
    expect((await fetch(`${s.url}/docs/assets/package.json`)).status).toBe(404);
  });
});
