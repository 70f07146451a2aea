// One property named in a question, read into its place (in place, before the other place rules): a street address
// or parcel id asked its value (address-value.ts; returned, for value-estimate.ts), a street address (addresses.ts: its
// zip from the address index) and a parcel id (parcels.ts: its zip from the property record), each said as read or said
// not found.
import { addressValue, type WorthAsked } from './address-value.ts';
import { readAddress, type AddressBook } from './addresses.ts';
import type { Understanding } from './intent.ts';
import { readParcel, type ParcelBook } from './parcels.ts';

export { ParcelBook } from './parcels.ts';

/** Reads the property a question names into its place (in place); the property asked its value, if one is. */
export function readProperty(u: Understanding, query: string, books: { addresses: AddressBook; parcels?: ParcelBook } | null, state?: string): WorthAsked | null {
  const worth = addressValue(u, query);
  readAddress(u, query, books?.addresses ?? null);
  readParcel(u, query, books?.parcels ?? null, state);
  return worth;
}
