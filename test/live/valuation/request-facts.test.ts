// Review 6 #16: the request's beds and baths override the record's as its sqft does (facts[] source 'request'); before,
// "beds": 5 was dropped silently and the answer showed the record's. A number sent as JSON text ("sqft": "1500") is a
// type error (400), as a zip sent as a number is; before, it was valued. Over the shared real build through a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer(artifactsDir());
  key = server.key('pro', 100_000);
});
afterAll(async () => { await server.close(); });

interface Fact { name: string; value: number | string; source: string }
interface Body { subject: { matched: boolean; mode: string; facts: Fact[] }; estimated_value: number; errors?: { field: string; code: string }[] }
const post = async (body: Record<string, unknown>): Promise<{ status: number; body: Body }> => {
  const res = await fetch(`${server.url}/v1/valuation/estimate`, { method: 'POST', headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as Body };
};
const fact = (b: Body, name: string): Fact | undefined => b.subject.facts.find((f) => f.name === name);

describe('beds and baths sent override the record, as sqft does', () => {
  const subject = { zip: '19146', address: '2251 League St' }; // a Philadelphia record with beds and baths
  it('a matched record: the sent beds and baths are the subject\'s (source request), the rest stays the record\'s', async () => {
    const own = await post(subject);
    expect(own.status).toBe(200);
    const beds = fact(own.body, 'beds')!, baths = fact(own.body, 'baths')!;
    expect(beds.source).toBe('record');
    expect(baths.source).toBe('record');
    const sent = { beds: Number(beds.value) + 3, baths: Number(baths.value) + 1.5 };
    const over = await post({ ...subject, ...sent });
    expect(over.status).toBe(200);
    expect(over.body.subject.mode).toBe('record');
    expect(fact(over.body, 'beds')).toEqual({ name: 'beds', value: sent.beds, source: 'request' });
    expect(fact(over.body, 'baths')).toEqual({ name: 'baths', value: sent.baths, source: 'request' });
    expect(fact(over.body, 'sqft')).toEqual(fact(own.body, 'sqft'));
  });
  it('an unmatched address: the typical property with the sent beds', async () => {
    const r = await post({ zip: '19146', address: '99999 Nowhere St', beds: 6 });
    expect(r.status).toBe(200);
    expect(r.body.subject.matched).toBe(false);
    expect(fact(r.body, 'beds')).toEqual({ name: 'beds', value: 6, source: 'request' });
  });
});

describe('a number sent as JSON text is a type error', () => {
  for (const [field, v] of [['sqft', '1500'], ['beds', '5'], ['baths', '2']] as const) {
    it(`"${field}": "${v}" -> 400 type`, async () => {
      const r = await post({ zip: '19146', address: '2251 League St', [field]: v });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ field, code: 'type' })]);
    });
  }
  it('out of range -> 422', async () => {
    expect((await post({ zip: '19146', address: '2251 League St', beds: -1 })).status).toBe(422);
    expect((await post({ zip: '19146', address: '2251 League St', beds: 2.5 })).status).toBe(400); // a whole number
  });
});
