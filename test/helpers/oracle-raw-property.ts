// The property record (GET /v1/property, warehouse/docs/property.md) of a King County or Philadelphia OPA parcel, read
// from the RAW file with csv-parse (scripts/raw-lines.ts rawRows), not the build: every row of the parcel id is a
// candidate, and for each field the newest row (by sale date; then the later line) recording a value wins ("Which value
// wins", 1 and 4: one source, one table); the sales are every row's date and price, newest first. The columns as each
// SOURCE.md describes them (oracle-raw-sale-rows.ts `rawSale`, `rawFields`); Philadelphia's type by its category and
// building codes as its adapter reads them (market.md "Sources"), King County's the source's constant `sfr`.
import { rawRows, type RawRow } from '../../scripts/raw-lines.ts';
import { SHARED_DATA } from './paths.ts';
import { pos, rawFields, rawSale } from './oracle-raw-sale-rows.ts';

export const PROPERTY_FILES = {
  king_county: 'king-county-wa-house-sales/kc_house_data.csv.gz',
  philadelphia: 'philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz',
} as const;
export type PropertySource = keyof typeof PROPERTY_FILES;

export interface RawRecord {
  parcel_id: string; state: string; property_type: string | null; zip: string | null; lat: number | null; lng: number | null;
  beds: number | null; baths: number | null; sqft: number | null; lot_sqft: number | null; year_built: number | null;
  sales: { date: string; price: number | null }[];
}

/** Philadelphia OPA's property type of a row (the category code, a condo by its building code). */
function philadelphiaType(r: RawRow): string | null {
  const cat = (r['category_code_description'] ?? '').trim(), bld = (r['building_code_description'] ?? '').trim();
  if (cat === 'SINGLE FAMILY') return bld.startsWith('RES CONDO') ? 'condo' : bld === 'CONDO PARKING SPACE' ? 'land' : 'sfr';
  if (['MULTI FAMILY', 'APARTMENTS  > 4 UNITS', 'APARTMENTS > 4 UNITS'].includes(cat)) return 'multi';
  if (cat.startsWith('VACANT LAND') || cat === 'GARAGE - RESIDENTIAL') return 'land';
  if (['MIXED USE', 'COMMERCIAL', 'OFFICES', 'INDUSTRIAL', 'SPECIAL PURPOSE'].includes(cat)) return 'commercial';
  return null;
}

const FIELDS = ['zip', 'lat', 'lng', 'beds', 'baths', 'sqft', 'lot_sqft', 'year_built'] as const;

/** Every parcel of the source's raw file as the record the rule makes of its rows. */
export function rawParcelRecords(source: PropertySource): Map<string, RawRecord> {
  const file = PROPERTY_FILES[source];
  const byParcel = new Map<string, { row: RawRow; line: number }[]>();
  rawRows(SHARED_DATA, file).forEach((row, i) => {
    const id = (source === 'king_county' ? row['id'] : row['parcel_number'])?.trim();
    if (!id) return; // the OPA file's 3 blank lines (a row of one empty column)
    byParcel.set(id, [...(byParcel.get(id) ?? []), { row, line: i + 2 }]);
  });
  const out = new Map<string, RawRecord>();
  for (const [id, rows] of byParcel) {
    const dated = rows.map((x) => ({ ...x, sale: rawSale(file, x.row) }))
      .sort((a, b) => b.sale.date.localeCompare(a.sale.date) || b.line - a.line);
    const read = dated.map((x) => ({ ...rawFields(file, x.row), year_built: pos(x.row[source === 'king_county' ? 'yr_built' : 'year_built']) } as Record<string, unknown>));
    const first = (k: string): unknown => read.map((f) => f[k]).find((v) => v !== null && v !== undefined && v !== '') ?? null;
    const rec = { parcel_id: id, state: source === 'king_county' ? 'WA' : 'PA',
      property_type: source === 'king_county' ? 'sfr' : philadelphiaType(dated[0]!.row),
      sales: dated.filter((x) => /^\d{4}-\d{2}-\d{2}$/.test(x.sale.date)).map((x) => ({ date: x.sale.date, price: x.sale.price })) } as RawRecord;
    for (const k of FIELDS) (rec as unknown as Record<string, unknown>)[k] = first(k);
    out.set(id, rec);
  }
  return out;
}
