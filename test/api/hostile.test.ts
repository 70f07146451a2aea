// Issue 21: the hostile corpus kept in test/fixtures/hostile/ run against the real thing. Goals: 0 non-JSON
// answers and 0 5xx to the raw HTTP requests (malformed lines, smuggling pairs, oversize headers, CONNECT,
// unknown Expect...), 0 accepted private webhook targets in any notation, 0 files written or read by
// `reii query` (its sandbox, warehouse/query.ts, over the shared test build's warehouse).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runQuery } from '../../warehouse/query.ts';
import { CliError } from '../../warehouse/errors.ts';
import { buildDir, artifactsDir } from '../helpers/build.ts';
import { repoPath } from '../helpers/paths.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { removeTmpDirs, tmp } from '../helpers/tmp.ts';

const corpus = <T>(name: string): T => JSON.parse(fs.readFileSync(repoPath('test', 'fixtures', 'hostile', name), 'utf8')) as T;
const expand = (raw: string): string => raw.replace(/\{\{([\s\S]+?)\*(\d+)\}\}/g, (_, text: string, n: string) => text.repeat(Number(n)));

interface Answer { status: number; headers: Record<string, string>; body: string }

/** Sends raw bytes on a new connection; reads until the server closes it (or 10 s pass) and splits the answers. */
function rawExchange(port: number, raw: string): Promise<{ answers: Answer[]; rest: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const s = net.connect(port, '127.0.0.1', () => s.end(Buffer.from(raw, 'latin1')));
    const done = (): void => { clearTimeout(timer); resolve(splitAnswers(Buffer.concat(chunks).toString('latin1'))); };
    const timer = setTimeout(() => { s.destroy(); done(); }, 10_000);
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('close', done);
    s.on('error', () => {});
  });
}

function splitAnswers(text: string): { answers: Answer[]; rest: string } {
  const answers: Answer[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (!rest.startsWith('HTTP/1.1 ') || end < 0) return { answers, rest };
    const lines = rest.slice(0, end).split('\r\n');
    const status = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) { const i = l.indexOf(':'); headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim(); }
    const len = headers['content-length'] !== undefined ? Number(headers['content-length']) : status === 204 || status === 304 ? 0 : rest.length - end - 4;
    answers.push({ status, headers, body: rest.slice(end + 4, end + 4 + len) });
    rest = rest.slice(end + 4 + len);
  }
}

let srv: TestServer;
beforeAll(async () => {
  // Private targets refused: the setting is read when the server starts.
  const before = process.env['REII_WEBHOOKS_ALLOW_PRIVATE'];
  delete process.env['REII_WEBHOOKS_ALLOW_PRIVATE'];
  try {
    srv = await startTestServer(artifactsDir());
  } finally {
    if (before !== undefined) process.env['REII_WEBHOOKS_ALLOW_PRIVATE'] = before;
  }
});
afterAll(async () => {
  await srv.close();
  removeTmpDirs();
});

describe('hostile HTTP corpus', () => {
  const { requests } = corpus<{ requests: { name: string; raw: string }[] }>('http.json');
  test(`${requests.length} raw requests: every answer is JSON of the contract, none is 5xx, every connection is answered`, async () => {
    const bad: string[] = [];
    for (const r of requests) {
      const { answers, rest } = await rawExchange(srv.port, expand(r.raw));
      if (answers.length === 0) { bad.push(`${r.name}: no answer (got ${JSON.stringify(rest.slice(0, 60))})`); continue; }
      for (const a of answers) {
        if (a.status >= 500) bad.push(`${r.name}: ${a.status}`);
        if (a.status === 204 || a.status === 304) { if (a.headers['content-type']) bad.push(`${r.name}: ${a.status} with Content-Type`); continue; }
        if (!a.headers['content-type']?.startsWith('application/json')) { bad.push(`${r.name}: ${a.status} Content-Type ${a.headers['content-type']}`); continue; }
        try {
          const body = JSON.parse(a.body) as { message?: unknown };
          if (a.status >= 400 && typeof body.message !== 'string') bad.push(`${r.name}: ${a.status} without a message`);
        } catch {
          bad.push(`${r.name}: ${a.status} body is not JSON: ${JSON.stringify(a.body.slice(0, 60))}`);
        }
        if (a.status === 405 && !a.headers['allow']) bad.push(`${r.name}: 405 without Allow`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('hostile webhook targets', () => {
  const { urls } = corpus<{ urls: string[] }>('ssrf.json');
  test(`${urls.length} private targets in every notation: each refused with a 4xx JSON answer, none registered`, async () => {
    const key = srv.key('pro');
    const accepted: string[] = [];
    for (const url of urls) {
      const res = await srv.post('/v1/webhooks', { url, events: ['build.published'] }, key);
      const body = (await res.json()) as { message?: string };
      if (res.status < 400 || res.status >= 500 || typeof body.message !== 'string') accepted.push(`${url}: ${res.status}`);
    }
    expect(accepted).toEqual([]);
    expect(await (await srv.get('/v1/webhooks', key)).json()).toMatchObject({ count: 0 });
  });
});

describe('hostile SQL for reii query', () => {
  const { refused, allowed } = corpus<{ refused: string[]; allowed: string[] }>('sql.json');
  const warehouse = (): string => path.join(buildDir(), 'warehouse.duckdb');
  test(`${refused.length} statements that write, read files, load extensions or change settings: each refused with a clear error; no file written or read`, async () => {
    const out = tmp('reii-hostile-sql-');
    const secret = path.join(out, 'secret.csv');
    fs.writeFileSync(secret, 'a\n1\n');
    const atimeBefore = fs.statSync(secret).atimeMs;
    const before = fs.statSync(warehouse());
    const passed: string[] = [];
    for (const s of refused) {
      const sql = s.replaceAll('{{OUT}}', out).replaceAll('{{SECRET}}', secret);
      try {
        await runQuery(warehouse(), sql);
        passed.push(sql);
      } catch (err) {
        expect(err, sql).toBeInstanceOf(CliError);
        expect((err as CliError).exitCode, sql).toBe(2);
        expect((err as Error).message, sql).toMatch(/^query failed: .*(read-only|disabled|locked|does not exist)/);
      }
    }
    expect(passed).toEqual([]);
    expect(fs.readdirSync(out)).toEqual(['secret.csv']);
    expect(fs.statSync(secret).atimeMs).toBe(atimeBefore);
    const after = fs.statSync(warehouse());
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    for (const sql of allowed) await expect(runQuery(warehouse(), sql), sql).resolves.toBeInstanceOf(Array);
  });

  test('the row cap and the statement time limit refuse with the rule that stopped the statement', async () => {
    await expect(runQuery(warehouse(), 'select * from range(50)', { maxRows: 10 })).rejects.toThrow('query failed: more than 10 rows (the row cap of reii query)');
    expect(await runQuery(warehouse(), 'select count(*)::int as n from range(50)', { maxRows: 1 })).toEqual([{ n: 50 }]);
    await expect(runQuery(warehouse(), 'select count(*) from range(1000000000) a, range(1000) b', { timeoutMs: 200 })).rejects.toThrow('query failed: stopped after 200 ms: the statement time limit of reii query');
  });
});
