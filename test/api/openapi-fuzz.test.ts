// Issue 21 defect 9: a property-based fuzz test generated from the published document (GET /v1/openapi.json)
// with fast-check, over every operation of a real server on the shared test build. Each run draws values for
// the operation's parameters and body: realistic ones (the document's enums, codes and places present in the
// build) and hostile ones (random text, numbers, blanks, overlong strings). ajv classifies each draw by the
// document itself; then the answer must be declared for the operation, JSON (a body only where one is
// declared), valid against its schema when 2xx; a draw the document refuses must be refused (4xx, never
// 2xx), and a draw it accepts never answered 400 (malformed) or 5xx.
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artifactsDir } from '../helpers/build.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';

type Schema = Record<string, unknown>;
interface Param { name: string; in: 'query' | 'path' | 'header'; required: boolean; schema: Schema }
interface Operation { 'x-param-rules'?: { together?: string[][]; anyOf?: string[][]; oneOf?: string[][]; requires?: Record<string, string[]> }; parameters: Param[]; requestBody?: { content: { 'application/json': { schema: Schema } } }; responses: Record<string, { content?: Record<string, { schema: Schema }> } | { $ref: string }>; security?: unknown[] }
interface Doc { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

let srv: TestServer;
let doc: Doc;
let key: string;
const ajv = new Ajv2020({ strict: false, allErrors: false });
const coercing = new Ajv2020({ strict: false, coerceTypes: true });

beforeAll(async () => {
  srv = await startTestServer(artifactsDir(), { anonymous: { requestsPerMinute: 1_000_000, failedAuthPer10Min: 1_000_000 } });
  key = srv.key('enterprise');
  doc = (await (await srv.get('/v1/openapi.json')).json()) as Doc;
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(async () => {
  await srv.close();
  removeTmpDirs();
});

// Realistic values seen in the build and the document, and hostile ones; ajv decides which the document allows.
const REALISTIC = ['WA', 'TX', 'KY', 'NY', 'PR', 'ZZ', 'wa', '98101', '40202', '78701', '02134', '00000', '21111', '53033', 'Seattle', 'Louisville', 'Austin',
  'eviction', 'landlord_tenant', 'primary', 'good', 'true', 'false', '1', '0', '-1', '12', '2.5', '47.6', '-122.3', '1e3', 'single_family', 'markets',
  'https://127.0.0.1/hook', 'http://[::1]/h', 'ftp://x/y', 'build.published'];
const text = fc.oneof(
  fc.constantFrom(...REALISTIC),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '  x  ', '\t', 'a'.repeat(300), '%', '../etc', '\u0000', 'null'),
  fc.integer({ min: -100_000, max: 100_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
);

/** Draws for one schema: its enum members and examples first, then anything. */
function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  const own: unknown[] = [];
  const walk = (s: Schema): void => {
    if (Array.isArray(s['enum'])) own.push(...(s['enum'] as unknown[]));
    if (Array.isArray(s['examples'])) own.push(...(s['examples'] as unknown[]));
    if (s['items'] && typeof s['items'] === 'object') walk(s['items'] as Schema);
    for (const k of ['anyOf', 'allOf'] as const) if (Array.isArray(s[k])) for (const x of s[k] as Schema[]) walk(x);
  };
  walk(schema);
  const one = own.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 2, arbitrary: text }) : text;
  if (schema['type'] === 'array') return fc.oneof(fc.uniqueArray(one, { maxLength: 4 }), one);
  if (schema['type'] === 'object') return fc.oneof(fc.dictionary(fc.constantFrom(...Object.keys((schema['properties'] as Schema | undefined) ?? { x: 1 }), 'extra'), fc.oneof(one, fc.constant(null)), { maxKeys: 4 }), one);
  if (schema['type'] === 'integer' || schema['type'] === 'number') return fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.double(), one);
  return one;
}

// An integer in a query is written in digits (api/params.ts; OpenAPI's form serialisation of an integer): Ajv's coercion
// also takes "1e1", "+5" and " 5" for numbers, which the service refuses (400)
const queryValid = (schema: Schema, raw: string): boolean => (schema['type'] !== 'integer' || /^-?\d+$/.test(raw))
  && coercing.compile({ type: 'object', properties: { v: schema } })({ v: raw });

describe('examples of the document', () => {
  test('every GET operation called with its required parameters at their examples answers 2xx from the build', async () => {
    const failed: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      const op = methods['get'];
      if (!op) continue;
      let url = path;
      const qs = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        if (!p.required) continue;
        const ex = (p.schema['examples'] as unknown[] | undefined)?.[0];
        if (ex === undefined) { failed.push(`${path}: ${p.name} has no example`); continue; }
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(ex)));
        else qs.set(p.name, String(ex));
      }
      const rules = op['x-param-rules'];
      const first = rules?.anyOf?.[0] ?? rules?.oneOf?.[0] ?? [];
      for (const name of [...first, ...first.flatMap((n) => rules?.requires?.[n] ?? [])]) {
        const p = op.parameters.find((x) => x.name === name)!;
        qs.set(name, String((p.schema['examples'] as unknown[])[0]));
      }
      const res = await srv.get(url + (qs.size ? `?${qs}` : ''), key);
      await res.arrayBuffer();
      if (res.status >= 300) failed.push(`${url}?${qs} -> ${res.status}`);
    }
    expect(failed).toEqual([]);
  });
});

