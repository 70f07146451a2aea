// The price index math of the market trends (warehouse/price-index.ts), on hand-made pairs and medians.
import { describe, expect, test } from 'vitest';
import { baseMonth, CHANGE_MIN_SAMPLE, changePct, chooseIndex, isComplete, medianLevel, mixOf, rebase, repeatSalesLevels, REPEAT_SALES_MIN_PAIRS, type Pair } from '../../warehouse/price-index.ts';

/** Every pair (a, b) of the months with `per` properties each, priced exactly on the index `truth` (log levels). */
function exactPairs(truth: number[], per: number): Pair[] {
  const pairs: Pair[] = [];
  for (let a = 0; a < truth.length; a++) for (let b = a + 1; b < truth.length; b++) for (let k = 0; k < per; k++) pairs.push({ m1: a, m2: b, y: truth[b]! - truth[a]! });
  return pairs;
}

describe('repeat sales', () => {
  test('noise-free pairs give back the index (the small smoothing penalty moves it by under 0.1%), with about zero error', () => {
    const truth = [0, 0.02, 0.05, 0.04, 0.1, 0.12];
    const levels = repeatSalesLevels(exactPairs(truth, 2), truth.length);
    levels.forEach((l, i) => {
      expect(Math.abs(l.level! - truth[i]!)).toBeLessThan(0.001);
      expect(l.se!).toBeLessThan(0.001);
      expect(l.n).toBe(2 * (truth.length - 1));
    });
  });
  test('a month with fewer than 5 pair ends has no level; the others stay defined across it', () => {
    const pairs: Pair[] = [];
    for (let k = 0; k < 6; k++) pairs.push({ m1: 0, m2: 2, y: 0.1 }, { m1: 2, m2: 3, y: 0.05 });
    pairs.push({ m1: 1, m2: 3, y: 0.2 });
    const levels = repeatSalesLevels(pairs, 4);
    expect(levels[1]!.level).toBeNull(); // one pair end
    expect(levels[2]!.level!).toBeCloseTo(0.1, 1);
    expect(levels[3]!.level!).toBeGreaterThan(levels[2]!.level!);
  });
  test('noisy pairs: the error shrinks with more pairs', () => {
    const noisy = (per: number): number => {
      const pairs = exactPairs([0, 0.05, 0.1], per).map((p, i) => ({ ...p, y: p.y + (i % 2 ? 0.05 : -0.05) }));
      return repeatSalesLevels(pairs, 3)[2]!.se!;
    };
    expect(noisy(40)).toBeLessThan(noisy(10));
    expect(noisy(10)).toBeGreaterThan(0);
  });
});

describe('median model, rebasing and changes', () => {
  test('median levels: null below 5 sales; error 1.2533 sd / sqrt(n)', () => {
    expect(medianLevel(300_000, 0.3, 4)).toEqual({ level: null, se: null, n: 4 });
    const l = medianLevel(300_000, 0.3, 25);
    expect(l.level).toBeCloseTo(Math.log(300_000), 12);
    expect(l.se).toBeCloseTo(1.2533 * 0.3 / 5, 12);
  });
  test('rebase: 100 at the first month with a level, bounds by method', () => {
    const pts = [{ level: null, se: null, n: 0 }, { level: 0, se: 0.1, n: 9 }, { level: Math.log(1.1), se: 0.1, n: 9 }];
    const m = rebase(pts, 'median');
    expect(m.base).toBe(1);
    expect(m.points[0]).toEqual({ index: null, low: null, high: null });
    expect(m.points[1]).toEqual({ index: 100, low: 100, high: 100 });
    expect(m.points[2]!.index!).toBeCloseTo(110, 9);
    expect(m.points[2]!.low!).toBeCloseTo(110 * Math.exp(-1.959964 * Math.SQRT2 * 0.1), 9);
    const r = rebase(pts, 'repeat_sales');
    expect(r.points[2]!.high!).toBeCloseTo(110 * Math.exp(1.959964 * 0.2), 9);
    expect(rebase([{ level: null, se: null, n: 0 }], 'median').base).toBeNull();
  });
  test('the base is the first month with CHANGE_MIN_SAMPLE sales; the first with a level when none has that many', () => {
    const lv = (x: number | null, n: number) => ({ level: x === null ? null : Math.log(x), se: 0.1, n });
    const pts = [lv(null, 0), lv(50, 5), lv(100, CHANGE_MIN_SAMPLE), lv(110, 40)];
    expect(baseMonth(pts)).toBe(2);
    const r = rebase(pts, 'median');
    expect(r.base).toBe(2);
    expect(r.points[1]!.index!).toBeCloseTo(50, 9); // the thin month is still shown, relative to the base
    expect(r.points[3]!.index!).toBeCloseTo(110, 9);
    expect(baseMonth([lv(null, 0), lv(50, 5), lv(60, 6)])).toBe(1);
    expect(baseMonth([lv(null, 0)])).toBe(-1);
  });
  test('changePct: from the latest month with a level back n months; null when that month has none', () => {
    const lv = (x: number | null, n = CHANGE_MIN_SAMPLE) => ({ level: x === null ? null : Math.log(x), se: 0, n });
    const pts = [lv(100), lv(null), lv(110), lv(121), lv(null)];
    expect(changePct(pts, 1)).toBeCloseTo(10, 9); // 121 vs 110
    expect(changePct(pts, 3)).toBeCloseTo(21, 9); // 121 vs 100
    expect(changePct(pts, 2)).toBeNull(); // month 1 has none
    expect(changePct(pts, 4)).toBeNull(); // before the series
  });
  test('changePct: both ends need CHANGE_MIN_SAMPLE sales; a thin latest month is passed over for the one before it', () => {
    const lv = (x: number, n: number) => ({ level: Math.log(x), se: 0, n });
    // a first month of 5 sales at half the price: no change from it, however many sales the latest month has
    expect(changePct([lv(50, 5), lv(90, 400), lv(100, 400)], 2)).toBeNull();
    expect(changePct([lv(50, CHANGE_MIN_SAMPLE - 1), lv(90, 400), lv(100, 400)], 2)).toBeNull();
    expect(changePct([lv(50, CHANGE_MIN_SAMPLE - 1), lv(90, 30), lv(100, 30)], 2)).toBeNull();
    expect(changePct([lv(50, CHANGE_MIN_SAMPLE), lv(90, 30), lv(100, 30)], 2)).toBeCloseTo(100, 9);
    // a thin last month (a partial month of 6 sales) is not the end: the month before it is
    expect(changePct([lv(80, 300), lv(100, 300), lv(300, 6)], 1)).toBeCloseTo(25, 9);
  });
});

