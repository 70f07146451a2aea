// Live data of GET /v1/property (live/property/endpoint.ts), written under <build>/live/property/ from the warehouse
// tables properties, property_sales, property_lineage and int_property_events (pipelines/marts/60_mart_property_*):
// the files and their shapes are in live/property/layout.ts. The records are written 1/16 of the property ids at a
// time (one query per table and part), so the build never holds every record at once. Rules: warehouse/docs/property.md.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows } from '../../warehouse/db.ts';
import {
  parcelFile, parcelKey, PROPERTY_FORMAT, recordFile, zipFile,
  encodeRecordFile, type DistressItem, type PropertyMeta, type StoredCitation, type StoredRecord, type StoredRef, type ZipEntry,
} from './layout.ts';

export const requires = ['properties', 'property_sales', 'property_lineage', 'int_property_events'];

/** The record's fact fields, in response order, with the type their lineage value is read back as. */
export const FACT_FIELDS = {
  parcel_id: 'text', address: 'text', unit: 'text', city: 'text', state: 'text', zip: 'text', county: 'text',
  lat: 'number', lng: 'number', property_type: 'text', beds: 'number', baths: 'number', sqft: 'number', lot_sqft: 'number',
  year_built: 'number', owner_type: 'text', absentee_owner: 'boolean',
} as const;

const typed = (field: string, v: string | null): unknown => {
  if (v === null) return null;
  const t = (FACT_FIELDS as Record<string, string>)[field];
  return t === 'number' ? Number(v) : t === 'boolean' ? v === 'true' : v;
};

type Row = Record<string, unknown>;

/** The refs of one record file: each distinct [source, table, file, vintage] once. */
class Refs {
  readonly list: StoredRef[] = [];
  private readonly ids = new Map<string, number>();
  cite(r: Row, table: string, vintages: Map<string, string | null>): StoredCitation {
    const source = String(r['source']);
    const ref: StoredRef = [source, table, (r['file'] as string | null) ?? null, vintages.get(source) ?? null];
    const key = ref.join('\u0000');
    let id = this.ids.get(key);
    if (id === undefined) { id = this.list.length; this.ids.set(key, id); this.list.push(ref); }
    const c: StoredCitation = [id, r['line'] == null ? null : Number(r['line']), (r['record_date'] as string | null) ?? null];
    if (r['imputed']) c.push(String(r['imputed'])); // how a value the row does not record was filled (lineage only)
    return c;
  }
}

