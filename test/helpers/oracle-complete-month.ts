// The trends' complete-month rule written out again for the tests that recompute a change or a price level
// (warehouse/docs/market.md `change_<n>m_pct`): a month is complete when its count is at least half the larger of the
// month before it and the median of the 12 months before it, and at least half the larger of the month after it and
// the median of the 12 months after it (a side without months passes). Both ends of a change must be complete.
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

export function completeMonth(counts: readonly number[], i: number): boolean {
  const before = counts.slice(Math.max(0, i - 12), i);
  const after = counts.slice(i + 1, i + 13);
  const backOk = before.length === 0 || counts[i]! >= 0.5 * Math.max(median(before), before.at(-1)!);
  const aheadOk = after.length === 0 || counts[i]! >= 0.5 * Math.max(median(after), after[0]!);
  return backOk && aheadOk;
}
