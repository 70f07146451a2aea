// The valuation's comp and parcel files are Arrow IPC files (live/valuation/comp-arrow.ts) whose typed arrays the
// index takes as its columns: a CompSetData written and read back is the same (nulls, non-ASCII text, -0, features
// present but empty and absent); every column of every file of the shared real build holds what Arrow's own row reader
// (Vector.get, which honours the validity bitmap) reads, each column in a buffer of its own; and a file cut
// short, of another format or of another layout is refused naming the file and its fault.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tableFromIPC, tableToIPC, Table, vectorFromArray, Int32 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { checkCompFile, compFileBytes, compSetOf, readCompFile, writeCompFile } from '../../../live/valuation/comp-arrow.ts';
import type { CompSetData } from '../../../live/valuation/comps.ts';
import { StringColumn } from '../../../live/valuation/string-column.ts';
import type { ValuationMeta } from '../../../live/valuation/types.ts';
import { buildDir } from '../../helpers/build.ts';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'comp-arrow-'));

const SET: CompSetData = {
  source: 'tést', zips: ['98103', '98104'], zip: [0, 1, 1], day: [19000, -0, 19002], price: [1.5e6, 0.1, 2.5e-3], sqft: [1000, 2000, 3000],
  beds: [3, null, 2], baths: [null, null, 1.5], year: [1999, null, 2020], cond: [0, null, 3], type: [0, 2, 1], lat: [47.6, null, 47.7], lng: [-122.3, null, -122.4],
  key: ['Ünit \\ #2', null, '1 MAIN ST'], pid: [null, 'a37553551fd5b2ac', 'x'], features: { grade: [7, null, 1.25], view: [null, null, null] },
  features_day: [null, 19001, 19001], block: ['1-23', null, '1-24'],
};

describe('comp files as Arrow IPC', () => {
  it('a CompSetData written and read back is the same: nulls, non-ASCII text, -0, every optional column', () => {
    const file = path.join(tmp(), 'comps-x.arrow');
    writeCompFile(file, SET);
    const read = readCompFile(file);
    expect(compSetOf(read)).toEqual(SET);
    expect(Object.is(read.day[1], -0)).toBe(true);
    expect(read.beds[1]).toBeNaN();
    expect(read.cond[1]).toBe(-1);
    expect(read.key).toBeInstanceOf(StringColumn);
    // features present but empty stays present (a comps file of a source without assessor features); absent stays absent
    const { pid: _pid, block: _block, features_day: _fd, ...bare } = SET;
    for (const s of [{ ...SET, features: {} }, { ...bare, features: undefined }]) {
      writeCompFile(file, s);
      expect(compSetOf(readCompFile(file))).toEqual(s);
    }
  });

  it('a file of no rows reads as no rows', () => {
    const file = path.join(tmp(), 'subjects-x.arrow');
    const empty: CompSetData = { source: 'x', zips: [], zip: [], day: [], price: [], sqft: [], beds: [], baths: [], year: [], cond: [], type: [], lat: [], lng: [], key: [] };
    writeCompFile(file, empty);
    expect(compSetOf(readCompFile(file))).toEqual(empty);
  });

  it("every column of every comp and parcel file of the build holds what Arrow's row reader reads; each column in a buffer of its own", () => {
    const dir = path.join(buildDir(), 'live', 'valuation');
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as ValuationMeta;
    const files = Object.values(meta.sources).flatMap((s) => [s.comps_file, s.subjects_file]);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const table = tableFromIPC(fs.readFileSync(path.join(dir, f)));
      const read = readCompFile(path.join(dir, f)) as unknown as Record<string, unknown>;
      const plain = compSetOf(readCompFile(path.join(dir, f))) as unknown as Record<string, unknown>;
      expect(table.schema.metadata.get('source'), f).toBe(plain['source']);
      for (const field of table.schema.fields) {
        const v = table.getChild(field.name)!;
        const rows = (x: { length: number; get(i: number): unknown }): unknown[] => Array.from({ length: x.length }, (_, i) => x.get(i));
        if (field.name === 'zip') expect(rows(v), f).toEqual((plain['zip'] as number[]).map((z) => (plain['zips'] as string[])[z]));
        else if (field.name === 'features') {
          const features = plain['features'] as Record<string, (number | null)[]>;
          expect(v.type.children.map((c: { name: string }) => c.name), f).toEqual(Object.keys(features));
          v.type.children.forEach((c: { name: string }, j: number) => expect(rows(v.getChildAt(j)!), `${f} ${c.name}`).toEqual(features[c.name]));
        } else expect(rows(v), `${f} ${field.name}`).toEqual(plain[field.name]);
      }
      const day = read['day'] as Float64Array;
      // each column in a buffer of its own: the file's bytes (its strings' too, held as text) are not kept
      for (const k of ['day', 'price', 'sqft', 'beds', 'lat', 'zip', 'type', 'cond']) expect((read[k] as Float64Array).buffer.byteLength, `${f} ${k}`).toBe((read[k] as Float64Array).byteLength);
      expect(day.length === 0 || day.buffer !== (read['price'] as Float64Array).buffer).toBe(true);
    }
  });

  it('a file cut short, of another format or of another layout is refused, naming the file and what is wrong', () => {
    const dir = tmp(), file = path.join(dir, 'comps-x.arrow');
    const bytes = compFileBytes(SET);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 40));
    expect(() => checkCompFile(file)).toThrow(`comps-x.arrow is cut short (${bytes.length - 40} bytes, no Arrow footer)`);
    expect(() => readCompFile(file)).toThrow(/comps-x\.arrow: not a readable Arrow IPC file/);
    fs.writeFileSync(file, JSON.stringify(SET)); // an older build's JSON
    expect(() => checkCompFile(file)).toThrow('comps-x.arrow is not an Arrow file (a build of another format?)');
    expect(() => readCompFile(file)).toThrow(/comps-x\.arrow: not a readable Arrow IPC file/);
    expect(() => checkCompFile(path.join(dir, 'none.arrow'))).toThrow('no none.arrow');
    // an Arrow file without the comp layout: a column of the wrong type, a column missing, two record batches
    const good = tableFromIPC(bytes);
    const swap = (t: Table): void => fs.writeFileSync(file, tableToIPC(t, 'file'));
    swap(good.select(good.schema.names.filter((n) => n !== 'day')).assign(new Table({ day: vectorFromArray([1, 2, 3], new Int32()) })));
    expect(() => readCompFile(file)).toThrow(/comps-x\.arrow: column day is Int32 of 3 rows, expected Float64 of 3/);
    swap(good.select(good.schema.names.filter((n) => n !== 'key')));
    expect(() => readCompFile(file)).toThrow(/comps-x\.arrow: no column key/);
    swap(good.concat(good));
    expect(() => readCompFile(file)).toThrow(/comps-x\.arrow: expected one record batch, found 2/);
  });
});
