// The property record's lookups (GET /v1/property): by property_id, by street address within a zip, by parcel id
// within a state. Pure but for `read`, which returns a parsed file of <build>/live/property/ (live/property/layout.ts)
// or null; the files read most recently are kept (a bounded cache per kind). Rules: warehouse/docs/property.md.
import { addressKey, normalizeAddress, splitPlace, streetVariants, unitKey, type PlaceNames } from '../../warehouse/address.ts';
import type { LiveAnswer } from '../../warehouse/live.ts';
import { RecentCache } from '../../warehouse/recent.ts';
import { parcelIdForms } from '../../warehouse/parcel-id.ts';
import { typedUnit } from '../valuation/coverage.ts';
import type { PlaceResolver } from '../places/resolver.ts';
import { otherZipMessage, placeCheck, type Found } from './place-check.ts';
import { ZipTable } from './zip-table.ts';
import { propertyLinks } from './links.ts';
import { leftOutEntry, typoEntry, typoNote } from './typo-street.ts';
import {
  parcelFile, parcelKey, recordFile, zipFile,
  RecordFile, type Citation, type RecordLineage, type StoredCitation, type StoredRecord, type StoredRef, type ZipEntry,
} from './layout.ts';

export interface PropertyInput {
  property_id?: string;
  address?: string;
  zip?: string;
  parcel_id?: string;
  state?: string;
  include?: string;
}

/** The conflict rule, as the lineage states it. */
export const CONFLICT_RULE = 'newest record wins (sale, last sale, issue or filing date), then the most specific source table '
  + '(parcels, sales, permits, distress), then the later document in the source\'s recording order (reception or document '
  + 'number, where the source has one), then the earlier file and the later line';

/** How many closest addresses a 404 names. */
export const CLOSEST = 5;

/** Files of each kind kept (a record file's bytes and header, about 55 properties; a zip file's street lines). */
const KEEP = 256;

