// The columns of an answered record (street line, point, facts, property id: live/autocomplete/index-format.ts) as the
// search reads them: from the index file on disk, a record at a time, or from the file's bytes when a caller holds them
// (tests, the bench's synthetic index). On disk they are 12.4 of the real index's 31.6 MB, which the server kept in
// memory to read at most `limit` records a request; a record costs nine small reads of the page-cached file (~2 µs
// each).
import fs from 'node:fs';
import { sectionAt, type IndexHeader } from './index-format.ts';

export class RecordReader {
  private constructor(private readonly bytes: (name: string, from: number, length: number) => Uint8Array) {}

  /** Over file bytes that hold the whole index (8-byte aligned). */
  static ofBytes(raw: Uint8Array, h: IndexHeader): RecordReader {
    return new RecordReader((name, from, length) => {
      const s = sectionAt(h, name);
      return raw.subarray(s.at + from, s.at + from + length);
    });
  }

  /** Over an open index file. */
  static ofFile(fd: number, h: IndexHeader): RecordReader {
    return new RecordReader((name, from, length) => {
      const s = sectionAt(h, name);
      const buf = Buffer.allocUnsafe(length);
      const n = length ? fs.readSync(fd, buf, 0, length, s.at + from) : 0;
      if (n !== length) throw new Error(`autocomplete index file ends inside its section ${name}`);
      return buf;
    });
  }

  private view(name: string, id: number, width: number): DataView {
    const b = this.bytes(name, id * width, width);
    return new DataView(b.buffer, b.byteOffset, width);
  }

  /** The record's street line bytes (utf8). */
  address(id: number): Uint8Array {
    const off = this.bytes('addr_off', id * 4, 8);
    const v = new DataView(off.buffer, off.byteOffset, 8);
    const from = v.getUint32(0, true);
    return this.bytes('addr', from, v.getUint32(4, true) - from);
  }

  i32(name: 'lat' | 'lng', id: number): number { return this.view(name, id, 4).getInt32(0, true); }
  f32(name: 'beds' | 'baths' | 'sqft', id: number): number { return this.view(name, id, 4).getFloat32(0, true); }
  u8(name: 'point_source', id: number): number { return this.view(name, id, 1).getUint8(0); }
  /** The record's 8 property id bytes. */
  pid(id: number): Uint8Array { return this.bytes('pid', id * 8, 8); }
}
