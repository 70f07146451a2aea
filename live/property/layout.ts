// The files of the property record under <build>/live/property/ (written by live/property/build.ts, read by
// live/property/endpoint.ts), and the shapes they hold. Every file is small and read only when a request needs it:
//   records/<abc>.jsonl  the records whose property_id starts with those 3 hex digits: a RecordHeader line, then each
//                        record's JSON on its own line, found by its byte range (only the asked record is parsed)
//   zips/<zip>.json      the properties with a street address in the zip: ZipEntry[] (address lookup, closest matches)
//   parcels/<ab>.json    "<STATE>|<PARCEL ID>" -> property_ids, bucketed by the first 2 hex digits of its sha256
//   meta.json            format, build id, counts; written last, so its presence marks a complete set
import crypto from 'node:crypto';

export const PROPERTY_FORMAT = 4;

export const PROPERTY_ID_RE = /^[0-9a-f]{16}$/;

export const recordFile = (propertyId: string): string => `records/${propertyId.slice(0, 3)}.jsonl`;
export const zipFile = (zip: string): string => `zips/${zip}.json`;

/** The parcel key of a parcel id within a state: upper case, trimmed. */
export const parcelKey = (state: string, parcelId: string): string => `${state.toUpperCase()}|${parcelId.trim().toUpperCase()}`;
export const parcelFile = (key: string): string => `parcels/${crypto.createHash('sha256').update(key).digest('hex').slice(0, 2)}.json`;

/** A sale of the record (property_sales). */
export interface SaleItem {
  date: string; price: number; price_per_sqft: number | null; buyer: string | null; seller: string | null;
  arms_length: boolean | null; portfolio: boolean; investor_buyer: boolean | null; flip_leg: boolean;
}
export interface PermitItem { date: string; type: string; description: string | null; valuation: number | null }
/** A distress filing; docket_type, status ('active' | 'closed'; null: the source does not say), outcome and status_date
 *  as the source's docket records them, and the foreclosure auction sale's date and price where the source records
 *  one (Louisville's commissioner sale; it is on the filing only, never in `sales`) (warehouse/docs/market.md
 *  "Distress status"). */
export interface DistressItem {
  date: string; kind: string; amount: number | null;
  docket_type: string | null; status: 'active' | 'closed' | null; outcome: string | null; status_date: string | null;
  sale_date: string | null; sale_price: number | null;
}

/** Where a value came from: the source row (property_lineage). */
export interface Citation {
  source: string; table: string; file: string | null; line: number | null; record_date: string | null; vintage: string | null;
}
/** A field's value and where it came from; `imputed` says how a value the cited row does not record was filled
 *  ('nearest_zcta_centroid': a Connecticut sale's zip, from the ZCTA centroids of its town nearest its point; 'zip_city',
 *  'zip_state': from the row's zip; 'source_constant': the adapter's constant), null when read. */
export interface FieldLineage extends Citation { value: unknown; imputed: string | null; losing_values: (Citation & { value: unknown; imputed: string | null })[] }

/** The lineage of a record as answered. */
export interface RecordLineage {
  fields: Record<string, FieldLineage>;
  sales: (Citation & { sale_id: string })[];
  permits: (Citation & { permit_id: string })[];
  distress: (Citation & { distress_id: string })[];
}

/** A citation as a record file keeps it: the index of its [source, table, file, vintage] in the file's `refs`, the
 *  line, the record date (the file repeats a handful of sources and files for thousands of citations). */
export type StoredCitation = [ref: number, line: number | null, recordDate: string | null, imputed?: string];
export type StoredRef = [source: string, table: string, file: string | null, vintage: string | null];

/** What the record file keeps per property: the body (without links) and its lineage, compact. */
export interface StoredRecord {
  body: Record<string, unknown> & { zip: string | null; sales: SaleItem[]; permits: PermitItem[]; distress: DistressItem[] };
  /** field -> [value, citation, losing values as [value, citation]] */
  fields: Record<string, [value: unknown, cite: StoredCitation, losing: [unknown, StoredCitation][]]>;
  /** sale_id / permit_id / distress_id and citation, in the order of the body's lists */
  sales: [string, StoredCitation][];
  permits: [string, StoredCitation][];
  distress: [string, StoredCitation][];
}

/** The first line of a record file: the refs its citations point into, and each record's byte range after that line. */
export interface RecordHeader { refs: StoredRef[]; at: Record<string, [start: number, end: number]> }

/** The bytes of a record file: its header line, then the records by property_id. */
export function encodeRecordFile(refs: StoredRef[], records: Map<string, StoredRecord> | [string, StoredRecord][]): Buffer {
  const at: RecordHeader['at'] = {};
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [id, rec] of records) {
    const b = Buffer.from(`${JSON.stringify(rec)}\n`, 'utf8');
    at[id] = [offset, offset + b.length - 1];
    parts.push(b);
    offset += b.length;
  }
  return Buffer.concat([Buffer.from(`${JSON.stringify({ refs, at } satisfies RecordHeader)}\n`, 'utf8'), ...parts]);
}

/** A record file as read: its header and bytes; record() parses one record. */
export class RecordFile {
  readonly header: RecordHeader;
  private readonly base: number;
  constructor(private readonly bytes: Buffer) {
    const nl = bytes.indexOf(10);
    this.header = JSON.parse(bytes.toString('utf8', 0, nl)) as RecordHeader;
    this.base = nl + 1;
  }
  record(id: string): StoredRecord | null {
    if (!Object.hasOwn(this.header.at, id)) return null;
    const [s, e] = this.header.at[id]!;
    return JSON.parse(this.bytes.toString('utf8', this.base + s, this.base + e)) as StoredRecord;
  }
}

/** One property of a zip: normalised street line, unit, property_id, source. */
export type ZipEntry = [street: string, unit: string | null, propertyId: string, source: string];

export interface PropertyMeta {
  format: number; build_id: string; properties: number; zips: number; parcels: number; seconds: number;
  /** Per source, the newest record date among its sales, permits, filings and facts: a record's `as_of`. */
  source_as_of: Record<string, string>;
  /** Per source and kind of record (sales, parcels, permits, distress), the same: a record's `as_of` is the newest of its
   *  own kinds' (a canonical folder's files end apart); absent in older builds. */
  source_kind_as_of?: Record<string, Record<string, string>>;
  /** Zips whose properties (of a source) have no street address, with that source and its state: King County records
   *  parcel ids and zips only, so an address there is asked by parcel_id. */
  parcel_only_zips?: Record<string, [source: string, state: string][]>;
}
