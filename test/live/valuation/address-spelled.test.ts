// Common NYC ways of typing an address find the record (review h18 F3; warehouse/docs/address.md "What a caller
// types", streetVariants): a street name spelled as an ordinal ("235 East Seventh Street", "West Twenty-First") and a
// Queens house number typed without its hyphen ("17541 Linden Blvd" for 175-41). Before, both were "no record" and
// valued as the zip's typical property ($1,900,400 against the record's $2,611,100; $508,800). The records are read
// from the raw rolling-sales files; the property record and the valuation answer the same property for both forms.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';
import type { ValuationBody } from '../../../live/valuation/endpoint.ts';

const api = serveSharedBuild('pro');

/** Raw NYC rows of an address line in a zip (no unit). */
const raw = (address: string, zip: string): Promise<{ p: string; d: string }[]> => rawQuery(`select "SALE PRICE" p, "SALE DATE" d
  from read_csv('${dataFile('nyc-rolling-sales/*.csv.gz')}', all_varchar = true)
  where "ADDRESS" = '${address}' and "ZIP CODE" = '${zip}' and coalesce("APARTMENT NUMBER", '') = ''`);

const property = async (zip: string, address: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await api.get(`/v1/property?zip=${zip}&address=${encodeURIComponent(address)}`);
  return { status: res.status, body: await res.json() as Record<string, unknown> };
};

describe('spelled ordinals and Queens numbers without the hyphen', () => {
  const cases = [
    // typed, as the record writes it, the raw file's line, zip
    ['235 East Seventh Street', '235 E 7th St', '235 EAST 7TH STREET', '10009'],
    ['17541 Linden Blvd', '175-41 Linden Blvd', '175-41 LINDEN BOULEVARD', '11434'],
    ['312 West Twenty-First Street', '312 W 21st St', '312 WEST 21ST STREET', '10011'],
    ['312 west twenty first st', '312 W 21st St', '312 WEST 21ST STREET', '10011'],
  ] as const;
  for (const [typed, plain, line, zip] of cases) {
    it(`${typed} (${zip}) is the property of ${plain}`, async () => {
      expect((await raw(line, zip)).length, line).toBeGreaterThan(0);
      const want = await property(zip, plain);
      expect(want.status).toBe(200);
      const got = await property(zip, typed);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body['property_id']).toBe(want.body['property_id']);
    });
  }

  it('the valuation values the record for the typed forms of the review', async () => {
    for (const [typed, plain, , zip] of cases.slice(0, 2)) {
      const value = async (address: string): Promise<ValuationBody> => {
        const res = await api.post('/v1/valuation/estimate', { zip, address });
        expect(res.status, address).toBe(200);
        return await res.json() as ValuationBody;
      };
      const a = await value(typed), b = await value(plain);
      expect(a.subject.matched, typed).toBe(true);
      expect(a.subject.property_id).toBe(b.subject.property_id);
      expect(a.estimated_value).toBe(b.estimated_value);
    }
  });
});
