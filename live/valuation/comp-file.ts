// Reads a comp or parcel file (comps-<source>.json, subjects-<source>.json: CompSetData, columnar) from its bytes
// straight into the columns CompIndex keeps: numbers into Float64Arrays (null as NaN), address keys and property ids
// into StringColumns, without JSON.parse's object graph. JSON.parse of NYC's 5.2 MB comp file made ~44,000-element
// arrays of boxed numbers and a string per key and id (and the file as one string) that the index copied and dropped:
// garbage V8 grew its heap for and kept, ~50 MB of a server's RSS over the four markets (warehouse/docs/valuation.md
// "In memory"). The values are the ones JSON.parse reads (comp-file.test.ts compares them over every file of a build).
import fs from 'node:fs';
import { StringColumn } from './string-column.ts';

/** A column as the reader gives it: numbers (null as NaN) or strings. */
export type NumberColumn = Float64Array;

/** What the reader gives: CompSetData's columns, numeric ones as Float64Array, string ones as StringColumn. */
export interface CompFileColumns {
  source: string;
  zips: string[];
  zip: Int32Array; day: NumberColumn; price: NumberColumn; sqft: NumberColumn; beds: NumberColumn; baths: NumberColumn;
  year: NumberColumn; cond: NumberColumn; type: Int32Array; lat: NumberColumn; lng: NumberColumn;
  key: StringColumn;
  pid?: StringColumn;
  features?: Record<string, NumberColumn>;
  features_day?: NumberColumn;
  block?: StringColumn;
}

/** The columns of strings; every other array is of numbers and null. */
const STRING_COLUMNS = new Set(['zips', 'key', 'pid', 'block']);

/** Whole-number columns, read as Int32Array (the index keeps them so). */
const INT_COLUMNS = new Set(['zip', 'type']);

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;

