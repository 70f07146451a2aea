// POST /v1/valuation/estimate: the pure estimator over given comps, the conformal calibration on synthetic data
// with a known distribution, the build step over given sales rows, the shared real build, and the HTTP contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompIndex, TIERS, calibratedQ, conformalQuantile, dayOf, estimate, fitParams, isoOfDay, normalizeAddress,
  type CalibrationRow, type CompSetData, type ModelParams, type Subject, type ValuationMeta,
} from '../api/live/valuation-model.ts';
import { backtest, calibrate, summarize, type Prediction } from '../api/live/valuation-backtest.ts';
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

  it('a recorded address is valued with its own characteristics; an unknown one with the zip typical property at lower confidence', () => {
    const known = (engine.answer({ zip: '99901', address: '105 TEST ST', condition: 'good' }) as { body: ValuationBody }).body;
    const unknown = (engine.answer({ zip: '99901', address: '1 Nowhere Lane', condition: 'good' }) as { body: ValuationBody }).body;
    expect(unknown.address).toBe('1 NOWHERE LN');
    expect(['low', 'medium']).toContain(unknown.confidence);
    expect(known.comp_count).toBeGreaterThan(0);
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
  });

  it('the time-split back-test of a synthetic market covers ~80% of its test sales', () => {
    const idx = new CompIndex(syntheticMarket(3000, 99, 0.15));
    const r = backtest(idx, ['record']);
    const table = calibrate(r.predictions);
    const all = summarize(r.predictions, table).find((s) => s.tier === 'all')!;
    expect(all.n).toBeGreaterThan(500);
    expect(all.coverage!).toBeGreaterThan(75);
    expect(all.coverage!).toBeLessThan(85);
    expect(all.mdape).toBeLessThan(15);
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

  it('a King County parcel id resolves to its recorded sale', async () => {
    const [p] = await warehouseRows<{ parcel_id: string; zip: string }>(`select parcel_id, zip from sales where source = 'king_county' and sqft > 0 order by sale_date desc, parcel_id limit 1`);
    const a = engine.answer({ zip: p!.zip, address: p!.parcel_id, condition: 'good' });
    expect(a.ok).toBe(true);
    expect(schemaErrors('ValuationEstimate', (a as { body: unknown }).body)).toEqual([]);
  });

  it('the build report carries the back-test with King County rows', () => {
    const sections = JSON.parse(fs.readFileSync(path.join(buildDir(), 'report-sections.json'), 'utf8')) as { title: string; headers: string[]; rows: unknown[][] }[];
    const s = sections.find((x) => x.title === REPORT_TITLE)!;
    expect(s.headers).toContain('80% coverage %');
    expect(s.rows.some((r) => r[0] === 'king_county' && r[2] === 'all')).toBe(true);
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
