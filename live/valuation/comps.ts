// A market's comparable sales (pure, no I/O): the columnar comp file (live/valuation/comps-<source>.arrow, CompSetData)
// and CompIndex, its lookup structures (H3 cells, zips, address keys), the subject a recorded row describes and a zip's
// typical property. warehouse/docs/valuation.md "Files under <build>/live/valuation/" and "The estimator".
import { gridDisk, latLngToCell } from 'h3-js';
import { CONDITION_CODES, CONDITION_FACTOR, RESIDENTIAL_TYPES, type Condition, type Subject } from './types.ts';
import { median, monthOfDay, nz, push } from './helpers.ts';
import { latestRows, SortedRows, type KeyLookup } from './sorted-rows.ts';
import { StringColumn } from './string-column.ts';

/** H3 resolution of the comp cells (~0.46 km edge, ~0.74 km2). */
export const H3_RES = 8;

/** One market's comparable sales, columnar (as written to live/valuation/comps-<source>.arrow). Unknown = null. */
export interface CompSetData {
  source: string;
  zips: string[]; // dictionary of zips
  zip: number[]; // index into zips
  day: number[]; // sale date, days since 1970-01-01
  price: number[];
  sqft: number[];
  beds: (number | null)[];
  baths: (number | null)[];
  year: (number | null)[]; // year built
  cond: (number | null)[]; // CONDITION_CODES index
  type: number[]; // PROPERTY_TYPES index
  lat: (number | null)[];
  lng: (number | null)[];
  key: (string | null)[]; // normalised street address (+ " #unit"), or the parcel id where a source has no address
  /** The record's property_id (16 hex; the property record's id); absent in files of older builds. */
  pid?: (string | null)[];
  /** Assessor features where a source has them (King County: grade, view, waterfront, log_lot; TUNING.features). */
  features?: Record<string, (number | null)[]>;
  /** The day each row's assessor features were set (the roll's assessment date; null = before every sale), where a
   *  source dates them: the back-test reads a row's features only in slices that start after it (backtest.ts asOf). */
  features_day?: (number | null)[];
  /** The tax block where the source records one (`sales.block_key`, NYC `<borough>-<block>`): the location of a
   *  market without points (estimate.ts, TUNING.blockScale). Absent when no row has one. */
  block?: (string | null)[];
}

type NumberCol = ArrayLike<number | null>;
type StringCol = readonly (string | null)[] | StringColumn;
/** What an index is made from: a CompSetData (the build, the back-test's asOf) or the same columns as comp-arrow.ts
 *  reads them from the file (numbers in Float64Arrays with NaN for null, cond in an Int8Array with -1, strings in
 *  StringColumns). */
export interface CompSource {
  source: string; zips: string[]; zip: ArrayLike<number>; day: ArrayLike<number>; price: ArrayLike<number>; sqft: ArrayLike<number>;
  beds: NumberCol; baths: NumberCol; year: NumberCol; cond: NumberCol; type: ArrayLike<number>; lat: NumberCol; lng: NumberCol;
  key: StringCol; pid?: StringCol; features?: Record<string, NumberCol>; features_day?: NumberCol; block?: StringCol;
}

const column = (c: StringCol): StringColumn => (c instanceof StringColumn ? c : new StringColumn(c));
/** A numeric column as a Float64Array with NaN for null: comp-arrow.ts's own (read so), else a copy. */
const f64 = (c: NumberCol): Float64Array => (c instanceof Float64Array ? c : Float64Array.from(c, nz));
const i32 = (c: ArrayLike<number>): Int32Array => (c instanceof Int32Array ? c : Int32Array.from(c));
/** A condition code that is none: null, or as comp-arrow.ts reads null (-1). */
const isNull = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !(v >= 0);

/** A typed array's value as the file had it: NaN (nz's null) back to null. */
const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** A block key split into its group (the part before the last '-', e.g. the NYC borough) and its number (NaN when
 *  not numeric); null for none. */
export function parseBlock(key: string | null | undefined): { group: string; num: number } | null {
  if (!key) return null;
  const at = key.lastIndexOf('-');
  return at < 0 ? { group: key, num: NaN } : { group: key.slice(0, at), num: Number(key.slice(at + 1)) };
}

/** The file columns an index keeps as they are read (`CompIndex.data`): the others (beds, baths, year, cond, lat, lng,
 *  features, features_day) live only in its typed arrays, null as NaN (-1 for cond), and day, zip and type in typed
 *  arrays too: a file's column held twice cost King County's 21,700 comps 2.6 MB of heap. `toData()` gives the file back. */
export interface CompColumns {
  source: string;
  zips: string[];
  zip: Int32Array;
  day: Float64Array;
  price: Float64Array;
  sqft: Float64Array;
  type: Int32Array;
  /** Address keys and property ids as one string each (string-column.ts): `key.at(i)`. */
  key: StringColumn;
  pid?: StringColumn;
  block?: (string | null)[];
}

