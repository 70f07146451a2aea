// POST /v1/valuation/estimate: the pure estimator over given comps, the conformal calibration on synthetic data
// with a known distribution, the build step over given sales rows, the shared real build, and the HTTP contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIERS, type ModelParams, type Subject, type ValuationMeta } from '../../../live/valuation/types.ts';
import { dayOf, isoOfDay } from '../../../live/valuation/helpers.ts';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { estimate } from '../../../live/valuation/estimate.ts';
import { UNCALIBRATED_Q, calibratedQ, calibrationFor, conformalQuantile, type CalibrationRow } from '../../../live/valuation/interval.ts';
import { normalizeAddress } from '../../../warehouse/address.ts';
import { backtest, calibrate, subjectFor, summarize, type Prediction } from '../../../live/valuation/backtest.ts';
import valuationModule, { ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { REPORT_TITLE, run as runValuationStep } from '../../../live/valuation/build.ts';
import { makeContext } from '../../helpers/context.ts';
import { artifactsDir, buildDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

// ---------------------------------------------------------------- the test's own arithmetic (not the model's helpers)

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** Great-circle distance in km (haversine, mean Earth radius). */
const haversineKm = (lat1: number, lng1: number, lat2: number, lng2: number): number => {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
};

// ---------------------------------------------------------------- deterministic synthetic markets

/** Park-Miller LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
function normal(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** A market of n sales over 12 months around (47.6, -122.3): log price = 12.1 + 0.75 log(sqft/1800) + location
 *  gradient + 1%/month + N(0, sigma). */
function syntheticMarket(n: number, seed: number, sigma = 0.12, zip = '99901'): CompSetData {
  const r = rng(seed);
  const d: CompSetData = { source: 'synthetic', zips: [zip], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  const start = dayOf('2020-01-01');
  const rows = Array.from({ length: n }, (_, k) => {
    const day = start + Math.floor(r() * 365);
    const lat = 47.6 + (r() - 0.5) * 0.06, lng = -122.3 + (r() - 0.5) * 0.08;
    const sqft = Math.round(900 + r() * 2400);
    const beds = Math.max(1, Math.round(sqft / 650));
    const logP = 12.1 + 0.75 * Math.log(sqft / 1800) + 3 * (lat - 47.6) + ((day - start) / 30.44) * 0.01 + sigma * normal(r);
    return { day, lat, lng, sqft, beds, price: Math.round(Math.exp(logP)), key: `${100 + k} TEST ST` };
  }).sort((a, b) => a.day - b.day);
  for (const x of rows) {
    d.zip.push(0); d.day.push(x.day); d.price.push(x.price); d.sqft.push(x.sqft); d.beds.push(x.beds); d.baths.push(2); d.year.push(1990);
    d.cond.push(2); d.type.push(0); d.lat.push(x.lat); d.lng.push(x.lng); d.key.push(x.key);
  }
  return d;
}

const subjectAt = (over: Partial<Subject> = {}): Subject => ({
  zip: '99901', sqft: 1800, beds: 3, baths: 2, year: 1990, features: {}, cond: 'good', type: 0, lat: 47.6, lng: -122.3, mode: 'record', ...over,
});

/** Writes a synthetic market as a live/valuation folder (the files the build step writes) and loads it. */
function engineFor(set: CompSetData, calibration: CalibrationRow[]): { engine: ValuationEngine; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-'));
  const idx = new CompIndex(set);
  const params: Record<string, ModelParams> = { [set.source]: fitParams(idx, Infinity) };
  const meta: ValuationMeta = {
    format: 1, build_id: 'test',
    sources: { [set.source]: { comps_file: 'comps.json', subjects_file: 'subjects.json', comps: set.day.length, subjects: 0, as_of: isoOfDay(Math.max(...set.day)) } },
    zips: { [set.zips[0]!]: { source: set.source, city: 'Testville', state: 'WA', sales: set.day.length, last_sale: isoOfDay(Math.max(...set.day)) } },
  };
  const empty: CompSetData = { ...set, zips: [], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  const write = (f: string, v: unknown): void => fs.writeFileSync(path.join(dir, f), JSON.stringify(v));
  write('comps.json', set); write('subjects.json', empty); write('params.json', params); write('calibration.json', calibration); write('meta.json', meta);
  return { engine: ValuationEngine.fromDir(dir), dir };
}

/**
 * The interval half-width q of warehouse/docs/valuation.md "Interval: split-conformal calibration", looked up here in
 * the documented order (rows with n >= 100 only): the source's row for mode and tier; the pooled row for mode and
 * tier; the source's largest row of the mode; the pooled largest row of the mode; the pooled largest row of the tier
 * in any mode; else 0.35.
 */
function docQ(table: CalibrationRow[], source: string, mode: string, tier: string): number {
  const usable = table.filter((r) => r.n >= 100);
  const largest = (f: (r: CalibrationRow) => boolean): number | undefined => usable.filter(f).sort((a, b) => b.n - a.n)[0]?.q;
  return largest((r) => r.source === source && r.mode === mode && r.tier === tier)
    ?? largest((r) => r.source === '*' && r.mode === mode && r.tier === tier)
    ?? largest((r) => r.source === source && r.mode === mode)
    ?? largest((r) => r.source === '*' && r.mode === mode)
    ?? largest((r) => r.source === '*' && r.tier === tier)
    ?? 0.35;
}

/** Test-slice metrics counted here (not with the back-test's own summary): coverage %, MdAPE % and median width %. */
function testMetrics(preds: Prediction[], table: CalibrationRow[]): { n: number; coverage: number; mdape: number; width: number } {
  const test = preds.filter((p) => p.slice === 'test');
  const med = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
  let inside = 0;
  const ape: number[] = [], width: number[] = [];
  for (const p of test) {
    const q = docQ(table, p.source, p.mode, p.tier);
    const low = p.estimate * Math.exp(-q), high = p.estimate * Math.exp(q);
    if (p.actual >= low && p.actual <= high) inside++;
    ape.push(Math.abs(p.estimate / p.actual - 1));
    width.push((high - low) / p.estimate);
  }
  return { n: test.length, coverage: (100 * inside) / test.length, mdape: 100 * med(ape), width: 100 * med(width) };
}

// ---------------------------------------------------------------- pure estimator

describe('valuation estimator (given comps)', () => {
  const set = syntheticMarket(600, 7);
  const idx = new CompIndex(set);
  const params = fitParams(idx, Infinity);
  const asOf = Math.max(...set.day);
  const opts = { valuationDay: asOf, beforeDay: asOf + 1 };

  it('fits the known size elasticity and monthly trend of the synthetic market', () => {
    expect(params.elasticity).toBeGreaterThan(0.6);
    expect(params.elasticity).toBeLessThan(0.9);
    const last = params.index[params.index.length - 1]!;
    expect(last).toBeGreaterThan(0.06); // ~1% a month over 11 months
    expect(last).toBeLessThan(0.16);
  });

  it('is monotone in sqft', () => {
    const values = [900, 1200, 1500, 1800, 2200, 2700, 3200].map((sqft) => estimate(idx, params, subjectAt({ sqft }), opts)!.value);
    for (let k = 1; k < values.length; k++) expect(values[k]!).toBeGreaterThan(values[k - 1]!);
  });

  it('orders conditions excellent > good > fair > poor, all else equal', () => {
    const v = (cond: Subject['cond']): number => estimate(idx, params, subjectAt({ cond }), opts)!.value;
    expect(v('excellent')).toBeGreaterThan(v('good'));
    expect(v('good')).toBeGreaterThan(v('fair'));
    expect(v('fair')).toBeGreaterThan(v('poor'));
  });

  it('lands near the true value of a typical subject and reports comps, recency and a tier', () => {
    const e = estimate(idx, params, subjectAt(), opts)!;
    const truth = Math.exp(12.1 + (asOf - dayOf('2020-01-01')) / 30.44 * 0.01);
    expect(Math.abs(Math.log(e.value / truth))).toBeLessThan(0.1);
    expect(e.compCount).toBeGreaterThan(0);
    expect(e.compCount).toBeLessThanOrEqual(15);
    expect(e.asOfDay).toBeLessThanOrEqual(asOf);
    expect(TIERS).toContain(e.tier);
    expect(e.scope).toBe('rings');
  });

  it('never uses comps sold on or after beforeDay, nor the excluded row', () => {
    const cut = dayOf('2020-07-01');
    const e = estimate(idx, params, subjectAt(), { valuationDay: cut, beforeDay: cut })!;
    expect(e.asOfDay).toBeLessThan(cut);
    expect(estimate(idx, params, subjectAt(), { valuationDay: set.day[0]!, beforeDay: set.day[0]! })).toBeNull();
  });

  it('values a subject without coordinates from the zip (request mode: confidence at most medium)', () => {
    const e = estimate(idx, params, subjectAt({ lat: null, lng: null, mode: 'request' }), opts)!;
    expect(e.scope).toBe('zip');
    expect(e.tier).not.toBe('high');
  });

  it('normalises addresses like the market adapters (suffix abbreviation, unit split)', () => {
    expect(normalizeAddress('123  Main Street, Apt 4')).toEqual({ street: '123 MAIN ST', unit: '4' });
    expect(normalizeAddress('500 n. Elm Avenue')).toEqual({ street: '500 N ELM AVE', unit: null });
  });
});

describe('valuation live module (given comps)', () => {
  const set = syntheticMarket(600, 11);
  let engine: ValuationEngine;
  let dir: string;
  beforeAll(() => {
    ({ engine, dir } = engineFor(set, [{ source: '*', mode: 'record', tier: 'high', n: 500, q: 0.15 }, { source: '*', mode: 'record', tier: 'medium', n: 500, q: 0.2 },
      { source: '*', mode: 'record', tier: 'low', n: 500, q: 0.3 }, { source: '*', mode: 'request', tier: 'medium', n: 500, q: 0.25 }, { source: '*', mode: 'request', tier: 'low', n: 500, q: 0.35 }]));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers the spec fields in order; the interval contains the estimate', () => {
    const a = engine.answer({ zip: '99901', address: '105 Test Street', condition: 'good' });
    expect(a.ok).toBe(true);
    const b = (a as { body: ValuationBody }).body;
    expect(Object.keys(b)).toEqual(['address', 'zip', 'city', 'state', 'estimated_value', 'value_low', 'value_high', 'price_per_sqft', 'confidence', 'comp_count', 'as_of']);
    expect(b.address).toBe('105 TEST ST');
    expect(b.value_low).toBeLessThan(b.estimated_value);
    expect(b.value_high).toBeGreaterThan(b.estimated_value);
    expect(schemaErrors('ValuationEstimate', b)).toEqual([]);
  });

  it('price_per_sqft is null without sqft in the request and estimate / sqft with it', () => {
    const without = (engine.answer({ zip: '99901', address: '105 Test St', condition: 'good' }) as { body: ValuationBody }).body;
    expect(without.price_per_sqft).toBeNull();
    const withSqft = (engine.answer({ zip: '99901', address: '105 Test St', sqft: 2000, condition: 'good' }) as { body: ValuationBody }).body;
    expect(withSqft.price_per_sqft).toBeCloseTo(withSqft.estimated_value / 2000, 1);
  });

  it('a recorded address is valued with its own characteristics from nearby, similar comps', () => {
    const row = set.key.indexOf('105 TEST ST');
    const x = engine.explain({ zip: '99901', address: '105 test street', condition: 'good' })!;
    expect(x.subject).toMatchObject({ mode: 'record', sqft: set.sqft[row], beds: set.beds[row], lat: set.lat[row], lng: set.lng[row] });
    expect(x.ownRow).toBe(row);
    const known = (engine.answer({ zip: '99901', address: '105 TEST ST', condition: 'good' }) as { body: ValuationBody }).body;
    expect(known.comp_count).toBe(x.estimate.rows.length);
    // the comps: earlier sales, nearer and closer in size to the subject than the market at large
    const rows = x.estimate.rows;
    const all = set.day.map((_, i) => i).filter((i) => i !== row);
    const distTo = (i: number): number => haversineKm(set.lat[row]!, set.lng[row]!, set.lat[i]!, set.lng[i]!);
    const sizeGap = (i: number): number => Math.abs(Math.log(set.sqft[i]! / set.sqft[row]!));
    expect(rows.every((i) => set.day[i]! <= Math.max(...set.day))).toBe(true);
    expect(median(rows.map(distTo))).toBeLessThan(median(all.map(distTo)) / 2);
    expect(median(rows.map(sizeGap))).toBeLessThan(median(all.map(sizeGap)) / 2);
  });

  it('a recorded subject is never its own comp (as in the back-test)', () => {
    for (const k of [3, 105, 250, 590]) {
      const key = `${100 + k} TEST ST`;
      const x = engine.explain({ zip: '99901', address: key, condition: 'good' })!;
      expect(set.key[x.ownRow!]).toBe(key);
      expect(x.estimate.rows.length).toBeGreaterThan(0);
      expect(x.estimate.rows).not.toContain(x.ownRow);
    }
  });

  it('an unknown address is the zip typical property: with the sent sqft (request) or its typical sqft (typical, low)', () => {
    const typicalSqft = Math.round(Math.exp(median(set.sqft.map(Math.log))));
    const withSqft = engine.explain({ zip: '99901', address: '1 Nowhere Lane', sqft: 2500, condition: 'good' })!;
    expect(withSqft.subject).toMatchObject({ mode: 'request', sqft: 2500, lat: null, lng: null });
    expect(withSqft.ownRow).toBeNull();
    const without = engine.explain({ zip: '99901', address: '1 Nowhere Lane', condition: 'good' })!;
    expect(without.subject).toMatchObject({ mode: 'typical', sqft: typicalSqft, lat: null, lng: null });
    expect(without.estimate.tier).toBe('low');
    const body = (engine.answer({ zip: '99901', address: '1 Nowhere Lane', condition: 'good' }) as { body: ValuationBody }).body;
    expect(body.address).toBe('1 NOWHERE LN');
    expect(body.confidence).toBe('low');
  });

  it('an interval not calibrated for the subject mode forces confidence low', () => {
    // this table has no 'typical' rows: the typical subject borrows the pooled low row of another mode
    const x = engine.explain({ zip: '99901', address: '1 Nowhere Lane', condition: 'good' })!;
    expect(x.calibration).toMatchObject({ basis: 'any-mode', calibrated: false });
    // no table at all: the default half-width, and a subject the estimator rates above low is answered low
    const bare = engineFor(set, []);
    try {
      const r = bare.engine.explain({ zip: '99901', address: '105 TEST ST', condition: 'good' })!;
      expect(r.estimate.tier).not.toBe('low');
      expect(r.calibration).toEqual({ q: UNCALIBRATED_Q, basis: 'default', calibrated: false });
      const b = (bare.engine.answer({ zip: '99901', address: '105 TEST ST', condition: 'good' }) as { body: ValuationBody }).body;
      expect(b.confidence).toBe('low');
      const calibrated = (engine.answer({ zip: '99901', address: '105 TEST ST', condition: 'good' }) as { body: ValuationBody }).body;
      expect(calibrated.confidence).toBe(r.estimate.tier);
    } finally {
      fs.rmSync(bare.dir, { recursive: true, force: true });
    }
  });

  it('a zip without sales is a 404 with the zip in the message', () => {
    expect(engine.answer({ zip: '12345', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, code: 'no_data', message: 'No sales data for zip 12345' });
  });

  it('a build without valuation data loads an instance that answers 404', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-empty-'));
    const inst = await valuationModule.load({ dir: empty, buildId: 'x', asOf: '2020-01-01', settings: loadSettings() });
    expect(await inst.handle({ zip: '99901', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, code: 'no_data', message: 'valuation data is not available in this build' });
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

// ---------------------------------------------------------------- conformal calibration

describe('split-conformal calibration', () => {
  it('covers ~80% of held-out points drawn from the calibration distribution, per tier', () => {
    const r = rng(42);
    const preds: Prediction[] = [];
    const sigma = { high: 0.08, medium: 0.15, low: 0.3 } as const;
    for (const slice of ['calibration', 'test'] as const) {
      for (const tier of TIERS) {
        for (let k = 0; k < 2000; k++) {
          const err = sigma[tier] * normal(r);
          const actual = 500_000;
          preds.push({ source: 'synthetic', row: k, slice, mode: 'record', actual, estimate: actual * Math.exp(-err), tier, compCount: 10, score: Math.abs(err) });
        }
      }
    }
    const table = calibrate(preds);
    // the 80% quantile of |N(0, s)| is 1.2816 s: each tier's q is that of its own spread
    for (const tier of TIERS) {
      const row = table.find((t) => t.source === 'synthetic' && t.mode === 'record' && t.tier === tier)!;
      expect(row.q, tier).toBeCloseTo(sigma[tier] * 1.2816, 1);
    }
    // coverage of the test points counted here; 2,000 per tier: binomial sd 0.9 points, so 77.5..82.5 is +-2.8 sd
    const metrics = TIERS.map((tier) => testMetrics(preds.filter((p) => p.tier === tier), table));
    for (const [i, m] of metrics.entries()) {
      expect(m.n, TIERS[i]).toBe(2000);
      expect(m.coverage, TIERS[i]).toBeGreaterThan(77.5);
      expect(m.coverage, TIERS[i]).toBeLessThan(82.5);
    }
    expect(metrics[0]!.width).toBeLessThan(metrics[1]!.width);
    expect(metrics[1]!.width).toBeLessThan(metrics[2]!.width);
    // and the product's own summary agrees with the count made here
    const summary = summarize(preds, table);
    for (const [i, tier] of TIERS.entries()) expect(summary.find((s) => s.tier === tier)!.coverage!).toBeCloseTo(metrics[i]!.coverage, 1);
  });

  it('conformalQuantile takes the ceil((n + 1) * 0.8)-th smallest score', () => {
    expect(conformalQuantile([1, 2, 3, 4, 5, 6, 7, 8, 9])).toBe(8);
    expect(conformalQuantile([0.3])).toBe(0.3);
  });

  it('falls back to the pooled row when a source tier has too few calibration points', () => {
    const table: CalibrationRow[] = [{ source: 'a', mode: 'record', tier: 'high', n: 20, q: 0.9 }, { source: '*', mode: 'record', tier: 'high', n: 900, q: 0.2 }];
    expect(calibratedQ(table, 'a', 'record', 'high')).toBe(0.2);
    expect(calibrationFor(table, 'a', 'record', 'high')).toEqual({ q: 0.2, basis: 'pooled-tier', calibrated: true });
    // another mode's row is a fallback, not a calibration for this mode
    expect(calibrationFor(table, 'a', 'typical', 'high')).toEqual({ q: 0.2, basis: 'any-mode', calibrated: false });
    expect(calibrationFor(table, 'a', 'typical', 'low')).toEqual({ q: UNCALIBRATED_Q, basis: 'default', calibrated: false });
  });

  it('back-test subjects per mode: recorded characteristics, typical property with the sale sqft, typical property with its sqft', () => {
    const set = syntheticMarket(400, 3);
    const idx = new CompIndex(set);
    const i = 300, before = set.day[200]!;
    const cache = new Map();
    // the zip's typical property among the sales before the split (valuation.md "Subject"): median beds, median sqft
    const earlier = set.day.map((_, k) => k).filter((k) => set.day[k]! < before);
    const t = { beds: median(earlier.map((k) => set.beds[k]!)), sqft: Math.round(Math.exp(median(earlier.map((k) => Math.log(set.sqft[k]!))))) };
    expect(subjectFor(idx, i, 'record', before, cache)).toMatchObject({ mode: 'record', sqft: set.sqft[i], beds: set.beds[i], lat: set.lat[i] });
    expect(subjectFor(idx, i, 'request', before, cache)).toMatchObject({ mode: 'request', sqft: set.sqft[i], beds: t.beds, lat: null });
    expect(subjectFor(idx, i, 'typical', before, cache)).toMatchObject({ mode: 'typical', sqft: t.sqft, beds: t.beds, lat: null });
    expect(t.sqft).not.toBe(set.sqft[i]);
  });

  it('the time-split back-test of a synthetic market covers ~80% of its test sales in each subject mode', () => {
    const idx = new CompIndex(syntheticMarket(3000, 99, 0.15));
    const r = backtest(idx, ['record', 'typical']);
    const table = calibrate(r.predictions);
    expect(table.filter((t) => t.source === 'synthetic' && t.mode === 'typical').map((t) => t.tier)).toEqual(['low']);
    // counted here from the test slice's predictions and the table (the documented q lookup), not by summarize()
    const all = (mode: string): ReturnType<typeof testMetrics> => testMetrics(r.predictions.filter((p) => p.mode === mode), table);
    for (const mode of ['record', 'typical']) {
      // n > 500: binomial sd < 1.8 points at 80%, so 75..85 is about +-2.8 sd
      expect(all(mode).n).toBeGreaterThan(500);
      expect(all(mode).coverage).toBeGreaterThan(75);
      expect(all(mode).coverage).toBeLessThan(85);
    }
    // the market's noise is N(0, 0.15): a good estimator's median absolute error is near 0.674 x 0.15 = 10%
    expect(all('record').mdape).toBeLessThan(15);
    // without the size the interval must be wider to cover as much
    expect(all('typical').width).toBeGreaterThan(all('record').width * 1.5);
  });
});

// ---------------------------------------------------------------- the build step over given rows

describe('live/valuation/build.ts (given sales rows)', () => {
  it('writes the live files, the calibration table and the report section', async () => {
    const ctx = await makeContext();
    try {
      const set = syntheticMarket(800, 5);
      await ctx.db.run(`create table sales (sale_id varchar, source varchar, parcel_id varchar, address varchar, unit varchar, city varchar, state_code varchar,
        zip varchar, sale_date date, sale_price double, property_type varchar, beds double, baths double, sqft double, year_built integer, condition varchar,
        lat double, lng double, is_arms_length boolean)`);
      const values = set.day.map((d, i) => `('s${i}', 'synthetic', null, '${set.key[i]}', null, 'Testville', 'WA', '99901', '${isoOfDay(d)}', ${set.price[i]}, 'sfr',
        ${set.beds[i]}, 2, ${set.sqft[i]}, 1990, 'good', ${set.lat[i]}, ${set.lng[i]}, true)`);
      values.push(`('nominal', 'synthetic', null, '1 X ST', null, 'Testville', 'WA', '99901', '2020-06-01', 1, 'sfr', 3, 2, 1500, 1990, 'good', 47.6, -122.3, false)`);
      await ctx.db.run(`insert into sales values ${values.join(',')}`);
      await runValuationStep(ctx);
      const dir = path.join(ctx.paths.build, 'live', 'valuation');
      const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;
      expect(meta.sources['synthetic']!.comps).toBe(800); // the nominal sale is not a comp
      expect(meta.zips['99901']).toMatchObject({ source: 'synthetic', city: 'Testville', state: 'WA' });
      const cal = JSON.parse(fs.readFileSync(path.join(dir, 'calibration.json'), 'utf8')) as CalibrationRow[];
      expect(cal.some((c) => c.source === 'synthetic' && c.mode === 'record')).toBe(true);
      const sections = JSON.parse(fs.readFileSync(path.join(ctx.paths.build, 'report-sections.json'), 'utf8')) as { title: string; rows: unknown[][] }[];
      expect(sections.filter((s) => s.title === REPORT_TITLE)).toHaveLength(1);
      expect(sections[0]!.rows.length).toBeGreaterThan(0);
      // run twice: the section is replaced, not duplicated
      await runValuationStep(ctx);
      expect((JSON.parse(fs.readFileSync(path.join(ctx.paths.build, 'report-sections.json'), 'utf8')) as unknown[]).length).toBe(1);
      const engine = ValuationEngine.fromDir(dir);
      expect(engine.answer({ zip: '99901', address: set.key[10]!, condition: 'good' }).ok).toBe(true);
    } finally {
      ctx.close();
    }
  });
});

// ---------------------------------------------------------------- the shared real build

describe('valuation over the shared real build', () => {
  let engine: ValuationEngine;
  beforeAll(() => {
    // no skip: a build without valuation data fails here
    engine = ValuationEngine.fromDir(path.join(buildDir(), 'live', 'valuation'));
  });

  it('a King County address estimate validates against the schema, with comps no later than the last sale', async () => {
    const [last] = await warehouseRows<{ d: string }>(`select strftime(max(sale_date), '%Y-%m-%d') as d from sales where source = 'king_county'`);
    expect(last?.d).toBeTruthy();
    for (const input of [
      { zip: '98103', address: '4012 Stone Way N', condition: 'good' },
      { zip: '98103', address: '4012 Stone Way N', sqft: 1650, condition: 'fair' },
    ]) {
      const a = engine.answer(input);
      expect(a.ok).toBe(true);
      const b = (a as { body: ValuationBody }).body;
      expect(schemaErrors('ValuationEstimate', b)).toEqual([]);
      expect(b).toMatchObject({ zip: '98103', city: 'Seattle', state: 'WA', address: '4012 STONE WAY N' });
      expect(b.comp_count).toBeGreaterThan(0);
      expect(b.as_of <= last!.d).toBe(true);
      expect(b.value_low).toBeLessThanOrEqual(b.estimated_value);
      expect(b.value_high).toBeGreaterThanOrEqual(b.estimated_value);
      expect(b.estimated_value).toBeGreaterThan(100_000);
      expect(b.estimated_value).toBeLessThan(3_000_000);
    }
  });

  it('a King County parcel id resolves to its recorded sale: its sqft, beds and location, its own sale not a comp', async () => {
    const [p] = await warehouseRows<{ parcel_id: string; zip: string; sqft: number; beds: number; lat: number; lng: number }>(`
      select parcel_id, zip, sqft::double as sqft, beds::double as beds, lat::double as lat, lng::double as lng from sales
      where source = 'king_county' and is_arms_length and sale_price > 0 and sqft > 0 and beds > 0 and property_type in ('sfr', 'multi', 'condo')
      order by sale_date desc, sale_id desc limit 1`);
    const a = engine.answer({ zip: p!.zip, address: p!.parcel_id, condition: 'good' });
    expect(a.ok).toBe(true);
    expect(schemaErrors('ValuationEstimate', (a as { body: unknown }).body)).toEqual([]);
    const x = engine.explain({ zip: p!.zip, address: p!.parcel_id, condition: 'good' })!;
    expect(x.subject).toMatchObject({ mode: 'record', sqft: p!.sqft, beds: p!.beds, lat: p!.lat, lng: p!.lng });
    expect(x.comps.data.key[x.ownRow!]).toBe(p!.parcel_id);
    expect(x.estimate.rows).not.toContain(x.ownRow);
    expect(x.calibration.calibrated).toBe(true);
    // the typical-property fallback of the same zip is described differently
    const fallback = engine.explain({ zip: p!.zip, address: 'no such parcel', condition: 'good' })!;
    expect(fallback.subject.mode).toBe('typical');
    expect(fallback.subject.lat).toBeNull();
  });

  it('the comps of a King County recorded subject are earlier residential sales near it', () => {
    const d = engine.market('king_county').comps.data;
    const first = d.zip.findIndex((z) => d.zips[z] === '98103');
    expect(first).toBeGreaterThanOrEqual(0);
    const x = engine.explain({ zip: '98103', address: d.key[first]!, condition: 'good' })!;
    const c = x.comps;
    expect(x.subject.mode).toBe('record');
    expect(x.estimate.rows.length).toBeGreaterThanOrEqual(5);
    const asOf = dayOf(engine.meta.sources['king_county']!.as_of);
    for (const i of x.estimate.rows) {
      expect(c.day[i]!).toBeLessThanOrEqual(asOf);
      expect([0, 1, 2]).toContain(c.data.type[i]);
      expect(haversineKm(x.subject.lat!, x.subject.lng!, c.lat[i]!, c.lng[i]!)).toBeLessThan(5);
    }
  });

  it('the build report carries the back-test section with King County rows for every subject mode', () => {
    // the report's figures are the build's own account: the interval's coverage is measured independently over HTTP below
    const sections = JSON.parse(fs.readFileSync(path.join(buildDir(), 'report-sections.json'), 'utf8')) as { title: string; headers: string[]; rows: unknown[][] }[];
    const s = sections.find((x) => x.title === REPORT_TITLE)!;
    expect(s.headers).toContain('80% coverage %');
    for (const mode of ['record', 'request', 'typical']) expect(s.rows.some((r) => r[0] === 'king_county' && r[1] === mode && r[2] === 'all'), mode).toBe(true);
  });
});

describe('POST /v1/valuation/estimate over HTTP', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder');
  });
  afterAll(async () => { await server.close(); });

  it('King County held-out sales: the 80% interval covers about 80% of the true prices in each subject mode; record MdAPE within the documented 9%', async () => {
    // The holdout, chosen here from the canonical sales table by warehouse/docs/valuation.md: the source's comps
    // (arm's-length residential sales with a zip, price, sqft and a price per sqft of 10..10,000), in date order.
    // Arm's-length is decided here by market.md's rule, not read from the build's flags: King County records no
    // document, party or code, so that is a price of at least $10,000 and one copy of a sale recorded twice (the
    // same parcel, date and price);
    // the test slice is the last 20% (from the day of the 80% point on). Only each parcel's latest sale is taken:
    // the endpoint leaves exactly that sale out of a recorded address's comps, so it is never graded on a price it
    // used. A deterministic sample of 1,000 (ordered by a hash of the sale id).
    const sample = await warehouseRows<{ parcel_id: string; zip: string; price: number; sqft: number; condition: string }>(`
      with kc as (
        select * from sales where source = 'king_county' and sale_price >= 10000
        qualify row_number() over (partition by parcel_id, sale_date, sale_price order by line desc) = 1),
      comps as (
        select sale_id, parcel_id, zip, sale_date, sale_price, sqft, condition from kc
        where property_type in ('sfr', 'multi', 'condo') and zip is not null
          and sale_price > 0 and sqft > 0 and sale_price / sqft between 10 and 10000
          and sale_date > (select max(sale_date) from kc) - interval 5 year),
      ranked as (select sale_date, row_number() over (order by sale_date, sale_id) as k, count(*) over () as n from comps),
      latest as (select *, row_number() over (partition by parcel_id order by sale_date desc, sale_id desc) as r from comps)
      select parcel_id, zip, sale_price::double as price, sqft::double as sqft, condition from latest
      where r = 1 and sale_date >= (select min(sale_date) from ranked where k > 0.8 * n)
      order by md5(sale_id) limit 1000`);
    expect(sample).toHaveLength(1000);
    const enterprise = server.key('enterprise'); // no per-minute limit for 3,000 calls
    const modes = {
      // the address is known (King County: the parcel number): its own characteristics, condition as recorded
      record: (s: (typeof sample)[number]) => ({ zip: s.zip, address: s.parcel_id, condition: s.condition }),
      // an unknown address with the sale's sqft; an unknown address alone. (The endpoint cannot tell which sale is
      // meant here, so the sale itself stays among the zip's comps: these two lean, if anything, optimistic.)
      request: (s: (typeof sample)[number]) => ({ zip: s.zip, address: '1 NO SUCH PARCEL', sqft: s.sqft, condition: s.condition }),
      typical: (s: (typeof sample)[number]) => ({ zip: s.zip, address: '1 NO SUCH PARCEL', condition: s.condition }),
    };
    const result: Record<string, { coverage: number; mdape: number }> = {};
    for (const [mode, body] of Object.entries(modes)) {
      let inside = 0;
      const ape: number[] = [];
      for (let i = 0; i < sample.length; i += 10) { // ten requests in flight at a time
        await Promise.all(sample.slice(i, i + 10).map(async (s) => {
          const res = await server.post('/v1/valuation/estimate', body(s), enterprise);
          expect(res.status, `${mode} ${s.parcel_id}`).toBe(200);
          const b = (await res.json()) as ValuationBody;
          if (s.price >= b.value_low && s.price <= b.value_high) inside++;
          ape.push(Math.abs(b.estimated_value / s.price - 1));
        }));
      }
      ape.sort((a, b) => a - b);
      result[mode] = { coverage: (100 * inside) / sample.length, mdape: 100 * (ape[499]! + ape[500]!) / 2 };
    }
    console.log(`valuation holdout, 1,000 King County test-slice sales over HTTP: ${JSON.stringify(result)}`);
    // 1,000 draws of an 80% interval: binomial sd = sqrt(0.8 x 0.2 / 1000) = 1.26 points; 75..85 is +-4 sd, far
    // outside chance for a calibrated interval, while an interval 20% too narrow or too wide moves coverage ~6 points
    for (const [mode, r] of Object.entries(result)) {
      expect(r.coverage, `${mode} coverage ${r.coverage}`).toBeGreaterThan(75);
      expect(r.coverage, `${mode} coverage ${r.coverage}`).toBeLessThan(85);
    }
    // valuation.md "King County goals (record subjects): MdAPE <= 9%"
    expect(result['record']!.mdape).toBeLessThanOrEqual(9);
    // without the property the estimate is worse: request (sqft sent) between record and typical
    expect(result['request']!.mdape).toBeGreaterThan(result['record']!.mdape);
    expect(result['typical']!.mdape).toBeGreaterThan(result['request']!.mdape);
  });

  it('200 with a valid Valuation estimate for a King County zip', async () => {
    const res = await server.post('/v1/valuation/estimate', { zip: '98115', address: '7500 35th Ave NE', sqft: 1800 }, key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(schemaErrors('ValuationEstimate', body)).toEqual([]);
    expect((body as ValuationBody).price_per_sqft).not.toBeNull();
  });

  it('404 for a zip without sales', async () => {
    const res = await server.post('/v1/valuation/estimate', { zip: '59001', address: '1 Main St' }, key);
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).toContain('No sales data for zip 59001');
  });

  it.each([[0], [-1], [10 ** 7]])('422 for sqft %s', async (sqft) => {
    const res = await server.post('/v1/valuation/estimate', { zip: '98115', address: '1 Main St', sqft }, key);
    expect(res.status).toBe(422);
  });

  it('422 for condition "meh"', async () => {
    expect((await server.post('/v1/valuation/estimate', { zip: '98115', address: '1 Main St', condition: 'meh' }, key)).status).toBe(422);
  });

  it('400 for a missing address, a 4-digit zip and a body that is not JSON', async () => {
    expect((await server.post('/v1/valuation/estimate', { zip: '98115' }, key)).status).toBe(400);
    expect((await server.post('/v1/valuation/estimate', { zip: '9810', address: '1 Main St' }, key)).status).toBe(400);
    expect((await server.post('/v1/valuation/estimate', '{"zip": "98115", address', key)).status).toBe(400);
  });
});
