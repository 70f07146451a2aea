// GET /docs: the API reference people read. The OpenAPI document (/v1/openapi.json) rendered by Swagger UI
// (npm swagger-ui-dist: its own static files, served from node_modules under /docs/assets/, no CDN), after a
// getting-started section made from the tables in force (plans.json, the error catalog). No key needed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ERRORS } from '../errors.ts';
import { ANONYMOUS, PLANS } from '../plans.ts';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const DIST = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The page's own script (no inline script, so a strict Content-Security-Policy holds). */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, docExpansion: 'list',
  defaultModelsExpandDepth: 0, displayRequestDuration: true, tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

export interface Page { status: number; headers: Record<string, string>; body: Buffer }

const cache = new Map<string, Page>();

/** The answer of a GET/HEAD under /docs, or null for any other path. */
export function docsPage(pathname: string): Page | null {
  if (pathname === '/docs/') return { status: 308, headers: { Location: '/docs', 'Cache-Control': 'public, max-age=3600' }, body: Buffer.alloc(0) };
  if (pathname !== '/docs' && !pathname.startsWith('/docs/assets/')) return null;
  const hit = cache.get(pathname);
  if (hit) return hit;
  let page: Page | null = null;
  if (pathname === '/docs') page = html(PAGE());
  else if (pathname === '/docs/assets/init.js') page = asset(Buffer.from(INIT_JS), 'text/javascript; charset=utf-8');
  else {
    const name = pathname.slice('/docs/assets/'.length);
    if (Object.hasOwn(ASSETS, name)) page = asset(fs.readFileSync(path.join(DIST, name)), ASSETS[name]!);
  }
  if (!page) return null;
  cache.set(pathname, page);
  return page;
}

const SECURITY = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'Access-Control-Allow-Origin': '*',
};
const html = (s: string): Page => ({ status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300', ...SECURITY }, body: Buffer.from(s) });
const asset = (b: Buffer, type: string): Page => ({ status: 200, headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', ...SECURITY }, body: b });

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const n = (v: number | null): string => (v === null ? 'unlimited' : v.toLocaleString('en-US'));

function PAGE(): string {
  const plans = [...PLANS.values()].map((p) => `<tr><td>${esc(p.name)}</td><td>${n(p.callsPerMonth)}</td><td>${n(p.requestsPerMinute)}</td><td>${esc([...p.groups].filter((g) => g !== 'public').join(', '))}</td></tr>`).join('');
  const errors = Object.entries(ERRORS).sort(([, a], [, b]) => a.status - b.status).map(([code, e]) => `<tr><td>${e.status}</td><td><code>${code}</code></td><td>${esc(e.message)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>REII API reference</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png"><link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body{margin:0;font-family:system-ui,sans-serif}#start{max-width:1400px;margin:0 auto;padding:1em 20px;line-height:1.45}
#start table{border-collapse:collapse;margin:.5em 0}#start td,#start th{border:1px solid #ccc;padding:2px 8px;text-align:left;font-size:14px}
#start pre{background:#f4f4f4;padding:.7em;overflow:auto}</style></head>
<body>
<section id="start">
<h1>Real Estate Investor Intelligence Service: API reference</h1>
<p>A read-only JSON API over a nightly build of public property data. The reference below is rendered from
<a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1), the machine-readable contract; a typed TypeScript
client generated from it is in the repository's <code>client/</code> folder.</p>
<h2 id="getting-started">Getting started</h2>
<h3>1. A key</h3>
<p>The operator creates one: <code>reii keys create --plan builder --name "my app"</code> prints it once. Send it in the
<code>X-Service-Key</code> header on every call (never in the query string: that is refused with 401). Public
endpoints (coverage summary, this document, health) need no key.</p>
<h3>2. A first call</h3>
<pre>export REII_URL=http://127.0.0.1:8080   # where the service runs
curl -s "$REII_URL/v1/coverage/summary"                       # public: no key
curl -s -H "X-Service-Key: $REII_KEY" "$REII_URL/v1/usage"   # your plan and this month's calls (free)</pre>
<p>From a browser page on another origin, the operator lists that origin in <code>REII_CORS_ORIGINS</code>; the key
header is then allowed by the preflight.</p>
<h3>3. Limits</h3>
<p>Every answer carries <code>X-RateLimit-Limit</code>, <code>-Remaining</code> and <code>-Reset</code> (the minute window)
and, on keyed calls, <code>X-Quota-Limit</code>, <code>-Remaining</code> and <code>-Reset</code> (the calendar month in UTC; Reset is 00:00 UTC on the 1st). Past a limit: 429 with
<code>Retry-After</code>. Public endpoints allow ${ANONYMOUS.requestsPerMinute} requests per minute per address.</p>
<table><thead><tr><th>plan</th><th>calls per month</th><th>requests per minute</th><th>endpoint groups</th></tr></thead><tbody>${plans}</tbody></table>
<h3>4. Errors</h3>
<p>Every error is JSON <code>{"message": "...", "errors": [{"field", "code", "message"}]}</code> (<code>errors</code> on
validation failures only), with an <code>X-Request-Id</code> header to quote. A query parameter or JSON body field the
endpoint does not take is a 400 with code <code>unknown</code> naming it and the ones the endpoint takes.</p>
<table><thead><tr><th>status</th><th>code</th><th>meaning</th></tr></thead><tbody>${errors}</tbody></table>
<h3>5. Webhooks: checking the signature</h3>
<p>Deliveries are signed the Standard Webhooks way: headers <code>webhook-id</code>, <code>webhook-timestamp</code> (Unix
seconds) and <code>webhook-signature</code> (<code>v1,&lt;base64 HMAC-SHA256&gt;</code>, space-separated when several).
The key is the base64-decoded part of your endpoint secret after <code>whsec_</code>; the signed text is
<code>id.timestamp.body</code> over the raw body. Refuse a timestamp more than 5 minutes away.</p>
<pre>import crypto from 'node:crypto';
function verify(secret, headers, rawBody) {
  const id = headers['webhook-id'], ts = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(ts)) &gt; 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const want = crypto.createHmac('sha256', key).update(\`\${id}.\${ts}.\${rawBody}\`).digest();
  return headers['webhook-signature'].split(' ').some((part) =&gt; {
    const [v, sig] = part.split(',');
    const got = Buffer.from(sig ?? '', 'base64');
    return v === 'v1' &amp;&amp; got.length === want.length &amp;&amp; crypto.timingSafeEqual(got, want);
  });
}</pre>
</section>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>
`;
}
