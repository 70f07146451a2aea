// The property record's lineage, followed back to the raw files: for sampled properties of every source, each field of
// GET /v1/property?include=lineage (the chosen value and every losing value) is compared with the row of the RAW file
// it cites, parsed here with csv-parse (independently of the build's loader and SQL). Fields an adapter sets itself
// rather than reads (a source's constant city or state, a zip or city filled from the geography, property_type's
// category mapping, county) are not raw fields and are listed per source in NOT_RAW.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, warehouseRows } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';
import { normalizeAddress } from '../../../warehouse/address.ts';
import { loadSettings } from '../../../warehouse/settings.ts';
import { rawLine, type RawRow as Raw } from '../../../scripts/raw-lines.ts';

const num = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '' || s.trim() === 'NA') return null;
  const v = Number(s.replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
};
const pos = (s: string | undefined): number | null => { const v = num(s); return v !== null && v > 0 ? v : null; };
const street = (s: string | undefined): string | null => (s && s.trim() ? normalizeAddress(s).street || null : null);
const zip5 = (s: string | undefined): string | null => (s && /^\d{5}/.test(s.trim()) ? s.trim().slice(0, 5) : null);
const text = (s: string | undefined): string | null => (s && s.trim() ? s.trim() : null);

/** Per raw file (by its folder): the fields its rows record and the value each has in the canonical tables. */
const RAW_FIELDS: Record<string, (r: Raw) => Record<string, unknown>> = {
  'king-county-wa-house-sales': (r) => ({ parcel_id: text(r['id']), zip: zip5(r['zipcode']), lat: num(r['lat']), lng: num(r['long']),
    beds: num(r['bedrooms']), baths: pos(r['bathrooms']), sqft: pos(r['sqft_living']), lot_sqft: pos(r['sqft_lot']), year_built: pos(r['yr_built']),
    price: num(r['price']) }),
  'philadelphia-opa-properties-sample': (r) => ({ parcel_id: text(r['parcel_number']), address: street(r['location']), zip: zip5(r['zip_code']),
    lat: num(r['lat']), lng: num(r['lng']), beds: pos(r['number_of_bedrooms']), baths: pos(r['number_of_bathrooms']),
    sqft: pos(r['total_livable_area']), lot_sqft: pos(r['total_area']), year_built: num(r['year_built']), price: num(r['sale_price']) }),
  'nyc-rolling-sales': (r) => ({ parcel_id: `${text(r['BOROUGH'])}-${text(r['BLOCK'])}-${text(r['LOT'])}`, address: street((r['ADDRESS'] ?? '').split(',')[0]),
    zip: zip5(r['ZIP CODE']), sqft: pos(r['GROSS SQUARE FEET']), year_built: num(r['YEAR BUILT']), price: num(r['SALE PRICE']) }),
  'sacramento-real-estate-transactions': (r) => ({ address: street(r['street']), zip: zip5(r['zip']), lat: num(r['latitude']), lng: num(r['longitude']),
    beds: pos(r['beds']), baths: pos(r['baths']), sqft: pos(r['sq__ft']), price: num(r['price']) }),
  'denver-real-property-sales': (r) => ({ parcel_id: text(r['SCHEDNUM']), price: num(r['SALE_PRICE']) }),
  // the residential characteristics file (its SCHEDNUM is an Excel float: not a parcel id)
  'denver-real-property-sales/sales_with_residential_characteristics': (r) => ({ beds: pos(r['BED_RMS']), sqft: pos(r['AREA_ABG']),
    baths: pos(String((num(r['FULL_B']) ?? 0) + (num(r['HLF_B']) ?? 0) / 2)), price: num(r['SALE_PRICE']), lot_sqft: pos(r['LAND_SQFT']),
    year_built: ((y) => (y !== null && y >= 1700 && y <= 2100 ? Math.trunc(y) : null))(num(r['CCYRBLT'])) }),
  'connecticut-real-estate-sales': (r) => ({ address: street(r['Address']), price: num(r['Sale Amount']) }),
  'nashville-building-permit-applications': (r) => ({ parcel_id: text(r['Parcel']), address: street(r['Address']), zip: zip5(r['ZIP']),
    lat: num(r['Lat']), lng: num(r['Lon']) }),
  'allegheny-county-mortgage-foreclosures': (r) => ({ parcel_id: text(r['pin']) }),
  'louisville-metro-lien-foreclosures': (r) => ({ parcel_id: text(r['PRCLID']), zip: zip5(r['ZIP']), lat: num(r['lat']), lng: num(r['lon']),
    address: street(['STNO', 'PREDIR', 'STNAME', 'SUFFIX', 'POSTDIR'].map((k) => (r[k] === 'NA' ? '' : r[k] ?? '')).filter(Boolean).join(' ')) }),
};

/** Fields set by the adapter or the geography fill, not read from the row (warehouse/docs/property.md). */
const NOT_RAW = new Set(['city', 'state', 'county', 'property_type', 'owner_type', 'absentee_owner', 'unit']);
/** Per source, raw-looking fields the adapter fills from elsewhere: Connecticut's point from the Location text. A zip the
 *  geography guessed (30_market_80_fill_geo.sql) is cited as imputed and checked as such below; Denver's
 *  characteristics are cited at the residential file's row they were read from. */