describe('OpenAPI fuzz (fast-check) over every operation', () => {
  test('every operation: declared statuses, JSON answers, 2xx bodies valid; document-invalid draws refused; document-valid draws never 400 or 5xx', async () => {
    const failures: string[] = [];
    let requests = 0;
    const byStatus = new Map<number, number>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // Header parameters (the export's Range, If-Range, If-None-Match) are no query parameters: sent in the query they
        // are unknown ones, a 400 (review 15 #5); they are left out of the draws (test/api/export.test.ts covers them).
        const params = (op.parameters ?? []).filter((p) => p.in !== 'header');
        const bodySchema = op.requestBody?.content['application/json'].schema;
        const draw = fc.record({
          values: fc.tuple(...params.map((p) => (p.required ? valueFor(p.schema).map((v) => ({ v })) : fc.option(valueFor(p.schema).map((v) => ({ v })), { nil: undefined })))),
          body: bodySchema ? valueFor(bodySchema) : fc.constant(undefined),
        });
        await fc.assert(fc.asyncProperty(draw, async ({ values, body }) => {
          let url = path;
          const qs = new URLSearchParams();
          let valid = true;
          params.forEach((p, i) => {
            const got = values[i] as { v: unknown } | undefined;
            if (!got) { if (p.required) valid = false; return; }
            const raw = Array.isArray(got.v) ? got.v.join(',') : String(got.v);
            if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(raw));
            else qs.set(p.name, raw);
            if (!queryValid(p.schema, raw) || (p.in === 'path' && raw === '')) valid = false;
          });
          // The published dependencies between parameters (x-param-rules).
          const given = new Set(params.filter((_, i) => values[i] !== undefined && String((values[i] as { v: unknown }).v) !== '').map((p) => p.name));
          const rules = op['x-param-rules'];
          for (const g of rules?.together ?? []) if (g.some((n) => given.has(n)) && !g.every((n) => given.has(n))) valid = false;
          if (rules?.anyOf && !rules.anyOf.some((g) => g.every((n) => given.has(n)))) valid = false;
          if (rules?.oneOf) {
            const whole = rules.oneOf.filter((g) => g.every((n) => given.has(n)));
            const touched = rules.oneOf.filter((g) => g.some((n) => given.has(n)));
            if (whole.length !== 1 || touched.length !== 1) valid = false;
          }
          for (const [n, needs] of Object.entries(rules?.requires ?? {})) if (given.has(n) && !needs.every((m) => given.has(m))) valid = false;
          if (bodySchema) valid = valid && ajv.compile({ ...bodySchema })(body);
          const target = url + (qs.size ? `?${qs}` : '');
          const headers: Record<string, string> = { 'X-Service-Key': key };
          const res = await fetch(srv.url + target, {
            method: method.toUpperCase(), headers: bodySchema ? { ...headers, 'Content-Type': 'application/json' } : headers,
            body: bodySchema ? JSON.stringify(body ?? null) : undefined,
          });
          requests++;
          const status = res.status;
          byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
          const bytes = Buffer.from(await res.arrayBuffer());
          const where = `${method.toUpperCase()} ${target}${bodySchema ? ` ${JSON.stringify(body)?.slice(0, 120)}` : ''} -> ${status}`;
          const declared = op.responses[String(status)];
          if (!declared) { failures.push(`${where}: status not declared`); return; }
          if (status >= 500) { failures.push(`${where}: 5xx`); return; }
          const type = res.headers.get('content-type') ?? '';
          if (status === 204 || status === 304) { if (type) failures.push(`${where}: Content-Type on ${status}`); return; }
          if (type.startsWith('application/json')) {
            let parsed: unknown;
            try { parsed = JSON.parse(bytes.toString('utf8')); } catch { failures.push(`${where}: body is not JSON`); return; }
            const schema = 'content' in declared ? declared.content?.['application/json']?.schema : undefined;
            if (status < 300 && schema && !ajv.compile(typeof schema['$ref'] === 'string' ? { $ref: `doc${schema['$ref'] as string}` } : schema)(parsed)) failures.push(`${where}: body invalid against its schema`);
            if (!valid && status < 300) failures.push(`${where}: the document refuses this draw, the server accepted it`);
            if (valid && status === 400) failures.push(`${where}: the document allows this draw, the server called it malformed: ${bytes.toString('utf8').slice(0, 160)}`);
          } else if (!(status < 300 && path.startsWith('/v1/export'))) failures.push(`${where}: ${type} answer`);
        }), { numRuns: 30, seed: 21 });
      }
    }
    expect(requests).toBeGreaterThan(100);
    // The draws reach the data paths, not only the refusals.
    const ok = [...byStatus].filter(([st]) => st < 300).reduce((n, [, c]) => n + c, 0);
    if (process.env['REII_FUZZ_REPORT']) process.stderr.write(`fuzz: ${requests} requests, by status ${JSON.stringify(Object.fromEntries(byStatus))}\n`);
    expect(ok).toBeGreaterThan(requests / 10);
    expect(failures.slice(0, 40)).toEqual([]);
  });
});
