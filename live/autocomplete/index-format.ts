// The file format of the address autocomplete index (<build>/live/autocomplete/index.bin): its columns, and the
// writing and reading of the bytes. Written by live/autocomplete/index-builder.ts, read by
// live/autocomplete/index-search.ts. Format, relevance order, typo rule and time budget: warehouse/docs/address.md.
//
// File: "REIIAC01" | u32 header length | header JSON | sections, each 8-byte aligned. Sections (N records,
// V vocabulary tokens, records in static rank order: more property facts first, then input order):
//   addr_off u32[N+1], addr utf8    display street line of each record
//   place u32[N]                    index into header.places: [city, state, zip, county(, 1: zip imputed)]
//   lat, lng i32[N]                 micro-degrees
//   point_source u8[N]              where lat/lng come from: LOCATION_SOURCES index (0 the address's point, 1 its zip centroid)
//   beds, baths, sqft f32[N]        NaN = unknown (answered as null)
//   pid u8[8N]                      each record's property_id (16 hex digits as 8 bytes; all zero: none)
//   fwd_off u32[N+1], fwd u32       each record's token ids: street line (+ unit) tokens, then city, state, zip
//   street_len u8[N]                how many of a record's tokens are street-line tokens
//   vocab_off u32[V+1], vocab utf8  the tokens, sorted (so a prefix is a contiguous id range)
//   post_off u32[V+1], post u32     for each token the ascending record ids that carry it
//   by_key u32[N]                   record ids sorted by their street-line token sequence (exact-prefix search)

export const INDEX_FORMAT = 4; // 3: point_source; 4: a place's zip_imputed mark

/** Where a record's point comes from (the addresses table's location_source), by its code in point_source. */
export const LOCATION_SOURCES = ['address', 'zip_centroid'] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];
const MAGIC = 'REIIAC01';

/** A place of the header: [city, state, zip, county], and 1 when the zip is imputed (no source records it). */
export type Place = [string, string, string, string] | [string, string, string, string, 1];

/** The whole index: the header's counts and places, and one typed array per section. */
export interface IndexColumns {
  records: number;
  tokens: number;
  places: Place[];
  addrOff: Uint32Array; addr: Uint8Array;
  place: Uint32Array; lat: Int32Array; lng: Int32Array; pointSource: Uint8Array;
  beds: Float32Array; baths: Float32Array; sqft: Float32Array; pid: Uint8Array;
  fwdOff: Uint32Array; fwd: Uint32Array; streetLen: Uint8Array;
  vocabOff: Uint32Array; vocab: Uint8Array;
  postOff: Uint32Array; post: Uint32Array;
  byKey: Uint32Array;
}

/** The columns a search reads, kept in memory by the server (live/autocomplete/index-search.ts); the others describe
 *  an answered record and are read from the file per record (live/autocomplete/record-reader.ts). */
export const SEARCH_SECTIONS = ['place', 'fwd_off', 'fwd', 'street_len', 'vocab_off', 'vocab', 'post_off', 'post', 'by_key'] as const;
export type SearchColumns = Pick<IndexColumns, 'records' | 'tokens' | 'places' | 'place' | 'fwdOff' | 'streetLen' | 'vocabOff' | 'vocab' | 'postOff' | 'post' | 'byKey'>
  /** u16 when every token id fits (the server's copy: half the largest column; the shared build has 26,950 tokens) */
  & { fwd: Uint32Array | Uint16Array };

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The file bytes of an index: the header block, then each section padded to 8 bytes. */
export function encodeIndex(c: IndexColumns): Buffer[] {
  const sections: [string, Uint8Array | Uint32Array | Int32Array | Float32Array][] = [
    ['addr_off', c.addrOff], ['addr', c.addr], ['place', c.place], ['lat', c.lat], ['lng', c.lng], ['point_source', c.pointSource],
    ['beds', c.beds], ['baths', c.baths], ['sqft', c.sqft], ['pid', c.pid], ['fwd_off', c.fwdOff], ['fwd', c.fwd], ['street_len', c.streetLen],
    ['vocab_off', c.vocabOff], ['vocab', c.vocab], ['post_off', c.postOff], ['post', c.post], ['by_key', c.byKey],
  ];
  const table: { name: string; offset: number; bytes: number }[] = [];
  let offset = 0;
  for (const [name, arr] of sections) {
    table.push({ name, offset, bytes: arr.byteLength });
    offset += Math.ceil(arr.byteLength / 8) * 8;
  }
  const header = enc.encode(JSON.stringify({ format: INDEX_FORMAT, records: c.records, tokens: c.tokens, postings: c.post.length, places: c.places, sections: table }));
  const pre = Buffer.alloc(Math.ceil((MAGIC.length + 4 + header.length) / 8) * 8);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(header.length, MAGIC.length);
  pre.set(header, MAGIC.length + 4);
  const out: Buffer[] = [pre];
  for (const [, arr] of sections) {
    out.push(Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength));
    const pad = Math.ceil(arr.byteLength / 8) * 8 - arr.byteLength;
    if (pad) out.push(Buffer.alloc(pad));
  }
  return out;
}

