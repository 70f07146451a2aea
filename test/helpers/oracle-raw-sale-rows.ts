// The raw sales files read plainly, row by row, for the audits that follow a sale or a field back to the raw CSV row a
// property's lineage cites (test/live/property/h74-sample.test.ts, test/live/valuation/h74-comps-raw.test.ts): each
// source's date, price and facts as its SOURCE.md describes the columns, not through the build's SQL or macros.
import type { RawRow } from '../../scripts/raw-lines.ts';

export const num = (s: string | undefined): number | null => {
  const t = (s ?? '').trim().replace(/,/g, '');
  if (t === '' || t === 'NA') return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
};
export const pos = (s: string | undefined): number | null => { const v = num(s); return v !== null && v > 0 ? v : null; };
const iso = (y: number, m: number, d: number): string => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** A raw row's sale date and price as each SOURCE.md describes the columns. */
export function rawSale(file: string, r: RawRow): { date: string; price: number | null } {
  const src = file.split('/')[0]!;
  if (src === 'king-county-wa-house-sales') return { date: `${r['date']!.slice(0, 4)}-${r['date']!.slice(4, 6)}-${r['date']!.slice(6, 8)}`, price: num(r['price']) };
  if (src === 'nyc-rolling-sales') return { date: r['SALE DATE']!.trim().slice(0, 10), price: num(r['SALE PRICE']) };
  if (src === 'philadelphia-opa-properties-sample') { // SOURCE.md: 2068-2071 are 1968-1971 written with two digits
    const y = Number(r['sale_date']!.slice(0, 4));
    return { date: `${y >= 2060 && y <= 2099 ? y - 100 : y}${r['sale_date']!.slice(4, 10)}`, price: num(r['sale_price']) };
  }
  if (src === 'sacramento-real-estate-transactions') return { date: r['sale_date_iso']!.trim(), price: num(r['price']) };
  if (src === 'denver-real-property-sales') { // SALE_MONTHDAY is MDD/MMDD
    const md = r['SALE_MONTHDAY']!.trim().padStart(4, '0');
    return { date: iso(Number(r['SALE_YEAR']), Number(md.slice(0, 2)), Number(md.slice(2))), price: num(r['SALE_PRICE']) };
  }
  if (src === 'connecticut-real-estate-sales') {
    const [m, d, y] = r['Date Recorded']!.trim().split('/').map(Number);
    return { date: iso(y!, m!, d!), price: num(r['Sale Amount']) };
  }
  throw new Error(`no sale reading of ${file}`);
}

/** The fields a cited raw row records, read plainly (a field not listed is not checked at that file). */
export function rawFields(file: string, r: RawRow): Record<string, unknown> {
  const src = file.split('/')[0]!;
  switch (src) {
    case 'king-county-wa-house-sales': {
      const beds = num(r['bedrooms']);
      return { parcel_id: r['id']!.trim(), zip: r['zipcode']!.trim().slice(0, 5), lat: num(r['lat']), lng: num(r['long']),
        beds: beds !== null && beds >= 1 && beds <= 20 ? beds : null, // the one 33-bedroom row is a typo (market.md)
        baths: pos(r['bathrooms']), sqft: pos(r['sqft_living']), lot_sqft: pos(r['sqft_lot']), year_built: pos(r['yr_built']) };
    }
    case 'nyc-rolling-sales':
      return { parcel_id: `${r['BOROUGH']!.trim()}-${r['BLOCK']!.trim()}-${r['LOT']!.trim()}`, zip: r['ZIP CODE']!.trim().slice(0, 5),
        // SOURCE.md: a unit's row of a building of several units carries the building's GROSS SQUARE FEET, no living area
        sqft: (r['APARTMENT NUMBER']!.trim() || (r['ADDRESS']!.split(',')[1] ?? '').trim()) && ((num(r['RESIDENTIAL UNITS']) ?? 0) > 1 || (num(r['TOTAL UNITS']) ?? 0) > 1)
          ? null : pos(r['GROSS SQUARE FEET']) };
    case 'philadelphia-opa-properties-sample':
      return { parcel_id: r['parcel_number']!.trim(), zip: r['zip_code']!.trim().slice(0, 5), lat: num(r['lat']), lng: num(r['lng']),
        beds: pos(r['number_of_bedrooms']), baths: pos(r['number_of_bathrooms']), sqft: pos(r['total_livable_area']), lot_sqft: pos(r['total_area']) };
    case 'sacramento-real-estate-transactions':
      return { zip: r['zip']!.trim().slice(0, 5), lat: num(r['latitude']), lng: num(r['longitude']), beds: pos(r['beds']), baths: pos(r['baths']), sqft: pos(r['sq__ft']) };
    case 'denver-real-property-sales':
      return file.includes('residential_characteristics')
        ? { beds: pos(r['BED_RMS']), sqft: pos(r['AREA_ABG']), lot_sqft: pos(r['LAND_SQFT']),
          baths: ((f, h) => (f + h / 2 > 0 ? f + h / 2 : null))(num(r['FULL_B']) ?? 0, num(r['HLF_B']) ?? 0) }
        : { parcel_id: r['SCHEDNUM']!.trim() };
    case 'connecticut-real-estate-sales': {
      const m = /POINT \(([-0-9.]+) ([-0-9.]+)\)/.exec(r['Location'] ?? '');
      return m ? { lng: Number(m[1]), lat: Number(m[2]) } : {};
    }
    default: return {};
  }
}

/** A great-circle distance in km (mean Earth radius 6,371.0088 km, IUGG). */
export function greatCircleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The street address a raw sale row records with its unit where a column of its own holds it (King County records
 *  none: its parcel number). */
export function rawAddress(file: string, r: RawRow): string | null {
  switch (file.split('/')[0]) {
    case 'king-county-wa-house-sales': return r['id']!.trim();
    case 'nyc-rolling-sales': return `${r['ADDRESS']!} ${r['APARTMENT NUMBER'] ?? ''}`.trim();
    case 'philadelphia-opa-properties-sample': return `${r['location']!} ${r['unit'] ?? ''}`.trim();
    case 'sacramento-real-estate-transactions': return r['street']!;
    case 'connecticut-real-estate-sales': return r['Address']!;
    default: return null;
  }
}
/** The numbers an address writes (house number, numbered street, unit), leading zeros dropped, each once. */
export const addressNumbers = (s: string): string[] => [...new Set((s.toUpperCase().match(/\d+/g) ?? []).map((d) => String(Number(d))))].sort();