export interface ZipTypical { sqft: number; beds: number | null; baths: number | null; year: number | null; type: number; n: number }

/** A market's comps with their lookup structures (H3 cells, zips, address keys). */
export class CompIndex {
  readonly n: number;
  readonly day: Float64Array;
  readonly month: Int32Array; // year * 12 + month - 1 of the sale
  readonly logPrice: Float64Array;
  readonly logSqft: Float64Array;
  readonly beds: Float64Array;
  readonly baths: Float64Array;
  readonly year: Float64Array;
  readonly features: [string, Float64Array][];
  readonly condLog: Float64Array; // log CONDITION_FACTOR of the comp, 0 when unknown
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /** The H3 res-8 cell of each row ('' without coordinates). */
  readonly cell: string[];
  readonly byCell = new Map<string, number[]>();
  readonly byZip = new Map<string, number[]>();
  /** "<zip>|<key>" -> latest row. */
  readonly byKey: KeyLookup;
  /** 1 for a sale of a unit (its address key has a ` #unit`), else 0. */
  readonly unit: Uint8Array;
  /** Every row of a property: by its pid and by "<zip>|<key>" (a property's sales; sameProperty), as sorted
   *  permutations of the rows (sorted-rows.ts: a Map of arrays cost about 250 bytes a row). */
  private readonly byPid: SortedRows;
  private readonly byZipKey: SortedRows;
  /** Each row's block group (index into blockGroups, -1 without a block) and block number (NaN unknown). */
  readonly blockGroup: Int32Array;
  readonly blockNum: Float64Array;
  readonly blockGroups: string[] = [];
  /** Rows per block key, in date order. */
  readonly byBlock = new Map<string, number[]>();
  /** The file's columns but those held below (CompColumns). */
  readonly data: CompColumns;
  /** The condition code of each row (CONDITION_CODES index), -1 unknown. */
  readonly cond: Int8Array;
  /** The day each row's assessor features were set (CompSetData.features_day; NaN = before every sale); null when the
   *  file dates none. */
  readonly featuresDay: Float64Array | null;
  private readonly hasFeatures: boolean;

  constructor(data: CompSource) {
    const n = (this.n = data.day.length);
    this.day = f64(data.day);
    // block keys repeat (NYC: ~10 sales a block): one string per distinct key
    const blocks = new Map<string, string>(), block = data.block ? column(data.block) : null;
    const intern = (k: string | null): string | null => (k === null ? null : blocks.get(k) ?? (blocks.set(k, k), k));
    this.data = { source: data.source, zips: data.zips, zip: i32(data.zip), day: this.day, price: f64(data.price), sqft: f64(data.sqft), type: i32(data.type), key: column(data.key),
      ...(data.pid ? { pid: column(data.pid) } : {}), ...(block ? { block: Array.from({ length: n }, (_, i) => intern(block.at(i))) } : {}) };
    this.cond = data.cond instanceof Int8Array ? data.cond : Int8Array.from(data.cond, (c) => (isNull(c) ? -1 : c));
    this.featuresDay = data.features_day ? f64(data.features_day) : null;
    this.hasFeatures = data.features !== undefined;
    this.month = Int32Array.from(data.day, monthOfDay);
    this.logPrice = Float64Array.from(data.price, Math.log);
    this.logSqft = Float64Array.from(data.sqft, Math.log);
    this.beds = f64(data.beds);
    this.baths = f64(data.baths);
    this.year = f64(data.year);
    this.features = Object.entries(data.features ?? {}).map(([k, v]) => [k, f64(v)]);
    this.condLog = Float64Array.from(data.cond, (c) => (isNull(c) ? 0 : Math.log(CONDITION_FACTOR[CONDITION_CODES[c]!])));
    this.lat = f64(data.lat);
    this.lng = f64(data.lng);
    this.cell = new Array<string>(n).fill('');
    const keys = this.data.key;
    this.unit = Uint8Array.from({ length: n }, (_, i) => (keys.at(i)?.includes(' #') ? 1 : 0));
    this.blockGroup = new Int32Array(n).fill(-1);
    this.blockNum = new Float64Array(n).fill(NaN);
    const groupIdx = new Map<string, number>();
    this.data.block?.forEach((key, i) => {
      const b = parseBlock(key);
      if (!b) return;
      let g = groupIdx.get(b.group);
      if (g === undefined) { groupIdx.set(b.group, (g = this.blockGroups.length)); this.blockGroups.push(b.group); }
      this.blockGroup[i] = g;
      this.blockNum[i] = b.num;
      push(this.byBlock, key!, i);
    });
    const cells = new Map<string, string>(); // one string per cell, not one per row
    for (let i = 0; i < n; i++) {
      const zip = data.zips[data.zip[i]!]!;
      push(this.byZip, zip, i);
      if (Number.isFinite(this.lat[i]) && Number.isFinite(this.lng[i])) {
        const c = latLngToCell(this.lat[i]!, this.lng[i]!, H3_RES);
        if (!cells.has(c)) cells.set(c, c);
        push(this.byCell, (this.cell[i] = cells.get(c)!), i);
      }
      if (i > 0 && data.zip[i - 1] === data.zip[i] && data.day[i - 1]! > data.day[i]!) throw new Error('comps must be ordered by zip, then date');
    }
    // arrays filled by push keep the room they grew (17 slots for one row): copies of their length
    for (const m of [this.byZip, this.byCell, this.byBlock]) for (const [k, v] of m) m.set(k, v.slice());
    // the keys are read through this.data, not the file (`data`), which the index must not keep
    const cols = this.data;
    this.byPid = new SortedRows(n, (i) => cols.pid?.at(i));
    this.byZipKey = new SortedRows(n, (i) => { const key = cols.key.at(i); return key ? `${cols.zips[cols.zip[i]!]!}|${key}` : null; });
    this.byKey = latestRows(this.byZipKey, this.day);
  }

