// A column of strings (a comp file's address keys, property ids) held as one string and the offset of each row's
// value in it, with null kept apart: about 4 bytes a row and its characters, where an array of strings costs a
// pointer, a string header and the characters rounded up to 8 bytes (about 40 bytes a 16-character property id).
// `at(i)` reads row i as the array did (null for null or a missing row); the string is made at each read. Pure.

export class StringColumn {
  private readonly text: string;
  /** Row i is text.slice(start[i], start[i + 1]); -1 in isNull's place: null. */
  private readonly start: Uint32Array;
  private readonly isNull: Uint8Array;
  readonly length: number;

  /** The column of these values; `of` makes one from its text and offsets as they are (comp-file.ts reads them so). */
  constructor(values: readonly (string | null | undefined)[]);
  constructor(text: string, start: Uint32Array, isNull: Uint8Array);
  constructor(values: readonly (string | null | undefined)[] | string, start?: Uint32Array, isNull?: Uint8Array) {
    if (typeof values === 'string') {
      this.text = values;
      this.start = start!;
      this.isNull = isNull!;
      this.length = this.isNull.length;
      return;
    }
    const n = (this.length = values.length);
    this.start = new Uint32Array(n + 1);
    this.isNull = new Uint8Array(n);
    const parts: string[] = [];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      this.start[i] = at;
      if (v === null || v === undefined) { this.isNull[i] = 1; continue; }
      parts.push(v);
      at += v.length;
    }
    this.start[n] = at;
    this.text = parts.join('');
  }

  at(i: number): string | null {
    if (!(i >= 0 && i < this.length) || this.isNull[i]) return null;
    return this.text.slice(this.start[i]!, this.start[i + 1]!);
  }

  /** Every row, as the parsed file had it (null for undefined too). */
  toArray(): (string | null)[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }
}
