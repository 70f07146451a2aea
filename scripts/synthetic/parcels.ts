// The synthetic parcels table (canonical/parcels.csv): the assessor roll, parcels drawn from the same pools as the
// sales (so a parcel's facts match its sales), 14% owned by entities.
import { CsvOut } from './csv-out.ts';
import { entity, person, property } from './records.ts';
import type { Sampler } from './sampler.ts';

/** Writes `nParcels` parcels to `file`; returns how many it wrote. */
export async function writeParcels(s: Sampler, file: string, nParcels: number): Promise<number> {
  const { r, zips, zipIndex, poolSize } = s;
  let written = 0;
  const parcels = new CsvOut(file, ['address', 'city', 'state', 'zip', 'property_type', 'beds', 'baths', 'sqft', 'year_built', 'lat', 'lng', 'parcel_id', 'owner_name']);
  // a roll lists a parcel once (a parcel_id on a later line is a duplicate_parcel reject): a draw of a parcel already
  // written is drawn again, a bounded number of times
  const seen = new Set<string>();
  for (let i = 0, tries = 0; written < nParcels && tries < nParcels * 4; i++, tries++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    if (seen.has(p.parcelId)) continue;
    seen.add(p.parcelId);
    await parcels.row([p.address, z.city, z.state, z.zip, p.type, p.beds, p.baths, p.sqft, p.yearBuilt, p.lat, p.lng, p.parcelId, r() < 0.14 ? entity(r) : person(r)]);
    written++;
  }
  await parcels.close();
  return written;
}
