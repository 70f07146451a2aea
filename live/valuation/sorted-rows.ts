// The rows of a comp file grouped by a string (a property_id, a "<zip>|<address key>"), as one permutation of the rows
// sorted by that string (4 bytes a row), searched by bisection. A Map from each string to an array of its rows cost
// about 250 bytes a row in V8 (a concatenated key string, a map entry, an array grown to 17 slots for one sale): 15 MB
// of NYC's 44,180 comps. Pure, no I/O.

/** Rows with a key (a row whose key is null, undefined or '' has none), ordered by key (JS string order), then row. */
export class SortedRows {
  private readonly order: Int32Array;
  /** Distinct keys. */
  readonly size: number;

  constructor(n: number, private readonly keyOf: (row: number) => string | null | undefined) {
    // keys are made again at each comparison, not held in an array of n strings while the rows sort: that array
    // outlived V8's young generation and was garbage its old one grew for (warehouse/docs/valuation.md "In memory")
    let m = 0;
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) if (keyOf(i)) rows[m++] = i;
    this.order = rows.subarray(0, m).sort((a, b) => { const ka = keyOf(a)!, kb = keyOf(b)!; return ka < kb ? -1 : ka > kb ? 1 : a - b; }).slice();
    let size = 0, last: string | null | undefined = null;
    for (let j = 0; j < m; j++) { const k = keyOf(this.order[j]!); if (j === 0 || k !== last) size++; last = k; }
    this.size = size;
  }

  /** The rows whose key is k, in ascending order ([] for none). */
  rows(k: string): number[] {
    const o = this.order;
    let lo = 0, hi = o.length;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (this.keyOf(o[m]!)! < k) lo = m + 1; else hi = m; }
    const out: number[] = [];
    for (let j = lo; j < o.length && this.keyOf(o[j]!) === k; j++) out.push(o[j]!);
    return out;
  }
}

/** "<zip>|<key>" -> the latest row at that key (the newest day; of several that day, the last row). */
export interface KeyLookup { get(k: string): number | undefined; readonly size: number }

export function latestRows(rows: SortedRows, day: ArrayLike<number>): KeyLookup {
  return {
    size: rows.size,
    get(k: string): number | undefined {
      let best: number | undefined;
      for (const i of rows.rows(k)) if (best === undefined || day[best]! <= day[i]!) best = i;
      return best;
    },
  };
}
