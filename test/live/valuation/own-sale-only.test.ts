// A recorded property whose zip's only comparable sale is its own: the 404 says so (review: 2284 LOS ROBLES RD, 95722,
// answered "no arm's-length sale of this zip has all three" though its own sale has price, date and living area, and
// "1 Other Rd" in the zip is valued from it). Expected rows are read from the RAW Sacramento file (csv-parse), over the
// build through a real api.server.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

type Raw = Record<string, string>;
const file = path.join(loadSettings({}).sources, 'sacramento-real-estate-transactions', 'sacramento_transactions.csv.gz');
const raw = parse(zlib.gunzipSync(fs.readFileSync(file)), { columns: true }) as Raw[];

const api = serveSharedBuild('pro', 100_000);

describe('the only sale of the zip is the subject\'s own', () => {
  for (const [zip, street] of [['95722', '2284 LOS ROBLES RD'], ['95614', '2341 BIG STRIKE TRL']] as const) {
    it(`${street} (${zip}): 404 naming its own sale, not "no sale has all three"; another address of the zip is valued`, async () => {
      const inZip = raw.filter((r) => r['zip'] === zip && Number(r['sq__ft']) > 0 && Number(r['price']) > 0);
      expect(inZip.map((r) => r['street'])).toEqual([street]); // the zip's one sale with price, date and area is the subject's
      const own = inZip[0]!;
      const res = await api.post('/v1/valuation/estimate', { zip, address: street });
      expect(res.status).toBe(404);
      const { message } = await res.json() as { message: string };
      expect(message).not.toContain('has all three');
      expect(message).toContain('own');
      expect(message).toContain(own['sale_date_iso']);
      expect(message).toContain(`$${Number(own['price']).toLocaleString('en-US')}`);
      const other = await api.post('/v1/valuation/estimate', { zip, address: '1 Other Rd' });
      expect(other.status).toBe(200);
    });
  }
});
