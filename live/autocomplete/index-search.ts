// The address autocomplete index as the server searches it: loaded from the file live/autocomplete/build.ts writes
// (format: live/autocomplete/index-format.ts), answered by live/autocomplete/endpoint.ts. A search runs the tiers in
// order within its time budget: the street-line prefix (live/autocomplete/street-prefix.ts), then every word in any
// order, then one typo (live/autocomplete/any-order.ts). Relevance order, typo rule and time budget:
// warehouse/docs/address.md.
import fs from 'node:fs';
import { AnyOrderTiers } from './any-order.ts';
import {
  decodeHeader, decodeIndex, headerLength, LOCATION_SOURCES, SEARCH_SECTIONS, sectionAt, type Place, type SearchColumns, type SectionType,
} from './index-format.ts';
import { RecordReader } from './record-reader.ts';
import { Postings } from './postings.ts';
import { addTypos, parseTerms, type Term } from './query-terms.ts';
import { streetPrefix } from './street-prefix.ts';
import { Vocabulary } from './vocabulary.ts';
import type { AddressInput } from './index-builder.ts';

/** A record as answered: the input's fields, with the unit folded into the displayed street line. */
export type AddressMatch = Omit<AddressInput, 'unit' | 'property_id' | 'zip_imputed'> & { zip_imputed: boolean; property_id: string | null };

/** Time budget of a search in ms when none is given. */
export const DEFAULT_BUDGET_MS = 25;

export interface SearchOptions {
  limit: number;
  state?: string | null;
  /** Time budget in ms (default 25): past it the search answers with the exact street-line prefix matches. */
  budgetMs?: number;
  /** Only records of these places (ids into `places`: a place the query names, live/autocomplete/place-filter.ts). */
  places?: ReadonlySet<number> | null;
  /** Skip the one-typo tier (its results would not be used). */
  noTypo?: boolean;
  /** Query words (upper case) never typo-corrected: a known place (place-filter.ts placeWords). */
  fixed?: ReadonlySet<string>;
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

const dec = new TextDecoder();

/** A property_id's 8 bytes as 16 hex digits; null when all zero. */
function pidOf(pid: Uint8Array): string | null {
  let hex = ''; let any = 0;
  for (let k = 0; k < 8; k++) { const b = pid[k]!; any |= b; hex += (b < 16 ? '0' : '') + b.toString(16); }
  return any ? hex : null;
}

/** The file an index read from disk holds open (its answered records are read from it): closed once the index is
 *  collected, after the autocomplete module and research's address lookups of that build have let go of it. */
const openFiles = new FinalizationRegistry<number>((fd) => fs.close(fd, () => { /* nothing left to do */ }));

/** The index loaded last, by file: the autocomplete module and research's address lookups (live/research/addresses.ts)
 *  of a build share it. Build folders never change once published. */
let lastLoaded: { file: string; index: AutocompleteIndex } | null = null;

export class AutocompleteIndex {
  readonly records: number;
  readonly tokenCount: number;
  readonly places: Place[];
  private readonly cols: SearchColumns;
  private readonly rows: RecordReader;
  private readonly vocab: Vocabulary;
  private readonly anyOrder: AnyOrderTiers;
  private readonly placeState: Uint8Array;
  private readonly stateCodes: string[];
  /** A mask of the places per state code (the `state` parameter alone), made once. */
  private readonly stateMasks = new Map<string, Uint8Array>();

