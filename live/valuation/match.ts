// Which recorded property a valuation's address is (pure but for the property engine's reads): the property record's
// own rule (live/property/engine.ts findAddress: the street line and unit as typed or with a bare unit, the newest sale
// when an address names several properties), so POST /v1/valuation/estimate and GET /v1/property answer the same
// property; then that property's newest sale in the comps, else its parcel row. An address the property record does
// not know (a King County parcel id typed as the address) is looked up by its keys as before. warehouse/docs/valuation.md
// "Subject".
import type { PropertyEngine } from '../property/engine.ts';
import type { ZipEntry } from '../property/layout.ts';
import type { CompIndex } from './comps.ts';

export interface RecordHit { ix: CompIndex; row: number; on: 'sale' | 'parcel' }
export interface AddressMatch {
  /** The matched row, or null when none of the valuation's rows is the property the address names. */
  hit: RecordHit | null;
  /** The property the property record answers for the address (null: it answers none); others: the other properties
   *  the address names (newest sale first). */
  propertyId: string | null;
  others: string[];
  /** No unit typed, and the property record holds the address as units only (findAddress `units`): those it names for
   *  its 404 and how many; null otherwise. The valuation then answers that 404, never the zip's typical house. */
  units?: { closest: ZipEntry[]; units: number } | null;
  /** The recorded line the address was read as through one typo (live/property/typo-street.ts); absent otherwise. */
  typo?: string;
}

/** The newest row of a property in an index (rows of a zip are in date order; the largest index of the newest day). */
function newestRow(ix: CompIndex, pid: string): number | null {
  let best: number | null = null;
  for (const i of ix.propertyRows(pid, null)) if (best === null || ix.day[i]! >= ix.day[best]!) best = i;
  return best;
}

/** The record a typed address names. `keys`: "<zip>|<key>" lookups (street forms, then parcel id forms), tried when the
 *  property record names no property, or for a row of the property it names. */
export function matchAddress(property: PropertyEngine | null, comps: CompIndex, subjects: CompIndex, zip: string, address: string, keys: string[]): AddressMatch {
  const found = property?.findAddress(address, zip);
  if (found && 'id' in found) {
    const sale = newestRow(comps, found.id);
    const typo = found.typo ? { typo: found.typo } : {};
    if (sale !== null) return { hit: { ix: comps, row: sale, on: 'sale' }, propertyId: found.id, others: found.others, ...typo };
    const parcel = newestRow(subjects, found.id);
    if (parcel !== null) return { hit: { ix: subjects, row: parcel, on: 'parcel' }, propertyId: found.id, others: found.others, ...typo };
  }
  const pid = found && 'id' in found ? found.id : null;
  for (const ix of [comps, subjects]) {
    for (const k of keys) {
      const row = ix.byKey.get(k);
      // the row of another property than the one the property record answers is not this address's record
      if (row === undefined || (pid !== null && ix.data.pid?.at(row) && ix.data.pid.at(row) !== pid)) continue;
      return { hit: { ix, row, on: ix === comps ? 'sale' : 'parcel' }, propertyId: pid, others: found && 'id' in found ? found.others : [] };
    }
  }
  return { hit: null, propertyId: pid, others: found && 'id' in found ? found.others : [], units: found && 'closest' in found && found.units > 0 ? found : null };
}

/** Types the valuation does not value (warehouse/property-types.ts; "Scope"): land and commercial (mixed use included). */
const OUT_OF_SCOPE = new Set(['land', 'commercial']);

/** A recorded property the property record types out of the valuation's scope (land, commercial): its type and the
 *  source file and line the type is read from; null otherwise (an in-scope or untyped record, no record). */
export function outOfScope(property: PropertyEngine | null, pid: string): { type: string; file: string | null; line: number | null } | null {
  const r = property?.record(pid);
  const f = r?.rec.fields['property_type'];
  const type = f?.[0] ?? r?.rec.body['property_type'];
  if (typeof type !== 'string' || !OUT_OF_SCOPE.has(type)) return null;
  const ref = f ? r!.refs[f[1][0]] : undefined;
  return { type, file: ref?.[2] ?? null, line: f?.[1][1] ?? null };
}

/** The living area a recorded property's record gives (its property_type's reading: the record's field, else its
 *  body), or null when it records none. */
export function recordedSqft(property: PropertyEngine | null, pid: string): number | null {
  const r = property?.record(pid);
  const v = r?.rec.fields['sqft']?.[0] ?? r?.rec.body['sqft'];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}
