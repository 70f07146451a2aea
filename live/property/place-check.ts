// GET /v1/property's reading of a place typed with the address ("3526 High St, Sacramento, CA 95838"): the valuation's
// rule (live/valuation/notes.ts placeConflict) against the request's zip and the property found there. A zip or a state
// that contradicts is not the asked property (404 naming the records found), a city is read as USPS reads it, by the
// zip (the record, with a note). Pure. Rules: warehouse/docs/property.md "A place typed with the address".
import { addressKey } from '../../warehouse/address.ts';
import type { PlaceResolver } from '../places/resolver.ts';
import { BOROUGH_NAMES, placeConflict } from '../valuation/notes.ts';

/** What the check needs of a found record's body. */
export interface Found { id: string; address: string | null; unit: string | null; city: string | null; state: string | null; county: string | null; source: string; parcel_id: string | null }

/** The NYC borough code of a property: its BBL's first digit (parcel_id "1-2215-28"; the rolling sales' BOROUGH). */
export const propertyBorough = (f: Found): string | undefined =>
  f.source === 'nyc' && /^[1-5]-/.test(f.parcel_id ?? '') ? f.parcel_id![0] : undefined;

/** A record as a message names it: its street line, id and place; an NYC record's city is New York, so its borough is
 *  named before it, as research names one ("Brooklyn (New York, NY)"). */
function where(f: Found): string {
  const borough = propertyBorough(f);
  const place = f.city ? `, ${borough !== undefined ? `${BOROUGH_NAMES[borough]} (${f.city}, ${f.state})` : `${f.city}, ${f.state}`}` : '';
  return `${f.address ? addressKey(f.address, f.unit) : 'the property'} (property_id ${f.id}${place})`;
}

/** The borough of its zip's county (the record's county): the postal borough ("86 Marble Hill Ave, Bronx, NY 10463",
 *  Manhattan by its BBL, is the Bronx's by USPS). */
const COUNTY_BOROUGH: Record<string, string> = { 'New York County': '1', 'Bronx County': '2', 'Kings County': '3', 'Queens County': '4', 'Richmond County': '5' };

/** The 404 of an address naming another zip than the request's: what each zip has at that street line. */
export function otherZipMessage(address: string, zip: string, typedZip: string, here: Found | null, there: Found | null): string {
  return `"${address}" names zip ${typedZip}, but the request's zip is ${zip}: a record is answered for one zip, and the two `
    + `may be two properties (in zip ${typedZip}: ${there ? where(there) : 'no property at that street line'}; in zip ${zip}: `
    + `${here ? where(here) : 'no property at that street line'}); ask with the zip of the property meant`;
}

/** A found record against the place typed with its address: a 404 message (another state), a note (another city or
 *  NYC borough), or nothing. */
export function placeCheck(args: { address: string; line: string; zip: string; found: Found; resolver: PlaceResolver | null }): { reject: string } | { note: string } | null {
  const { address, line, zip, found, resolver } = args;
  if (found.state === null) return null;
  const borough = propertyBorough(found);
  const c = placeConflict({ address, line, typedZip: null, zip, city: found.city ?? '', state: found.state, borough, resolver, boroughOf: 'the property' });
  // a borough that is the property's own or its zip's postal one contradicts nothing
  const postal = borough !== undefined ? COUNTY_BOROUGH[found.county ?? ''] : undefined;
  if (c.city !== null && postal !== undefined && postal !== borough
    && placeConflict({ address, line, typedZip: null, zip, city: found.city ?? '', state: found.state, borough: postal, resolver }).city === null) c.city = null;
  if (c.state !== null) {
    return { reject: `"${address}" names ${c.state}, but zip ${zip} is in ${found.state}: the property at that street line there, `
      + `${where(found)}, is not read as the asked one; ask with the zip of the address meant, or without the state for this one` };
  }
  if (c.city !== null) {
    return { note: `The address names ${c.city}, but the record at ${where(found)} is in zip ${zip}: the answer is that property, `
      + `read by the zip as the postal service reads an address; check the city or the zip` };
  }
  return null;
}
