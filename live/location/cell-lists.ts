// H3 cell -> list of positions (the `cells` of the location files, live/location/data.ts) as the live indexes keep them:
// the cells' 64-bit ids sorted in two Uint32Arrays and the lists end to end in one Int32Array, found by binary search.
// A Map of the cells' strings to arrays cost ~110 bytes a cell: the shared build's ~37,000 cells (superfund 24,740,
// ZCTA 12,314) held ~4 MB that way.

export class CellLists {
  private readonly hi: Uint32Array;
  private readonly lo: Uint32Array;
  private readonly start: Uint32Array;
  private readonly items: Int32Array;

  constructor(rec: Record<string, number[]>) {
    const cells = Object.keys(rec).map((c) => ({ c, hi: high(c), lo: low(c) }))
      .sort((a, b) => a.hi - b.hi || a.lo - b.lo);
    this.hi = Uint32Array.from(cells, (x) => x.hi);
    this.lo = Uint32Array.from(cells, (x) => x.lo);
    this.start = new Uint32Array(cells.length + 1);
    let n = 0;
    cells.forEach((x, i) => { n += rec[x.c]!.length; this.start[i + 1] = n; });
    this.items = new Int32Array(n);
    cells.forEach((x, i) => this.items.set(rec[x.c]!, this.start[i]));
  }

  /** The positions listed for a cell (its H3 id as h3-js writes it), in the file's order; undefined when none. */
  get(cell: string): Int32Array | undefined {
    const h = high(cell), l = low(cell);
    let a = 0, b = this.hi.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (this.hi[m]! < h || (this.hi[m] === h && this.lo[m]! < l)) a = m + 1; else b = m;
    }
    return a < this.hi.length && this.hi[a] === h && this.lo[a] === l ? this.items.subarray(this.start[a], this.start[a + 1]) : undefined;
  }
}

// an H3 id is 15 or 16 hex digits: its upper and lower 32 bits (NaN for a string that is not hex: found nowhere)
const high = (cell: string): number => (cell.length > 8 ? hex(cell.slice(0, -8)) : 0);
const low = (cell: string): number => hex(cell.slice(-8));
const hex = (s: string): number => (/^[0-9a-f]+$/i.test(s) ? parseInt(s, 16) : NaN);
