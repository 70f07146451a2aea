// The research endpoint's optional LLM rephrase (live/research/endpoint.ts) against a fake OpenAI-compatible server
// on loopback, over the shared real build's research index: a faithful rephrase is taken, each kind of unfaithful one
// is rejected (the draft is returned), a down endpoint falls back, and a real server started with REII_LLM_URL uses
// it. The guard's own rules: endpoint.unit.test.ts; warehouse/docs/research.md "Optional LLM rephrase".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { ResearchEngine, type ResearchBody, type ResearchInput } from '../../../live/research/endpoint.ts';
import type { ResearchData } from '../../../live/research/data.ts';
import { NOT_LEGAL_ADVICE } from '../../../live/research/facts.ts';
import { researchData } from '../../helpers/research.ts';
import { PINNED_TODAY } from '../../helpers/clock.ts';

let data: ResearchData;
let engine: ResearchEngine;
beforeAll(() => {
  data = researchData();
  engine = new ResearchEngine(data, null, PINNED_TODAY);
});

describe('optional LLM rephrase (fake OpenAI-compatible server on loopback)', () => {
  let server: http.Server;
  let url = '';
  /** what the fake model does to the draft it is sent */
  let reply: (draft: string) => string = (d) => d;
  let calls = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        calls++;
        const parsed = JSON.parse(body) as { messages: { content: string }[] };
        const draft = parsed.messages[1]!.content.split('DRAFT:\n')[1] ?? '';
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply(draft) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const llm = () => new ResearchEngine(data, { url, model: 'fake', key: null, timeoutMs: 2000 });
  const q = { query: 'How many days notice to evict for nonpayment in Texas?', depth: 'quick' as const };
  it('takes a faithful rephrase', async () => {
    reply = (d) => `Rephrased: ${d}`;
    const r = await llm().answer(q);
    expect(r.answer.startsWith('Rephrased:')).toBe(true);
    expect(calls).toBeGreaterThan(0);
  });

  /** The fake model rewrites the draft of `input`; the engine must return the draft unchanged. */
  async function rejected(input: ResearchInput, change: (draft: string) => string): Promise<void> {
    const draft = (await engine.answer(input)).answer;
    expect(change(draft), 'the change must change something').not.toBe(draft);
    reply = change;
    const before = calls;
    const r = await llm().answer(input);
    expect(calls).toBe(before + 1);
    expect(r.answer).toBe(draft);
  }
  it('rejects a rephrase that invents a number', () => rejected(q, () => 'In Texas a landlord must give 5 days of notice. Not legal advice.'));
  it('rejects a rephrase that drops the not-legal-advice caveat', () => rejected(q, (d) => d.replace(NOT_LEGAL_ADVICE, '').trim()));
  it('rejects a rephrase that drops the uncertainty wording', async () => {
    const unc = data.docs.find((d) => d.level === 'state' && d.category === 'tax_deed_lien' && d.subcategory === 'tax_sale' && d.status === 'active' && d.uncertain.includes('interest_rate_pct'));
    if (!unc) throw new Error('the build has no tax sale record with an uncertain rate to test with');
    const input = { query: `tax lien interest rate in ${data.stateName(unc.state)}`, depth: 'quick' as const };
    expect((await engine.answer(input)).answer).toMatch(/unverified/);
    await rejected(input, (d) => d.replace(/; marked unverified or conflicting in our sources \([^)]*\)/, ''));
  });
  it('rejects a deep rephrase that drops a citation (numbers kept)', () =>
    rejected({ ...q, depth: 'deep' }, (d) => d.replaceAll('Tex. Prop. Code 24.005', 'Texas property law section 24.005')));
  it('rejects a rephrase that changes the state', () => rejected(q, (d) => d.replaceAll('Texas', 'Oklahoma')));
  it('rejects a rephrase that turns judicial into non-judicial', () =>
    rejected({ query: 'Is foreclosure judicial in Florida?' }, (d) => d.replace(/is judicial: the lender must go through the courts/, 'is non-judicial: a trustee sells')));
  it('rejects a rephrase that turns a lien state into a deed state', () =>
    rejected({ query: 'What is the tax lien interest rate in Florida?' }, (d) => d.replace('tax lien state', 'tax deed state')));
  it('falls back when the endpoint is down', async () => {
    const e = new ResearchEngine(data, { url: 'http://127.0.0.1:1/v1/chat/completions', model: 'fake', key: null, timeoutMs: 500 });
    expect((await e.answer(q)).answer).toBe((await engine.answer(q)).answer);
  });
  it('a real server started with REII_LLM_URL uses the fake endpoint for POST /v1/research/query', async () => {
    const saved = process.env['REII_LLM_URL'];
    process.env['REII_LLM_URL'] = url;
    let srv: TestServer | null = null;
    try {
      srv = await startTestServer(artifactsDir());
      reply = (d) => `Via the model: ${d}`;
      const before = calls;
      const res = await srv.post('/v1/research/query', { query: q.query }, srv.key('pro'));
      expect(res.status).toBe(200);
      const body = (await res.json()) as ResearchBody;
      expect(calls).toBe(before + 1);
      expect(body.answer.startsWith('Via the model: ')).toBe(true);
    } finally {
      if (saved === undefined) delete process.env['REII_LLM_URL'];
      else process.env['REII_LLM_URL'] = saved;
      await srv?.close();
    }
  });
});
