// The postings of a loaded autocomplete index (live/autocomplete/index-search.ts): for each token the ascending ids
// of the records that carry it, and the set operations the any-order tiers (live/autocomplete/any-order.ts) run
// over them: union walked in id order, intersection, refinement. Format: live/autocomplete/index-format.ts.

export class Postings {
  // scratch reused by every search (searches are synchronous)
  private bits: Uint32Array | null = null;
  private scratch = new Uint32Array(1024);

  constructor(readonly post: Uint32Array, readonly postOff: Uint32Array, private readonly records: number) {}

  /** Postings of the tokens [lo, hi). */
  count(lo: number, hi: number): number {
    return this.postOff[hi]! - this.postOff[lo]!;
  }

  /**
   * Calls fn with the ascending, deduplicated record ids of the union of the given tokens' postings until fn
   * returns false. One list: read in place; several: a bitset over record ids, marked then scanned.
   */
  forEachRecord(toks: number[], fn: (id: number) => boolean): void {
    const { post, postOff } = this;
    if (toks.length === 1) {
      const end = postOff[toks[0]! + 1]!;
      for (let p = postOff[toks[0]!]!; p < end; p++) if (!fn(post[p]!)) return;
      return;
    }
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    let total = 0;
    for (const t of toks) total += postOff[t + 1]! - postOff[t]!;
    if (total * 16 < bits.length) {
      // few postings against the record count: sort them (a bitset would be mostly empty words to scan)
      if (this.scratch.length < total) this.scratch = new Uint32Array(total * 2);
      let n = 0;
      for (const t of toks) { this.scratch.set(post.subarray(postOff[t]!, postOff[t + 1]!), n); n += postOff[t + 1]! - postOff[t]!; }
      const ids = this.scratch.subarray(0, n).sort();
      let prev = -1;
      for (let i = 0; i < n; i++) { const r = ids[i]!; if (r !== prev && !fn(r)) return; prev = r; }
      return;
    }
    let minW = bits.length; let maxW = -1;
    for (const t of toks) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) { const r = post[p]!; const w = r >>> 5; bits[w]! |= 1 << (r & 31); if (w < minW) minW = w; if (w > maxW) maxW = w; }
    }
    try {
      for (let w = minW; w <= maxW; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const b = 31 - Math.clz32(word & -word);
          word &= word - 1;
          if (!fn((w << 5) | b)) return;
        }
      }
    } finally {
      if (maxW >= minW) bits.fill(0, minW, maxW + 1);
    }
  }

  /** The ids (ascending) that also carry one of the tokens (bitset of ids, then the tokens' postings tested). */
  refine(ids: Uint32Array, toks: number[]): Uint32Array {
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    for (const r of ids) bits[r >>> 5]! |= 1 << (r & 31);
    const hits = this.takeMarked(bits, toks);
    for (const r of ids) bits[r >>> 5] = 0;
    return hits;
  }

  /** Ascending record ids present in both unions of postings lists (bitset of a, then b tested against it). */
  intersect(a: number[], b: number[]): Uint32Array {
    const { post, postOff } = this;
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    let minW = bits.length; let maxW = -1;
    for (const t of a) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) { const r = post[p]!; const w = r >>> 5; bits[w]! |= 1 << (r & 31); if (w < minW) minW = w; if (w > maxW) maxW = w; }
    }
    const hits = this.takeMarked(bits, b);
    if (maxW >= minW) bits.fill(0, minW, maxW + 1);
    return hits;
  }

  /** Ascending ids on the tokens' postings lists whose bit is set; each bit is cleared when taken, so an id
   *  on several lists is taken once. */
  private takeMarked(bits: Uint32Array, toks: number[]): Uint32Array {
    const { post, postOff } = this;
    const hits: number[] = [];
    for (const t of toks) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) {
        const r = post[p]!; const w = r >>> 5; const m = 1 << (r & 31);
        if (bits[w]! & m) { hits.push(r); bits[w]! &= ~m; }
      }
    }
    return Uint32Array.from(hits).sort();
  }
}
