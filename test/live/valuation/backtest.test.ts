// The time-split back-test (live/valuation/backtest.ts) of a synthetic market of 3,000 sales with a known noise: the
// calibrated 80% interval covers ~80% of the test slice in each subject mode, counted here with the documented
// lookup order (test/helpers/valuation-synthetic.ts). Pure but seconds long, so not a .unit suite; the calibration's
// parts: calibration.unit.test.ts.
import { describe, expect, it } from 'vitest';
import { CompIndex } from '../../../live/valuation/comps.ts';
import { backtest, calibrate } from '../../../live/valuation/backtest.ts';
import { syntheticMarket, testMetrics } from '../../helpers/valuation-synthetic.ts';

describe('split-conformal calibration', () => {
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
