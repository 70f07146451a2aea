// The valuation's comp and parcel files (comps-<source>.arrow, subjects-<source>.arrow: CompSetData) as Arrow IPC files,
// one record batch, each column in the type CompIndex keeps it in: the server reads a file with tableFromIPC and takes
// the vectors' typed arrays (copies of them: see readCompFile) as the index's columns, with no parse of its own and no
// object graph in between (JSON.parse of NYC's 5.2 MB comps made boxed numbers and a string per key that V8 kept room for:
// warehouse/docs/valuation.md "Files under <build>/live/valuation/"). Schema:
//   zip       Dictionary<Utf8, Int32>: the zips (CompSetData.zips) and each row's index into them
//   day, price, sqft                   Float64
//   beds, baths, year, lat, lng        Float64, null (validity bit clear, NaN in its slot)
//   cond      Int8, null (-1 in its slot); type Int32 (PROPERTY_TYPES index)
//   key, pid, block                    Utf8, null; pid and block only where CompSetData has them
//   features  Struct of Float64 (null NaN), one child a feature; features_day Float64: only where CompSetData has them
//   metadata  source, and format (VALUATION_FORMAT)
import fs from 'node:fs';
import path from 'node:path';
import { DataType, Dictionary, Field, Float64, Int32, Int8, makeData, RecordBatch, Schema, Struct, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray, type Data, type Vector } from 'apache-arrow';
import type { CompSetData, CompSource } from './comps.ts';
import { StringColumn } from './string-column.ts';
import type { ValuationMeta } from './types.ts';

/** The layout of <build>/live/valuation/ this code writes and reads (meta.json `format`): 1 was JSON comp files and
 *  one params.json; 2 is Arrow comp files and a params file a source. */
export const VALUATION_FORMAT = 2;

/** A comp file read: CompSource's columns as typed arrays (null NaN, cond -1) and StringColumns. */
export interface CompFileColumns extends CompSource {
  zip: Int32Array; day: Float64Array; price: Float64Array; sqft: Float64Array; beds: Float64Array; baths: Float64Array; year: Float64Array;
  cond: Int8Array; type: Int32Array; lat: Float64Array; lng: Float64Array; key: StringColumn; pid?: StringColumn; block?: StringColumn;
  features?: Record<string, Float64Array>; features_day?: Float64Array;
}

const NULLABLE_F64 = ['beds', 'baths', 'year', 'lat', 'lng'] as const;

/** Arrow's validity bitmap of a column (bit set = value), null when it has no null. */
function validity(values: ArrayLike<unknown>): { nullCount: number; nullBitmap?: Uint8Array } {
  let nullCount = 0;
  const bits = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) nullCount++;
    else bits[i >> 3]! |= 1 << (i & 7);
  }
  return nullCount ? { nullCount, nullBitmap: bits } : { nullCount };
}

const f64Data = (values: ArrayLike<number | null>): Data<Float64> =>
  makeData({ type: new Float64(), length: values.length, ...validity(values), data: Float64Array.from(values as ArrayLike<number>, (v) => v ?? NaN) });

/** A comp or parcel file's bytes (Arrow IPC file format). */
export function compFileBytes(set: CompSetData): Uint8Array {
  const n = set.day.length;
  const cols: [string, Data][] = [
    ['zip', makeData({ type: new Dictionary(new Utf8(), new Int32(), 0), length: n, nullCount: 0, data: Int32Array.from(set.zip), dictionary: vectorFromArray(set.zips, new Utf8()) })],
    ['day', f64Data(set.day)], ['price', f64Data(set.price)], ['sqft', f64Data(set.sqft)],
    ...NULLABLE_F64.map((k): [string, Data] => [k, f64Data(set[k])]),
    ['cond', makeData({ type: new Int8(), length: n, ...validity(set.cond), data: Int8Array.from(set.cond, (c) => c ?? -1) })],
    ['type', makeData({ type: new Int32(), length: n, nullCount: 0, data: Int32Array.from(set.type) })],
    ['key', vectorFromArray(set.key, new Utf8()).data[0]!],
  ];
  if (set.pid) cols.push(['pid', vectorFromArray(set.pid, new Utf8()).data[0]!]);
  if (set.block) cols.push(['block', vectorFromArray(set.block, new Utf8()).data[0]!]);
  if (set.features) {
    const children = Object.values(set.features).map(f64Data);
    const type = new Struct(Object.keys(set.features).map((k, j) => new Field(k, children[j]!.type, true)));
    cols.push(['features', makeData({ type, length: n, nullCount: 0, children })]);
  }
  if (set.features_day) cols.push(['features_day', f64Data(set.features_day)]);
  for (const [name, d] of cols) if (d.length !== n) throw new Error(`comp file of ${set.source}: column ${name} has ${d.length} rows, day has ${n}`);
  const fields = cols.map(([name, d]) => new Field(name, d.type, d.nullCount > 0 || d.type instanceof Utf8));
  const schema = new Schema(fields, new Map([['source', set.source], ['format', String(VALUATION_FORMAT)]]));
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: n, nullCount: 0, children: cols.map(([, d]) => d) }));
  return tableToIPC(new Table(schema, [batch]), 'file');
}