const FILLED: Record<string, readonly string[]> = { connecticut: ['lat', 'lng'], king_county: ['city'] };
/** The raw fields of a cited file: by its own name when listed, else by its folder. */
const rawFields = (file: string): ((r: Raw) => Record<string, unknown>) =>
  Object.entries(RAW_FIELDS).find(([k]) => k.includes('/') && file.startsWith(k))?.[1] ?? RAW_FIELDS[file.split('/')[0]!]!;

function rawRow(sources: string, file: string, line: number): Raw {
  const row = rawLine(sources, file, line);
  if (!row) throw new Error(`${file} has no line ${line}`);
  return row;
}

interface Citation { source: string; table: string; file: string | null; line: number | null; value?: unknown; imputed?: string | null }
interface Lineage { build_id: string; fields: Record<string, Citation & { losing_values: Citation[] }>; sales: (Citation & { sale_id: string })[] }
interface Body { property_id: string; sales: { price: number; date: string }[]; lineage: Lineage; [k: string]: unknown }

describe('property lineage back to the raw files', () => {
  let server: TestServer;
  let sources: string;
  const SAMPLE = 6;
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    sources = loadSettings({}).sources;
  });
  afterAll(async () => { await server.close(); });

  const SOURCES = ['king_county', 'nyc', 'philadelphia', 'sacramento', 'denver', 'connecticut', 'nashville', 'allegheny', 'louisville'];
  it.each(SOURCES)('%s: every cited field equals its raw row', async (source) => {
    // a deterministic sample: properties with losing values first (the conflict rule at work), then any
    const ids = await warehouseRows<{ property_id: string }>(`
      select property_id from properties p where source = $source
      order by exists (select 1 from property_lineage l where l.property_id = p.property_id and l.status = 'lost') desc, hash(property_id)
      limit ${SAMPLE}`, { source });
    expect(ids.length).toBe(SAMPLE);
    let checked = 0;
    // every answer first, then the raw files (parsing a large file between requests would idle the keep-alive socket)
    const bodies: Body[] = [];
    for (const { property_id } of ids) {
      const res = await fetch(`${server.url}/v1/property?property_id=${property_id}&include=lineage`, { headers: { 'X-Service-Key': server.key('builder', 100_000) } });
      expect(res.status).toBe(200);
      bodies.push((await res.json()) as Body);
    }
    for (const body of bodies) {
      const property_id = body.property_id;
      expect(schemaErrors('PropertyRecord', body)).toEqual([]);
      for (const [field, l] of Object.entries(body.lineage.fields)) {
        expect(body[field], `${property_id} ${field}`).toEqual(l.value);
        if (NOT_RAW.has(field) || (FILLED[source] ?? []).includes(field)) continue;
        for (const c of [l, ...l.losing_values]) {
          expect(c.source).toBe(source);
          const raw = rawFields(c.file!)(rawRow(sources, c.file!, c.line!));
          if (c.imputed) { // filled, not read: the cited row records no such value
            expect(raw[field] ?? null, `${property_id} ${field} imputed at ${c.file}:${c.line}`).toBeNull();
            continue;
          }
          expect(Object.hasOwn(raw, field), `${c.file} has no raw ${field}`).toBe(true);
          expect(raw[field], `${property_id} ${field} at ${c.file}:${c.line}`).toEqual(c.value);
          checked++;
        }
      }
      // every sale cites its row, whose price is the sale's
      expect(body.lineage.sales.length).toBe(body.sales.length);
      body.lineage.sales.forEach((c, i) => {
        const raw = rawFields(c.file!)(rawRow(sources, c.file!, c.line!));
        expect(raw['price'], `${c.sale_id}`).toBe(body.sales[i]!.price);
        checked++;
      });
    }
    expect(checked).toBeGreaterThanOrEqual(SAMPLE); // Allegheny's filings name the parcel only
  });

  it("cites Denver's characteristics (its lot too) at the residential file's row, and a guessed Connecticut zip as imputed (review)", async () => {
    const get = async (qs: string): Promise<Body> =>
      (await (await fetch(`${server.url}/v1/property?${qs}&include=lineage`, { headers: { 'X-Service-Key': server.key('builder', 100_000) } })).json()) as Body;
    // the residential row of the day's last recorded deed (reception 2018139696, line 13920; 13921 is the earlier
    // deed's, 2018137316), not the transfers file's line 189, which has no BED_RMS, AREA_ABG or CCYRBLT column
    const denver = await get('parcel_id=19419006000&state=CO');
    expect(denver['lot_sqft']).toBe(6800); // LAND_SQFT of that row (review 16: the lot was null for every Denver record)
    for (const f of ['beds', 'baths', 'sqft', 'lot_sqft', 'year_built']) {
      const c = denver.lineage.fields[f]!;
      expect(`${c.file}:${c.line}`, f).toBe('denver-real-property-sales/sales_with_residential_characteristics_2018-2019.csv.gz:13920');
      const raw = rawRow(sources, c.file!, c.line!);
      expect(raw['RECEPTION_NUM']).toBe('2018139696');
      expect(rawFields(c.file!)(raw)[f]).toBe(c.value);
    }
    const ct = await get('address=53%20Cotswold%20Way&zip=06001');
    const zip = ct.lineage.fields['zip']!;
    expect([zip.value, zip.file, zip.line, zip.imputed]).toEqual(['06001', 'connecticut-real-estate-sales/Real_Estate_Sales_2001-2022_GL.head9999.csv.gz', 5, 'nearest_zcta_centroid']);
    expect(Object.keys(rawRow(sources, zip.file!, zip.line!)).some((k) => /zip/i.test(k))).toBe(false); // the raw row has no zip
  });
});