/** A growable Float64Array / Uint32Array (a column's length is known only at its end). */
function grow<T extends Float64Array | Uint32Array>(a: T, n: number): T {
  if (n < a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

class Reader {
  at = 0;
  constructor(private readonly b: Buffer, private readonly file: string) {}

  fail(what: string): never {
    throw new Error(`${this.file}: ${what} at byte ${this.at}`);
  }

  ws(): number {
    const b = this.b;
    while (this.at < b.length && (b[this.at] === 0x20 || b[this.at] === 0x0a || b[this.at] === 0x0d || b[this.at] === 0x09)) this.at++;
    return b[this.at] ?? -1;
  }

  expect(c: number): void {
    if (this.ws() !== c) this.fail(`expected '${String.fromCharCode(c)}'`);
    this.at++;
  }

  /** The end of the string token starting at `this.at` (its opening quote), and whether it is plain ASCII without escapes. */
  stringEnd(): { end: number; plain: boolean } {
    const b = this.b;
    let i = this.at + 1, plain = true;
    for (; i < b.length && b[i] !== QUOTE; i++) {
      if (b[i] === BACKSLASH) { plain = false; i++; } else if (b[i]! >= 0x80) plain = false;
    }
    if (i >= b.length) this.fail('unterminated string');
    return { end: i + 1, plain };
  }

  /** Any JSON value, skipped; the slice it spans is parsed by JSON.parse (a value of a shape no column has). */
  skip(): void {
    let depth = 0;
    do {
      const c = this.ws();
      if (c < 0) this.fail('unexpected end');
      if (c === QUOTE) { this.at = this.stringEnd().end; continue; }
      if (c === 0x5b || c === 0x7b) depth++;
      else if (c === 0x5d || c === 0x7d) depth--;
      else if (c === COMMA || c === COLON) { /* between values */ } else if (depth === 0) { while (this.at < this.b.length && !/[\s,\]}]/.test(String.fromCharCode(this.b[this.at]!))) this.at++; return; }
      this.at++;
    } while (depth > 0);
  }

  parsed(): unknown {
    const from = this.ws() < 0 ? this.fail('unexpected end') : this.at;
    this.skip();
    return JSON.parse(this.b.toString('utf8', from, this.at));
  }

  string(): string {
    if (this.ws() !== QUOTE) this.fail('expected a string');
    const { end, plain } = this.stringEnd();
    const s = plain ? this.b.toString('latin1', this.at + 1, end - 1) : (JSON.parse(this.b.toString('utf8', this.at, end)) as string);
    this.at = end;
    return s;
  }

  /** The literal null. */
  null(): void {
    const b = this.b, i = this.at;
    if (b[i] !== 0x6e || b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) this.fail('expected null');
    this.at += 4;
  }

  /** A number token as JSON.parse reads it: integers of up to 15 digits summed here, others by Number(). */
  number(): number {
    const b = this.b, from = this.at;
    let i = from, v = 0, int = true;
    if (b[i] === 0x2d) i++;
    for (; i < b.length; i++) {
      const c = b[i]!;
      if (c >= 0x30 && c <= 0x39) v = v * 10 + (c - 0x30);
      else if (c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) int = false;
      else break;
    }
    this.at = i;
    if (i === from) this.fail('expected a number');
    if (int && i - from <= 15) return b[from] === 0x2d ? -v : v;
    const x = Number(b.toString('latin1', from, i));
    if (Number.isNaN(x)) this.fail('not a number');
    return x;
  }

  /** Rows of the last column read: the size of the next (every column of a comp file has one value a row). */
  private rows = 0;

  /** An array of numbers and null, in a Float64Array of its length (as Int32Array where `int`: zip, type). */
  numbers(int = false): Float64Array | Int32Array {
    this.expect(0x5b);
    let out = new Float64Array(Math.max(this.rows, 16)), n = 0;
    if (this.ws() === 0x5d) { this.at++; return int ? new Int32Array(0) : new Float64Array(0); }
    for (;;) {
      const c = this.ws();
      out = grow(out, n);
      if (c === 0x6e) { // null
        this.null();
        out[n++] = NaN;
      } else out[n++] = this.number();
      const d = this.ws();
      this.at++;
      if (d === 0x5d) break;
      if (d !== COMMA) this.fail("expected ',' or ']' in an array of numbers");
    }
    this.rows = n;
    if (int) {
      const ints = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        ints[i] = out[i]!;
        if (ints[i] !== out[i]) this.fail(`not a whole number in an integer column: ${out[i]}`);
      }
      return ints;
    }
    return n === out.length ? out : out.slice(0, n);
  }

  /** An array of strings and null, as one StringColumn. The strings' bytes are moved to the front of the array's own
   *  span of the file (the bytes already read: each string moves left, never over one not yet read), and read from
   *  there as one text: no buffer of their own. */
  strings(): StringColumn {
    this.expect(0x5b);
    const b = this.b, text = this.at - 1;
    let start = new Uint32Array(Math.max(this.rows, 16) + 1), nulls = new Uint32Array(64), n = 0, nNull = 0, len = 0;
    let plainOnly = true;
    if (this.ws() === 0x5d) { this.at++; return new StringColumn([]); }
    for (;;) {
      const c = this.ws();
      start = grow(start, n + 1);
      if (c === 0x6e) {
        this.null();
        nulls = grow(nulls, nNull);
        nulls[nNull++] = n;
        start[n++] = len;
      } else if (c === QUOTE) {
        const { end, plain } = this.stringEnd();
        if (!plain) plainOnly = false;
        const from = this.at + 1;
        b.copy(b, text + len, from, end - 1);
        start[n++] = len;
        len += end - 1 - from;
        this.at = end;
      } else this.fail('expected a string or null');
      const d = this.ws();
      this.at++;
      if (d === 0x5d) break;
      if (d !== COMMA) this.fail("expected ',' or ']' in an array of strings");
    }
    this.rows = n;
    const isNull = new Uint8Array(n);
    for (let j = 0; j < nNull; j++) isNull[nulls[j]!] = 1;
    if (plainOnly) {
      start = grow(start, n + 1);
      start[n] = len;
      return new StringColumn(b.toString('latin1', text, text + len), start.length === n + 1 ? start : start.slice(0, n + 1), isNull);
    }
    // a value with an escape or a non-ASCII character: its offsets are not its bytes', so each value is decoded
    const decoded: (string | null)[] = [];
    for (let i = 0; i < n; i++) decoded.push(isNull[i] ? null : (JSON.parse(`"${b.toString('utf8', text + start[i]!, text + (i + 1 < n ? start[i + 1]! : len))}"`) as string));
    return new StringColumn(decoded);
  }

  /** Frees the file's bytes now, not at V8's next full collection (a file of its own, not one in Buffer's pool). */
  release(): void {
    const ab = this.b.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }; // ES2024, Node 22+
    if (this.b.byteOffset === 0 && ab.byteLength === this.b.length && ab instanceof ArrayBuffer) ab.transfer?.(0);
  }

  /** A column by its name: strings, numbers, an object of numeric columns (features), else JSON.parse's value. */
  value(name: string): unknown {
    const c = this.ws();
    if (c === 0x5b) return STRING_COLUMNS.has(name) ? this.strings() : this.numbers(INT_COLUMNS.has(name));
    if (c === 0x7b && name === 'features') return this.object(() => this.numbers());
    if (c === QUOTE) return this.string();
    return this.parsed();
  }

  object<T>(read: (key: string) => T): Record<string, T> {
    this.expect(0x7b);
    const out: Record<string, T> = {};
    if (this.ws() === 0x7d) { this.at++; return out; }
    for (;;) {
      const key = this.string();
      this.expect(COLON);
      out[key] = read(key);
      const d = this.ws();
      this.at++;
      if (d === 0x7d) return out;
      if (d !== COMMA) this.fail("expected ',' or '}' in an object");
    }
  }
}

/** A comp or parcel file, read into typed columns (see the top of this file). */
export function readCompFile(file: string): CompFileColumns {
  const r = new Reader(fs.readFileSync(file), file);
  const cols = r.object((key) => r.value(key));
  if (r.ws() !== -1) r.fail('trailing bytes after the object');
  r.release();
  const zips = cols['zips'];
  if (!(zips instanceof StringColumn)) return r.fail('no zips');
  return { ...cols, zips: zips.toArray() as string[] } as unknown as CompFileColumns;
}

/** One member of a file's top-level object, parsed alone (the others skipped unparsed): a source's model in
 *  params.json, not the 833 KB of every source's boosted trees parsed and dropped at each market's first request. */
export function readMember(file: string, name: string): unknown {
  const r = new Reader(fs.readFileSync(file), file);
  let found: unknown;
  r.object((key) => { if (key === name) found = r.parsed(); else r.skip(); });
  return found;
}