export function writeCompFile(file: string, set: CompSetData): void {
  fs.writeFileSync(file, compFileBytes(set));
}

const MAGIC = Buffer.from('ARROW1');

/** A comp file that is there and whole: an Arrow IPC file begins and ends with its magic (a file cut short lacks the
 *  end's). Reads 12 bytes: the server checks every file at start, reading a market's at its first request. */
export function checkCompFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    throw new Error(`no ${path.basename(file)}`);
  }
  try {
    const size = fs.fstatSync(fd).size, head = Buffer.alloc(6), tail = Buffer.alloc(6);
    if (size >= 12) { fs.readSync(fd, head, 0, 6, 0); fs.readSync(fd, tail, 0, 6, size - 6); }
    if (!head.equals(MAGIC)) throw new Error(`${path.basename(file)} is not an Arrow file (a build of another format?)`);
    if (!tail.equals(MAGIC)) throw new Error(`${path.basename(file)} is cut short (${size} bytes, no Arrow footer)`);
  } finally {
    fs.closeSync(fd);
  }
}

/** A valuation folder this server reads: of this format (an older build's is refused saying to rebuild it), with every
 *  source's comp and parcel files whole and its params file there. */
export function checkFolder(dir: string, meta: ValuationMeta): ValuationMeta {
  if (meta.format !== VALUATION_FORMAT) throw new Error(`its files are of format ${meta.format}, this server reads format ${VALUATION_FORMAT} (comps and parcels as Arrow files): rebuild it (npx reii build --only shards)`);
  for (const files of Object.values(meta.sources)) {
    checkCompFile(path.join(dir, files.comps_file));
    checkCompFile(path.join(dir, files.subjects_file));
    if (!fs.existsSync(path.join(dir, files.params_file))) throw new Error(`no ${files.params_file}`);
  }
  return meta;
}

/** Nulls into the value slots (NaN, -1): a writer may leave anything there. */
function nullsAs<T extends Float64Array | Int8Array>(d: Data, values: T, none: number): T {
  if (d.nullCount > 0 && d.nullBitmap) for (let i = 0; i < values.length; i++) if (!(d.nullBitmap[i >> 3]! & (1 << (i & 7)))) values[i] = none;
  return values;
}

/** A Utf8 column as one text (a string of its bytes), its offsets and validity bitmap. */
function strings(d: Data<Utf8>): StringColumn {
  const offsets = d.valueOffsets, bytes = d.values, n = d.length;
  const valid = d.nullCount > 0 ? d.nullBitmap : null;
  let ascii = true;
  for (let i = 0, end = offsets[n]!; i < end; i++) if (bytes[i]! >= 0x80) { ascii = false; break; }
  if (!ascii) return new StringColumn(Array.from({ length: n }, (_, i) => (valid && !(valid[i >> 3]! & (1 << (i & 7))) ? null : Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!).toString('utf8'))));
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, offsets[n]!).toString('latin1');
  return new StringColumn(text, new Uint32Array(offsets.buffer, offsets.byteOffset, n + 1).slice(), valid ? valid.slice(0, (n + 7) >> 3) : null);
}

/** A comp or parcel file, read into CompIndex's columns (the vectors' typed arrays, copied). A file that is not an
 *  Arrow file of this layout is refused naming the file and what is wrong. */