async function writePart(ctx: StageContext, dir: string, hex: string, vintages: Map<string, string | null>): Promise<number> {
  const like = `'${hex}%'`;
  const props = await queryRows<Row>(ctx.db, `
    select property_id, parcel_id, source, address, unit, city, state, zip, county, lat, lng, property_type, beds, baths, sqft,
           lot_sqft, year_built::double as year_built, owner_type, absentee_owner
    from properties where property_id like ${like} order by property_id`);
  const records = new Map<string, StoredRecord>();
  const refsOf = new Map<string, Refs>(); // per record file
  const refs = (id: string): Refs => { const f = recordFile(id); let r = refsOf.get(f); if (!r) refsOf.set(f, (r = new Refs())); return r; };
  for (const p of props) {
    const body: Row = { property_id: p['property_id'] };
    for (const f of Object.keys(FACT_FIELDS)) body[f] = p[f] ?? null;
    body['source'] = p['source'];
    records.set(String(p['property_id']), {
      body: { ...body, zip: (p['zip'] as string | null) ?? null, sales: [], permits: [], distress: [] },
      fields: {}, sales: [], permits: [], distress: [],
    });
  }
  const sales = await queryRows<Row>(ctx.db, `
    select property_id, sale_id, source, cast(date as varchar) as date, price, price_per_sqft, buyer, seller, arms_length, portfolio,
           investor_buyer, flip_leg, file, line::double as line
    from property_sales where property_id like ${like}
    order by property_id, date desc, document_order(document_id) desc nulls last, line desc`); // a day's deeds in recording order
  for (const s of sales) {
    const id = String(s['property_id']);
    const rec = records.get(id);
    if (!rec) continue;
    rec.body.sales.push({ date: String(s['date']), price: Number(s['price']), price_per_sqft: (s['price_per_sqft'] as number | null) ?? null,
      buyer: (s['buyer'] as string | null) ?? null, seller: (s['seller'] as string | null) ?? null, arms_length: (s['arms_length'] as boolean | null) ?? null,
      portfolio: Boolean(s['portfolio']), investor_buyer: (s['investor_buyer'] as boolean | null) ?? null, flip_leg: Boolean(s['flip_leg']) });
    rec.sales.push([String(s['sale_id']), refs(id).cite({ ...s, record_date: s['date'] }, 'sales', vintages)]);
  }
  const events = await queryRows<Row>(ctx.db, `
    select property_id, kind, event_id, source, cast(date as varchar) as date, type, description, amount, file, line::double as line,
           docket_type, status, outcome, cast(status_date as varchar) as status_date, cast(sale_date as varchar) as sale_date, sale_price
    from int_property_events where property_id like ${like} order by property_id, date desc, line desc`);
  for (const e of events) {
    const id = String(e['property_id']);
    const rec = records.get(id);
    if (!rec) continue;
    const permit = e['kind'] === 'permit';
    const c = refs(id).cite({ ...e, record_date: e['date'] }, permit ? 'permits' : 'distress', vintages);
    if (permit) {
      rec.body.permits.push({ date: String(e['date']), type: String(e['type']), description: (e['description'] as string | null) ?? null, valuation: (e['amount'] as number | null) ?? null });
      rec.permits.push([String(e['event_id']), c]);
    } else {
      rec.body.distress.push({ date: String(e['date']), kind: String(e['type']), amount: (e['amount'] as number | null) ?? null,
        docket_type: (e['docket_type'] as string | null) ?? null, status: (e['status'] as DistressItem['status']) ?? null,
        outcome: (e['outcome'] as string | null) ?? null, status_date: (e['status_date'] as string | null) ?? null,
        sale_date: (e['sale_date'] as string | null) ?? null, sale_price: (e['sale_price'] as number | null) ?? null });
      rec.distress.push([String(e['event_id']), c]);
    }
  }
  // one row per property with its lineage rows as JSON (DuckDB builds the text; one JSON.parse per property is far
  // cheaper than a row object per field): [field, value, status, source, source_table, file, line, record_date, imputed]
  const lineage = await queryRows<{ property_id: string; j: string }>(ctx.db, `
    select property_id, to_json(list([field, value, status, source, source_table, file, cast(line as varchar), cast(record_date as varchar), imputed]
                                     order by field, rank))::varchar as j
    from property_lineage where property_id like ${like} group by property_id`);
  for (const { property_id: id, j } of lineage) {
    const rec = records.get(id);
    if (!rec) continue;
    for (const [field, v, status, source, table, file, line, recordDate, imputed] of JSON.parse(j) as (string | null)[][]) {
      if (!(field! in FACT_FIELDS)) continue;
      const value = typed(field!, v ?? null);
      const c = refs(id).cite({ source, file, line, record_date: recordDate, imputed }, table!, vintages);
      if (status === 'chosen') rec.fields[field!] = [value, c, []];
      else rec.fields[field!]?.[2].push([value, c]);
    }
  }
  // county: from the zip, by the geography's zip table (no source row of the property names it)
  for (const [id, rec] of records) {
    if (rec.body['county'] != null && rec.fields['zip']) rec.fields['county'] = [rec.body['county'], refs(id).cite({ source: 'geography' }, 'zips', vintages), []];
  }
  const buckets = new Map<string, [string, StoredRecord][]>();
  for (const [id, rec] of records) {
    const f = recordFile(id);
    let b = buckets.get(f);
    if (!b) buckets.set(f, (b = []));
    b.push([id, rec]);
  }
  for (const [f, b] of buckets) fs.writeFileSync(path.join(dir, f), encodeRecordFile(refsOf.get(f)?.list ?? [], b));
  return records.size;
}

