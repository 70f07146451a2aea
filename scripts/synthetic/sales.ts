// The synthetic sales table (canonical/sales.csv): market sales of the zip's parcels priced at the zip's rate, list
// data on 70% of them, 14% entity buyers, 3% investor flip pairs; --bad-rate makes that share of rows invalid on purpose.
import { CsvOut, iso, round } from './csv-out.ts';
import { lognormal, normal, weighted } from './random.ts';
import { DAY, END, entity, person, property, saleDate, type Property } from './records.ts';
import type { Sampler } from './sampler.ts';
import { CONDITIONS, TYPE_PPSF } from './vocabulary.ts';
import type { ZipInfo } from './zips.ts';

/** Writes `rows` sales to `file`; returns how many it wrote. */
export async function writeSales(s: Sampler, file: string, rows: number, bad: number): Promise<number> {
  const { r, zips, zipIndex, poolSize } = s;
  let written = 0;
  const sales = new CsvOut(file, ['address', 'city', 'state', 'zip', 'sale_date', 'sale_price', 'property_type', 'beds', 'baths', 'sqft',
    'year_built', 'condition', 'lat', 'lng', 'parcel_id', 'buyer_name', 'seller_name', 'list_price', 'list_date']);
  const saleRow = async (z: ZipInfo, p: Property, date: number, price: number, buyer: string, seller: string, listed: boolean): Promise<void> => {
    let dateText = iso(date), priceText = String(round(price, -2)), type = p.type, zip = z.zip;
    if (bad > 0 && r() < bad) {
      const which = Math.floor(r() * 4);
      if (which === 0) dateText = `${dateText.slice(5, 7)}/${dateText.slice(8)}/${dateText.slice(0, 4)}`;
      else if (which === 1) priceText = 'n/a';
      else if (which === 2) type = 'castle';
      else zip = 'ZIP' + zip.slice(3);
    }
    const dom = Math.max(1, Math.round(lognormal(r, 24, 0.8)));
    const ratio = 0.99 + normal(r) * 0.03;
    await sales.row([p.address, z.city, z.state, zip, dateText, priceText, type, p.beds, p.baths, p.sqft, p.yearBuilt,
      weighted(r, CONDITIONS), p.lat, p.lng, p.parcelId, buyer, seller,
      listed ? round(price / ratio, -2) : null, listed ? iso(date - dom * DAY) : null]);
    written++;
  };
  const marketPrice = (z: ZipInfo, p: Property): number => {
    const area = p.sqft ?? lognormal(r, 9000, 0.6) / 8; // land: priced per (lot sqft / 8) at the zip's rate
    return Math.max(15000, area * z.ppsf * TYPE_PPSF[p.type]! * lognormal(r, 1, 0.25));
  };
  for (let i = 0; written < rows; i++) {
    const zi = zipIndex(i);
    const z = zips[zi]!;
    const p = property(z, zi, Math.floor(r() * poolSize(zi)));
    const date = saleDate(r);
    if (r() < 0.03 && written + 2 <= rows && date < END - 120 * DAY) {
      // an investor flip: bought ~25% under market by an entity, resold 60-330 days later to a person
      const resale = Math.min(END, date + (60 + Math.floor(r() * 270)) * DAY);
      const price = marketPrice(z, p);
      const investor = entity(r);
      await saleRow(z, p, date, price * 0.75, investor, person(r), false);
      await saleRow(z, p, resale, price * (1 + r() * 0.1), person(r), investor, true);
      continue;
    }
    await saleRow(z, p, date, marketPrice(z, p), r() < 0.14 ? entity(r) : person(r), r() < 0.1 ? entity(r) : person(r), r() < 0.7);
  }
  await sales.close();
  return written;
}