export function readCompFile(file: string): CompFileColumns {
  const bytes = fs.readFileSync(file);
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (err) {
    throw new Error(`${file}: not a readable Arrow IPC file (${(err as Error).message})`);
  }
  const fail = (what: string): never => { throw new Error(`${file}: ${what}`); };
  if (table.batches.length !== 1) fail(`expected one record batch, found ${table.batches.length}`);
  const n = table.numRows;
  /** A column of this type (by its name: Float64, Int8, Int32, Utf8; any Struct), one chunk of n rows. */
  const col = <T extends DataType>(name: string, want: T, required = true): Data<T> | undefined => {
    const v = table.getChild(name) as Vector<T> | null;
    if (!v) return required ? fail(`no column ${name}`) : undefined;
    const d = v.data[0]!;
    const ok = want instanceof Struct ? DataType.isStruct(d.type) : String(d.type) === String(want);
    if (!ok || d.offset !== 0 || d.length !== n) fail(`column ${name} is ${String(d.type)} of ${d.length} rows, expected ${String(want)} of ${n}`);
    return d;
  };
  const f64 = (d: Data): Float64Array => nullsAs(d, (d.values as Float64Array).slice(0, n), NaN);
  const zip = col('zip', new Dictionary(new Utf8(), new Int32()))!, type = col('type', new Int32())!, cond = col('cond', new Int8())!;
  if (!zip.dictionary) fail('column zip has no dictionary of zips');
  const source = table.schema.metadata.get('source') ?? fail('no source in the metadata');
  const features = col('features', new Struct([]), false), featuresDay = col('features_day', new Float64(), false);
  const pid = col('pid', new Utf8(), false), block = col('block', new Utf8(), false);
  const zips = zip.dictionary!.toArray() as string[];
  const zipIdx = (zip.values as Int32Array).slice(0, n);
  for (let i = 0; i < n; i++) if (!(zipIdx[i]! >= 0 && zipIdx[i]! < zips.length)) fail(`row ${i}'s zip index ${zipIdx[i]} is outside its ${zips.length} zips`);
  const columns: CompFileColumns = {
    source, zips, zip: zipIdx,
    day: f64(col('day', new Float64())!), price: f64(col('price', new Float64())!), sqft: f64(col('sqft', new Float64())!),
    beds: f64(col('beds', new Float64())!), baths: f64(col('baths', new Float64())!), year: f64(col('year', new Float64())!), lat: f64(col('lat', new Float64())!), lng: f64(col('lng', new Float64())!),
    cond: nullsAs(cond, (cond.values as Int8Array).slice(0, n), -1), type: (type.values as Int32Array).slice(0, n),
    key: strings(col('key', new Utf8())!),
    ...(pid ? { pid: strings(pid) } : {}), ...(block ? { block: strings(block) } : {}),
    ...(features ? { features: Object.fromEntries(features.type.children.map((f, j) => {
      const d = features.children[j]!;
      if (String(d.type) !== 'Float64' || d.length !== n) fail(`feature ${f.name} is ${String(d.type)}, expected Float64`);
      return [f.name, f64(d)];
    })) } : {}),
    ...(featuresDay ? { features_day: f64(featuresDay) } : {}),
  };
  // every column is copied out of the file's bytes (views of them kept the strings' bytes too, held again as text:
  // 3 MB over the four markets), which are freed now, not at V8's next full collection (a file of its own, not one
  // in Buffer's pool)
  const ab = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset === 0 && ab.byteLength === bytes.length && ab instanceof ArrayBuffer) ab.transfer?.(0);
  return columns;
}

/** A comp or parcel file as CompSetData: scripts and tests that want the build's plain columns. */
export const readCompSet = (file: string): CompSetData => compSetOf(readCompFile(file));

/** A read file as CompSetData (null for NaN and -1). */
export function compSetOf(c: CompFileColumns): CompSetData {
  const nums = (a: Float64Array): (number | null)[] => Array.from(a, (v) => (Number.isNaN(v) ? null : v));
  return {
    source: c.source, zips: c.zips, zip: Array.from(c.zip), day: Array.from(c.day), price: Array.from(c.price), sqft: Array.from(c.sqft),
    beds: nums(c.beds), baths: nums(c.baths), year: nums(c.year), cond: Array.from(c.cond, (v) => (v < 0 ? null : v)), type: Array.from(c.type),
    lat: nums(c.lat), lng: nums(c.lng), key: c.key.toArray(),
    ...(c.pid ? { pid: c.pid.toArray() } : {}),
    ...(c.features ? { features: Object.fromEntries(Object.entries(c.features).map(([k, v]) => [k, nums(v)])) } : {}),
    ...(c.features_day ? { features_day: nums(c.features_day) } : {}),
    ...(c.block ? { block: c.block.toArray() } : {}),
  };
}
