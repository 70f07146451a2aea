// The address autocomplete index: a compact binary file (typed arrays, one string table) built by
// live/autocomplete/build.ts (or scripts/bench/autocomplete.ts for the synthetic 5M set) and searched in the
// server by live/autocomplete/endpoint.ts. Format, relevance order, typo rule and time budget: warehouse/docs/address.md.
//
// File: "REIIAC01" | u32 header length | header JSON | sections, each 8-byte aligned. Sections (N records,
// V vocabulary tokens, records in static rank order: more property facts first, then input order):
//   addr_off u32[N+1], addr utf8    display street line of each record
//   place u32[N]                    index into header.places: [city, state, zip, county]
//   lat, lng i32[N]                 micro-degrees
//   beds, baths, sqft f32[N]        NaN = unknown (answered as null)
//   fwd_off u32[N+1], fwd u32       each record's token ids: street line (+ unit) tokens, then city, state, zip
//   street_len u8[N]                how many of a record's tokens are street-line tokens
//   vocab_off u32[V+1], vocab utf8  the tokens, sorted (so a prefix is a contiguous id range)
//   post_off u32[V+1], post u32     for each token the ascending record ids that carry it
//   by_key u32[N]                   record ids sorted by their street-line token sequence (exact-prefix search)
import fs from 'node:fs';
import { LONG_FORMS, UNIT_DESIGNATORS, canonical, displayAddress, tokens, typoVariants, words } from './text.ts';

export const INDEX_FORMAT = 1;
const MAGIC = 'REIIAC01';

export interface AddressInput {
  address: string;
  unit: string | null;
  city: string;
  state: string;
  zip: string;
  county: string;
  lat: number;
  lng: number;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
}

export interface AddressMatch {
  address: string;
  city: string;
  state: string;
  zip: string;
  county: string;
  lat: number;
  lng: number;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
}

// ---------------------------------------------------------------- growable typed arrays

type TypedCtor<T> = { new (n: number): T; BYTES_PER_ELEMENT: number };
class Grow<T extends Uint8Array | Uint32Array | Int32Array | Float32Array> {
  buf: T;
  len = 0;
  constructor(private readonly ctor: TypedCtor<T>, cap = 1024) {
    this.buf = new ctor(cap);
  }
  push(v: number): void {
    if (this.len === this.buf.length) {
      const next = new this.ctor(this.buf.length * 2);
      next.set(this.buf as never);
      this.buf = next;
    }
    this.buf[this.len++] = v;
  }
  pushBytes(bytes: Uint8Array): void {
    while (this.len + bytes.length > this.buf.length) {
      const next = new this.ctor(this.buf.length * 2);
      next.set(this.buf as never);
      this.buf = next;
    }
    (this.buf as Uint8Array).set(bytes, this.len);
    this.len += bytes.length;
  }
  view(): T {
    return this.buf.subarray(0, this.len) as T;
  }
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function factsOf(r: AddressInput): number {
  return (r.beds === null ? 0 : 1) + (r.baths === null ? 0 : 1) + (r.sqft === null ? 0 : 1);
}

// ---------------------------------------------------------------- builder

/** Collects records (in input order = tie-break order) and writes the index file. Memory: typed arrays only. */
export class AutocompleteIndexBuilder {
  private n = 0;
  private readonly tokenIds = new Map<string, number>();
  private readonly tokenList: string[] = [];
  private readonly placeList: [string, string, string, string][] = [];
  private readonly addr = new Grow(Uint8Array, 1 << 16);
  private readonly addrOff = new Grow(Uint32Array);
  private readonly fwd = new Grow(Uint32Array, 1 << 16);
  private readonly fwdOff = new Grow(Uint32Array);
  private readonly streetLen = new Grow(Uint8Array);
  private readonly place = new Grow(Uint32Array);
  private readonly lat = new Grow(Int32Array);
  private readonly lng = new Grow(Int32Array);
  private readonly beds = new Grow(Float32Array);
  private readonly baths = new Grow(Float32Array);
  private readonly sqft = new Grow(Float32Array);
  private readonly facts = new Grow(Uint8Array);

  constructor() {
    this.addrOff.push(0);
    this.fwdOff.push(0);
  }

  get size(): number {
    return this.n;
  }

  private tokenId(t: string): number {
    let id = this.tokenIds.get(t);
    if (id === undefined) {
      id = this.tokenList.length;
      this.tokenIds.set(t, id);
      this.tokenList.push(t);
    }
    return id;
  }

  private readonly streetCache = new Map<string, number[]>();
  /** zip -> the places of that zip (city, state, county differ rarely): no key string built per record */
  private readonly placeCache = new Map<string, { city: string; state: string; zip: string; county: string; pid: number; toks: number[] }[]>();
  /** house number value -> token id (-1 unknown), for numbers of 1-6 digits without a leading zero */
  private readonly houseIds = new Int32Array(1_000_000).fill(-1);

  /** Token id of a first word that is a plain number (the house number, its own token), else -1. */
  private houseTokenId(head: string): number {
    const n = head.length;
    if (n === 0) return -1;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const d = head.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      v = v * 10 + d;
    }
    if (n > 6 || (n > 1 && head.charCodeAt(0) === 48)) return this.tokenId(head);
    let id = this.houseIds[v]!;
    if (id < 0) { id = this.tokenId(head); this.houseIds[v] = id; }
    return id;
  }

