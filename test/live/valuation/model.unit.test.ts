// Unit tests of the valuation estimator's pure parts (live/valuation/: helpers, comps, estimate, fit, interval) on
// tiny hand-made markets whose right answers can be worked out by hand: statistics helpers against direct
// computations, the index and its trend rule, the calibration lookup order (warehouse/docs/valuation.md), least
// squares on exact linear data, and estimates where every comp is the subject's twin (so the estimate is the comps'
// own price).
import { describe, expect, test } from 'vitest';
import type { ModelParams, Subject } from '../../../live/valuation/types.ts';
import { dayOf, haversineKm, isoOfDay, median, monthOfDay, weightedMedian } from '../../../live/valuation/helpers.ts';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import { fitParams, ols } from '../../../live/valuation/fit.ts';
import { estimate, indexAt, indexAtMonth, topK } from '../../../live/valuation/estimate.ts';
import { calibrationFor, calibratedQ, confidenceTier, conformalQuantile, UNCALIBRATED_Q, type CalibrationRow } from '../../../live/valuation/interval.ts';
import { addressKey, normalizeAddress } from '../../../warehouse/address.ts';

describe('small helpers', () => {
  test('days and months (UTC)', () => {
    expect(dayOf('1970-01-01')).toBe(0);
    expect(dayOf('1970-01-02T23:59:59Z')).toBe(1); // only the date part counts
    expect(dayOf('2020-03-01')).toBe(18322);
    expect(isoOfDay(18322)).toBe('2020-03-01');
    expect(monthOfDay(dayOf('2020-03-31'))).toBe(2020 * 12 + 2);
    expect(monthOfDay(dayOf('2020-04-01'))).toBe(2020 * 12 + 3);
  });

  test('median of odd and even counts, unsorted input left alone, empty -> NaN', () => {
    const xs = [5, 1, 3];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  test('weighted median: the value where the running weight first reaches half', () => {
    expect(weightedMedian([1, 2, 3], [1, 1, 1])).toBe(2);
    expect(weightedMedian([3, 1, 2], [1, 10, 1])).toBe(1);
    expect(weightedMedian([1, 2, 3, 4], [1, 1, 1, 1])).toBe(2); // half reached exactly at 2
    expect(weightedMedian([10, 20], [1, 3])).toBe(20);
    expect(weightedMedian([10, 20], [3, 1])).toBe(10);
  });

  test('split-conformal quantile: the ceil((n + 1) * level)-th smallest, capped at the largest', () => {
    const s = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6]; // n = 9: ceil(10 * 0.8) = 8th smallest
    expect(conformalQuantile(s)).toBe(0.8);
    expect(conformalQuantile(s, 0.5)).toBe(0.5); // ceil(5) = 5th
    expect(conformalQuantile([0.3, 0.1], 0.8)).toBe(0.3); // ceil(2.4) = 3 > n: the largest
    expect(conformalQuantile([])).toBeNaN();
  });

  test('haversine: one degree of latitude is about 111.2 km; a point to itself is 0', () => {
    expect(haversineKm(47, -122, 48, -122)).toBeCloseTo(111.19, 1);
    expect(haversineKm(0, 0, 0, 1)).toBeCloseTo(111.19, 1);
    expect(haversineKm(60, 0, 60, 1)).toBeCloseTo(55.6, 1); // cos 60 = 0.5
    expect(haversineKm(47.6, -122.3, 47.6, -122.3)).toBe(0);
    expect(haversineKm(0, 0, 0, 180)).toBeCloseTo(20015.1, 0); // half the circumference
  });

  test('addresses normalise like the market adapters: upper case, punctuation out, last word abbreviated, unit split', () => {
    expect(normalizeAddress('3526 High Street')).toEqual({ street: '3526 HIGH ST', unit: null });
    expect(normalizeAddress('  12  oak   avenue  apt 4b ')).toEqual({ street: '12 OAK AVE', unit: '4B' });
    expect(normalizeAddress('12 Oak Ave #4')).toEqual({ street: '12 OAK AVE', unit: '4' });
    expect(normalizeAddress('12 Oak Ave Unit #4')).toEqual({ street: '12 OAK AVE', unit: '4' });
    expect(normalizeAddress('12 Oak Ave Suite 200')).toEqual({ street: '12 OAK AVE', unit: '200' });
    expect(normalizeAddress('1 Main St.')).toEqual({ street: '1 MAIN ST', unit: null });
    expect(normalizeAddress('1 Street Road')).toEqual({ street: '1 STREET RD', unit: null }); // only the last word
    expect(normalizeAddress('Broadway')).toEqual({ street: 'BROADWAY', unit: null });
    expect(addressKey('12 OAK AVE', '4')).toBe('12 OAK AVE #4');
    expect(addressKey('12 OAK AVE', null)).toBe('12 OAK AVE');
  });

  test('topK: positions of the k largest, largest first, ties by position', () => {
    const w = Float64Array.from([0.5, 2, 0.1, 2, 3, 0.5]);
    expect(topK(w, 3)).toEqual([4, 1, 3]);
    expect(topK(w, 1)).toEqual([4]);
    expect(topK(w, 5)).toEqual([4, 1, 3, 0, 5]);
    expect(topK(w, 10)).toEqual([4, 1, 3, 0, 5, 2]);
    expect(topK(Float64Array.from([]), 3)).toEqual([]);
  });
});

describe('the price index', () => {
  const p = (index: number[]): ModelParams => ({ source: 's', month0: 1000, index, elasticity: 0.65, beds: 0, baths: 0, year: 0, features: {}, fitted_rows: 100 });

  test('inside the range: the month\'s value; before it: the first month', () => {
    const q = p([0, 0.01, 0.03, 0.04, 0.06]);
    expect(indexAtMonth(q, 1000)).toBe(0);
    expect(indexAtMonth(q, 1002)).toBe(0.03);
    expect(indexAtMonth(q, 1004)).toBe(0.06);
    expect(indexAtMonth(q, 990)).toBe(0);
    expect(indexAtMonth(p([]), 1000)).toBe(0);
  });

  test('after the range: carried along the last three months\' slope, at most three months', () => {
    const q = p([0, 0.01, 0.03, 0.04, 0.06]); // slope (0.06 - 0.01) / 3
    const slope = 0.05 / 3;
    expect(indexAtMonth(q, 1005)).toBeCloseTo(0.06 + slope, 12);
    expect(indexAtMonth(q, 1007)).toBeCloseTo(0.06 + 3 * slope, 12);
    expect(indexAtMonth(q, 1020)).toBeCloseTo(0.06 + 3 * slope, 12);
    // fewer than four months: flat
    expect(indexAtMonth(p([0, 0.02, 0.05]), 1010)).toBe(0.05);
    expect(indexAtMonth(p([0, 0.02, 0.03, 0.05]), 1004)).toBeCloseTo(0.05 + 0.05 / 3, 12);
  });

  test('indexAt reads the month of a day', () => {
    const q: ModelParams = { ...p([0, 0.1]), month0: monthOfDay(dayOf('2020-01-15')) };
    expect(indexAt(q, dayOf('2020-01-31'))).toBe(0);
    expect(indexAt(q, dayOf('2020-02-01'))).toBe(0.1);
  });
});

describe('confidence tiers', () => {
  const base = { compCount: 12, effectiveComps: 6, dispersion: 0.05, medianAgeMonths: 4, medianDistanceKm: 0.5 };
  test('record: high needs 10+ comps, 4+ effective, dispersion <= 0.08, age <= 9 months, near (<= 1.5 km or unknown)', () => {
    expect(confidenceTier(base, 'record')).toBe('high');
    expect(confidenceTier({ ...base, compCount: 10, effectiveComps: 4, dispersion: 0.08, medianAgeMonths: 9, medianDistanceKm: 1.5 }, 'record')).toBe('high');
    expect(confidenceTier({ ...base, medianDistanceKm: null }, 'record')).toBe('high');
    for (const worse of [{ compCount: 9 }, { effectiveComps: 3.9 }, { dispersion: 0.081 }, { medianAgeMonths: 9.1 }, { medianDistanceKm: 1.6 }]) {
      expect(confidenceTier({ ...base, ...worse }, 'record'), JSON.stringify(worse)).toBe('medium');
    }
  });
  test('record: medium needs 5+ comps, dispersion <= 0.16, age <= 15 months; else low', () => {
    const mid = { compCount: 5, effectiveComps: 1, dispersion: 0.16, medianAgeMonths: 15, medianDistanceKm: 9 };
    expect(confidenceTier(mid, 'record')).toBe('medium');
    for (const worse of [{ compCount: 4 }, { dispersion: 0.161 }, { medianAgeMonths: 15.1 }]) expect(confidenceTier({ ...mid, ...worse }, 'record'), JSON.stringify(worse)).toBe('low');
  });
  test('request: at most medium (8+ comps, dispersion <= 0.12, age <= 9); typical: always low', () => {
    expect(confidenceTier(base, 'request')).toBe('medium');
    expect(confidenceTier({ ...base, compCount: 8, dispersion: 0.12, medianAgeMonths: 9 }, 'request')).toBe('medium');
    for (const worse of [{ compCount: 7 }, { dispersion: 0.121 }, { medianAgeMonths: 9.1 }]) expect(confidenceTier({ ...base, ...worse }, 'request'), JSON.stringify(worse)).toBe('low');
    expect(confidenceTier(base, 'typical')).toBe('low');
  });
});

describe('calibration lookup order', () => {
  const row = (source: string, mode: CalibrationRow['mode'], tier: CalibrationRow['tier'], n: number, q: number): CalibrationRow => ({ source, mode, tier, n, q });
  test('source row of mode and tier, then pooled, then the largest row of the mode, then any mode of the tier, then the default', () => {
    const table = [
      row('kc', 'record', 'high', 150, 0.11), row('*', 'record', 'high', 900, 0.12), row('kc', 'record', 'low', 300, 0.31), row('kc', 'record', 'medium', 120, 0.21),
      row('*', 'request', 'medium', 500, 0.22), row('*', 'request', 'low', 700, 0.33), row('*', 'typical', 'low', 99, 0.5),
    ];
    expect(calibrationFor(table, 'kc', 'record', 'high')).toEqual({ q: 0.11, basis: 'source-tier', calibrated: true });
    expect(calibrationFor(table, 'other', 'record', 'high')).toEqual({ q: 0.12, basis: 'pooled-tier', calibrated: true });
    expect(calibrationFor([...table, row('kc', 'request', 'low', 200, 0.4)], 'kc', 'request', 'high')).toEqual({ q: 0.4, basis: 'source-mode', calibrated: true });
    expect(calibrationFor(table, 'kc', 'request', 'high')).toEqual({ q: 0.33, basis: 'pooled-mode', calibrated: true }); // largest n of the mode
    expect(calibrationFor(table, 'kc', 'typical', 'high')).toEqual({ q: 0.12, basis: 'any-mode', calibrated: false });
    expect(calibrationFor(table, 'kc', 'typical', 'low')).toEqual({ q: 0.33, basis: 'any-mode', calibrated: false }); // n 99 is too few
    expect(calibrationFor([], 'kc', 'record', 'high')).toEqual({ q: UNCALIBRATED_Q, basis: 'default', calibrated: false });
    expect(calibrationFor(table, 'kc', 'typical', 'low', 50)).toEqual({ q: 0.5, basis: 'pooled-tier', calibrated: true });
    expect(calibratedQ(table, 'kc', 'record', 'low')).toBe(0.31);
    expect(calibrationFor(table, 'kc', 'record', 'low', 301)).toEqual({ q: 0.12, basis: 'pooled-mode', calibrated: true }); // n must reach minN
    expect(calibrationFor(table, 'kc', 'record', 'low', 300).q).toBe(0.31);
  });
});

describe('least squares', () => {
  test('recovers exact coefficients of noiseless linear data; singular designs give null', () => {
    const X: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 20; i++) {
      const a = i % 5, b = (i * 7) % 11, c = (i * i) % 13;
      X.push([a, b, c]);
      y.push(2 * a - 0.5 * b + 0.25 * c);
    }
    const beta = ols(X, y)!;
    expect(beta[0]).toBeCloseTo(2, 9);
    expect(beta[1]).toBeCloseTo(-0.5, 9);
    expect(beta[2]).toBeCloseTo(0.25, 9);
    expect(ols(X.map((r) => [r[0]!, 2 * r[0]!]), y)).toBeNull(); // collinear
    expect(ols([], [])).toBeNull();
    // a small ridge barely moves a well-posed fit
    const ridged = ols(X, y, 1e-6)!;
    expect(ridged[0]).toBeCloseTo(2, 4);
  });
  test('a column that needs a row swap (zero pivot) is still solved', () => {
    const beta = ols([[0, 1], [1, 0], [1, 1]], [3, 2, 5])!; // y = 2 x1 + 3 x2
    expect(beta[0]).toBeCloseTo(2, 9);
    expect(beta[1]).toBeCloseTo(3, 9);
  });
});

