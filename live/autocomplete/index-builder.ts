// Builds the address autocomplete index file (format: live/autocomplete/index-format.ts) from address records in
// input order: live/autocomplete/build.ts (the build step) and scripts/bench/autocomplete.ts (the synthetic 5M set).
// The records are collected here (text to tokens, places shared); live/autocomplete/index-layout.ts orders them into
// the file's columns. Format, relevance order, typo rule: warehouse/docs/address.md.
import fs from 'node:fs';
import { encodeIndex, LOCATION_SOURCES, type LocationSource, type Place } from './index-format.ts';
import { layOut } from './index-layout.ts';
import { displayAddress, tokens } from './text.ts';

export interface AddressInput {
  address: string;
  unit: string | null;
  city: string;
  /** The source's own city when it differs from `city` (the zip's: NYC's New York for a Brooklyn zip): searchable too. */
  source_city?: string | null;
  state: string;
  zip: string;
  /** The zip is no source's: the one the property record holds, guessed from the nearest ZCTA centroid (Connecticut). */
  zip_imputed?: boolean;
  county: string;
  lat: number;
  lng: number;
  /** Where lat/lng come from: the address's own point (a source row's coordinates) or its zip's centroid. */
  location_source: LocationSource;
  beds: number | null;
  baths: number | null;
  sqft: number | null;
  /** The property of the address (live/property), when one source row of it has an identity (issue 22). */
  property_id?: string | null;
}

/** The source's own city when it is not the answer's (compared without case), else "". */
const alsoCity = (r: AddressInput): string => (r.source_city && r.source_city.toUpperCase() !== r.city.toUpperCase() ? r.source_city : '');

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

function factsOf(r: AddressInput): number {
  return (r.beds === null ? 0 : 1) + (r.baths === null ? 0 : 1) + (r.sqft === null ? 0 : 1);
}

// ---------------------------------------------------------------- builder

/** Collects records (in input order = tie-break order) and writes the index file. Memory: typed arrays only. */
export class AutocompleteIndexBuilder {
  private n = 0;
  private readonly tokenIds = new Map<string, number>();
  private readonly tokenList: string[] = [];
  private readonly placeList: Place[] = [];
  private readonly addr = new Grow(Uint8Array, 1 << 16);
  private readonly addrOff = new Grow(Uint32Array);
  private readonly fwd = new Grow(Uint32Array, 1 << 16);
  private readonly fwdOff = new Grow(Uint32Array);
  private readonly streetLen = new Grow(Uint8Array);
  private readonly place = new Grow(Uint32Array);
  private readonly lat = new Grow(Int32Array);
  private readonly lng = new Grow(Int32Array);
  private readonly pointSource = new Grow(Uint8Array);
  private readonly beds = new Grow(Float32Array);
  private readonly baths = new Grow(Float32Array);
  private readonly sqft = new Grow(Float32Array);
  private readonly pid = new Grow(Uint8Array, 1 << 16);
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
  private readonly placeCache = new Map<string, { city: string; also: string; state: string; zip: string; county: string; imputed: boolean; pid: number; toks: number[] }[]>();
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

  private lastPlace: { city: string; also: string; state: string; zip: string; county: string; imputed: boolean; pid: number; toks: number[] } | null = null;

  private placeOf(r: AddressInput): { pid: number; toks: number[] } {
    const last = this.lastPlace; // consecutive records often share their place
    if (last && last.zip === r.zip && last.city === r.city && last.also === alsoCity(r) && last.state === r.state && last.county === r.county && last.imputed === Boolean(r.zip_imputed)) return last;
    const p = this.findPlace(r);
    this.lastPlace = p;
    return p;
  }

  private findPlace(r: AddressInput): { city: string; also: string; state: string; zip: string; county: string; imputed: boolean; pid: number; toks: number[] } {
    const imputed = Boolean(r.zip_imputed);
    let list = this.placeCache.get(r.zip);
    if (list) {
      for (const p of list) if (p.city === r.city && p.also === alsoCity(r) && p.state === r.state && p.county === r.county && p.imputed === imputed) return p;
    } else {
      list = [];
      this.placeCache.set(r.zip, list);
    }
    const pid = this.placeList.length;
    this.placeList.push(imputed ? [r.city, r.state, r.zip, r.county, 1] : [r.city, r.state, r.zip, r.county]);
    const also = alsoCity(r);
    const p = { city: r.city, also, state: r.state, zip: r.zip, county: r.county, imputed, pid, toks: [...tokens(r.city), ...tokens(also), r.state.toUpperCase(), ...(r.zip ? [r.zip] : [])].map((t) => this.tokenId(t)) };
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
    this.pointSource.push(LOCATION_SOURCES.indexOf(r.location_source));
    this.beds.push(r.beds ?? NaN);
    this.baths.push(r.baths ?? NaN);
    this.sqft.push(r.sqft ?? NaN);
    const id = r.property_id && /^[0-9a-f]{16}$/.test(r.property_id) ? r.property_id : null;
    for (let k = 0; k < 8; k++) this.pid.push(id ? parseInt(id.slice(k * 2, k * 2 + 2), 16) : 0);
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
    return encodeIndex(layOut({
      records: this.n, tokens: this.tokenList, places: this.placeList,
      addrOff: this.addrOff.view(), addr: this.addr.view(),
      place: this.place.view(), lat: this.lat.view(), lng: this.lng.view(), pointSource: this.pointSource.view(),
      beds: this.beds.view(), baths: this.baths.view(), sqft: this.sqft.view(), pid: this.pid.view(),
      fwdOff: this.fwdOff.view(), fwd: this.fwd.view(), streetLen: this.streetLen.view(),
      facts: this.facts.view(),
    }));
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
