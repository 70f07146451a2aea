// POST /v1/valuation/estimate: the pure estimator over given comps, the conformal calibration on synthetic data
// with a known distribution, the build step over given sales rows, the shared real build, and the HTTP contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompIndex, TIERS, UNCALIBRATED_Q, calibratedQ, calibrationFor, conformalQuantile, dayOf, estimate, fitParams, haversineKm, isoOfDay, median, normalizeAddress,
  type CalibrationRow, type CompSetData, type ModelParams, type Subject, type ValuationMeta,
} from '../api/live/valuation-model.ts';
import { backtest, calibrate, subjectFor, summarize, type Prediction } from '../api/live/valuation-backtest.ts';
import valuationModule, { ValuationEngine, type ValuationBody } from '../api/live/valuation.ts';
import { REPORT_TITLE, run as runValuationStep } from '../pipelines/shards/valuation-live.ts';
import { makeContext } from './helpers/context.ts';
import { artifactsDir, buildDir, warehouseRows } from './helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from './helpers/server.ts';

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
    expect(engine.answer({ zip: '12345', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, status: 404, message: 'No sales data for zip 12345' });
  });

  it('a build without valuation data loads an instance that answers 404', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-empty-'));
    const inst = await valuationModule.load({ dir: empty, buildId: 'x', asOf: '2020-01-01' });
    expect(await inst.handle({ zip: '99901', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, status: 404, message: 'valuation data is not available in this build' });
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
    const high = table.find((t) => t.source === 'synthetic' && t.tier === 'high')!;
    expect(high.q).toBeCloseTo(0.08 * 1.2816, 1); // the 80% quantile of |N(0, s)| is 1.2816 s
    const summary = summarize(preds, table);
    for (const tier of TIERS) {
      const row = summary.find((s) => s.tier === tier)!;
      expect(row.coverage!).toBeGreaterThan(77.5);
      expect(row.coverage!).toBeLessThan(82.5);
    }
    const widths = TIERS.map((t) => summary.find((s) => s.tier === t)!.width!);
    expect(widths[0]!).toBeLessThan(widths[1]!);
    expect(widths[1]!).toBeLessThan(widths[2]!);
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
    const t = idx.typical('99901', (idx.byZip.get('99901') ?? []).filter((r) => idx.day[r]! < before))!;
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
    const summary = summarize(r.predictions, table);
    const all = (mode: string) => summary.find((s) => s.mode === mode && s.tier === 'all')!;
    for (const mode of ['record', 'typical']) {
      expect(all(mode).n).toBeGreaterThan(500);
      expect(all(mode).coverage!).toBeGreaterThan(75);
      expect(all(mode).coverage!).toBeLessThan(85);
    }
    expect(all('record').mdape).toBeLessThan(15);
    // without the size the interval must be wider to cover as much
    expect(all('typical').width!).toBeGreaterThan(all('record').width! * 1.5);
  });
});

// ---------------------------------------------------------------- the build step over given rows

describe('pipelines/shards/valuation-live.ts (given sales rows)', () => {
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

  it('the build report carries the back-test with King County rows', () => {
    const sections = JSON.parse(fs.readFileSync(path.join(buildDir(), 'report-sections.json'), 'utf8')) as { title: string; headers: string[]; rows: unknown[][] }[];
    const s = sections.find((x) => x.title === REPORT_TITLE)!;
    expect(s.headers).toContain('80% coverage %');
    expect(s.rows.some((r) => r[0] === 'king_county' && r[2] === 'all')).toBe(true);
    // every subject mode the endpoint uses is back-tested, and its interval covers ~80% of King County's test sales
    for (const mode of ['record', 'request', 'typical']) {
      const row = s.rows.find((r) => r[0] === 'king_county' && r[1] === mode && r[2] === 'all')!;
      expect(row, mode).toBeDefined();
      const coverage = row[s.headers.indexOf('80% coverage %')] as number;
      expect(coverage, mode).toBeGreaterThan(76);
      expect(coverage, mode).toBeLessThan(84);
    }
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