  /** The index of a file: its search columns read into memory, its records read from the file when answered. The
   *  same object for the same file asked again. */
  static fromFile(file: string): AutocompleteIndex {
    if (lastLoaded?.file === file) return lastLoaded.index;
    const fd = fs.openSync(file, 'r');
    let index: AutocompleteIndex;
    try {
      const readAt = (length: number, at: number): Uint8Array => {
        const buf = new Uint8Array(length);
        if (length && fs.readSync(fd, buf, 0, length, at) !== length) throw new Error(`autocomplete index file ${file} is shorter than its header says`);
        return buf;
      };
      const h = decodeHeader(readAt(headerLength(readAt(12, 0)), 0));
      const section = <T,>(name: (typeof SEARCH_SECTIONS)[number], ctor: SectionType<T>): T => {
        const s = sectionAt(h, name);
        return new ctor(readAt(s.bytes, s.at).buffer, 0, s.bytes / ctor.BYTES_PER_ELEMENT);
      };
      index = new AutocompleteIndex({
        records: h.records, tokens: h.tokens, places: h.places,
        place: section('place', Uint32Array), fwdOff: section('fwd_off', Uint32Array), fwd: h.tokens <= 0x10000 ? Uint16Array.from(section('fwd', Uint32Array)) : section('fwd', Uint32Array),
        streetLen: section('street_len', Uint8Array), vocabOff: section('vocab_off', Uint32Array), vocab: section('vocab', Uint8Array),
        postOff: section('post_off', Uint32Array), post: section('post', Uint32Array), byKey: section('by_key', Uint32Array),
      }, RecordReader.ofFile(fd, h));
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    openFiles.register(index, fd);
    lastLoaded = { file, index };
    return index;
  }

  /** The index of file bytes held in memory (a test's or the bench's index). */
  static fromBytes(raw: Uint8Array): AutocompleteIndex {
    const bytes = raw.byteOffset % 8 === 0 ? raw : new Uint8Array(raw); // typed array views need aligned offsets
    return new AutocompleteIndex(decodeIndex(bytes), RecordReader.ofBytes(bytes, decodeHeader(bytes)));
  }

  private constructor(cols: SearchColumns, rows: RecordReader) {
    this.cols = cols;
    this.rows = rows;
    this.records = cols.records;
    this.tokenCount = cols.tokens;
    this.places = cols.places;
    this.vocab = new Vocabulary(cols.vocabOff, cols.vocab, this.tokenCount);
    this.stateCodes = [...new Set(this.places.map((p) => p[1]))].sort();
    const stateIdx = new Map(this.stateCodes.map((s, i) => [s, i]));
    this.placeState = Uint8Array.from(this.places.map((p) => stateIdx.get(p[1])!));
    this.anyOrder = new AnyOrderTiers(cols, new Postings(cols.post, cols.postOff, this.records), this.tokenCount);
  }

  /** The answer object of one record. */
  match(id: number): AddressMatch {
    const r = this.rows;
    const [city, state, zip, county, imputed] = this.places[this.cols.place[id]!]!;
    const num = (v: number): number | null => (Number.isNaN(v) ? null : v);
    return {
      address: dec.decode(r.address(id)),
      city, state, zip, zip_imputed: imputed === 1, county,
      lat: r.i32('lat', id) / 1e6, lng: r.i32('lng', id) / 1e6, location_source: LOCATION_SOURCES[r.u8('point_source', id)]!,
      beds: num(r.f32('beds', id)), baths: num(r.f32('baths', id)), sqft: num(r.f32('sqft', id)),
      property_id: pidOf(r.pid(id)),
    };
  }

  /** The index tokens of a record (street line first), for tests and diagnostics. */
  recordTokens(id: number): string[] {
    return [...this.cols.fwd.subarray(this.cols.fwdOff[id]!, this.cols.fwdOff[id + 1]!)].map((t) => this.vocab.words[t]!);
  }

  /** The street-line prefix tier alone (what a search past its budget answers with). */
  exactPrefix(q: string, limit: number, state?: string | null): number[] {
    const allowed = this.allowed(state ?? null, null);
    if (allowed === 'none') return [];
    return streetPrefix(this.cols, parseTerms(q, this.vocab), limit, allowed);
  }

  /** The places a search may answer from, as a mask over `places` (null: all); 'none' when no place can be. */
  private allowed(state: string | null, places: ReadonlySet<number> | null): Uint8Array | null | 'none' {
    if (!state && !places) return null;
    let mask: Uint8Array | null = null;
    if (state) {
      const i = this.stateCodes.indexOf(state);
      if (i < 0) return 'none';
      mask = this.stateMasks.get(state) ?? null;
      if (!mask) { mask = this.placeState.map((s) => (s === i ? 1 : 0)); this.stateMasks.set(state, mask); }
    }
    if (places) {
      const m = new Uint8Array(this.places.length);
      for (const p of places) if (!mask || mask[p]) m[p] = 1;
      mask = m;
    }
    return mask && mask.includes(1) ? mask : 'none';
  }

  /** The first `limit` records of the places (static rank order: more facts first): what a query that is only a
   *  place name answers. */
  firstIn(places: ReadonlySet<number>, limit: number, state?: string | null): number[] {
    const allowed = this.allowed(state ?? null, places);
    if (allowed === 'none' || allowed === null) return [];
    const out: number[] = [];
    const place = this.cols.place;
    for (let id = 0; id < this.records && out.length < limit; id++) if (allowed[place[id]!]) out.push(id);
    return out;
  }

  search(q: string, opts: SearchOptions): SearchResult {
    const limit = Math.max(1, Math.min(Math.floor(opts.limit), 50));
    const deadline = performance.now() + (opts.budgetMs ?? DEFAULT_BUDGET_MS);
    const stats = { scanned: 0 };
    const allowed = this.allowed(opts.state ?? null, opts.places ?? null);
    if (allowed === 'none') return { ids: [], mode: 'full', tiers: [0, 0, 0], scanned: 0 };
    const terms = parseTerms(q, this.vocab);
    const t1 = streetPrefix(this.cols, terms, limit, allowed);
    const done = (ids: number[], mode: SearchResult['mode'], n2: number, n3: number): SearchResult =>
      ({ ids, mode, tiers: [t1.length, n2, n3], scanned: stats.scanned });
    if (t1.length >= limit) return done(t1, 'full', 0, 0);
    if (performance.now() > deadline) return done(t1, 'exact_prefix', 0, 0);
    this.anyOrder.beginSearch();
    const t2e = this.anyOrder.pass(terms, 'a', limit - t1.length, allowed, deadline, new Set(t1), stats);
    if (t2e === null) return done(t1, 'exact_prefix', 0, 0);
    const t2 = t2e.map((e) => e.id);
    const ids = [...t1, ...t2];
    if (ids.length >= limit || opts.noTypo || !terms.some((t) => t.required)) return done(ids, 'full', t2.length, 0);
    // one typo: one pass per word, that word within one edit and every other word as typed (exact or prefix), so
    // the other words keep the candidates few; the passes' results merged by score, then record order. The passes run
    // highest reachable score first, and stop once `need` results reach the best score a remaining pass could give.
    const need = limit - ids.length;
    const seen = new Set(ids);
    const merged: { id: number; score: number }[] = [];
    const passes: { terms: Term[]; max: number }[] = [];
    // when the query as typed already names addresses, a typo is looked for only in its words of 4+ characters (a
    // short word's variants reach most of the vocabulary, a cost worth paying only when nothing matched as typed)
    const minLen = ids.length ? 4 : 1;
    for (let i = 0; i < terms.length; i++) {
      if (!terms[i]!.required || terms[i]!.word.length < minLen || opts.fixed?.has(terms[i]!.word)) continue;
      // a zip (5 digits, not a leading house number) is never typo-corrected into another zip
      if (/^\d{5}$/.test(terms[i]!.word) && (i > 0 || terms.length === 1)) continue;
      const one = terms.map((t) => ({ ...t, typo: [] as number[] }));
      addTypos(one[i]!, i === terms.length - 1, this.vocab);
      const max = one[i]!.typo.length ? this.anyOrder.maxScore(one, true) : -Infinity;
      if (max > -Infinity) passes.push({ terms: one, max });
    }
    passes.sort((a, b) => b.max - a.max);
    for (const p of passes) {
      if (merged.length >= need && merged[need - 1]!.score >= p.max) break;
      if (performance.now() > deadline) return done(ids, 'no_typo', t2.length, 0);
      const r = this.anyOrder.pass(p.terms, 'b', need, allowed, deadline, seen, stats);
      if (r === null) return done(ids, 'no_typo', t2.length, 0);
      for (const e of r) if (!merged.some((m) => m.id === e.id)) merged.push(e);
      merged.sort((a, b) => b.score - a.score || a.id - b.id);
    }
    merged.sort((a, b) => b.score - a.score || a.id - b.id);
    const t3 = merged.slice(0, need).map((e) => e.id);
    return done([...ids, ...t3], 'full', t2.length, t3.length);
  }
}
