// A zip's city is one rule (the warehouse's int_market_zip_names, warehouse/docs/market.md): the valuation names the
// same city for a zip as the comps, the location risk and the geo lookup do. Review: 10469 was "New York" in the
// valuation and "Bronx" in comps and investor overview. Over the shared real build, through a real server.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir, serveSharedBuild, warehouseRows } from '../../helpers/build.ts';
import type { ValuationMeta } from '../../../live/valuation/types.ts';

const api = serveSharedBuild('pro', 100_000);

describe('one city per zip', () => {
  it('every valuation zip is named as int_market_zip_names names it', async () => {
    const meta = JSON.parse(fs.readFileSync(path.join(buildDir(), 'live', 'valuation', 'meta.json'), 'utf8')) as ValuationMeta;
    const names = new Map((await warehouseRows<{ zip: string; city: string; state: string }>('select zip, city, state_code as state from int_market_zip_names')).map((r) => [r.zip, `${r.city}, ${r.state}`]));
    const zips = Object.keys(meta.zips);
    expect(zips.length).toBeGreaterThan(300);
    const differ = zips.filter((z) => names.has(z) && `${meta.zips[z]!.city}, ${meta.zips[z]!.state}` !== names.get(z));
    expect(differ.map((z) => `${z}: ${meta.zips[z]!.city} / ${names.get(z)}`)).toEqual([]);
  });

  it('10469 is Bronx, NY in the valuation, the comps, the location risk and the geo lookup of Bronx', async () => {
    const get = async (p: string): Promise<Record<string, unknown>> => (await (await api.get(p)).json()) as Record<string, unknown>;
    const value = (await (await api.post('/v1/valuation/estimate', { zip: '10469', address: '3301 Bronxwood Ave' })).json()) as Record<string, unknown>;
    const comps = await get('/v1/market/comps?zip=10469&months=12');
    const risk = await get('/v1/location/risk?zip=10469');
    const lookup = await get('/v1/geo/lookup?city=Bronx&state=NY');
    for (const [what, b] of [['valuation', value], ['comps', comps], ['location', risk]] as const) expect({ what, city: b['city'], state: b['state'] }).toEqual({ what, city: 'Bronx', state: 'NY' });
    expect(lookup['zip_codes']).toContain('10469');
  });
});