// ---------------------------------------------------------------- hand-made markets

interface Row { zip?: number; day: number; price: number; sqft?: number; beds?: number | null; baths?: number | null; year?: number | null; cond?: number | null; type?: number; lat?: number | null; lng?: number | null; key?: string | null }
function market(rows: Row[], zips = ['99901']): CompSetData {
  const d: CompSetData = { source: 'hand', zips, zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
  for (const r of rows) {
    d.zip.push(r.zip ?? 0); d.day.push(r.day); d.price.push(r.price); d.sqft.push(r.sqft ?? 1500); d.beds.push(r.beds === undefined ? 3 : r.beds);
    d.baths.push(r.baths === undefined ? 2 : r.baths); d.year.push(r.year === undefined ? 1990 : r.year); d.cond.push(r.cond === undefined ? 2 : r.cond);
    d.type.push(r.type ?? 0); d.lat.push(r.lat === undefined ? 47.6 : r.lat); d.lng.push(r.lng === undefined ? -122.3 : r.lng); d.key.push(r.key ?? null);
  }
  return d;
}
const D0 = dayOf('2024-06-01');
const flat: ModelParams = { source: 'hand', month0: monthOfDay(D0), index: [0], elasticity: 0.65, beds: 0.02, baths: 0.03, year: 0.001, features: {}, fitted_rows: 100 };
const twin = (over: Partial<Subject> = {}): Subject => ({ zip: '99901', sqft: 1500, beds: 3, baths: 2, year: 1990, features: {}, cond: 'good', type: 0, lat: 47.6, lng: -122.3, mode: 'record', ...over });

describe('CompIndex', () => {
  test('rows by zip, the latest sale per address, condition factors, and the order rule', () => {
    const set = market([
      { day: D0, price: 100, key: '1 A ST' }, { day: D0 + 5, price: 200, key: '1 A ST', cond: 3 }, { day: D0 + 9, price: 300, cond: null },
      { zip: 1, day: D0 - 40, price: 400, key: '1 A ST', cond: 0, lat: null, lng: null },
    ], ['99901', '99902']);
    const idx = new CompIndex(set);
    expect(idx.n).toBe(4);
    expect(idx.byZip.get('99901')).toEqual([0, 1, 2]);
    expect(idx.byZip.get('99902')).toEqual([3]);
    expect(idx.byKey.get('99901|1 A ST')).toBe(1);
    expect(idx.byKey.get('99902|1 A ST')).toBe(3);
    expect(idx.byKey.size).toBe(2);
    expect(idx.condLog[1]).toBeCloseTo(Math.log(1.08), 12);
    expect(idx.condLog[2]).toBe(0);
    expect(idx.condLog[3]).toBeCloseTo(Math.log(0.78), 12);
    expect(idx.logPrice[0]).toBeCloseTo(Math.log(100), 12);
    expect([...idx.byCell.values()].flat().sort()).toEqual([0, 1, 2]); // the row without a point has no cell
    expect(idx.subjectOf(1)).toMatchObject({ zip: '99901', sqft: 1500, beds: 3, cond: 'excellent', type: 0, lat: 47.6, mode: 'record' });
    expect(idx.subjectOf(2).cond).toBe('good');
    expect(idx.subjectOf(3, 'fair').cond).toBe('fair');
    expect(() => new CompIndex(market([{ day: D0 + 1, price: 1 }, { day: D0, price: 1 }]))).toThrow('comps must be ordered by zip, then date');
  });

  test('typical: the most common residential type and its medians; none -> null', () => {
    const set = market([
      { day: D0, price: 1, sqft: 1000, beds: 2, type: 0 }, { day: D0 + 1, price: 1, sqft: 4000, beds: 4, type: 0 }, { day: D0 + 2, price: 1, sqft: 2000, beds: null, type: 0 },
      { day: D0 + 3, price: 1, sqft: 500, type: 2 }, { day: D0 + 4, price: 1, sqft: 9000, type: 4 }, { day: D0 + 5, price: 1, sqft: 9000, type: 4 }, { day: D0 + 6, price: 1, sqft: 9000, type: 4 },
    ]);
    const idx = new CompIndex(set);
    expect(idx.typical('99901')).toEqual({ sqft: 2000, beds: 3, baths: 2, year: 1990, type: 0, n: 3 });
    expect(idx.typical('00000')).toBeNull();
    expect(idx.typical('99901', [4, 5])).toBeNull(); // commercial only
    expect(idx.typical('99901', [0, 3, 4])).toMatchObject({ type: 0, n: 1 }); // tie 1-1: the lower type code
  });
});

describe('estimate on hand-made markets', () => {
  test('twins sold this month at one price: the estimate is that price, from every comp, at zero dispersion', () => {
    const rows = Array.from({ length: 12 }, (_, k) => ({ day: D0 + k, price: 400_000 }));
    const idx = new CompIndex(market(rows));
    const e = estimate(idx, flat, twin(), { valuationDay: D0 + 20, beforeDay: D0 + 21 })!;
    expect(e.value).toBeCloseTo(400_000, 4);
    expect(e.compCount).toBe(12);
    expect(e.dispersion).toBe(0);
    expect(e.asOfDay).toBe(D0 + 11);
    expect(e.scope).toBe('rings'); // the zip has no more sales than the rings found
    expect(e.medianDistanceKm).toBe(0);
    expect(e.medianAgeMonths).toBeCloseTo((20 - 5.5) / 30.4375, 9);
    expect(e.effectiveComps).toBeGreaterThan(1);
    expect(e.rows.sort((a, b) => a - b)).toEqual(rows.map((_, k) => k));
  });

  test('only sales before beforeDay, never the excluded row, never a non-residential type', () => {
    const idx = new CompIndex(market([
      { day: D0, price: 100_000 }, { day: D0 + 1, price: 200_000 }, { day: D0 + 2, price: 300_000, type: 4 }, { day: D0 + 3, price: 999_000 },
    ]));
    const e = estimate(idx, flat, twin(), { valuationDay: D0 + 3, beforeDay: D0 + 3, excludeRow: 1 })!;
    expect(e.rows).toEqual([0]);
    expect(e.value).toBeCloseTo(100_000, 4);
    expect(estimate(idx, flat, twin(), { valuationDay: D0, beforeDay: D0 })).toBeNull();
    expect(estimate(idx, flat, twin({ zip: '12345', lat: null, lng: null }), { valuationDay: D0 + 9, beforeDay: D0 + 9 })).toBeNull();
  });

  test('adjustments: size by the elasticity, condition by its factor, beds/baths/year by their slopes', () => {
    const idx = new CompIndex(market(Array.from({ length: 6 }, (_, k) => ({ day: D0 + k, price: 300_000 }))));
    const opts = { valuationDay: D0 + 10, beforeDay: D0 + 10 };
    const v = (s: Partial<Subject>): number => estimate(idx, flat, twin(s), opts)!.value;
    expect(v({ sqft: 3000 })).toBeCloseTo(300_000 * 2 ** 0.65, 2);
    expect(v({ cond: 'poor' })).toBeCloseTo(300_000 * 0.78, 2);
    expect(v({ cond: 'excellent' })).toBeCloseTo(300_000 * 1.08, 2);
    expect(v({ beds: 4 })).toBeCloseTo(300_000 * Math.exp(0.02), 2);
    expect(v({ baths: 1 })).toBeCloseTo(300_000 * Math.exp(-0.03), 2);
    expect(v({ year: 2000 })).toBeCloseTo(300_000 * Math.exp(0.01), 2);
    expect(v({ beds: null, baths: null, year: null })).toBeCloseTo(300_000, 2); // unknown: no adjustment
  });

  test('a comp in excellent condition is adjusted down for a good subject', () => {
    const idx = new CompIndex(market(Array.from({ length: 6 }, (_, k) => ({ day: D0 + k, price: 324_000, cond: 3 }))));
    expect(estimate(idx, flat, twin(), { valuationDay: D0 + 10, beforeDay: D0 + 10 })!.value).toBeCloseTo(300_000, 2);
  });

  test('time adjustment: comps from an earlier month are carried to the valuation month by the index', () => {
    const p: ModelParams = { ...flat, index: [0, 0.1] };
    const idx = new CompIndex(market(Array.from({ length: 6 }, (_, k) => ({ day: D0 + k, price: 300_000 }))));
    const e = estimate(idx, p, twin(), { valuationDay: dayOf('2024-07-15'), beforeDay: dayOf('2024-07-15') })!;
    expect(e.value).toBeCloseTo(300_000 * Math.exp(0.1), 2);
  });

  test('an outlier beyond the robust cut gets no weight; the estimate is the others\' price', () => {
    const rows = Array.from({ length: 9 }, (_, k) => ({ day: D0 + k, price: 500_000 }));
    rows.push({ day: D0 + 9, price: 2_000_000 });
    const e = estimate(new CompIndex(market(rows)), flat, twin(), { valuationDay: D0 + 10, beforeDay: D0 + 10 })!;
    expect(e.value).toBeCloseTo(500_000, 2);
    expect(e.compCount).toBe(9); // the comps used: the outlier is not one
    expect(e.rows).not.toContain(9);
  });

  test('the same type is preferred when there are 5 or more of it', () => {
    const rows: Row[] = [];
    for (let k = 0; k < 5; k++) rows.push({ day: D0 + k, price: 200_000, type: 2 });
    for (let k = 5; k < 12; k++) rows.push({ day: D0 + k, price: 600_000, type: 0 });
    const idx = new CompIndex(market(rows));
    const opts = { valuationDay: D0 + 20, beforeDay: D0 + 20 };
    expect(estimate(idx, flat, twin({ type: 2 }), opts)!.value).toBeCloseTo(200_000, 2);
    expect(estimate(idx, flat, twin({ type: 0 }), opts)!.value).toBeCloseTo(600_000, 2);
    // only 4 condos: every residential sale stays a candidate (all at one price, so none is cut as an outlier)
    const four = new CompIndex(market(rows.slice(1).map((r) => ({ ...r, price: 300_000 }))));
    expect(estimate(four, flat, twin({ type: 2 }), opts)!.compCount).toBe(11);
  });

  test('at most 15 comps, the nearest in size kept', () => {
    const rows: Row[] = [];
    for (let k = 0; k < 15; k++) rows.push({ day: D0 + k, price: 300_000, sqft: 1500 });
    for (let k = 15; k < 20; k++) rows.push({ day: D0 + k, price: 900_000, sqft: 6000 });
    const e = estimate(new CompIndex(market(rows)), { ...flat, elasticity: 0.65 }, twin(), { valuationDay: D0 + 20, beforeDay: D0 + 20 })!;
    expect(e.compCount).toBe(15);
    expect(e.rows.every((r) => r < 15)).toBe(true);
    expect(e.value).toBeCloseTo(300_000, 2);
  });

  test('with 40+ nearby sales the rings are used and far sales left out; distances are reported', () => {
    const rows: Row[] = [];
    for (let k = 0; k < 45; k++) rows.push({ day: D0 + k, price: 300_000, lat: 47.6 + (k % 3) * 0.001, lng: -122.3 });
    for (let k = 45; k < 60; k++) rows.push({ day: D0 + k, price: 900_000, lat: 48.6, lng: -122.3 });
    const e = estimate(new CompIndex(market(rows)), flat, twin(), { valuationDay: D0 + 60, beforeDay: D0 + 60 })!;
    expect(e.scope).toBe('rings');
    expect(e.value).toBeCloseTo(300_000, 2);
    expect(e.medianDistanceKm).not.toBeNull();
    expect(e.medianDistanceKm!).toBeLessThan(0.3);
    // no point: the zip's most recent sales (the far ones are the latest)
    const z = estimate(new CompIndex(market(rows)), flat, twin({ lat: null, lng: null, mode: 'request' }), { valuationDay: D0 + 60, beforeDay: D0 + 60 })!;
    expect(z.scope).toBe('zip');
    expect(z.medianDistanceKm).toBeNull();
    expect(z.tier).not.toBe('high');
  });

  test('without points, the tax block locates: near blocks of the same borough weigh most, and the own block\'s older sales are candidates', () => {
    // 20 recent sales at $900k in a far block (1-5000) and 20 at $300k in blocks 1-100..1-119, then 450 newer sales at $600k
    // in another borough (2-100) that fill the zip's 400 most recent: the subject in block 1-105 is valued from its own
    // and the near blocks (the old same-block sales enter as candidates although 400 newer sales exist)
    const rows: Row[] = [];
    const blocks: (string | null)[] = [];
    for (let k = 0; k < 20; k++) { rows.push({ day: D0 + k, price: 300_000, lat: null, lng: null }); blocks.push(`1-${100 + k}`); }
    for (let k = 0; k < 20; k++) { rows.push({ day: D0 + 20 + k, price: 900_000, lat: null, lng: null }); blocks.push('1-5000'); }
    for (let k = 0; k < 450; k++) { rows.push({ day: D0 + 40 + (k % 20), price: 600_000, lat: null, lng: null }); blocks.push('2-100'); }
    const set = market(rows);
    const order = set.day.map((_, i) => i).sort((a, b) => set.day[a]! - set.day[b]! || a - b);
    const sorted: CompSetData = { ...set, ...Object.fromEntries((['zip', 'day', 'price', 'sqft', 'beds', 'baths', 'year', 'cond', 'type', 'lat', 'lng', 'key'] as const).map((c) => [c, order.map((i) => (set[c] as unknown[])[i])])), block: order.map((i) => blocks[i]!) } as CompSetData;
    const idx = new CompIndex(sorted);
    expect(idx.byBlock.get('1-105')).toHaveLength(1);
    const s = twin({ lat: null, lng: null, block: '1-105' });
    const e = estimate(idx, flat, s, { valuationDay: D0 + 70, beforeDay: D0 + 70, detail: true })!;
    expect(e.value).toBeCloseTo(300_000, -3);
    // the top comp is the own block's sale, at similarity ~1 (block distance 0)
    expect(sorted.block![e.comps![0]!.row]).toBe('1-105');
    // without the block the same subject is valued from the zip's 400 most recent sales (the other borough's $600k)
    const noBlock = estimate(idx, flat, twin({ lat: null, lng: null }), { valuationDay: D0 + 70, beforeDay: D0 + 70 })!;
    expect(noBlock.value).toBeCloseTo(600_000, -3);
  });

  test('the tier follows the estimate\'s figures for the subject mode', () => {
    const rows = Array.from({ length: 12 }, (_, k) => ({ day: D0 + k, price: 400_000 }));
    const idx = new CompIndex(market(rows));
    const opts = { valuationDay: D0 + 20, beforeDay: D0 + 21 };
    expect(estimate(idx, flat, twin(), opts)!.tier).toBe('high');
    expect(estimate(idx, flat, twin({ mode: 'request' }), opts)!.tier).toBe('medium');
    expect(estimate(idx, flat, twin({ mode: 'typical' }), opts)!.tier).toBe('low');
  });
});

describe('fitParams on noiseless data', () => {
  test('recovers the size elasticity, the characteristic slopes and a monthly trend; zip levels do not leak in', () => {
    const rows: Row[] = [];
    const start = dayOf('2023-01-01');
    for (let m = 0; m < 6; m++) {
      for (let k = 0; k < 60; k++) {
        const sqft = 1000 + ((k * 37) % 23) * 100;
        const beds = 2 + (k % 4), baths = 1 + (k % 3), year = 1950 + ((k * 11) % 60);
        const zip = k % 2;
        const logP = 11 + zip * 0.5 + 0.7 * Math.log(sqft) + 0.03 * beds + 0.05 * baths + 0.002 * year + 0.02 * m;
        rows.push({ zip, day: start + m * 31 + (k % 20), price: Math.exp(logP), sqft, beds, baths, year });
      }
    }
    rows.sort((a, b) => (a.zip! - b.zip!) || a.day - b.day);
    const p = fitParams(new CompIndex(market(rows, ['99901', '99902'])), Infinity);
    expect(p.fitted_rows).toBe(360);
    expect(p.elasticity).toBeCloseTo(0.7, 3);
    expect(p.beds).toBeCloseTo(0.03, 3);
    expect(p.baths).toBeCloseTo(0.05, 3);
    expect(p.year).toBeCloseTo(0.002, 4);
    expect(p.month0).toBe(monthOfDay(start));
    expect(p.index).toHaveLength(6);
    p.index.forEach((v, m) => expect(v, `month ${m}`).toBeCloseTo(0.02 * m, 3));
  });

  test('a source without beds or baths (NYC) still fits its year built and lot slopes', () => {
    // issue 24, fourth round: the regression took characteristics only when beds, baths and year were all recorded,
    // so NYC (no beds, no baths) fitted no year slope and no lot slope at all
    const rows: Row[] = [];
    const start = dayOf('2023-01-01');
    const lot: number[] = [];
    for (let m = 0; m < 4; m++) {
      for (let k = 0; k < 80; k++) {
        const sqft = 1000 + ((k * 37) % 23) * 100, year = 1900 + ((k * 13) % 100), logLand = Math.log(1500 + ((k * 7) % 19) * 200);
        rows.push({ day: start + m * 31 + (k % 20), price: Math.exp(10 + 0.6 * Math.log(sqft) + 0.003 * year + 0.2 * logLand + 0.01 * m), sqft, beds: null, baths: null, year });
        lot.push(logLand);
      }
    }
    const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.day - rows[b]!.day);
    const set: CompSetData = { ...market(order.map((i) => rows[i]!)), features: { log_land: order.map((i) => lot[i]!) } };
    const p = fitParams(new CompIndex(set), Infinity);
    expect(p.fitted_rows).toBe(320);
    expect(p.beds).toBe(0);
    expect(p.baths).toBe(0);
    expect(p.elasticity).toBeCloseTo(0.6, 3);
    expect(p.year).toBeCloseTo(0.003, 4);
    expect(p.features['log_land']).toBeCloseTo(0.2, 3);
  });

  test('slopes outside the documented bounds are clamped; too few rows give the defaults', () => {
    const rows: Row[] = [];
    const start = dayOf('2023-01-01');
    for (let k = 0; k < 300; k++) {
      const sqft = 1000 + ((k * 37) % 23) * 100, beds = 2 + (k % 4);
      rows.push({ day: start + (k % 28), price: Math.exp(5 + 2 * Math.log(sqft) + 0.5 * beds), sqft, beds, baths: 1 + (k % 3), year: 1950 + (k % 50) });
    }
    rows.sort((a, b) => a.day - b.day);
    const p = fitParams(new CompIndex(market(rows)), Infinity);
    expect(p.elasticity).toBe(0.95);
    expect(p.beds).toBe(0.08);
    const few = fitParams(new CompIndex(market(rows.slice(0, 49))), Infinity);
    expect(few).toMatchObject({ elasticity: 0.65, beds: 0, baths: 0, year: 0, index: [0], fitted_rows: 0 });
  });

  test('only sales before beforeDay are fitted', () => {
    const rows: Row[] = [];
    const start = dayOf('2023-01-01');
    for (let k = 0; k < 100; k++) rows.push({ day: start + k, price: 100_000 + k, sqft: 1000 + (k % 10) * 100 });
    const p = fitParams(new CompIndex(market(rows)), start + 60);
    expect(p.fitted_rows).toBeLessThanOrEqual(60);
    expect(fitParams(new CompIndex(market(rows)), start + 40).fitted_rows).toBe(0); // 40 rows < 50
  });
});
