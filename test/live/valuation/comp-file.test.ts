// The valuation's comp and parcel files are read from their bytes into typed columns (live/valuation/comp-file.ts),
// not through JSON.parse's object graph: every column of every file of the shared real build holds the values
// JSON.parse reads from it (null as NaN), params.json gives each source's model as JSON.parse of the whole file does,
// hand-made files with escapes, non-ASCII text, exponents and -0 read as JSON.parse reads them, a malformed file names
// its fault, and the file's bytes are freed once read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCompFile, readMember } from '../../../live/valuation/comp-file.ts';
import { StringColumn } from '../../../live/valuation/string-column.ts';
import type { ValuationMeta } from '../../../live/valuation/types.ts';
import { buildDir } from '../../helpers/build.ts';

/** A read column as JSON.parse would have it: NaN back to null, a StringColumn as its array. */
const plain = (v: unknown): unknown => (v instanceof StringColumn ? v.toArray()
  : v instanceof Float64Array || v instanceof Int32Array ? Array.from(v, (x) => (Number.isNaN(x) ? null : x))
  : v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v);

function tmpFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comp-file-')), 'comps-x.json');
  fs.writeFileSync(file, text);
  return file;
}

describe('comp files read into typed columns', () => {
  const dir = path.join(buildDir(), 'live', 'valuation');
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;

  it('every column of every comp and parcel file of the build holds what JSON.parse reads', () => {
    const files = Object.values(meta.sources).flatMap((s) => [s.comps_file, s.subjects_file]);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
      const read = readCompFile(path.join(dir, f)) as unknown as Record<string, unknown>;
      expect(Object.keys(read).sort(), f).toEqual(Object.keys(parsed).sort());
      for (const k of Object.keys(parsed)) expect(plain(read[k]), `${f} ${k}`).toEqual(parsed[k]);
      // numbers in typed arrays, strings in one text a column
      expect(read['day'], f).toBeInstanceOf(Float64Array);
      expect(read['zip'], f).toBeInstanceOf(Int32Array);
      expect(read['key'], f).toBeInstanceOf(StringColumn);
    }
  });

  it("params.json: each source's model read alone equals JSON.parse of the whole file's; a source it lacks is undefined", () => {
    const file = path.join(dir, 'params.json');
    const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const s of Object.keys(all)) expect(readMember(file, s), s).toEqual(all[s]);
    expect(readMember(file, 'no_such_source')).toBeUndefined();
  });

  it('escapes, non-ASCII text, exponents, -0, empty arrays and whitespace read as JSON.parse reads them', () => {
    const text = ' {\n "source" : "t\\u00e9st", "zips":["98103", "1\\"0"],\n "zip": [0, 1,1], "day":[1e3, -0, 12345678901234567],\n' +
      ' "price": [0.1, 2.5E-3, -7], "key": ["Ünit \\\\ #2", null, "A\\/B"], "pid": [null, null, null], "block": [],\n' +
      ' "features": {"grade": [7, null, 1.25]}, "extra": {"nested": [1, [2, "x"]]} }\n';
    const read = readCompFile(tmpFile(text)) as unknown as Record<string, unknown>;
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const k of Object.keys(parsed)) expect(plain(read[k]), k).toEqual(parsed[k]);
    expect(Object.is((read['day'] as Float64Array)[1], -0)).toBe(true);
  });

  it('a malformed file is refused naming the file and the byte', () => {
    expect(() => readCompFile(tmpFile('{"zips":["1"],"day":[1,2'))).toThrow(/comps-x\.json: .* at byte \d+/);
    expect(() => readCompFile(tmpFile('{"zips":["1"],"day":[1,"2"]}'))).toThrow(/expected a number at byte 23/);
    expect(() => readCompFile(tmpFile('{"zips":["1"],"zip":[1.5]}'))).toThrow(/not a whole number/);
    expect(() => readCompFile(tmpFile('{"zips":["1"]} x'))).toThrow(/trailing bytes/);
  });

  it("the file's bytes are freed once read: array buffers grow by the columns only", () => {
    const file = path.join(dir, Object.values(meta.sources).map((s) => s.comps_file).sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0]!);
    const size = fs.statSync(file).size;
    const before = process.memoryUsage().arrayBuffers;
    const read = readCompFile(file) as unknown as Record<string, unknown>;
    const grown = process.memoryUsage().arrayBuffers - before;
    const bytes = (v: unknown): number => (ArrayBuffer.isView(v) ? v.byteLength : v && typeof v === 'object' && !(v instanceof StringColumn) ? Object.values(v).reduce((a: number, x) => a + bytes(x), 0) : 0);
    const columns = Object.values(read).reduce((a: number, v) => a + bytes(v), 0) + (size >> 3); // + the string columns' offsets
    expect(size).toBeGreaterThan(1_000_000);
    expect(grown).toBeLessThan(columns + size * 0.75); // not freed: columns + size and more
  });
});
