// The valuation live module (live/valuation/endpoint.ts) over a synthetic market written as a live/valuation folder
// (the files the build step writes): the answer's fields and interval, recorded addresses valued from their own
// characteristics and never their own comp, the zip's typical property for an unknown address, the confidence an
// uncalibrated interval forces, and the 404s. The same module over the real build: endpoint.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelParams, ValuationMeta } from '../../../live/valuation/types.ts';
import { isoOfDay } from '../../../live/valuation/helpers.ts';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import { VALUATION_FORMAT, writeCompFile } from '../../../live/valuation/comp-arrow.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { UNCALIBRATED_Q, type CalibrationRow } from '../../../live/valuation/interval.ts';
import valuationModule, { noCompsMessage, ValuationEngine, type ValuationBody } from '../../../live/valuation/endpoint.ts';
import { schemaErrors } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { haversineKm, median, syntheticMarket } from '../../helpers/valuation-synthetic.ts';

/** Writes a synthetic market as a live/valuation folder (the files the build step writes) and loads it. */
function engineFor(set: CompSetData, calibration: CalibrationRow[], model?: string): { engine: ValuationEngine; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-'));
  const idx = new CompIndex(set);
  const params: ModelParams = { ...fitParams(idx, Infinity), ...(model ? { model } : {}) };
  const meta: ValuationMeta = {
    format: VALUATION_FORMAT, build_id: 'test',
    sources: { [set.source]: { comps_file: 'comps.arrow', subjects_file: 'subjects.arrow', params_file: 'params.json', comps: set.day.length, subjects: 0, as_of: isoOfDay(Math.max(...set.day)) } },
    zips: { [set.zips[0]!]: { source: set.source, city: 'Testville', state: 'WA', sales: set.day.length, last_sale: isoOfDay(Math.max(...set.day)) } },
  };
  const empty: CompSetData = { source: set.source, zips: [], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  const write = (f: string, v: unknown): void => fs.writeFileSync(path.join(dir, f), JSON.stringify(v));
  writeCompFile(path.join(dir, 'comps.arrow'), set); writeCompFile(path.join(dir, 'subjects.arrow'), empty);
  write('params.json', params); write('calibration.json', calibration); write('meta.json', meta);
  return { engine: ValuationEngine.fromDir(dir), dir };
}

describe('valuation live module (given comps)', () => {
  const set = syntheticMarket(600, 11);
  let engine: ValuationEngine;
  let dir: string;
  beforeAll(() => {
    ({ engine, dir } = engineFor(set, [{ source: '*', mode: 'record', tier: 'high', n: 500, q: 0.15 }, { source: '*', mode: 'record', tier: 'medium', n: 500, q: 0.2 },
      { source: '*', mode: 'record', tier: 'low', n: 500, q: 0.3 }, { source: '*', mode: 'request', tier: 'medium', n: 500, q: 0.25 }, { source: '*', mode: 'request', tier: 'low', n: 500, q: 0.35 }]));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers the spec fields in order, then the additions (subject, model, comps, confidence_basis, time_index); the interval contains the estimate', () => {
    const a = engine.answer({ zip: '99901', address: '105 Test Street', condition: 'good' });
    expect(a.ok).toBe(true);
    const b = (a as { body: ValuationBody }).body;
    expect(Object.keys(b)).toEqual(['address', 'zip', 'city', 'state', 'estimated_value', 'value_low', 'value_high', 'price_per_sqft', 'confidence', 'comp_count', 'as_of',
      'data_age_note', 'notes', 'subject', 'model', 'blend', 'comps', 'confidence_basis', 'time_index']);
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

  it('a source that ended years before the build: the note says how old it is, and confidence is at most medium over 12 months, low over 36', () => {
    const last = isoOfDay(Math.max(...set.day));
    const later = (months: number): string => { // the same day of the month, `months` later
      const d = new Date(`${last}T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + months);
      return d.toISOString().slice(0, 10);
    };
    const at = (today: string): ValuationBody => {
      const aged = new ValuationEngine(engine.dir, engine.meta, (source) => engine.params(source), engine.calibration, today);
      return (aged.answer({ zip: '99901', address: '105 TEST ST', condition: 'good' }) as { body: ValuationBody }).body;
    };
    const fresh = at(later(12));
    expect(fresh.confidence).toBe('high'); // this subject's tier: many close comps (the case the cap bites)
    expect(fresh.data_age_note).toBeNull();
    const two = at(later(13)), five = at(later(60));
    expect(two.confidence).toBe('medium');
    expect(at(later(36)).confidence).toBe('medium');
    expect(at(later(37)).confidence).toBe('low');
    expect(five.confidence).toBe('low');
    // the value's day (the source's latest sale) and `as_of` (the newest comp kept) both named, each for what it is
    const newest = fresh.as_of === last ? "the newest comp used, the answer's as_of, sold that day too" : `the newest comp used, the answer's as_of, sold ${fresh.as_of}`;
    const what = `the estimate is a value as of ${last} (the source's latest sale, the day the comps' prices are adjusted to; ${newest}), not today's.`;
    expect(two.data_age_note).toBe(`The latest record of this source is from ${last}, 13 months before this build's data date (${later(13)}): ${what}`);
    expect(five.data_age_note).toBe(`The latest record of this source is from ${last}, 5 years before this build's data date (${later(60)}): ${what}`);
    // the figures themselves do not move: only what the answer says about them
    for (const b of [two, five]) expect([b.estimated_value, b.value_low, b.value_high, b.as_of]).toEqual([fresh.estimated_value, fresh.value_low, fresh.value_high, fresh.as_of]);
  });

  it("`model` names the estimator that answered: the source's back-test winner for a recorded property, comps for any other", () => {
    const named = engineFor(set, [], 'blend: comps 0.7, boosted trees 0.3');
    try {
      const body = (input: Parameters<ValuationEngine['answer']>[0]): ValuationBody => (named.engine.answer(input) as { body: ValuationBody }).body;
      expect(body({ zip: '99901', address: '105 Test St' })).toMatchObject({ subject: { mode: 'record' }, model: 'blend: comps 0.7, boosted trees 0.3' });
      // an address with no record is valued by its comps alone (estimate.ts blends recorded subjects only)
      expect(body({ zip: '99901', address: '1 Nowhere Rd', sqft: 1800 })).toMatchObject({ subject: { mode: 'request' }, model: 'comps' });
      expect(body({ zip: '99901', address: '1 Nowhere Rd' })).toMatchObject({ subject: { mode: 'typical' }, model: 'comps' });
    } finally { fs.rmSync(named.dir, { recursive: true, force: true }); }
  });

  it('a zip without sales is a 404 with the zip in the message', () => {
    expect(engine.answer({ zip: '12345', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, code: 'no_data', message: noCompsMessage('12345') });
  });

  it('a build without valuation data loads an instance that answers 404', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-empty-'));
    const inst = await valuationModule.load({ dir: empty, buildId: 'x', asOf: '2020-01-01', settings: loadSettings() });
    expect(await inst.handle({ zip: '99901', address: '1 Main St', condition: 'good' })).toEqual({ ok: false, code: 'no_data', message: 'valuation data is not available in this build' });
    fs.rmSync(empty, { recursive: true, force: true });
  });

  /** The module loaded over a copy of the synthetic folder changed by `change`: its answer to a recorded address. */
  async function answerOfChanged(change: (dir: string) => void): Promise<unknown> {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'reii-valuation-changed-'));
    fs.mkdirSync(path.join(copy, 'live'));
    fs.cpSync(dir, path.join(copy, 'live', 'valuation'), { recursive: true });
    change(path.join(copy, 'live', 'valuation'));
    try {
      const inst = await valuationModule.load({ dir: copy, buildId: 'x', asOf: '2020-01-01', settings: loadSettings() });
      return await inst.handle({ zip: '99901', address: '105 Test St', condition: 'good' });
    } finally { fs.rmSync(copy, { recursive: true, force: true }); }
  }

  it('the copied folder answers as the original (the changes below are what the 404s are about)', async () => {
    expect(await answerOfChanged(() => {})).toMatchObject({ ok: true });
  });

  it("an older build's folder (format 1: JSON comp files, one params.json) is a 404 saying to rebuild, not a 500", async () => {
    const a = await answerOfChanged((d) => {
      const meta = JSON.parse(fs.readFileSync(path.join(d, 'meta.json'), 'utf8')) as ValuationMeta;
      fs.writeFileSync(path.join(d, 'meta.json'), JSON.stringify({ ...meta, format: 1 }));
    });
    expect(a).toEqual({ ok: false, code: 'no_data', message: `valuation data is not available in this build (unreadable: its files are of format 1, this server reads format ${VALUATION_FORMAT} (comps and parcels as Arrow files): rebuild it (npx reii build --only shards))` });
  });

  it('a comp file cut short, or not an Arrow file, is a 404 naming the file, not a 500', async () => {
    const comps = (d: string): string => path.join(d, 'comps.arrow');
    expect(await answerOfChanged((d) => fs.truncateSync(comps(d), fs.statSync(comps(d)).size - 100))).toEqual({ ok: false, code: 'no_data',
      message: expect.stringMatching(/^valuation data is not available in this build \(unreadable: comps\.arrow is cut short \(\d+ bytes, no Arrow footer\)\)$/) });
    expect(await answerOfChanged((d) => fs.writeFileSync(comps(d), JSON.stringify(set)))).toEqual({ ok: false, code: 'no_data',
      message: 'valuation data is not available in this build (unreadable: comps.arrow is not an Arrow file (a build of another format?))' });
    expect(await answerOfChanged((d) => fs.rmSync(comps(d)))).toEqual({ ok: false, code: 'no_data', message: 'valuation data is not available in this build (unreadable: no comps.arrow)' });
  });
});