/** The header block of an index file: counts, places, and where each section lies (`base`: the first section's byte). */
export interface IndexHeader {
  records: number; tokens: number; places: Place[];
  sections: Map<string, { offset: number; bytes: number }>;
  base: number;
}

/** The bytes of the header block at least: MAGIC, its length, then the header itself. */
export const headerLength = (start: Uint8Array): number => {
  if (dec.decode(start.subarray(0, MAGIC.length)) !== MAGIC) throw new Error('not an autocomplete index file');
  return MAGIC.length + 4 + new DataView(start.buffer, start.byteOffset).getUint32(MAGIC.length, true);
};

/** The header of index file bytes that begin with its whole header block (headerLength). */
export function decodeHeader(bytes: Uint8Array): IndexHeader {
  const end = headerLength(bytes);
  const header = JSON.parse(dec.decode(bytes.subarray(MAGIC.length + 4, end))) as {
    format: number; records: number; tokens: number; places: Place[];
    sections: { name: string; offset: number; bytes: number }[];
  };
  if (header.format !== INDEX_FORMAT) throw new Error(`autocomplete index format ${header.format}, expected ${INDEX_FORMAT}`);
  return { records: header.records, tokens: header.tokens, places: header.places, base: Math.ceil(end / 8) * 8,
    sections: new Map(header.sections.map((s) => [s.name, { offset: s.offset, bytes: s.bytes }])) };
}

/** A typed array's constructor, as the sections are read. */
export type SectionType<T> = { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number };

/** Where section `name` lies in the file (absolute byte offset and length); throws naming it when absent. */
export function sectionAt(h: IndexHeader, name: string): { at: number; bytes: number } {
  const s = h.sections.get(name);
  if (!s) throw new Error(`autocomplete index lacks section ${name}`);
  return { at: h.base + s.offset, bytes: s.bytes };
}

/** The columns of index file bytes: views into `raw` (no copy unless `raw` is not 8-byte aligned). */
export function decodeIndex(raw: Uint8Array): IndexColumns {
  // typed array views need aligned offsets: copy only when the buffer itself is not 8-byte aligned
  const bytes = raw.byteOffset % 8 === 0 ? raw : new Uint8Array(raw);
  const h = decodeHeader(bytes);
  const get = <T,>(name: string, ctor: SectionType<T>): T => {
    const s = sectionAt(h, name);
    return new ctor(bytes.buffer, bytes.byteOffset + s.at, s.bytes / ctor.BYTES_PER_ELEMENT);
  };
  return {
    records: h.records, tokens: h.tokens, places: h.places,
    addrOff: get('addr_off', Uint32Array), addr: get('addr', Uint8Array),
    place: get('place', Uint32Array), lat: get('lat', Int32Array), lng: get('lng', Int32Array), pointSource: get('point_source', Uint8Array),
    beds: get('beds', Float32Array), baths: get('baths', Float32Array), sqft: get('sqft', Float32Array), pid: get('pid', Uint8Array),
    fwdOff: get('fwd_off', Uint32Array), fwd: get('fwd', Uint32Array), streetLen: get('street_len', Uint8Array),
    postOff: get('post_off', Uint32Array), post: get('post', Uint32Array), byKey: get('by_key', Uint32Array),
    vocabOff: get('vocab_off', Uint32Array), vocab: get('vocab', Uint8Array),
  };
}
