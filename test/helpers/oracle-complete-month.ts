// The trends' complete-month rule written out again for the tests that recompute a change or a price level
// (warehouse/docs/market.md `change_<n>m_pct`): a month is complete when its count is at least half the larger of the
// month before it and the median of the 12 months before it, and at least half the larger of the month after it and
// the median of the 12 months after it (a side without months passes), and (coveredMonth) the market's sources cover
// the whole month. Both ends of a change must be complete.
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

/** A source's records span: its first and last record day (YYYY-MM-DD). */
export interface Span { first: string; last: string }

const day = (d: string): number => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);

/**
 * The coverage rule (market.md "complete"), written out again from its words: a source covers month `YYYY-MM` whole
 * when its first record is on or before the month's 4th day and its last on or after the 4th day from its end (3 days
 * of tolerance at each edge: a weekend plus a Monday or Friday holiday); it covers part of it when its span meets the
 * month without covering it whole. The month is covered when some source of the market covers it whole and none
 * covers only part of it; a month outside every source's span is not.
 */
export function coveredMonth(month: string, spans: readonly Span[]): boolean {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = Math.round(Date.UTC(y, m - 1, 1) / 86_400_000);
  const end = Math.round(Date.UTC(y, m, 1) / 86_400_000) - 1; // the month's last day
  let whole = false, part = false;
  for (const s of spans) {
    const first = day(s.first), last = day(s.last);
    if (first - start <= 3 && end - last <= 3) whole = true;
    else if (first <= end && last >= start) part = true;
  }
  return whole && !part;
}