/** Ranks a zip's street lines by closeness to a typed one: the same house number first, then shared words. */
export function closestEntries(entries: readonly ZipEntry[], street: string, n = CLOSEST): ZipEntry[] {
  const words = street.split(' ');
  const number = /^\d/.test(words[0] ?? '') ? words[0] : null;
  const scored = entries.map((e, i) => {
    const w = e[0].split(' ');
    const shared = w.filter((x) => words.includes(x)).length;
    return { e, i, score: (number !== null && w[0] === number ? 100 : 0) + shared * 10 - Math.abs(w.length - words.length) };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, n).map((s) => s.e);
}

/** The lineage of a stored record with its citations written out. */
export function expandLineage(rec: StoredRecord, refs: readonly StoredRef[]): RecordLineage {
  const cite = (c: StoredCitation): Citation => {
    const [source, table, file, vintage] = refs[c[0]]!;
    return { source, table, file, line: c[1], record_date: c[2], vintage };
  };
  return {
    fields: Object.fromEntries(Object.entries(rec.fields).map(([f, [value, c, losing]]) =>
      [f, { value, ...cite(c), imputed: c[3] ?? null, losing_values: losing.map(([v, lc]) => ({ value: v, ...cite(lc), imputed: lc[3] ?? null })) }])),
    sales: rec.sales.map(([sale_id, c]) => ({ sale_id, ...cite(c) })),
    permits: rec.permits.map(([permit_id, c]) => ({ permit_id, ...cite(c) })),
    distress: rec.distress.map(([distress_id, c]) => ({ distress_id, ...cite(c) })),
  };
}

export class PropertyEngine {
  private readonly records = new RecentCache<RecordFile | null>(KEEP);
  private readonly zips = new RecentCache<ZipTable | null>(KEEP);
  private readonly parcels = new RecentCache<Record<string, string[]> | null>(KEEP);

  /** `places`: the place names a full address may end with (live/places/address-place.ts); none: after commas only.
   *  `resolver`: the build's place resolver, which reads a typed city against the record's (place-check.ts). */
  constructor(private readonly readBytes: (rel: string) => Buffer | null,
    private readonly build: { buildId: string; asOf: string; sourceAsOf: Record<string, string>; sourceKindAsOf?: Record<string, Record<string, string>>;
      parcelOnlyZips?: Record<string, [string, string][]>; hasShard?: (rel: string) => boolean },
    private readonly places?: PlaceNames, private readonly resolver: PlaceResolver | null = null) {}

  /** A found property's identity, for the place check's messages. */
  private found(id: string): Found | null {
    const b = this.record(id)?.rec.body;
    if (!b) return null;
    const s = (k: string): string | null => (b[k] as string | null | undefined) ?? null;
    return { id, address: s('address'), unit: s('unit'), city: s('city'), state: s('state'), county: s('county'), source: String(b['source']), parcel_id: s('parcel_id') };
  }

  private read(rel: string): unknown {
    const b = this.readBytes(rel);
    return b ? JSON.parse(b.toString('utf8')) : null;
  }

  /** A record is as current as its source's files of its own kinds of record (its sales, permits, filings, and the
   *  parcel roll where it dates a row): the newest day of each; its source's newest record where none dates it. */
  private asOf(rec: StoredRecord, refs: readonly StoredRef[]): string {
    const source = String(rec.body['source']);
    const kinds = new Set<string>();
    if (rec.sales.length) kinds.add('sales');
    if (rec.permits.length) kinds.add('permits');
    if (rec.distress.length) kinds.add('distress');
    for (const [, cite] of Object.values(rec.fields)) if (refs[cite[0]]?.[1] === 'parcels') kinds.add('parcels');
    const byKind = this.build.sourceKindAsOf?.[source] ?? {};
    const days = [...kinds].map((k) => byKind[k]).filter((d): d is string => d !== undefined).sort();
    return days.at(-1) ?? this.build.sourceAsOf[source] ?? this.build.asOf;
  }

  record(propertyId: string): { rec: StoredRecord; refs: StoredRef[] } | null {
    const file = this.records.get(recordFile(propertyId), () => {
      const bytes = this.readBytes(recordFile(propertyId));
      return bytes ? new RecordFile(bytes) : null;
    });
    const rec = file?.record(propertyId) ?? null;
    return rec ? { rec, refs: file!.header.refs } : null;
  }

  /** A zip's properties with a street address (zip-table.ts); null when the build has no file for the zip. */
  zip(zip: string): ZipTable | null {
    return this.zips.get(zip, () => {
      const b = this.readBytes(zipFile(zip));
      return b ? ZipTable.parse(b.toString('utf8')) : null;
    });
  }

  /** The properties of a parcel id in a state, tried in each form the state's source documents (warehouse/parcel-id.ts:
   *  King County's 10 digits with the leading zero its file dropped, NYC's 10-digit BBL). */
  parcel(state: string, parcelId: string): string[] {
    for (const form of parcelIdForms(state, parcelId)) {
      const key = parcelKey(state, form);
      const bucket = this.parcels.get(parcelFile(key), () => this.read(parcelFile(key)) as Record<string, string[]> | null);
      if (bucket && Object.hasOwn(bucket, key)) return bucket[key]!;
    }
    return [];
  }

  /** The 404 of an address in a zip whose source records no street address (King County): ask by parcel id. */
  private noStreetNote(zip: string): string {
    const only = this.build.parcelOnlyZips?.[zip] ?? [];
    return only.map(([source, state]) => `; ${source} records no street address for its properties in zip ${zip}: ask by parcel_id and state (?parcel_id=<id>&state=${state})`).join('');
  }

  /** The property at a typed address in a zip: its id (and the other properties the address names, newest sale
   *  first), or the closest street lines of the zip. The one rule of "which property is this address" (the valuation
   *  asks it too, live/valuation/match.ts). A unit written bare after the street ("1289 Lexington Ave 14D") is read as
   *  a unit when the street line as typed names no property (typedUnit, as the valuation reads it). `units`: no unit
   *  was typed and the street line's records are all units (a building recorded unit by unit): how many. */
  findAddress(address: string, zip: string): { id: string; others: string[]; typo?: string } | { closest: ZipEntry[]; units: number } {
    const table = this.zip(zip);
    const line = splitPlace(address, this.places).line;
    const plain = normalizeAddress(line);
    const bare = typedUnit(line);
    let last: { street: string; same: ZipEntry[] } = { street: plain.street, same: [] };
    for (const { street, unit } of bare.unit !== plain.unit ? [plain, bare] : [plain]) {
      // as typed first, then with its direction in the other form ("E" / "EAST"), an ordinal in figures, a Queens hyphen
      const same = (table && streetVariants(street, zip).map((v) => table.withStreet(v)).find((xs) => xs.length)) ?? [];
      // units compare without punctuation: "2G" finds the stored "2-G"
      const exact = same.filter((e) => unitKey(e[1]) === unitKey(unit));
      const hit = exact.length ? exact : unit === null && same.length === 1 ? same : [];
      if (hit.length) {
        const ids = this.newestFirst([...new Set(hit.map((e) => e[2]))]);
        return { id: ids[0]!, others: ids.slice(1) };
      }
      if (same.length || last.same.length === 0) last = { street, same };
    }
    const units = plain.unit === null && bare.unit === null ? last.same.length : 0;
    if (last.same.length) return { closest: last.same.slice(0, CLOSEST), units };
    const all = table?.all() ?? [];
    const closest = closestEntries(all, last.street);
    // no such street line: the zip's one line one typo from it, or its one line that writes it with the direction or
    // suffix it left out (typo-street.ts; every line of the zip, so a second such property is never missed), said in the answer
    const typo = typoEntry(closest, plain.street, plain.unit) ?? leftOutEntry(all, plain.street, plain.unit);
    return typo ? { id: typo[2], others: [], typo: addressKey(typo[0], typo[1]) } : { closest, units };
  }

  /** The 404 of an address that names no one property of a zip (findAddress's closest): the closest street lines of
   *  the zip, or, a building recorded unit by unit, its units (GET /v1/property and POST /v1/valuation/estimate). */
  notFoundMessage(address: string, zip: string, found: { closest: ZipEntry[] }): string {
    const names = found.closest.map((e) => `${addressKey(e[0], e[1])} (property_id ${e[2]})`);
    const zipKnown = this.zip(zip) !== null;
    const noStreet = this.noStreetNote(zip);
    return zipKnown
      ? `No property at "${address}" in zip ${zip}${names.length ? `; closest in that zip: ${names.join('; ')}` : ''}${noStreet}`
      : noStreet ? `No property at "${address}" in zip ${zip}${noStreet}` : `No property records for zip ${zip}`;
  }

  /** Properties one address names, the newest sale first (CONFLICT_RULE's "newest record wins"), then without a sale,
   *  in the zip file's order (address, unit, property_id). */
  private newestFirst(ids: string[]): string[] {
    if (ids.length < 2) return ids;
    const newest = new Map(ids.map((id) => [id, (this.record(id)?.rec.body.sales ?? []).reduce((m, s) => (s.date > m ? s.date : m), '')]));
    return ids.map((id, i) => ({ id, i })).sort((a, b) => newest.get(b.id)!.localeCompare(newest.get(a.id)!) || a.i - b.i).map((x) => x.id);
  }

  answer(input: PropertyInput): LiveAnswer {
    let id: string | null = null;
    let others: string[] = [];
    const notes: string[] = [];
    if (input.property_id !== undefined) {
      id = input.property_id;
      if (!this.record(id)) return { ok: false, code: 'no_data', message: `No property with property_id ${id}` };
    } else if (input.address !== undefined && input.zip !== undefined) {
      // a zip typed in the address other than the request's: not read as one property (place-check.ts)
      const placed = splitPlace(input.address, this.places);
      if (placed.zip !== null && placed.zip !== input.zip) {
        const at = (zip: string): Found | null => { const f = this.findAddress(input.address!, zip); return 'id' in f ? this.found(f.id) : null; };
        return { ok: false, code: 'no_data', message: otherZipMessage(input.address, input.zip, placed.zip, at(input.zip), at(placed.zip)) };
      }
      const found = this.findAddress(input.address, input.zip);
      if ('closest' in found) return { ok: false, code: 'no_data', message: this.notFoundMessage(input.address, input.zip, found) };
      id = found.id;
      others = found.others;
      if (found.typo) notes.push(typoNote(input.address, input.zip, found.typo, id));
      // a state typed that is not the record's: 404; a city or NYC borough: the record, with a note
      const f = this.found(id);
      const check = f ? placeCheck({ address: input.address, line: placed.line, zip: input.zip, found: f, resolver: this.resolver }) : null;
      if (check && 'reject' in check) return { ok: false, code: 'no_data', message: check.reject };
      if (check) notes.push(check.note);
    } else if (input.parcel_id !== undefined && input.state !== undefined) {
      const ids = this.parcel(input.state, input.parcel_id);
      if (!ids.length) return { ok: false, code: 'no_data', message: `No property with parcel_id ${input.parcel_id.trim()} in ${input.state}` };
      id = ids[0]!;
    }
    const found = id === null ? null : this.record(id);
    if (!found) return { ok: false, code: 'no_data', message: 'No property found' };
    const rec = found.rec;
    const zip = rec.body.zip;
    const body: Record<string, unknown> = {
      ...rec.body,
      links: propertyLinks(zip as string | null, rec.body['property_type'], this.build.hasShard ?? (() => false)),
      as_of: this.asOf(rec, found.refs),
    };
    // additive: the other properties the typed address names (an NYC lot redeveloped, two lots of one address)
    if (others.length) body['other_property_ids'] = others;
    // additive: an address read through one typo (typo-street.ts), a city or NYC borough typed with the address that
    // the record is not in (place-check.ts)
    if (notes.length) body['notes'] = notes;
    if (input.include === 'lineage') body['lineage'] = { build_id: this.build.buildId, rule: CONFLICT_RULE, ...expandLineage(rec, found.refs) };
    return { ok: true, body };
  }
}
