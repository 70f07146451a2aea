// The valuation answer's subject and comps (issue 24) and GET /v1/valuation/scorecard over the shared real build.
// Oracles come from the RAW King County file (kc_house_data.csv.gz), not from the SQL or the comp files under test:
// a parcel's recorded facts, the property_id recomputed from its identity (source|parcel|id, sha256, 16 hex: the
// property record's id), each comp's sale (date, price, sqft, point) and its distance to the subject.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import type { CalibrationRow } from '../../../live/valuation/interval.ts';
import type { Scorecard } from '../../../live/valuation/scorecard.ts';
import { artifactsDir, buildDir } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { haversineKm } from '../../helpers/valuation-synthetic.ts';
import { REPO } from '../../helpers/paths.ts';

interface RawSale { id: string; date: string; price: number; beds: number; baths: number; sqft: number; grade: number; year: number; zip: string; lat: number; lng: number; condition: number }

/** Every row of the raw King County file. */
function rawKingCounty(): RawSale[] {
  const file = path.join(REPO, '..', 'shared', 'data', 'king-county-wa-house-sales', 'kc_house_data.csv.gz');
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').trim().split('\n');
  const h = lines[0]!.split(',').map((c) => c.replace(/"/g, ''));
  const at = (f: string[], c: string): string => f[h.indexOf(c)]!.replace(/"/g, '');
  return lines.slice(1).map((l) => {
    const f = l.split(',');
    const d = at(f, 'date');
    return {
      id: String(Number(at(f, 'id'))), date: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`, price: Number(at(f, 'price')),
      beds: Number(at(f, 'bedrooms')), baths: Number(at(f, 'bathrooms')), sqft: Number(at(f, 'sqft_living')), grade: Number(at(f, 'grade')),
      year: Number(at(f, 'yr_built')), zip: at(f, 'zipcode'), lat: Number(at(f, 'lat')), lng: Number(at(f, 'long')), condition: Number(at(f, 'condition')),
    };
  });
}

const pidOf = (id: string): string => crypto.createHash('sha256').update(`king_county|parcel|${id}`).digest('hex').slice(0, 16);
const fact = (b: ValuationBody, name: string): { value: number | string; source: string } | undefined => b.subject.facts.find((f) => f.name === name);

describe('the valuation answer: subject and comps (real build, raw King County oracle)', () => {
  let engine: ValuationEngine;
  let raw: RawSale[];
  let subject: RawSale;
  let answer: ValuationBody;
  beforeAll(() => {
    engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
    raw = rawKingCounty();
    // a parcel sold once, at a market price, with bedrooms recorded: the 500th such id in id order
    const count = new Map<string, number>();
    for (const r of raw) count.set(r.id, (count.get(r.id) ?? 0) + 1);
    const once = raw.filter((r) => count.get(r.id) === 1 && r.price >= 100_000 && r.sqft > 0 && r.beds > 0).sort((a, b) => a.id.localeCompare(b.id));
    subject = once[500]!;
    const a = engine.answer({ zip: subject.zip, address: subject.id, condition: 'good' });
    expect(a.ok).toBe(true);
    answer = (a as { body: ValuationBody }).body;
  });

  it('a parcel number matches its record: matched, its property_id, and the facts used are the record\'s', () => {
    expect(schemaErrors('ValuationEstimate', answer)).toEqual([]);
    expect(answer.subject).toMatchObject({ matched: true, matched_on: 'sale', mode: 'record', property_id: pidOf(subject.id) });
    expect(fact(answer, 'sqft')).toEqual({ name: 'sqft', value: subject.sqft, source: 'record' });
    expect(fact(answer, 'beds')).toMatchObject({ value: subject.beds, source: 'record' });
    expect(fact(answer, 'baths')).toMatchObject({ value: subject.baths, source: 'record' });
    expect(fact(answer, 'year_built')).toMatchObject({ value: subject.year, source: 'record' });
    expect(fact(answer, 'grade')).toMatchObject({ value: subject.grade, source: 'record' });
    expect(fact(answer, 'lat')!.value as number).toBeCloseTo(subject.lat, 4);
    expect(fact(answer, 'condition')).toMatchObject({ value: 'good', source: 'request' });
    const unsent = (engine.answer({ zip: subject.zip, address: subject.id }) as { body: ValuationBody }).body;
    // not sent: the record's own condition (King County 1 poor, 2 fair, 3-4 good, 5 excellent), not the default
    const recorded = ['poor', 'fair', 'good', 'good', 'excellent'][subject.condition - 1]!;
    expect(fact(unsent, 'condition')).toMatchObject({ value: recorded, source: 'record' });
    if (recorded === 'good') expect(unsent.estimated_value).toBe(answer.estimated_value);
    // a sqft in the request replaces the record's, and says so
    const b = (engine.answer({ zip: subject.zip, address: subject.id, sqft: subject.sqft + 500, condition: 'good' }) as { body: ValuationBody }).body;
    expect(fact(b, 'sqft')).toMatchObject({ value: subject.sqft + 500, source: 'request' });
    expect(fact(b, 'beds')!.source).toBe('record');
  });

  it('every comp is a raw sale before the as-of day, never the subject\'s own sale; its adjustments compose its adjusted price', () => {
    const byPid = new Map<string, RawSale[]>();
    for (const r of raw) (byPid.get(pidOf(r.id)) ?? byPid.set(pidOf(r.id), []).get(pidOf(r.id))!).push(r);
    expect(answer.comps.filter((c) => c.kept).length).toBe(answer.comp_count); // a trimmed outlier is listed too (kept false)
    expect(answer.comps.length).toBeGreaterThanOrEqual(5);
    let weights = 0;
    for (const c of answer.comps) {
      const sale = byPid.get(c.property_id!)?.find((r) => r.date === c.sale_date && r.price === c.price);
      expect(sale, `${c.property_id} ${c.sale_date} ${c.price}`).toBeDefined();
      expect(c.sqft).toBe(sale!.sqft);
      expect(c.address).toBe(sale!.id); // King County has no street address: its parcel number
      expect(c.sale_date <= answer.as_of).toBe(true);
      expect(c.property_id).not.toBe(answer.subject.property_id); // sold once: its only sale is the one left out
      expect(c.distance_km!).toBeCloseTo(haversineKm(subject.lat, subject.lng, sale!.lat, sale!.lng), 1);
      const composed = c.price * (1 + c.time_adjustment_pct / 100) * (1 + c.feature_adjustment_pct / 100);
      expect(Math.abs(composed / c.adjusted_price - 1)).toBeLessThan(0.002);
      expect(c.similarity).toBeGreaterThan(0);
      expect(c.similarity).toBeLessThanOrEqual(1);
      expect(c.weight).toBeGreaterThanOrEqual(0);
      weights += c.weight;
    }
    expect(weights).toBeCloseTo(1, 2);
    // weights are in decreasing order of the estimator's kernel; the top comp carries weight
    expect(answer.comps[0]!.weight).toBeGreaterThan(0);
  });

  it('time_index publishes the levels every comp\'s time adjustment reads: 100 / level(sale month) - 1 (review 13)', () => {
    const ti = answer.time_index;
    // live, the house is valued at the source's latest sale (the raw file's last day), not its newest comp (as_of)
    expect(ti.valuation_month).toBe(raw.reduce((m, r) => (r.date > m ? r.date : m), '').slice(0, 7));
    expect(ti.basis).toMatch(/not the median-price index of GET \/v1\/market\/trends/);
    const level = new Map(ti.levels.map((l) => [l.month, l.level]));
    expect(level.get(ti.valuation_month)).toBe(100);
    expect(ti.levels.map((l) => l.month)).toEqual([...new Set([ti.valuation_month, ...answer.comps.map((c) => c.sale_date.slice(0, 7))])].sort());
    for (const c of answer.comps) {
      const l = level.get(c.sale_date.slice(0, 7))!;
      expect(Math.abs((100 / l - 1) * 100 - c.time_adjustment_pct), `${c.sale_date} level ${l} adj ${c.time_adjustment_pct}`).toBeLessThanOrEqual(0.06);
    }
    // King County's 13 months: comps from more than one month, so at least one level other than the base
    expect(ti.levels.length).toBeGreaterThan(1);
    expect(ti.last_levelled_month! <= ti.valuation_month).toBe(true);
  });

  it('an unmatched address without sqft: not matched, the zip\'s typical facts, low confidence and the typical tier\'s own wider interval', () => {
    const calibration = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'calibration.json'), 'utf8')) as CalibrationRow[];
    const row = calibration.find((r) => r.source === 'king_county' && r.mode === 'typical' && r.tier === 'low')!;
    expect(row.n).toBeGreaterThanOrEqual(100);
    const b = (engine.answer({ zip: subject.zip, address: '1 No Such Street', condition: 'good' }) as { body: ValuationBody }).body;
    expect(schemaErrors('ValuationEstimate', b)).toEqual([]);
    expect(b.subject).toMatchObject({ matched: false, property_id: null, matched_on: null, mode: 'typical' });
    expect(b.confidence).toBe('low');
    expect(fact(b, 'sqft')!.source).toBe('zip_typical');
    expect(fact(b, 'lat')).toBeUndefined();
    // the interval is estimate x exp(+-q) of its own calibration row (dollars rounded to 100)
    expect(Math.log(b.value_high / b.estimated_value)).toBeCloseTo(row.q, 2);
    const relWidth = (x: ValuationBody): number => (x.value_high - x.value_low) / x.estimated_value;
    expect(relWidth(b)).toBeGreaterThan(relWidth(answer));
    // with sqft sent: the request's sqft, still unmatched
    const r = (engine.answer({ zip: subject.zip, address: '1 No Such Street', sqft: 2000, condition: 'good' }) as { body: ValuationBody }).body;
    expect(r.subject).toMatchObject({ matched: false, mode: 'request' });
    expect(fact(r, 'sqft')).toMatchObject({ value: 2000, source: 'request' });
  });
});

describe('GET /v1/valuation/scorecard', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(artifactsDir()); });
  afterAll(async () => { await server.close(); });

  it('answers the builder plan with the back-test scorecard: accuracy per source and tier, PRD and PRB by price tier', async () => {
    const res = await server.get('/v1/valuation/scorecard', server.key('builder'));
    expect(res.status).toBe(200);
    const card = (await res.json()) as Scorecard;
    expect(schemaErrors('ValuationScorecard', card)).toEqual([]);
    expect(card.accepted).toEqual({ coverage_80: [78, 82], prd: [0.98, 1.03], prb: [-0.05, 0.05] });
    const kc = card.sources.find((s) => s.source === 'king_county')!;
    // the test slice starts inside the raw file's dates and holds about its last 20%
    const rawDates = rawKingCounty().map((r) => r.date).sort();
    expect(kc.test_start > rawDates[0]! && kc.test_start <= rawDates[rawDates.length - 1]!).toBe(true);
    const after = rawDates.filter((d) => d >= kc.test_start).length / rawDates.length;
    expect(after).toBeGreaterThan(0.15);
    expect(after).toBeLessThan(0.25);
    const all = card.accuracy.find((r) => r.source === 'king_county' && r.subject === 'record' && r.confidence === 'all')!;
    expect(all.n).toBe(kc.test_sales);
    const tiers = card.accuracy.filter((r) => r.source === 'king_county' && r.subject === 'record' && r.confidence !== 'all');
    expect(tiers.reduce((a, r) => a + r.n, 0)).toBe(all.n);
    const fair = card.fairness.filter((r) => r.source === 'king_county');
    expect(fair.map((r) => r.price_tier)).toEqual(['all', 'q1', 'q2', 'q3', 'q4']);
    expect(fair[0]!.n).toBe(all.n);
    expect(fair.slice(1).reduce((a, r) => a + r.n, 0)).toBe(all.n);
    for (let q = 2; q <= 4; q++) expect(fair[q]!.price_low).toBeGreaterThanOrEqual(fair[q - 1]!.price_high);
    expect(fair[0]!.prd_ok).toBe(fair[0]!.prd >= 0.98 && fair[0]!.prd <= 1.03);
    expect(typeof fair[0]!.prb).toBe('number');
  });

  it('403 for the starter plan, 401 without a key', async () => {
    expect((await server.get('/v1/valuation/scorecard', server.key('starter'))).status).toBe(403);
    expect((await server.get('/v1/valuation/scorecard', null)).status).toBe(401);
  });
});
