// The location mart and zip shards of the shared real build: one shard per zip, the spec's fields, a few zips checked
// by hand. Every zip shard is also compared with an independent oracle in test/live/location/endpoint-oracle.test.ts.
import { describe, expect, it } from 'vitest';
import { readShard, warehouseRows } from '../helpers/build.ts';
import { type Body, ANSWER_FIELDS, LABELS } from '../helpers/location-truth.ts';

describe('location risk over the real build', () => {
  it('writes a zip shard for every zip with exactly the answer\'s fields (the spec\'s, then the additive flood_map_loaded)', async () => {
    const [zips] = await warehouseRows<{ n: number }>(`select count(*)::int as n from zips`);
    const [mart] = await warehouseRows<{ n: number }>(`select count(*)::int as n from mart_location_risk`);
    expect(mart!.n).toBe(zips!.n);
    for (const zip of ['02142', '02138', '02139', '43906', '19801', '66044', '02903', '20001']) {
      const s = readShard<Body>(`location/zip/${zip}.json`);
      expect(Object.keys(s)).toEqual(ANSWER_FIELDS);
      expect(s.zip_code).toBe(zip);
      expect(LABELS).toContain(s.flood_risk_label);
      expect(s.superfund_nearby).toBe(s.superfund_count_1mi > 0);
    }
    const kendall = readShard<Body>('location/zip/02142.json');
    expect(kendall).toMatchObject({ city: 'Cambridge', state: 'MA', flood_zone: 'AE', flood_risk_label: 'High', as_of: '2025-07-08' });
    // Somerville borders Cambridge but is outside the Cambridge map's declared area: no map loaded, D
    const somerville = readShard<Body>('location/zip/02143.json');
    expect(somerville).toMatchObject({ city: 'Somerville', flood_zone: 'D', confidence: 'low' });
    expect(somerville.flood_risk_notes).not.toMatch(/covers 7\d% of the zip/);
    const lawrence = readShard<Body>('location/zip/66044.json');
    expect(lawrence).toMatchObject({ flood_zone: 'D', confidence: 'low', as_of: '2021-06-13' });
    expect(lawrence.flood_risk_notes).toMatch(/no FEMA flood map was loaded/);
  });
});