describe('partial months and the choice of index', () => {
  test('isComplete: a month under half the larger of the month before and the median of the 12 before is partial', () => {
    expect(isComplete([500], 0)).toBe(true); // nothing before it
    expect(isComplete([940, 941, 930, 950, 279], 4)).toBe(false); // Seattle's partial May 2015 beside a median of 940.5
    expect(isComplete([940, 941, 950, 930, 470], 4)).toBe(false); // half of 940.5 (above the 930 before it) is 470.25
    expect(isComplete([940, 941, 950, 930, 471], 4)).toBe(true);
    // a file whose coverage starts late: the median of the year before is small, the month before is not
    const philly = [3, 4, 1, 4, 4, 10, 19, 33, 97, 798, 1092, 746, 33];
    expect(isComplete(philly, 12)).toBe(false); // December 2022: 33 against 746
    expect(isComplete(philly, 11)).toBe(true); // November: 746 against 1,092 (and a median of 14.5)
    // and looking ahead: a month under half the larger of the month after it and the median of the 12 after it is
    // thin as well (a file's first months: OPA keeps each parcel's last sale only)
    expect(isComplete(philly, 8)).toBe(false); // August 2022: 97 against 798 in September, though 3 times the 33 before it
    expect(isComplete(philly, 9)).toBe(true); // September: 798 against 1,092 after it (half is 546)
    expect(isComplete([20, 30, 399, 798], 2)).toBe(true); // half of the 798 after it is 399
    expect(isComplete([20, 30, 398, 798], 2)).toBe(false);
    expect(isComplete([100, 100, 100, 49, 100, 100], 3)).toBe(false); // a dip in the middle fails both ways
    expect(isComplete([500, 300], 0)).toBe(true); // a seasonal drop after it does not make a month thin
    expect(isComplete([0, 0, 0, 0, 0, 20], 5)).toBe(true); // a market's first sales
    // only the 12 months before count: a busy month 13 back does not make a quiet month partial
    expect(isComplete([10_000, ...Array(12).fill(40), 21], 13)).toBe(true);
  });
  test('changePct ends at the latest complete month: a partial last month of a file is passed over however many sales it has', () => {
    const lv = (x: number, n: number) => ({ level: Math.log(x), se: 0, n });
    const pts = [lv(100, 800), lv(104, 820), lv(110, 840), lv(160, 300)];
    expect(changePct(pts, 2)).toBeCloseTo(10, 9); // 110 vs 100, not 160 vs 104 from 300 sales of a partial month
    expect(changePct([lv(100, 800), lv(104, 820), lv(110, 840), lv(112, 500)], 1)).toBeCloseTo(100 * (112 / 110 - 1), 9);
  });
  test('changePct starts at a complete month too: a thin first month of a file is no base, however many sales it has', () => {
    const lv = (x: number, n: number) => ({ level: Math.log(x), se: 0, n });
    // Philadelphia's single-family months June - December 2022 (arm's-length sales and median prices of the real build):
    // August's 97 sales at $180,000 before the roll's coverage starts, November 746 at $223,700
    const philly = [lv(125_000, 19), lv(105_000, 33), lv(180_000, 97), lv(230_000, 798), lv(230_000, 1092), lv(223_700, 746), lv(180_000, 33)];
    expect(changePct(philly, 3)).toBeNull(); // August -> November (+24.3%): no base
    expect(changePct(philly, 2)).toBeCloseTo(100 * (223_700 / 230_000 - 1), 9); // September -> November
    // the same months with August's count at half of September's: a base again
    const full = philly.map((p, i) => (i === 2 ? { ...p, n: 399 } : p));
    expect(changePct(full, 3)).toBeCloseTo(100 * (223_700 / 180_000 - 1), 9);
  });
  test('the base is the first complete month with CHANGE_MIN_SAMPLE sales: a partial month is no base, however many sales it has', () => {
    const lv = (x: number, n: number) => ({ level: Math.log(x), se: 0.01, n });
    // Philadelphia's single-family months 2022-01..12 of the real build (sales, median price, `complete`): July's 33
    // survivor-biased sales at $105,000 are not complete, and as the base they read September at 219
    const n = [4, 1, 4, 4, 10, 19, 33, 97, 798, 1092, 746, 33];
    const price = [0, 0, 0, 0, 180_000, 125_000, 105_000, 180_000, 230_000, 230_000, 223_700, 180_000];
    const pts = n.map((k, i) => (k < 5 ? { level: null, se: null, n: k } : lv(price[i]!, k)));
    const complete = n.map((_, i) => i >= 8 && i <= 10);
    expect(baseMonth(pts, complete)).toBe(8); // 2022-09
    const r = rebase(pts, 'median', complete);
    expect(r.points[9]!.index!).toBeCloseTo(100, 9); // October, not 219.05
    expect(r.points[10]!.index!).toBeCloseTo(100 * 223_700 / 230_000, 9); // November 97.26, not 213.05
    expect(r.points[6]!.index!).toBeCloseTo(100 * 105_000 / 230_000, 9); // the partial months are still shown
    // no complete month with 20 sales: the first complete month with a level; none complete: no base
    expect(baseMonth([lv(100, 6), lv(100, 30), lv(110, 8)], [false, false, true])).toBe(2);
    expect(baseMonth([lv(100, 30)], [false])).toBe(-1);
  });
  test('a change or an index step compares months of one subtype mix only (untyped_count: a file with no residential subtype)', () => {
    const lv = (x: number, n: number) => ({ level: Math.log(x), se: 0.01, n });
    // Hamden, CT single-family: 2022-08 124 untyped sales at $310,000 (all residential), 2023-08 22 typed at $329,000
    const pts = [lv(310_000, 124), ...Array.from({ length: 11 }, () => lv(320_000, 25)), lv(329_000, 22)];
    const complete = pts.map(() => true);
    const mix = pts.map((_, i) => (i === 0 ? mixOf(124, 124) : mixOf(0, 25)));
    expect(mix[0]).toBe('untyped');
    expect(changePct(pts, 12, complete)).toBeCloseTo(6.13, 2); // the mixed "+6.1%"
    expect(changePct(pts, 12, complete, mix)).toBeNull();
    expect(changePct(pts, 3, complete, mix)).toBeCloseTo(100 * (329 / 320 - 1), 9); // typed against typed
    expect(mixOf(3, 10)).toBe('mixed');
    expect(mixOf(113, 114)).toBe('untyped'); // a stray typed sale (Fairfield, CT, June 2022) does not make a month mixed
    expect(mixOf(1, 40)).toBe('typed');
    expect(changePct(pts, 3, complete, mix.map((m, i) => (i === 9 ? 'mixed' : m)))).toBeNull(); // a mixed month is like no other
    const r = rebase(pts, 'median', complete, mix);
    expect(r.base).toBe(0);
    expect(r.points.slice(1).every((p) => p.index === null)).toBe(true); // no step from the untyped base to typed months
    expect(rebase(pts, 'repeat_sales', complete).points[12]!.index).not.toBeNull(); // repeat sales: like for like
  });
  test('chooseIndex: repeat sales only with enough pairs and as many months of 20 pair ends as the median model has of 20 sales', () => {
    const median = Array.from({ length: 6 }, (_, i) => medianLevel(300_000 * (1 + i / 100), 0.3, 600));
    // 35 pairs spread thin: no month with 20 pair ends, beside 600 sales a month (Denver's single-family market)
    const thin: Pair[] = Array.from({ length: 35 }, (_, i) => ({ m1: i % 3, m2: 3 + (i % 3), y: 0.05 }));
    expect(thin.length).toBeGreaterThanOrEqual(REPEAT_SALES_MIN_PAIRS);
    expect(chooseIndex(median, thin, 6).method).toBe('median');
    expect(chooseIndex(median, thin, 6).levels).toBe(median);
    // every month an end of 20+ pairs: repeat sales (it controls for the mix of houses sold)
    expect(chooseIndex(median, exactPairs([0, 0.01, 0.02, 0.03, 0.04, 0.05], 4), 6).method).toBe('repeat_sales');
    // too few pairs: the median model, whatever they say
    expect(chooseIndex(median, exactPairs([0, 0.01], 20), 6).method).toBe('median');
  });
});

