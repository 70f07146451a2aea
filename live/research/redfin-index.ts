// The Redfin zip tracker snapshots of the research index (live/research/redfin.json, written by redfin-build.ts; read
// by redfin.ts), kept apart from market.json and loaded on the first question that needs one: every snapshot of every
// zip is 120k rows, which as JSON arrays cost the serving process ~18 MB of heap for the few days-on-market questions
// the sales records cannot answer. The file is columnar (one array per field, the strings as indexes into a table of
// distinct values) and lives in memory as typed arrays: ~2 MB, however many zips.
import fs from 'node:fs';
import type { RedfinSnap } from './market-window.ts';

/** zip -> its snapshots by period end, then capture month (the last is the latest): what the build step gathers. */
export type RedfinSnapshots = Record<string, RedfinSnap[]>;

/** redfin.json: the snapshots of `zips[i]` are rows first[i]..first[i+1]-1. Strings are indexes into `months`,
 *  `ends` and `types` (-1: no type recorded); `sold` -1: no homes-sold figure. */
export interface RedfinFile {
  zips: string[]; first: number[];
  month: number[]; end: number[]; dom: number[]; sold: number[]; type: number[];
  months: string[]; ends: string[]; types: string[];
}

/** The columnar file of the build step's snapshots (zips in order, rows in each zip's order). */
export function redfinFile(snaps: RedfinSnapshots): RedfinFile {
  const f: RedfinFile = { zips: [], first: [0], month: [], end: [], dom: [], sold: [], type: [], months: [], ends: [], types: [] };
  const code = (table: string[], index: Map<string, number>, v: string): number => {
    let i = index.get(v);
    if (i === undefined) { i = table.length; table.push(v); index.set(v, i); }
    return i;
  };
  const months = new Map<string, number>(), ends = new Map<string, number>(), types = new Map<string, number>();
  for (const zip of Object.keys(snaps).sort()) {
    for (const [month, end, dom, sold, type] of snaps[zip]!) {
      f.month.push(code(f.months, months, month)); f.end.push(code(f.ends, ends, end));
      f.dom.push(dom); f.sold.push(sold ?? -1); f.type.push(type === null ? -1 : code(f.types, types, type));
    }
    f.zips.push(zip); f.first.push(f.month.length);
  }
  return f;
}

/** The snapshots of a build, read from its redfin.json at the first lookup (none: a build without the file, or
 *  without the Redfin source). */
export class RedfinIndex {
  private cols: { zips: Map<string, number>; first: Int32Array; month: Uint16Array; end: Uint16Array; dom: Float64Array; sold: Int32Array; type: Int16Array; months: string[]; ends: string[]; types: string[] } | null = null;

  private constructor(private load: (() => RedfinFile | null) | null) {}

  /** The build's file at `file`, read when first asked. */
  static fromFile(file: string): RedfinIndex {
    return new RedfinIndex(() => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) as RedfinFile : null));
  }

  /** Snapshots in hand (tests, and an index step run over an older build's warehouse). */
  static of(snaps: RedfinSnapshots): RedfinIndex {
    return new RedfinIndex(() => redfinFile(snaps));
  }

  static readonly none = new RedfinIndex(null);

  /** Whether a zip has a snapshot. */
  has(zip: string): boolean {
    return this.columns()?.zips.has(zip) ?? false;
  }

  /** A zip's snapshots, by period end then capture month; undefined when it has none. */
  snapshots(zip: string): RedfinSnap[] | undefined {
    const c = this.columns();
    const i = c?.zips.get(zip);
    if (c === null || i === undefined) return undefined;
    const out: RedfinSnap[] = [];
    for (let r = c.first[i]!; r < c.first[i + 1]!; r++) {
      const sold = c.sold[r]!, type = c.type[r]!;
      out.push([c.months[c.month[r]!]!, c.ends[c.end[r]!]!, c.dom[r]!, sold < 0 ? null : sold, type < 0 ? null : c.types[type]!]);
    }
    return out;
  }

  private columns(): RedfinIndex['cols'] {
    if (this.load) {
      const f = this.load();
      this.load = null;
      if (f) {
        this.cols = {
          zips: new Map(f.zips.map((z, i) => [z, i])), first: Int32Array.from(f.first),
          month: Uint16Array.from(f.month), end: Uint16Array.from(f.end), dom: Float64Array.from(f.dom),
          sold: Int32Array.from(f.sold), type: Int16Array.from(f.type), months: f.months, ends: f.ends, types: f.types,
        };
      }
    }
    return this.cols;
  }
}