export async function run(ctx: StageContext): Promise<void> {
  const started = performance.now();
  const dir = path.join(ctx.paths.build, 'live', 'property');
  fs.rmSync(dir, { recursive: true, force: true });
  for (const sub of ['records', 'zips', 'parcels']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const vintages = new Map((await queryRows<{ source: string; vintage: string | null }>(ctx.db,
    'select distinct source, vintage from int_property_files')).map((r) => [r.source, r.vintage]));
  let properties = 0;
  for (const hex of '0123456789abcdef') properties += await writePart(ctx, dir, hex, vintages);

  const streets = await queryRows<{ zip: string; address: string; unit: string | null; property_id: string; source: string }>(ctx.db, `
    select zip, address, unit, property_id, source from properties where zip is not null and address is not null
    order by zip, address, unit nulls first, property_id`);
  const zips = new Map<string, ZipEntry[]>();
  for (const s of streets) {
    let list = zips.get(s.zip);
    if (!list) zips.set(s.zip, (list = []));
    list.push([s.address, s.unit, s.property_id, s.source]);
  }
  for (const [zip, list] of zips) fs.writeFileSync(path.join(dir, zipFile(zip)), JSON.stringify(list));

  const parcelRows = await queryRows<{ state: string; parcel_id: string; property_id: string }>(ctx.db, `
    select state, parcel_id, property_id from properties where parcel_id is not null and state is not null
    order by unit nulls first, property_id`); // a lot shared by units (NYC co-op) answers its building record first
  const parcelBuckets = new Map<string, Record<string, string[]>>();
  for (const r of parcelRows) {
    const key = parcelKey(r.state, r.parcel_id);
    const f = parcelFile(key);
    let b = parcelBuckets.get(f);
    if (!b) parcelBuckets.set(f, (b = {}));
    (b[key] ??= []).push(r.property_id);
  }
  for (const [f, b] of parcelBuckets) fs.writeFileSync(path.join(dir, f), JSON.stringify(b));

  // a record is as current as its source: the newest dated record the source gave any property, a filing's closing
  // and its auction sale included (Louisville's file records commissioner sales through 2017-01-13, after its last
  // filing on 2016-06-03: a case it shows unsold is open as of that day, as far as the file says)
  // per kind of record too (sales, parcels, permits, distress): one source may hold files of several kinds ending years
  // apart (a canonical folder's distress.csv to 2016 beside its permits.csv to 2024), and a record is as current as the
  // files of its own kinds (review 22: a property of filings only read the permits' 2024-09-19)
  const asOfRows = await queryRows<{ source: string; kind: string; as_of: string }>(ctx.db, `
    select source, kind, cast(max(d) as varchar) as as_of from (
      select source, 'sales' as kind, date as d from property_sales
      union all select source, case when kind = 'permit' then 'permits' else 'distress' end, unnest([date, status_date, sale_date]) from int_property_events
      union all select source, source_table, record_date from property_lineage) where d is not null group by all order by source, kind`);
  const sourceAsOf: Record<string, string> = {};
  const sourceKindAsOf: Record<string, Record<string, string>> = {};
  for (const r of asOfRows) {
    if (!(r.as_of <= (sourceAsOf[r.source] ?? ''))) sourceAsOf[r.source] = r.as_of;
    (sourceKindAsOf[r.source] ??= {})[r.kind] = r.as_of;
  }
  // the zips where a source records properties but no street address (King County): an address there is asked by parcel id
  const parcelOnly: Record<string, [string, string][]> = {};
  for (const r of await queryRows<{ zip: string; source: string; state: string }>(ctx.db, `
    select zip, source, any_value(state) as state from properties where zip is not null and state is not null
    group by zip, source having bool_and(address is null) order by zip, source`)) (parcelOnly[r.zip] ??= []).push([r.source, r.state]);
  const meta: PropertyMeta = { format: PROPERTY_FORMAT, build_id: ctx.buildId, properties, zips: zips.size, parcels: parcelRows.length,
    source_as_of: sourceAsOf, source_kind_as_of: sourceKindAsOf, parcel_only_zips: parcelOnly,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)) };
  fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta, null, 1));
  ctx.log.info('live/property', { properties, zips: zips.size, parcels: parcelRows.length, seconds: meta.seconds });
}
