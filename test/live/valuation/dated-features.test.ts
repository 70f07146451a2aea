// Dated assessor values (CompSetData.features_day; Philadelphia's roll, re-assessed after some sales): the back-test
// reads a row's features only in slices that start after the day they were set (live/valuation/backtest.ts asOf), so
// a roll value set after the sale it is tested on cannot reach the estimate. A synthetic market carries the worst
// case, a feature that IS the log price: dated after every slice, the back-test must equal the one without it; undated,
// it is read (the control that shows the test can fail).
import { describe, expect, it } from 'vitest';
import { CompIndex, type CompSetData } from '../../../live/valuation/comps.ts';
import { asOf, backtest } from '../../../live/valuation/backtest.ts';
import { median, syntheticMarket } from '../../helpers/valuation-synthetic.ts';

type Prediction = ReturnType<typeof backtest>['predictions'][number];
const runs = new WeakMap<CompSetData, Prediction[]>();
/** The back-test of a market, run once per market (the base one is read by two tests: seconds each). */
function predictions(d: CompSetData): Prediction[] {
  let p = runs.get(d);
  if (!p) runs.set(d, (p = backtest(new CompIndex(d), ['record']).predictions));
  return p;
}
const estimates = (d: CompSetData): number[] => predictions(d).map((p) => p.estimate);
const mdape = (d: CompSetData): number => median(predictions(d).map((p) => Math.abs(p.estimate / p.actual - 1)));

describe('dated assessor values in the back-test', () => {
  const base = syntheticMarket(1200, 17, 0.12);
  const leak = base.price.map((p) => Math.log(p));
  const after = Math.max(...base.day) + 1;

  it('a value dated after every slice is never read: the same estimates as without it', () => {
    const dated: CompSetData = { ...base, features: { leak }, features_day: base.day.map(() => after) };
    expect(estimates(dated)).toEqual(estimates(base));
  });

  it('undated, the same value is read (the price leaks into the estimate)', () => {
    const undated: CompSetData = { ...base, features: { leak } };
    expect(mdape(undated)).toBeLessThan(mdape(base) * 0.8);
  });

  it('asOf leaves out only the values dated on or after the slice start, same rows in the same order', () => {
    const day = base.day[600]!;
    const d: CompSetData = { ...base, features: { leak }, features_day: base.day.map((x, i) => (i % 3 === 0 ? null : x)) };
    const ix = asOf(new CompIndex(d), day);
    const col = ix.features.find(([f]) => f === 'leak')![1];
    base.day.forEach((x, i) => {
      expect(Number.isFinite(col[i]), `row ${i}`).toBe(i % 3 === 0 || x < day);
      expect(ix.data.price[i]).toBe(base.price[i]);
    });
    const none = new CompIndex({ ...base, features: { leak } });
    expect(asOf(none, day)).toBe(none);
  });
});
