// What the valuation can answer (pure, no I/O): the unit a typed address names (condo, co-op) and whether its source
// can value units, and the 404 messages of a zip it cannot value (not covered, unknown, no usable sales) or of a unit
// it cannot value. warehouse/docs/valuation.md "Units" and "Zips without a valuation".
import { normalizeAddress, STREET_SUFFIXES } from '../../warehouse/address.ts';
import type { ApartmentRow, ValuationMeta } from './types.ts';

/** A source values units when at least this share of its unit sales records a living area (NYC: 122 of 58,240). */
export const UNIT_SQFT_SHARE = 0.5;

const SUFFIX_WORDS = new Set([...Object.keys(STREET_SUFFIXES), ...Object.values(STREET_SUFFIXES)]);
const DIRECTIONS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW']);
/** A bare unit: letters and digits with a digit ("4M", "G30", "11F", "PH2"), or one letter ("A"). */
const unitLike = (t: string): boolean => /^[A-Z0-9-]{1,6}$/.test(t) && !/^\d{5}$/.test(t) && (/\d/.test(t) || (t.length === 1 && !DIRECTIONS.has(t)));

/** The street line and unit a typed address names. Beyond normalizeAddress's units ("APT 4", "#4", "street, 4M"), a
 *  bare unit after the street's suffix ("70 E 10th St 9L", "94-11 59th Ave G30"; not a highway's or county road's
 *  number). Null unit: none named. */
export function typedUnit(raw: string): { street: string; unit: string | null } {
  const n = normalizeAddress(raw);
  if (n.unit !== null) return n;
  const words = n.street.split(' ');
  const last = words[words.length - 1]!, suffix = words[words.length - 2] ?? '', before = words[words.length - 3] ?? '';
  if (words.length >= 4 && /\d/.test(words[0]!) && unitLike(last) && SUFFIX_WORDS.has(suffix) && !['HWY', 'HIGHWAY'].includes(suffix)
    && !(['RD', 'ROAD'].includes(suffix) && ['COUNTY', 'STATE', 'FARM'].includes(before))) {
    return { street: normalizeAddress(words.slice(0, -1).join(' ')).street, unit: last };
  }
  return n;
}

/** Whether a source can value a unit: its unit sales mostly record a living area (a build without the counts: yes). */
export function valuesUnits(meta: ValuationMeta, source: string): boolean {
  const s = meta.sources[source];
  if (!s || s.unit_sales === undefined || s.unit_sales_sqft === undefined) return true;
  return s.unit_sales_sqft >= UNIT_SQFT_SHARE * s.unit_sales;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The 404 of a unit in a source that records no unit sizes: its unit sales are no comps, and its other sales are
 *  whole houses and buildings, so no estimate of the unit exists (a whole building's value would be wrong). */
export function unitSizesMessage(meta: ValuationMeta, source: string, zip: string, address: string, unit: string): string {
  const s = meta.sources[source]!;
  return `Condo and co-op units cannot be valued in zip ${zip}: "${address}" names unit ${unit}, and this zip's sales source (${source}) records no unit sizes `
    + `(a living area on ${fmt(s.unit_sales_sqft ?? 0)} of its ${fmt(s.unit_sales ?? 0)} unit sales), so no unit sale is a comparable sale and the zip's comps are whole houses and buildings`;
}

/** The 404 of a unit in a zip without sales of units that record a living area. */
export const noUnitCompsMessage = (zip: string, address: string, unit: string): string =>
  `No sale of a condo or co-op unit with a living area in zip ${zip}, so "${address}" (unit ${unit}) cannot be valued: the zip's comps are whole houses and buildings`;

/** zips.json under live/valuation/: every US zip of the build (its state) and the zips with arm's-length sales but no
 *  comp (a source without living areas: Connecticut). Absent in older builds. */
export interface ZipCoverage { known: Record<string, string>; sales: Record<string, string> }

/** US territories and military post offices by their zips' first three digits (not in the 50 states and DC). */
const TERRITORY_PREFIXES: [RegExp, string][] = [
  [/^00[679]/, 'Puerto Rico'], [/^008/, 'the US Virgin Islands'], [/^969/, 'a Pacific territory (Guam, the Northern Mariana Islands, Palau, the Marshall Islands, Micronesia)'],
  [/^96799/, 'American Samoa'], [/^(09|340|96[2-6])/, 'a military post office (APO/FPO)'],
];

/** The 404 message of a zip the valuation has no comps for: a territory, an unknown zip, a zip outside the build's
 *  sales sources, or (with sales but none usable) noCompsMessage. */
export function zipMessage(zip: string, cov: ZipCoverage | null, sources: string[]): string {
  const territory = TERRITORY_PREFIXES.find(([re]) => re.test(zip));
  if (territory && !cov?.known[zip]) return `Zip ${zip} is in ${territory[1]}: not covered (the service covers the 50 states and DC)`;
  if (!cov || cov.sales[zip]) return noCompsMessage(zip);
  if (!cov.known[zip]) return `Unknown zip ${zip}: not a US zip code this build knows`;
  return `Zip ${zip} (${cov.known[zip]}) is not covered by this build's sales sources: valuations cover the zips with recorded sales of ${sources.join(', ')}`;
}

/** The 404 of a zip with no comps: true of a zip without sales and of one whose sales lack what a comp needs. */
export const noCompsMessage = (zip: string): string =>
  `No sales usable for a valuation in zip ${zip}: a comparable sale needs its price, date and living area (sqft), and no arm's-length sale of this zip has all three`;

/** The 404 of a recorded subject whose zip's only comps are its own property's sales (a property is never its own
 *  comparable sale, endpoint.ts "Own sale"): not "no sale has all three", which is untrue of such a zip. */
export const ownSalesOnlyMessage = (zip: string, address: string, sales: { date: string; price: number }[]): string =>
  `"${address}" cannot be valued from comparable sales: the only arm's-length sale${sales.length > 1 ? 's' : ''} of zip ${zip} with a price, date and living area `
  + `${sales.length > 1 ? 'are' : 'is'} this property's own (${sales.map((x) => `${x.date} $${x.price.toLocaleString('en-US')}`).join(', ')}), and a property is never its own comparable sale`;

/** The 404 of an apartment building of five or more units (valuation.md "Scope": homes of one to four units). */
export const apartmentMessage = (zip: string, address: string, propertyId: string, row: ApartmentRow): string =>
  `"${address}" (zip ${zip}, property ${propertyId}) is an apartment building of ${row.units} residential units (${row.source} ${row.evidence}): `
  + 'the valuation covers homes of one to four units (houses, condominium units, two- to four-family buildings), valued from comparable sales; '
  + 'a building of five or more units is priced on its rents and expenses, which no source of this service records, so it is not valued '
  + '(GET /v1/property gives its recorded sales)';

/** The 404 of a recorded property the property record types land or commercial (mixed use included; valuation.md
 *  "Scope"): never valued as a typical home. */
export const outOfScopeMessage = (zip: string, address: string, propertyId: string, r: { type: string; file: string | null; line: number | null }): string =>
  `"${address}" (zip ${zip}, property ${propertyId}) is recorded as ${r.type === 'land' ? 'land' : 'a commercial property (mixed use included)'}`
  + `${r.file ? ` (property_type ${r.type}, read from ${r.file}${r.line !== null ? ` line ${r.line}` : ''})` : ''}: `
  + 'the valuation covers homes of one to four units (houses, condominium units, two- to four-family buildings), valued from comparable sales, '
  + 'so it is not valued (GET /v1/property gives its recorded sales)';
