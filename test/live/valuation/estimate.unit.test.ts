// Unit tests of the valuation estimator (live/valuation/estimate.ts, fit.ts) on a synthetic market whose size
// elasticity and monthly trend are known (test/helpers/valuation-synthetic.ts): the fit recovers them, estimates move
// the right way with size and condition, and no comp sold on or after the valuation day is used. Pure and fast.
import { describe, expect, it } from 'vitest';
import { TIERS, type Subject } from '../../../live/valuation/types.ts';
import { dayOf } from '../../../live/valuation/helpers.ts';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { fitParams } from '../../../live/valuation/fit.ts';
import { estimate } from '../../../live/valuation/estimate.ts';
import { normalizeAddress } from '../../../warehouse/address.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

const subjectAt = (over: Partial<Subject> = {}): Subject => ({
  zip: '99901', sqft: 1800, beds: 3, baths: 2, year: 1990, features: {}, cond: 'good', type: 0, lat: 47.6, lng: -122.3, mode: 'record', ...over,
});

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
