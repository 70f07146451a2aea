// Tier 1 of the autocomplete search (live/autocomplete/index-search.ts): records whose street line starts with the
// query words in order, by binary search over the index's by_key order (live/autocomplete/index-format.ts). Also the
// answer of a search past its time budget. Rules: warehouse/docs/address.md.
import type { SearchColumns } from './index-format.ts';
import type { Term } from './query-terms.ts';

/** Street-line prefix tier: at most this many records are looked at per key range. */
const PREFIX_SCAN_CAP = 200_000;
/** Street-line prefix tier: the shorter street line first within a group of at most this many records. */
const SHORTEST_FIRST_CAP = 20_000;

/**
 * Tier 1, the street-line prefix: records whose street line starts with the query words in order (every word but
 * the last equal to a street token, the last one equal or a prefix), found by binary search over by_key. Order:
 * last word exact before prefix, then record id (more property facts first). Also the cheap answer past the budget.
 */
export function streetPrefix(ix: SearchColumns, terms: Term[], limit: number, allowed: Uint8Array | null): number[] {
  // a last word that may begin a unit designator ("B" of BLDG) is still a word here: "avenue b" is AVENUE B, not any
  // AVENUE (the any-order tier reads it as optional)
  const req = terms.filter((t, i) => t.required || i === terms.length - 1);
  if (!req.length) return [];
  const k = req.length - 1;
  const fixed: number[] = [];
  for (let i = 0; i < k; i++) {
    if (!req[i]!.exact.length) return [];
    fixed.push(req[i]!.exact[0]!);
  }
  const lastT = req[k]!;
  const { fwd, fwdOff, streetLen, byKey, place } = ix;
  const cmp = (r: number, x: number): number => { // record r's street key vs (fixed..., x)
    const len = streetLen[r]!; const f0 = fwdOff[r]!;
    for (let i = 0; i < k; i++) {
      if (i >= len) return -1;
      const d = fwd[f0 + i]! - fixed[i]!;
      if (d !== 0) return d;
    }
    if (k >= len) return -1;
    return fwd[f0 + k]! - x;
  };
  const lower = (x: number): number => {
    let lo = 0; let hi = ix.records;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (cmp(byKey[m]!, x) < 0) lo = m + 1; else hi = m; }
    return lo;
  };
  const out: number[] = [];
  const groups: [number, number][][] = [
    lastT.exact.map((id) => [id, id + 1]),
    [[lastT.prefLo, lastT.prefHi], ...lastT.prefIds.map((id): [number, number] => [id, id + 1])],
  ];
  for (const ranges of groups) {
    const need = limit - out.length;
    if (need <= 0) break;
    // the `need` best records of the group, best first: the shortest street line (fewest words beyond the query: the
    // building before its units), then record id
    // (a group of more than SHORTEST_FIRST_CAP records, as a bare house number makes: record order alone, since
    // reading every record's length would cost more than the whole search)
    const best: number[] = [];
    const spans = ranges.filter(([lo, hi]) => hi > lo).map(([lo, hi]): [number, number] => { const a = lower(lo); return [a, Math.min(lower(hi), a + PREFIX_SCAN_CAP)]; });
    const byLength = spans.reduce((n, [a, b]) => n + b - a, 0) <= SHORTEST_FIRST_CAP;
    const before = (r: number, o: number): boolean => (byLength && streetLen[r]! !== streetLen[o]! ? streetLen[r]! < streetLen[o]! : r < o);
    for (const [a, b] of spans) {
      for (let i = a; i < b; i++) {
        const r = byKey[i]!;
        if (best.length === need && !before(r, best[need - 1]!)) continue;
        if (allowed && !allowed[place[r]!]) continue;
        if (out.includes(r) || best.includes(r)) continue;
        let j = best.length;
        while (j > 0 && before(r, best[j - 1]!)) j--;
        best.splice(j, 0, r);
        if (best.length > need) best.pop();
      }
    }
    out.push(...best);
  }
  return out;
}
