// The kernel search of the back-test (backtest.ts, choose.ts chooseKernel; issue 24 fourteenth round) is nested in the
// calibration folds: the test slice informs neither the search nor its keep rule. Pure but seconds long (a synthetic
// market's trees fitted three times), so not a .unit suite; the search's parts: kernel.unit.test.ts.
import { describe, expect, it } from 'vitest';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { backtest } from '../../../live/valuation/backtest.ts';
import { syntheticMarket } from '../../helpers/valuation-synthetic.ts';

describe('the kernel search', () => {
  it('the search and its keep rule never read the test slice: other test prices, the same kernel', () => {
    const data = syntheticMarket(2000, 11, 0.12);
    const first = backtest(new CompIndex(data), ['record']);
    expect(first.kernelSearch).not.toBeNull();
    expect(first.paramsTest.kernel).toEqual(first.kernelSearch!.kept ? first.kernel : undefined);
    const start = first.split.testStart;
    const shaken = { ...data, price: data.price.map((v, i) => (data.day[i]! >= start ? Math.round(v * (i % 3 === 0 ? 1.5 : 0.7)) : v)) };
    const second = backtest(new CompIndex(shaken), ['record']);
    expect(second.kernelSearch).toEqual(first.kernelSearch);
    expect(second.kernel).toEqual(first.kernel);
    // the test slice itself did change (the check can fail)
    expect(second.predictions.filter((p) => p.slice === 'test').map((p) => p.actual)).not.toEqual(first.predictions.filter((p) => p.slice === 'test').map((p) => p.actual));
  });
});
