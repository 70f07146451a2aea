// What the Superfund fields count (warehouse/docs/location.md "NPL status"), over HTTP against the shared real build:
// points exactly on active SEMS sites that are not on the NPL (ASARCO Hayden Plant, AZ; a Michigan and a Chicago site)
// count no Superfund site, and the answer now says which sites are counted (superfund_basis) and how many active
// non-NPL SEMS sites lie within the mile (sems_non_npl_count_1mi), both recomputed here from the RAW SEMS file.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { dataFile, rawQuery } from '../../helpers/oracle-raw-comps.ts';

const POINTS: [number, number][] = [[33.001389, -110.768611], [43.618333, -84.231667], [41.9125, -87.655556]];
const BASIS = 'EPA National Priorities List sites, final and proposed, within 1 mile (EPA SEMS 2021-06-13); deleted NPL sites and active SEMS sites not on the NPL are not counted';

/** Sites of the raw SEMS extract within 1 mile (haversine, mean Earth radius) of a point: NPL final/proposed, and not on the NPL. */
async function rawCounts(lat: number, lng: number): Promise<{ npl: number; other: number }> {
  const [r] = await rawQuery<{ npl: bigint; other: bigint }>(`
    with s as (
      select distinct on (SITE_EPA_ID) trim(NPL) as npl, try_cast(LATITUDE as double) as la, try_cast(LONGITUDE as double) as lo
      from read_csv('${dataFile('epa-superfund-sems/sems_active_sites_2021.csv.gz')}', all_varchar = true)
    ),
    d as (
      select npl, 2 * 6371008.8 * asin(sqrt(pow(sin(radians(la - ${lat}) / 2), 2)
             + cos(radians(${lat})) * cos(radians(la)) * pow(sin(radians(lo - ${lng}) / 2), 2))) as m
      from s where la is not null and lo is not null and not (la = 0 and lo = 0)
    )
    select count(*) filter (where npl in ('Currently on the Final NPL', 'Proposed for NPL') and m <= 1609.344) as npl,
           count(*) filter (where npl = 'Not on the NPL' and m <= 1609.344) as other
    from d`);
  return { npl: Number(r!.npl), other: Number(r!.other) };
}

describe('Superfund: what is counted', () => {
  const api = serveSharedBuild('starter', 1000);

  it('a point on an active non-NPL SEMS site: no Superfund site counted, the basis said, the non-NPL site counted apart', async () => {
    for (const [lat, lng] of POINTS) {
      const want = await rawCounts(lat, lng);
      expect(want.other, `${lat},${lng}`).toBeGreaterThanOrEqual(1);
      const r = await api.get(`/v1/location/risk?lat=${lat}&lng=${lng}`);
      expect(r.status).toBe(200);
      const body = (await r.json()) as Record<string, unknown>;
      expect(body['superfund_count_1mi']).toBe(want.npl);
      expect(body['superfund_nearby']).toBe(want.npl > 0);
      expect(body['superfund_basis']).toBe(BASIS);
      expect(body['sems_non_npl_count_1mi']).toBe(want.other);
    }
  });

  it('a zip answer says the same basis and does not count non-NPL sites', async () => {
    const r = await api.get('/v1/location/risk?zip=85135');
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body['superfund_basis']).toBe(BASIS);
    expect(body['sems_non_npl_count_1mi']).toBeNull();
  });
});