  /** The rows of the property `pid` (its property_id) or at `zipKey` ("<zip>|<key>"): every sale of one property.
   *  A subject is valued from other properties' sales only (warehouse/docs/valuation.md "Own sale"). */
  propertyRows(pid: string | null | undefined, zipKey: string | null | undefined): number[] {
    const a = pid ? this.byPid.rows(pid) : [];
    const b = zipKey ? this.byZipKey.rows(zipKey) : [];
    return b.length === 0 ? a : a.length === 0 ? b : [...new Set([...a, ...b])];
  }

  /** Every sale of the property of row i (same pid or same zip and address key), i included. */
  sameProperty(i: number): number[] {
    const key = this.data.key.at(i);
    const rows = this.propertyRows(this.data.pid?.at(i), key ? `${this.data.zips[this.data.zip[i]!]}|${key}` : null);
    return rows.length ? rows : [i];
  }

  private readonly disks = new Map<string, string[]>();
  /** The cells of the comps within k rings of a cell (memoised; cells without comps left out). */
  disk(cell: string, k: number): string[] {
    const key = `${cell}:${k}`;
    let d = this.disks.get(key);
    if (!d) {
      d = gridDisk(cell, k).filter((c) => this.byCell.has(c));
      if (this.disks.size > 200_000) this.disks.clear();
      this.disks.set(key, d);
    }
    return d;
  }

  /** The subject described by a recorded row (the back-test's subjects; address matches in the live endpoint). */
  subjectOf(i: number, cond?: Condition): Subject {
    const d = this.data;
    const c = this.cond[i]!;
    return {
      zip: d.zips[d.zip[i]!]!, sqft: d.sqft[i]!, beds: orNull(this.beds[i]!), baths: orNull(this.baths[i]!), year: orNull(this.year[i]!),
      features: Object.fromEntries(this.features.map(([k, v]) => [k, v[i]!]).filter(([, v]) => Number.isFinite(v))), cond: cond ?? (c < 0 ? 'good' : CONDITION_CODES[c]!), type: d.type[i]!,
      lat: orNull(this.lat[i]!), lng: orNull(this.lng[i]!), block: d.block?.[i] ?? null, mode: 'record',
    };
  }

  /** The comp file this index was made from (the back-test's asOf re-indexes it with some features unknown). */
  toData(): CompSetData {
    const col = (a: Float64Array): (number | null)[] => Array.from(a, orNull);
    const { zip, day, price, sqft, type, key, pid, ...rest } = this.data;
    return {
      ...rest, key: key.toArray(), ...(pid ? { pid: pid.toArray() } : {}), zip: Array.from(zip), day: Array.from(day), price: Array.from(price), sqft: Array.from(sqft), type: Array.from(type), beds: col(this.beds), baths: col(this.baths), year: col(this.year),
      cond: Array.from(this.cond, (c) => (c < 0 ? null : c)), lat: col(this.lat), lng: col(this.lng),
      ...(this.hasFeatures ? { features: Object.fromEntries(this.features.map(([k, v]) => [k, col(v)])) } : {}),
      ...(this.featuresDay ? { features_day: col(this.featuresDay) } : {}),
    };
  }

  /** The zip's typical residential property (medians of the rows given, most common type). */
  typical(zip: string, rows?: number[]): ZipTypical | null {
    const all = (rows ?? this.byZip.get(zip) ?? []).filter((i) => RESIDENTIAL_TYPES.has(this.data.type[i]!));
    if (all.length === 0) return null;
    const counts = new Map<number, number>();
    for (const i of all) counts.set(this.data.type[i]!, (counts.get(this.data.type[i]!) ?? 0) + 1);
    const type = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const ofType = all.filter((i) => this.data.type[i] === type);
    const med = (arr: Float64Array): number | null => { const v = median(ofType.map((i) => arr[i]!).filter(Number.isFinite)); return Number.isFinite(v) ? v : null; };
    return { sqft: Math.round(Math.exp(med(this.logSqft)!)), beds: med(this.beds), baths: med(this.baths), year: med(this.year), type, n: ofType.length };
  }
}