  private lastPlace: { city: string; state: string; zip: string; county: string; pid: number; toks: number[] } | null = null;

  private placeOf(r: AddressInput): { pid: number; toks: number[] } {
    const last = this.lastPlace; // consecutive records often share their place
    if (last && last.zip === r.zip && last.city === r.city && last.state === r.state && last.county === r.county) return last;
    const p = this.findPlace(r);
    this.lastPlace = p;
    return p;
  }

  private findPlace(r: AddressInput): { city: string; state: string; zip: string; county: string; pid: number; toks: number[] } {
    let list = this.placeCache.get(r.zip);
    if (list) {
      for (const p of list) if (p.city === r.city && p.state === r.state && p.county === r.county) return p;
    } else {
      list = [];
      this.placeCache.set(r.zip, list);
    }
    const pid = this.placeList.length;
    this.placeList.push([r.city, r.state, r.zip, r.county]);
    const p = { city: r.city, state: r.state, zip: r.zip, county: r.county, pid, toks: [...tokens(r.city), r.state.toUpperCase(), r.zip].map((t) => this.tokenId(t)) };
    list.push(p);
    return p;
  }

  /** Token ids of a text, cached for texts that repeat (street names, places). */
  private tokenIdsOf(text: string, cache: Map<string, number[]>): number[] {
    let ids = cache.get(text);
    if (!ids) {
      ids = tokens(text).map((t) => this.tokenId(t));
      if (cache.size < 2_000_000) cache.set(text, ids);
    }
    return ids;
  }

  add(r: AddressInput): void {
    const display = displayAddress(r.address, r.unit);
    // utf-8 straight into the growing byte buffer (at most 3 bytes per UTF-16 unit); ASCII byte by byte
    while (this.addr.len + display.length * 3 > this.addr.buf.length) this.growAddr();
    const buf = this.addr.buf; const start = this.addr.len;
    let w = start;
    for (let i = 0; i < display.length; i++) {
      const c = display.charCodeAt(i);
      if (c >= 128) { w = start + enc.encodeInto(display, buf.subarray(start)).written; break; }
      buf[w++] = c;
    }
    this.addr.len = w;
    this.addrOff.push(this.addr.len);
    // street-line tokens: the first word (usually the house number) on its own, the rest through the cache
    const sp = display.indexOf(' ');
    const head = sp < 0 ? display : display.slice(0, sp);
    let streetCount = 0;
    const hid = this.houseTokenId(head);
    if (hid >= 0) { this.fwd.push(hid); streetCount++; } else {
      for (const t of tokens(head)) if (streetCount < 255) { this.fwd.push(this.tokenId(t)); streetCount++; }
    }
    if (sp >= 0) {
      const rest = this.tokenIdsOf(display.slice(sp + 1), this.streetCache);
      for (let i = 0; i < rest.length && streetCount < 255; i++) { this.fwd.push(rest[i]!); streetCount++; }
    }
    const pl = this.placeOf(r);
    for (const id of pl.toks) this.fwd.push(id);
    this.fwdOff.push(this.fwd.len);
    this.streetLen.push(streetCount);
    this.place.push(pl.pid);
    this.lat.push(Math.round(r.lat * 1e6));
    this.lng.push(Math.round(r.lng * 1e6));
    this.beds.push(r.beds ?? NaN);
    this.baths.push(r.baths ?? NaN);
    this.sqft.push(r.sqft ?? NaN);
    this.facts.push(factsOf(r));
    this.n++;
  }

  private growAddr(): void {
    const next = new Uint8Array(this.addr.buf.length * 2);
    next.set(this.addr.buf);
    this.addr.buf = next;
  }

