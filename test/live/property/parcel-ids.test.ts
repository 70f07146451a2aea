// The ways a caller names a property that the record's own keys do not spell: each source's documented parcel id forms
// (warehouse/parcel-id.ts, from SOURCE.md: King County's 10-digit Major+Minor whose leading zero the file dropped,
// NYC's 10-digit BBL), and an address in a zip whose source records no street address (King County: the 404 says to
// ask by parcel id).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { loadSettings } from '../../../warehouse/settings.ts';

const rawCsv = (rel: string): Record<string, string>[] =>
  parse(zlib.gunzipSync(fs.readFileSync(path.join(loadSettings({}).sources, rel))), { columns: true, bom: true }) as Record<string, string>[];

describe('property lookups by the forms a caller types', () => {
  let server: TestServer;
  let key: string;
  const get = async (p: string, qs: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${server.url}${p}?${qs}`, { headers: { 'X-Service-Key': key } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  // the raw rows first (parsing a large file between requests would idle the keep-alive socket)
  let kc: Record<string, string> | undefined;
  let nyc: Record<string, string> | undefined;
  beforeAll(async () => {
    kc = rawCsv('king-county-wa-house-sales/kc_house_data.csv.gz').find((r) => r['id']!.trim() === '795000620');
    nyc = rawCsv('nyc-rolling-sales/nyc_rolling_sales_2021-04_2022-03.csv.gz').find((r) => r['BOROUGH'] === '2' && r['BLOCK'] === '4607' && r['LOT'] === '42');
    server = await startTestServer(artifactsDir());
    key = server.key('builder', 100_000);
  });
  afterAll(async () => { await server.close(); });

  it("finds a King County parcel by its 10-digit number, the form SOURCE.md documents (the file dropped the zero)", async () => {
    expect(kc).toBeDefined(); // the raw file's id, without the leading zero of Major 079500 + Minor 0620
    const stored = await get('/v1/property', 'parcel_id=795000620&state=WA');
    expect(stored.status).toBe(200);
    for (const typed of ['0795000620', '079500-0620']) {
      const r = await get('/v1/property', `parcel_id=${typed}&state=WA`);
      expect(r.status, typed).toBe(200);
      expect(r.body, typed).toEqual(stored.body);
    }
  });

  it("finds a NYC lot by its 10-digit BBL (borough, 5-digit block, 4-digit lot) as by borough-block-lot", async () => {
    expect(nyc).toBeDefined(); // lot 42 of block 4607 in the Bronx (borough 2): BBL 2 04607 0042
    const stored = await get('/v1/property', 'parcel_id=2-4607-42&state=NY');
    expect(stored.status).toBe(200);
    for (const typed of ['2046070042', '2-04607-0042']) {
      const r = await get('/v1/property', `parcel_id=${typed}&state=NY`);
      expect(r.status, typed).toBe(200);
      expect(r.body, typed).toEqual(stored.body);
    }
    expect((await get('/v1/property', 'parcel_id=2046070043&state=NY')).status).toBe(404); // another lot is no match
  });

  it("says that King County records no street address and to ask by parcel_id, in a zip that has its properties", async () => {
    const r = await get('/v1/property', `address=${encodeURIComponent('4000 Stone Way N')}&zip=98103`);
    expect(r.status).toBe(404);
    const message = String((r.body['error'] as Record<string, unknown> | undefined)?.['message'] ?? JSON.stringify(r.body));
    expect(message).toContain('king_county records no street address');
    expect(message).toContain('parcel_id');
    expect(message).not.toContain('No property records for zip');
  });
});
