// The sorted token vocabulary of a loaded autocomplete index (live/autocomplete/index-search.ts): a token's id, and
// the id range of the tokens that start with a prefix. Format: live/autocomplete/index-format.ts.

/** Characters of tokens in sort order (digits before letters) and their rank, -1 for any other. */
const RANK_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function charRank(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : -1;
}

const dec = new TextDecoder();

export class Vocabulary {
  readonly size: number;
  readonly words: string[];
  private readonly bucketStart: Uint32Array;

  constructor(vocabOff: Uint32Array, vocab: Uint8Array, size: number) {
    this.size = size;
    this.words = new Array<string>(size);
    for (let t = 0; t < size; t++) this.words[t] = dec.decode(vocab.subarray(vocabOff[t]!, vocabOff[t + 1]!));
    // bucketStart[r0 * 36 + r1]: the first id whose token starts with the two characters of ranks r0, r1 (or sorts
    // after them): tokens are A-Z0-9 only, and '0'-'9' sort before 'A'-'Z' as the ranks do
    this.bucketStart = new Uint32Array(36 * 36 + 1);
    for (let k = 0; k < 36 * 36; k++) {
      this.bucketStart[k] = this.lowerBoundIn(RANK_CHARS[Math.floor(k / 36)]! + RANK_CHARS[k % 36]!, 0, size);
    }
    this.bucketStart[36 * 36] = size;
  }

  /** First vocabulary id >= s. Strings whose first two characters are A-Z/0-9 are searched only within the ids
   *  that start with those two characters (bucketStart), a few dozen instead of the whole vocabulary. */
  private lowerBound(s: string): number {
    let lo = 0; let hi = this.size;
    if (s.length >= 2) {
      const r0 = charRank(s.charCodeAt(0)); const r1 = charRank(s.charCodeAt(1));
      if (r0 >= 0 && r1 >= 0) { const k = r0 * 36 + r1; lo = this.bucketStart[k]!; hi = this.bucketStart[k + 1]!; }
    }
    return this.lowerBoundIn(s, lo, hi);
  }

  private lowerBoundIn(s: string, lo: number, hi: number): number {
    const v = this.words;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (v[m]! < s) lo = m + 1; else hi = m; }
    return lo;
  }

  /** The id of token `s`, -1 when the vocabulary lacks it. */
  idOf(s: string): number {
    const i = this.lowerBound(s);
    return i < this.size && this.words[i] === s ? i : -1;
  }

  /** [lo, hi) of the tokens starting with `p` (the vocabulary is sorted). */
  prefixRange(p: string): [number, number] {
    return [this.lowerBound(p), this.lowerBound(p + '\uffff')];
  }
}
