// A zip file of the property record (zips/<zip>.json, ZipEntry[]: live/property/layout.ts) as the engine keeps it
// (live/property/engine.ts keeps the 256 read last): in columns, not one array of four strings per property. An entry
// as an array cost ~200 bytes of heap: the valuation bench's 256 zips (114,453 properties) held ~25 MB that way. The
// entries a lookup answers are made again from the columns, equal to the file's.
import type { ZipEntry } from './layout.ts';

export class ZipTable {
  readonly length: number;
  /** Distinct street lines, first seen first, each after a line break (and one at the end): street s is
   *  streets.slice(streetOff[s], streetOff[s + 1] - 1); `street` gives each entry's. */
  private readonly streets: string;
  private readonly streetOff: Uint32Array;
  private readonly street: Uint32Array;
  /** Units and property ids, each column one string cut at its offsets; `hasUnit` 0 for a null unit. */
  private readonly units: string;
  private readonly unitOff: Uint32Array;
  private readonly hasUnit: Uint8Array;
  private readonly ids: string;
  private readonly idOff: Uint32Array;
  private readonly sources: string[];
  private readonly source: Uint16Array;

  constructor(entries: readonly ZipEntry[]) {
    const n = entries.length;
    this.length = n;
    const streetIds = new Map<string, number>();
    const sourceIds = new Map<string, number>();
    const streets: string[] = [];
    this.sources = [];
    this.street = new Uint32Array(n);
    this.source = new Uint16Array(n);
    this.hasUnit = new Uint8Array(n);
    this.unitOff = new Uint32Array(n + 1);
    this.idOff = new Uint32Array(n + 1);
    const units: string[] = [], ids: string[] = [];
    let u = 0, p = 0;
    entries.forEach(([street, unit, id, source], i) => {
      let s = streetIds.get(street);
      if (s === undefined) { s = streets.length; streetIds.set(street, s); streets.push(street); }
      this.street[i] = s;
      let k = sourceIds.get(source);
      if (k === undefined) { k = this.sources.length; sourceIds.set(source, k); this.sources.push(source); }
      this.source[i] = k;
      if (unit !== null) { this.hasUnit[i] = 1; units.push(unit); u += unit.length; }
      this.unitOff[i + 1] = u;
      ids.push(id);
      p += id.length;
      this.idOff[i + 1] = p;
    });
    this.streets = `\n${streets.join('\n')}\n`;
    this.streetOff = new Uint32Array(streets.length + 1);
    let at = 1;
    streets.forEach((street, k) => { this.streetOff[k] = at; at += street.length + 1; });
    this.streetOff[streets.length] = at;
    this.units = units.join('');
    this.ids = ids.join('');
  }

  static parse(text: string): ZipTable {
    return new ZipTable(JSON.parse(text) as ZipEntry[]);
  }

  /** Entry i as the file has it. */
  entry(i: number): ZipEntry {
    const s = this.street[i]!;
    return [this.streets.slice(this.streetOff[s], this.streetOff[s + 1]! - 1), this.hasUnit[i] ? this.units.slice(this.unitOff[i], this.unitOff[i + 1]) : null,
      this.ids.slice(this.idOff[i], this.idOff[i + 1]), this.sources[this.source[i]!]!];
  }

  /** The entries whose street line is `street`, in file order. */
  withStreet(street: string): ZipEntry[] {
    const out: ZipEntry[] = [];
    const at = street.includes('\n') ? -1 : this.streets.indexOf(`\n${street}\n`);
    if (at < 0) return out;
    // the street whose line starts after that break: the last offset <= at + 1
    let lo = 0, hi = this.streetOff.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >>> 1; if (this.streetOff[m]! <= at + 1) lo = m; else hi = m - 1; }
    const s = lo;
    for (let i = 0; i < this.length; i++) if (this.street[i] === s) out.push(this.entry(i));
    return out;
  }

  /** Every entry, in file order (a 404's closest street lines are ranked over all of them). */
  all(): ZipEntry[] {
    return Array.from({ length: this.length }, (_, i) => this.entry(i));
  }
}
