// The synthetic distress table (canonical/distress.csv): filings on the zip's parcels (pre-foreclosures, tax
// delinquencies, lien foreclosures) with an amount owed.
import { CsvOut, iso, round } from './csv-out.ts';
import { lognormal, weighted } from './random.ts';
import { property, saleDate } from './records.ts';
import type { Sampler } from './sampler.ts';
import { DISTRESS_KINDS } from './vocabulary.ts';

/** Writes `nDistress` filings to `file`; returns how many it wrote. */
export async function writeDistress(s: Sampler, file: string, nDistress: number): Promise<number> {
  const { r, zips, zipIndex, poolSize } = s;
  let written = 0;
  const distress = new CsvOut(file, ['address', 'city', 'state', 'zip', 'kind', 'filing_date', 'parcel_id', 'amount']);
  for (let i = 0; i < nDistress; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const kind = weighted(r, DISTRESS_KINDS);
    const amount = kind === 'pre_foreclosure' ? lognormal(r, 140000, 0.6) : lognormal(r, 6000, 0.9);
    await distress.row([p.address, z.city, z.state, z.zip, kind, iso(saleDate(r)), p.parcelId, round(amount, 2)]);
    written++;
  }
  await distress.close();
  return written;
}