  /** The index file bytes. */
  finish(): Buffer[] {
    const N = this.n;
    const V = this.tokenList.length;
    // static rank: more facts first (stable counting sort), ties keep input order
    const order = new Uint32Array(N); // new position -> input id
    {
      const counts = new Uint32Array(5);
      const facts = this.facts.view();
      for (let i = 0; i < N; i++) counts[3 - facts[i]!]!++;
      const start = new Uint32Array(5);
      for (let k = 1; k < 5; k++) start[k] = start[k - 1]! + counts[k - 1]!;
      for (let i = 0; i < N; i++) order[start[3 - facts[i]!]!++] = i;
    }
    // vocabulary sorted (code unit order = byte order for A-Z0-9), temp id -> final id
    const sortedTokens = this.tokenList.map((t, i) => [t, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const remap = new Uint32Array(V);
    sortedTokens.forEach(([, tmp], fin) => { remap[tmp] = fin; });

    const srcAddr = this.addr.view(); const srcAddrOff = this.addrOff.view();
    const srcFwd = this.fwd.view(); const srcFwdOff = this.fwdOff.view();
    const addr = new Uint8Array(srcAddr.length); const addrOff = new Uint32Array(N + 1);
    const fwd = new Uint32Array(srcFwd.length); const fwdOff = new Uint32Array(N + 1);
    const place = new Uint32Array(N); const lat = new Int32Array(N); const lng = new Int32Array(N);
    const beds = new Float32Array(N); const baths = new Float32Array(N); const sqft = new Float32Array(N);
    const streetLen = new Uint8Array(N);
    const sPlace = this.place.view(); const sLat = this.lat.view(); const sLng = this.lng.view();
    const sBeds = this.beds.view(); const sBaths = this.baths.view(); const sSqft = this.sqft.view(); const sStreet = this.streetLen.view();
    let ap = 0; let fp = 0;
    for (let i = 0; i < N; i++) {
      const o = order[i]!;
      const a0 = srcAddrOff[o]!; const a1 = srcAddrOff[o + 1]!;
      for (let k = a0; k < a1; k++) addr[ap++] = srcAddr[k]!;
      addrOff[i + 1] = ap;
      const f0 = srcFwdOff[o]!; const f1 = srcFwdOff[o + 1]!;
      for (let k = f0; k < f1; k++) fwd[fp++] = remap[srcFwd[k]!]!;
      fwdOff[i + 1] = fp;
      place[i] = sPlace[o]!; lat[i] = sLat[o]!; lng[i] = sLng[o]!;
      beds[i] = sBeds[o]!; baths[i] = sBaths[o]!; sqft[i] = sSqft[o]!; streetLen[i] = sStreet[o]!;
    }

    // postings: counting pass (a token repeated within one record counts once), then fill in record order
    const postOff = new Uint32Array(V + 1);
    const dup = (i: number, k: number): boolean => {
      for (let j = fwdOff[i]!; j < k; j++) if (fwd[j] === fwd[k]) return true;
      return false;
    };
    for (let i = 0; i < N; i++) for (let k = fwdOff[i]!; k < fwdOff[i + 1]!; k++) if (!dup(i, k)) postOff[fwd[k]! + 1]!++;
    for (let t = 0; t < V; t++) postOff[t + 1]! += postOff[t]!;
    const post = new Uint32Array(postOff[V]!);
    const cursor = postOff.slice(0, V);
    for (let i = 0; i < N; i++) for (let k = fwdOff[i]!; k < fwdOff[i + 1]!; k++) if (!dup(i, k)) post[cursor[fwd[k]!]!++] = i;

    // by_key: LSD radix sort of record ids by street-line token sequence (a shorter sequence sorts first)
    let maxLen = 0;
    for (let i = 0; i < N; i++) if (streetLen[i]! > maxLen) maxLen = streetLen[i]!;
    let byKey = new Uint32Array(N);
    for (let i = 0; i < N; i++) byKey[i] = i;
    let tmp = new Uint32Array(N);
    const counts = new Uint32Array(V + 2);
    const keys = new Uint32Array(N); // each pass's key of byKey[i], read once from the records (random access)
    for (let pos = maxLen - 1; pos >= 0; pos--) {
      counts.fill(0);
      for (let i = 0; i < N; i++) {
        const r = byKey[i]!;
        const k = pos < streetLen[r]! ? fwd[fwdOff[r]! + pos]! + 1 : 0;
        keys[i] = k;
        counts[k + 1]!++;
      }
      for (let k = 1; k < V + 2; k++) counts[k]! += counts[k - 1]!;
      for (let i = 0; i < N; i++) tmp[counts[keys[i]!]!++] = byKey[i]!;
      [byKey, tmp] = [tmp, byKey];
    }

    const vocabParts = sortedTokens.map(([t]) => enc.encode(t));
    const vocabOff = new Uint32Array(V + 1);
    for (let t = 0; t < V; t++) vocabOff[t + 1] = vocabOff[t]! + vocabParts[t]!.length;
    const vocab = new Uint8Array(vocabOff[V]!);
    vocabParts.forEach((p, t) => vocab.set(p, vocabOff[t]!));

    const sections: [string, Uint8Array | Uint32Array | Int32Array | Float32Array][] = [
      ['addr_off', addrOff], ['addr', addr], ['place', place], ['lat', lat], ['lng', lng],
      ['beds', beds], ['baths', baths], ['sqft', sqft], ['fwd_off', fwdOff], ['fwd', fwd], ['street_len', streetLen],
      ['vocab_off', vocabOff], ['vocab', vocab], ['post_off', postOff], ['post', post], ['by_key', byKey],
    ];
    const table: { name: string; offset: number; bytes: number }[] = [];
    let offset = 0;
    for (const [name, arr] of sections) {
      table.push({ name, offset, bytes: arr.byteLength });
      offset += Math.ceil(arr.byteLength / 8) * 8;
    }
    const header = enc.encode(JSON.stringify({ format: INDEX_FORMAT, records: N, tokens: V, postings: post.length, places: this.placeList, sections: table }));
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

  /** Writes the index to `file` (through a temporary name, renamed when complete). */
  write(file: string): { bytes: number } {
    const parts = this.finish();
    const tmp = `${file}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    let bytes = 0;
    try {
      for (const p of parts) { fs.writeSync(fd, p); bytes += p.length; }
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    return { bytes };
  }
}

// ---------------------------------------------------------------- search

const EXACT = 2;
const PREFIX = 1;
const TYPO = 0;
const NONE = -1;

interface Term {
  word: string;           // the query word, upper case
  required: boolean;      // false for a trailing partial unit designator ("AP" of APT)
  numeric: boolean;
  exact: number[];        // the canonical token: class EXACT
  prefLo: number;         // [prefLo, prefHi): tokens starting with the word: class PREFIX
  prefHi: number;
  prefIds: number[];      // canonical forms of long forms the word is a prefix of ("BOUL" -> BLVD): class PREFIX
  typo: number[];         // flat [lo, hi, lo, hi, ...] token id ranges within one edit: class TYPO
}

export interface SearchOptions {
  limit: number;
  state?: string | null;
  /** Time budget in ms (default 25): past it the search answers with the exact street-line prefix matches. */
  budgetMs?: number;
}

export interface SearchResult {
  ids: number[];
  /** full: every tier ran; no_typo: the budget ran out before the typo tier; exact_prefix: it ran out in the
   *  any-order tier, so only the street-line prefix tier answered. */
  mode: 'full' | 'no_typo' | 'exact_prefix';
  /** How many of `ids` came from each tier: street-line prefix, any order, one typo. */
  tiers: [number, number, number];
  scanned: number;
}

/** Characters of tokens in sort order (digits before letters) and their rank, -1 for any other. */
const RANK_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function charRank(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : -1;
}

/** Any-order tiers: the two cheapest words are intersected (postings read in sequence) when the second has at most
 *  this many times the postings of the first; else the first word's records are checked one by one (each check
 *  reads the record's tokens at a random place in memory, many times the cost of reading one posting). */
const INTERSECT_RATIO = 64;

/** Street-line prefix tier: at most this many records are looked at per key range. */
const PREFIX_SCAN_CAP = 200_000;

export class AutocompleteIndex {
  readonly records: number;
  readonly tokenCount: number;
  readonly places: [string, string, string, string][];
  private readonly placeState: Uint8Array;
  private readonly stateCodes: string[];
  private readonly vocabWords: string[];
  private readonly addrOff: Uint32Array; private readonly addr: Uint8Array;
  private readonly place: Uint32Array; private readonly lat: Int32Array; private readonly lng: Int32Array;
  private readonly beds: Float32Array; private readonly baths: Float32Array; private readonly sqft: Float32Array;
  private readonly fwdOff: Uint32Array; private readonly fwd: Uint32Array; private readonly streetLen: Uint8Array;
  private readonly postOff: Uint32Array; private readonly post: Uint32Array; private readonly byKey: Uint32Array;
  // scratch reused by every search (searches are synchronous)
  private readonly classMaps: Int8Array[] = [];
  private bits: Uint32Array | null = null;
  private scratch = new Uint32Array(1024);
  private readonly bucketStart: Uint32Array;

  static fromFile(file: string): AutocompleteIndex {
    return new AutocompleteIndex(fs.readFileSync(file));
  }

  constructor(raw: Uint8Array) {
    // typed array views need aligned offsets: copy only when the buffer itself is not 8-byte aligned
    const bytes = raw.byteOffset % 8 === 0 ? raw : new Uint8Array(raw);
    const magic = dec.decode(bytes.subarray(0, MAGIC.length));
    if (magic !== MAGIC) throw new Error('not an autocomplete index file');
    const hlen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(MAGIC.length, true);
    const header = JSON.parse(dec.decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + hlen))) as {
      format: number; records: number; tokens: number; places: [string, string, string, string][];
      sections: { name: string; offset: number; bytes: number }[];
    };
    if (header.format !== INDEX_FORMAT) throw new Error(`autocomplete index format ${header.format}, expected ${INDEX_FORMAT}`);
    const base = bytes.byteOffset + Math.ceil((MAGIC.length + 4 + hlen) / 8) * 8;
    const sec = new Map(header.sections.map((s) => [s.name, s]));
    const get = <T,>(name: string, ctor: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number }): T => {
      const s = sec.get(name);
      if (!s) throw new Error(`autocomplete index lacks section ${name}`);
      return new ctor(bytes.buffer, base + s.offset, s.bytes / ctor.BYTES_PER_ELEMENT);
    };
    this.records = header.records;
    this.tokenCount = header.tokens;
    this.places = header.places;
    this.addrOff = get('addr_off', Uint32Array); this.addr = get('addr', Uint8Array);
    this.place = get('place', Uint32Array); this.lat = get('lat', Int32Array); this.lng = get('lng', Int32Array);
    this.beds = get('beds', Float32Array); this.baths = get('baths', Float32Array); this.sqft = get('sqft', Float32Array);
    this.fwdOff = get('fwd_off', Uint32Array); this.fwd = get('fwd', Uint32Array); this.streetLen = get('street_len', Uint8Array);
    this.postOff = get('post_off', Uint32Array); this.post = get('post', Uint32Array); this.byKey = get('by_key', Uint32Array);
    const vocabOff = get('vocab_off', Uint32Array); const vocab = get('vocab', Uint8Array);
    this.vocabWords = new Array<string>(this.tokenCount);
    for (let t = 0; t < this.tokenCount; t++) this.vocabWords[t] = dec.decode(vocab.subarray(vocabOff[t]!, vocabOff[t + 1]!));
    // bucketStart[r0 * 36 + r1]: the first id whose token starts with the two characters of ranks r0, r1 (or sorts
    // after them): tokens are A-Z0-9 only, and '0'-'9' sort before 'A'-'Z' as the ranks do
    this.bucketStart = new Uint32Array(36 * 36 + 1);
    for (let k = 0; k < 36 * 36; k++) {
      this.bucketStart[k] = this.lowerBoundIn(RANK_CHARS[Math.floor(k / 36)]! + RANK_CHARS[k % 36]!, 0, this.tokenCount);
    }
    this.bucketStart[36 * 36] = this.tokenCount;
    this.stateCodes = [...new Set(this.places.map((p) => p[1]))].sort();
    const stateIdx = new Map(this.stateCodes.map((s, i) => [s, i]));
    this.placeState = Uint8Array.from(this.places.map((p) => stateIdx.get(p[1])!));
  }

  /** The answer object of one record. */
  match(id: number): AddressMatch {
    const [city, state, zip, county] = this.places[this.place[id]!]!;
    const num = (v: number): number | null => (Number.isNaN(v) ? null : v);
    return {
      address: dec.decode(this.addr.subarray(this.addrOff[id]!, this.addrOff[id + 1]!)),
      city, state, zip, county,
      lat: this.lat[id]! / 1e6, lng: this.lng[id]! / 1e6,
      beds: num(this.beds[id]!), baths: num(this.baths[id]!), sqft: num(this.sqft[id]!),
    };
  }

  /** The index tokens of a record (street line first), for tests and diagnostics. */
  recordTokens(id: number): string[] {
    return [...this.fwd.subarray(this.fwdOff[id]!, this.fwdOff[id + 1]!)].map((t) => this.vocabWords[t]!);
  }

  // ------------------------------------------------------------ vocabulary lookups

  /** First vocabulary id >= s. Strings whose first two characters are A-Z/0-9 are searched only within the ids
   *  that start with those two characters (bucketStart), a few dozen instead of the whole vocabulary. */
  private lowerBound(s: string): number {
    let lo = 0; let hi = this.tokenCount;
    if (s.length >= 2) {
      const r0 = charRank(s.charCodeAt(0)); const r1 = charRank(s.charCodeAt(1));
      if (r0 >= 0 && r1 >= 0) { const k = r0 * 36 + r1; lo = this.bucketStart[k]!; hi = this.bucketStart[k + 1]!; }
    }
    return this.lowerBoundIn(s, lo, hi);
  }

  private lowerBoundIn(s: string, lo: number, hi: number): number {
    const v = this.vocabWords;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (v[m]! < s) lo = m + 1; else hi = m; }
    return lo;
  }

  private tokenOf(s: string): number {
    const i = this.lowerBound(s);
    return i < this.tokenCount && this.vocabWords[i] === s ? i : -1;
  }

  /** [lo, hi) of the tokens starting with `p` (the vocabulary is sorted). */
  private prefixRange(p: string): [number, number] {
    return [this.lowerBound(p), this.lowerBound(p + '\uffff')];
  }

  private postings(lo: number, hi: number): number {
    return this.postOff[hi]! - this.postOff[lo]!;
  }

  private parse(q: string): Term[] {
    const ws = words(q);
    const terms: Term[] = [];
    ws.forEach((w, i) => {
      const last = i === ws.length - 1;
      if (UNIT_DESIGNATORS.has(w)) return;
      let required = true;
      if (last) for (const d of UNIT_DESIGNATORS) if (d.length > w.length && d.startsWith(w)) required = false;
      const c = canonical(w);
      const exact: number[] = [];
      const id = this.tokenOf(c);
      if (id >= 0) exact.push(id);
      // only the last word may be incomplete: the words before it are matched whole (after canonical mapping)
      const [prefLo, prefHi] = last ? this.prefixRange(w) : [0, 0];
      const prefIds: number[] = [];
      if (last) {
        for (const [long, short] of LONG_FORMS) {
          if (long.length > w.length && long.startsWith(w)) {
            const sid = this.tokenOf(short);
            if (sid >= 0 && !exact.includes(sid) && !prefIds.includes(sid) && !(sid >= prefLo && sid < prefHi)) prefIds.push(sid);
          }
        }
      }
      terms.push({ word: w, required, numeric: /^[0-9]+$/.test(w), exact, prefLo, prefHi, prefIds, typo: [] });
    });
    return terms;
  }

  /** Fills term.typo: the tokens within one edit of the word (the last word: tokens starting with such a variant). */
  private addTypos(t: Term, asPrefix: boolean): void {
    const ranges: [number, number][] = [];
    const w = t.word;
    for (const v of typoVariants(w)) {
      // the word with a character added at its end: its tokens already match the last word as a prefix
      if (asPrefix && v.length === w.length + 1 && v.startsWith(w)) continue;
      if (asPrefix) {
        const [lo, hi] = this.prefixRange(v);
        if (hi > lo) ranges.push([lo, hi]);
      }
      const c = canonical(v);
      for (const form of c === v ? [v] : [v, c]) {
        const id = this.tokenOf(form);
        if (id >= 0) ranges.push([id, id + 1]);
      }
    }
    ranges.sort((a, b) => a[0] - b[0]);
    const merged: number[] = [];
    for (const [lo, hi] of ranges) {
      const n = merged.length;
      if (n && lo <= merged[n - 1]!) merged[n - 1] = Math.max(merged[n - 1]!, hi);
      else merged.push(lo, hi);
    }
    t.typo = merged;
  }

  /** The class of every vocabulary token for term i (scratch array reused across searches). */
  private classMap(i: number, t: Term, withTypo: boolean): Int8Array {
    while (this.classMaps.length <= i) this.classMaps.push(new Int8Array(this.tokenCount));
    const m = this.classMaps[i]!;
    m.fill(NONE);
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) m.fill(TYPO, t.typo[k]!, t.typo[k + 1]!);
    m.fill(PREFIX, t.prefLo, t.prefHi);
    for (const id of t.prefIds) m[id] = PREFIX;
    for (const id of t.exact) m[id] = EXACT;
    return m;
  }

  /** The token ids with postings that a term's match set covers. */
  private termTokens(t: Term, withTypo: boolean): number[] {
    const out: number[] = [];
    const add = (lo: number, hi: number): void => { for (let id = lo; id < hi; id++) if (this.postOff[id + 1]! > this.postOff[id]!) out.push(id); };
    add(t.prefLo, t.prefHi);
    for (const id of [...t.exact, ...t.prefIds]) if (id < t.prefLo || id >= t.prefHi) add(id, id + 1);
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) add(t.typo[k]!, t.typo[k + 1]!);
    return [...new Set(out)];
  }

  /** Postings count a term's match set covers (an upper bound: overlaps counted twice). */
  private termCost(t: Term, withTypo: boolean): number {
    let c = this.postings(t.prefLo, t.prefHi);
    for (const id of t.exact) if (id < t.prefLo || id >= t.prefHi) c += this.postings(id, id + 1);
    for (const id of t.prefIds) c += this.postings(id, id + 1);
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) c += this.postings(t.typo[k]!, t.typo[k + 1]!);
    return c;
  }

  /** Best class any record could reach on the term (NONE when nothing matches). */
  private bestClass(t: Term, withTypo: boolean): number {
    if (t.exact.some((id) => this.postings(id, id + 1) > 0)) return EXACT;
    if (this.postings(t.prefLo, t.prefHi) > 0 || t.prefIds.some((id) => this.postings(id, id + 1) > 0)) return PREFIX;
    if (withTypo) for (let k = 0; k < t.typo.length; k += 2) if (this.postings(t.typo[k]!, t.typo[k + 1]!) > 0) return TYPO;
    return NONE;
  }

  /**
   * Calls fn with the ascending, deduplicated record ids of the union of the given tokens' postings until fn
   * returns false. One list: read in place; several: a bitset over record ids, marked then scanned.
   */
  private forEachRecord(toks: number[], fn: (id: number) => boolean): void {
    const { post, postOff } = this;
    if (toks.length === 1) {
      const end = postOff[toks[0]! + 1]!;
      for (let p = postOff[toks[0]!]!; p < end; p++) if (!fn(post[p]!)) return;
      return;
    }
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    let total = 0;
    for (const t of toks) total += postOff[t + 1]! - postOff[t]!;
    if (total * 16 < bits.length) {
      // few postings against the record count: sort them (a bitset would be mostly empty words to scan)
      if (this.scratch.length < total) this.scratch = new Uint32Array(total * 2);
      let n = 0;
      for (const t of toks) { this.scratch.set(post.subarray(postOff[t]!, postOff[t + 1]!), n); n += postOff[t + 1]! - postOff[t]!; }
      const ids = this.scratch.subarray(0, n).sort();
      let prev = -1;
      for (let i = 0; i < n; i++) { const r = ids[i]!; if (r !== prev && !fn(r)) return; prev = r; }
      return;
    }
    let minW = bits.length; let maxW = -1;
    for (const t of toks) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) { const r = post[p]!; const w = r >>> 5; bits[w]! |= 1 << (r & 31); if (w < minW) minW = w; if (w > maxW) maxW = w; }
    }
    try {
      for (let w = minW; w <= maxW; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const b = 31 - Math.clz32(word & -word);
          word &= word - 1;
          if (!fn((w << 5) | b)) return;
        }
      }
    } finally {
      if (maxW >= minW) bits.fill(0, minW, maxW + 1);
    }
  }

  /** The ids (ascending) that also carry one of the tokens (bitset of ids, then the tokens' postings tested). */
  private refine(ids: Uint32Array, toks: number[]): Uint32Array {
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    for (const r of ids) bits[r >>> 5]! |= 1 << (r & 31);
    const hits = this.takeMarked(bits, toks);
    for (const r of ids) bits[r >>> 5] = 0;
    return hits;
  }

  /** Ascending record ids present in both unions of postings lists (bitset of a, then b tested against it). */
  private intersect(a: number[], b: number[]): Uint32Array {
    const { post, postOff } = this;
    const bits = (this.bits ??= new Uint32Array((this.records >>> 5) + 1));
    let minW = bits.length; let maxW = -1;
    for (const t of a) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) { const r = post[p]!; const w = r >>> 5; bits[w]! |= 1 << (r & 31); if (w < minW) minW = w; if (w > maxW) maxW = w; }
    }
    const hits = this.takeMarked(bits, b);
    if (maxW >= minW) bits.fill(0, minW, maxW + 1);
    return hits;
  }

  /** Ascending ids on the tokens' postings lists whose bit is set; each bit is cleared when taken, so an id
   *  on several lists is taken once. */
  private takeMarked(bits: Uint32Array, toks: number[]): Uint32Array {
    const { post, postOff } = this;
    const hits: number[] = [];
    for (const t of toks) {
      const end = postOff[t + 1]!;
      for (let p = postOff[t]!; p < end; p++) {
        const r = post[p]!; const w = r >>> 5; const m = 1 << (r & 31);
        if (bits[w]! & m) { hits.push(r); bits[w]! &= ~m; }
      }
    }
    return Uint32Array.from(hits).sort();
  }

  /**
   * Tier 1, the street-line prefix: records whose street line starts with the query words in order (every word but
   * the last equal to a street token, the last one equal or a prefix), found by binary search over by_key. Order:
   * last word exact before prefix, then record id (more property facts first). Also the cheap answer past the budget.
   */
  private streetPrefix(terms: Term[], limit: number, stateIdx: number): number[] {
    const req = terms.filter((t) => t.required);
    if (!req.length) return [];
    const k = req.length - 1;
    const fixed: number[] = [];
    for (let i = 0; i < k; i++) {
      if (!req[i]!.exact.length) return [];
      fixed.push(req[i]!.exact[0]!);
    }
    const lastT = req[k]!;
    const { fwd, fwdOff, streetLen, byKey } = this;
    const cmp = (r: number, x: number): number => { // record r's street key vs (fixed..., x)
      const len = streetLen[r]!; const f0 = fwdOff[r]!;
      for (let i = 0; i < k; i++) {
        if (i >= len) return -1;
        const d = fwd[f0 + i]! - fixed[i]!;
        if (d !== 0) return d;
      }
      if (k >= len) return -1;
      return fwd[f0 + k]! - x;
    };
    const lower = (x: number): number => {
      let lo = 0; let hi = this.records;
      while (lo < hi) { const m = (lo + hi) >>> 1; if (cmp(byKey[m]!, x) < 0) lo = m + 1; else hi = m; }
      return lo;
    };
    const out: number[] = [];
    const groups: [number, number][][] = [
      lastT.exact.map((id) => [id, id + 1]),
      [[lastT.prefLo, lastT.prefHi], ...lastT.prefIds.map((id): [number, number] => [id, id + 1])],
    ];
    for (const ranges of groups) {
      const need = limit - out.length;
      if (need <= 0) break;
      const best: number[] = []; // the `need` smallest record ids of the group, ascending
      for (const [lo, hi] of ranges) {
        if (hi <= lo) continue;
        const a = lower(lo); const b = Math.min(lower(hi), a + PREFIX_SCAN_CAP);
        for (let i = a; i < b; i++) {
          const r = byKey[i]!;
          if (best.length === need && r >= best[need - 1]!) continue;
          if (stateIdx >= 0 && this.placeState[this.place[r]!] !== stateIdx) continue;
          if (out.includes(r) || best.includes(r)) continue;
          let j = best.length;
          while (j > 0 && best[j - 1]! > r) j--;
          best.splice(j, 0, r);
          if (best.length > need) best.pop();
        }
      }
      out.push(...best);
    }
    return out;
  }

  /**
   * Tiers 2 and 3, every word anywhere in the record (street line, city, state, zip), in any order. Tier 2 ('a'):
   * every required word matched exactly or as a prefix. Tier 3 ('b'): at least one required word matched only within
   * one edit. Score = sum of word classes (exact 2, prefix 1, typo 0) + 1 when the first word is a number equal to
   * the record's house number; ties: lower record id. Returns null when the deadline passed.
   */
  private pass(terms: Term[], phase: 'a' | 'b', limit: number, stateIdx: number, deadline: number, exclude: Set<number>, stats: { scanned: number }): number[] | null {
    const withTypo = phase === 'b';
    if (limit <= 0) return [];
    const required = terms.filter((t) => t.required);
    if (!required.length) return [];
    const best = terms.map((t) => this.bestClass(t, withTypo));
    if (terms.some((t, i) => t.required && best[i]! === NONE)) return [];
    const first = terms[0]!;
    const houseBonusPossible = first.required && first.numeric && first.exact.length > 0;
    let maxScore = best.reduce((s, b) => s + Math.max(b, 0), 0) + (houseBonusPossible ? 1 : 0);
    if (withTypo) {
      let drop = Infinity; // a tier-3 record has at least one required word at TYPO
      terms.forEach((t, i) => { if (t.required && t.typo.length) drop = Math.min(drop, Math.max(best[i]!, 0)); });
      if (drop === Infinity) return [];
      maxScore -= drop;
    }
    const byCost = required.map((t) => ({ t, cost: this.termCost(t, withTypo) })).sort((x, y) => x.cost - y.cost);
    if (byCost[0]!.cost === 0) return [];
    // candidates: the cheapest word's records; when the second cheapest is comparable, only the records of both
    // (bitset intersection), else the cheapest word's records in id order, checked one by one (early stop)
    const c1 = byCost[0]!; const c2 = byCost[1] && byCost[1].cost <= INTERSECT_RATIO * c1.cost ? byCost[1] : undefined;
    // check order: the words the candidates do not already satisfy, most selective first (early rejection)
    const drivers = new Set([c1.t, ...(c2 ? [c2.t] : [])]);
    const order = [...byCost.filter((x) => !drivers.has(x.t)).map((x) => x.t), ...drivers, ...terms.filter((t) => !t.required)];
    const maps = order.map((t, i) => this.classMap(i, t, withTypo));
    const req = Int8Array.from(order, (t) => (t.required ? 1 : 0));
    const houseTok = houseBonusPossible ? first.exact[0]! : -1;
    const top: { id: number; score: number }[] = [];
    const { fwd, fwdOff, placeState, place, streetLen } = this;
    const nt = order.length;
    let n = 0;
    let timedOut = false;
    const visit = (id: number): boolean => {
      if ((++n & 255) === 0 && performance.now() > deadline) { timedOut = true; return false; }
      if (stateIdx >= 0 && placeState[place[id]!] !== stateIdx) return true;
      const f0 = fwdOff[id]!; const f1 = fwdOff[id + 1]!;
      let score = 0; let anyTypo = false;
      for (let i = 0; i < nt; i++) {
        const m = maps[i]!;
        let c = NONE;
        for (let k = f0; k < f1; k++) { const tc = m[fwd[k]!]!; if (tc > c) { c = tc; if (c === EXACT) break; } }
        if (c === NONE) { if (req[i]) return true; continue; }
        if (c === TYPO && req[i]) anyTypo = true;
        score += c;
      }
      if (withTypo && !anyTypo) return true;
      if (exclude.has(id)) return true;
      if (houseTok >= 0 && streetLen[id]! > 0 && fwd[f0] === houseTok) score++;
      if (top.length < limit || score > top[top.length - 1]!.score) {
        let j = top.length;
        while (j > 0 && top[j - 1]!.score < score) j--;
        top.splice(j, 0, { id, score });
        if (top.length > limit) top.pop();
      }
      return !(top.length === limit && top[limit - 1]!.score >= maxScore); // nothing later can rank higher
    };
    if (c2) {
      let ids = this.intersect(this.termTokens(c1.t, withTypo), this.termTokens(c2.t, withTypo));
      // more words narrow the candidates further while reading their postings costs less than checking the records
      for (let k = 2; k < byCost.length && ids.length > 64 && byCost[k]!.cost <= INTERSECT_RATIO * ids.length; k++) {
        ids = this.refine(ids, this.termTokens(byCost[k]!.t, withTypo));
      }
      for (const id of ids) if (!visit(id)) break;
    } else {
      this.forEachRecord(this.termTokens(c1.t, withTypo), visit);
    }
    stats.scanned += n;
    return timedOut ? null : top.map((e) => e.id);
  }

  /** The street-line prefix tier alone (what a search past its budget answers with). */
  exactPrefix(q: string, limit: number, state?: string | null): number[] {
    const stateIdx = state ? this.stateCodes.indexOf(state) : -1;
    if (state && stateIdx < 0) return [];
    return this.streetPrefix(this.parse(q), limit, stateIdx);
  }

  search(q: string, opts: SearchOptions): SearchResult {
    const limit = Math.max(1, Math.min(Math.floor(opts.limit), 50));
    const deadline = performance.now() + (opts.budgetMs ?? 25);
    const stats = { scanned: 0 };
    const stateIdx = opts.state ? this.stateCodes.indexOf(opts.state) : -1;
    if (opts.state && stateIdx < 0) return { ids: [], mode: 'full', tiers: [0, 0, 0], scanned: 0 };
    const terms = this.parse(q);
    const t1 = this.streetPrefix(terms, limit, stateIdx);
    const done = (ids: number[], mode: SearchResult['mode'], n2: number, n3: number): SearchResult =>
      ({ ids, mode, tiers: [t1.length, n2, n3], scanned: stats.scanned });
    if (t1.length >= limit) return done(t1, 'full', 0, 0);
    if (performance.now() > deadline) return done(t1, 'exact_prefix', 0, 0);
    const t2 = this.pass(terms, 'a', limit - t1.length, stateIdx, deadline, new Set(t1), stats);
    if (t2 === null) return done(t1, 'exact_prefix', 0, 0);
    const ids = [...t1, ...t2];
    if (ids.length >= limit || !terms.some((t) => t.required && t.word.length >= 4)) return done(ids, 'full', t2.length, 0);
    terms.forEach((t, i) => { if (t.required && t.word.length >= 4) this.addTypos(t, i === terms.length - 1); });
    if (performance.now() > deadline) return done(ids, 'no_typo', t2.length, 0);
    const t3 = this.pass(terms, 'b', limit - ids.length, stateIdx, deadline, new Set(ids), stats);
    if (t3 === null) return done(ids, 'no_typo', t2.length, 0);
    return done([...ids, ...t3], 'full', t2.length, t3.length);
  }
}
