// A column of strings (a comp file's address keys, property ids, blocks) held as one string and the offset of each
// row's value in it, with null kept apart in a bitmap: about 4 bytes a row and its characters, where an array of
// strings costs a pointer, a string header and the characters rounded up to 8 bytes (about 40 bytes a 16-character
// property id). The offsets and bitmap are an Arrow Utf8 column's own (comp-arrow.ts reads a file's so).
// `at(i)` reads row i as the array did (null for null or a missing row); the string is made at each read. Pure.

export class StringColumn {
  private readonly text: string;
  /** Row i is text.slice(start[i], start[i + 1]). */
  private readonly start: Uint32Array;
  /** Arrow's validity bitmap (bit i clear: row i is null); null when no row is. */
  private readonly valid: Uint8Array | null;
  readonly length: number;

  /** The column of these values, or of a text, its n + 1 offsets and its validity bitmap as they are. */
  constructor(values: readonly (string | null | undefined)[]);
  constructor(text: string, start: Uint32Array, valid: Uint8Array | null);
  constructor(values: readonly (string | null | undefined)[] | string, start?: Uint32Array, valid?: Uint8Array | null) {
    if (typeof values === 'string') {
      this.text = values;
      this.start = start!;
      this.valid = valid ?? null;
      this.length = this.start.length - 1;
      return;
    }
    const n = (this.length = values.length);
    this.start = new Uint32Array(n + 1);
    const bits = new Uint8Array((n + 7) >> 3);
    const parts: string[] = [];
    let at = 0, nulls = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      this.start[i] = at;
      if (v === null || v === undefined) { nulls++; continue; }
      bits[i >> 3]! |= 1 << (i & 7);
      parts.push(v);
      at += v.length;
    }
    this.start[n] = at;
    this.valid = nulls ? bits : null;
    this.text = parts.join('');
  }

  at(i: number): string | null {
    if (!(i >= 0 && i < this.length) || (this.valid && !(this.valid[i >> 3]! & (1 << (i & 7))))) return null;
    return this.text.slice(this.start[i]!, this.start[i + 1]!);
  }

  /** Every row, as the parsed file had it (null for undefined too). */
  toArray(): (string | null)[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }
}
