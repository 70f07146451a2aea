// The trends' complete-month rule written out again for the tests that recompute a change or a price level
// (warehouse/docs/market.md `change_<n>m_pct`): a month is complete when its count is at least half the larger of the
// month before it and the median of the 12 months before it; the first month of a series always is.
export function completeMonth(counts: readonly number[], i: number): boolean {
  const prior = counts.slice(Math.max(0, i - 12), i).sort((a, b) => a - b);
  if (!prior.length) return true;
  const half = prior.length >> 1;
  const median = prior.length % 2 ? prior[half]! : (prior[half - 1]! + prior[half]!) / 2;
  return counts[i]! >= 0.5 * Math.max(median, counts[i - 1]!);
}
