// Review 6 #16: the request's beds and baths override the record's as its sqft does (facts[] source 'request'); before,
// "beds": 5 was dropped silently and the answer showed the record's. A number sent as JSON text ("sqft": "1500") is a
// type error (400), as a zip sent as a number is; before, it was valued. Over the shared real build through a server.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.ts';
import { serveSharedBuild } from '../../helpers/build.ts';

const api = serveSharedBuild('pro', 100_000);

interface Fact { name: string; value: number | string; source: string }
interface Body { subject: { matched: boolean; mode: string; facts: Fact[] }; estimated_value: number; notes: string[]; errors?: { field: string; code: string }[] }
const post = async (body: Record<string, unknown>): Promise<{ status: number; body: Body }> => {
  const res = await fetch(`${api.server.url}/v1/valuation/estimate`, { method: 'POST', headers: { 'X-Service-Key': api.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
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

describe('beds and baths sent where the market\'s comps record none (NYC): a note, not a fact used (review: listed as request facts, changed nothing)', () => {
  it('the raw NYC files have no beds or baths column', () => {
    const dir = path.join(REPO, '..', 'shared', 'data', 'nyc-rolling-sales');
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.csv.gz'))) {
      const header = zlib.gunzipSync(fs.readFileSync(path.join(dir, f))).subarray(0, 4096).toString('utf8').split('\n')[0]!;
      expect(header, f).toContain('SALE PRICE');
      expect(header, f).not.toMatch(/BED|BATH/i);
    }
  });
  const subject = { zip: '11416', address: '95-24 86th Street' };
  it('95-24 86th Street (11416) with beds 1 baths 1 and beds 4 baths 2: the same value as without, no beds or baths fact, a note naming both', async () => {
    const own = await post(subject);
    expect(own.status).toBe(200);
    expect(own.body.subject.matched).toBe(true);
    for (const sent of [{ beds: 1, baths: 1 }, { beds: 4, baths: 2 }]) {
      const r = await post({ ...subject, ...sent });
      expect(r.status).toBe(200);
      expect(r.body.estimated_value).toBe(own.body.estimated_value);
      expect(r.body.subject.facts.filter((f) => f.name === 'beds' || f.name === 'baths')).toEqual([]);
      expect(r.body.notes).toContain(`beds ${sent.beds} and baths ${sent.baths} sent were not used: the comps of this market (nyc) record no beds or baths, `
        + 'so no comp can be compared on them and the estimate is the same without them');
    }
    const one = await post({ ...subject, baths: 3 });
    expect(one.body.notes.filter((n) => n.includes('not used'))).toEqual(['baths 3 sent was not used: the comps of this market (nyc) record no baths, so no comp can be compared on it and the estimate is the same without it']);
    expect(own.body.notes.filter((n) => n.includes('not used'))).toEqual([]);
  });
  it('where the comps record them (Philadelphia), no such note', async () => {
    const r = await post({ zip: '19146', address: '2251 League St', beds: 6 });
    expect(r.body.notes.filter((n) => n.includes('not used'))).toEqual([]);
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
