// An address whose zip no source records (a Connecticut GL sale: the geography guessed its zip from the nearest ZCTA
// centroid of its town) is linked by autocomplete to the property record that holds that imputed zip, with the zip
// marked imputed in both (review: autocomplete gave zip "" and property_id null beside the record of 53 Cotswold Way).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir } from '../../helpers/build.ts';
import { schemaErrors, startTestServer, type TestServer } from '../../helpers/server.ts';

describe('autocomplete and the property record agree on an imputed zip', () => {
  let server: TestServer;
  let key: string;
  const get = async (p: string, qs: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${server.url}${p}?${qs}`, { headers: { 'X-Service-Key': key } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  beforeAll(async () => {
    server = await startTestServer(artifactsDir());
    key = server.key('builder', 100_000);
  });
  afterAll(async () => { await server.close(); });

  it('links an address whose zip no source records to its property record, with the imputed zip marked', async () => {
    const ac = await get('/v1/address/autocomplete', `q=${encodeURIComponent('53 Cotswold Way')}&state=CT&limit=10`);
    expect(ac.status).toBe(200);
    expect(schemaErrors('AutocompleteResults', ac.body)).toEqual([]);
    const hit = (ac.body['results'] as Record<string, unknown>[]).find((m) => m['address'] === '53 COTSWOLD WAY' && m['city'] === 'Avon');
    expect(hit).toMatchObject({ zip: '06001', zip_imputed: true });
    const rec = await get('/v1/property', `property_id=${String(hit!['property_id'])}&include=lineage`);
    expect(rec.status).toBe(200);
    expect(rec.body['zip']).toBe('06001');
    expect(((rec.body['lineage'] as { fields: Record<string, { imputed: string | null }> }).fields['zip'])!.imputed).toBe('nearest_zcta_centroid');
  });
});
