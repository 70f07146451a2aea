// A canonical row whose city contradicts its zip (30_market_44_row_contracts.ts `city_not_at_zip`, review 25): the
// zip places the sale, the city is nulled with a meta.repairs row naming the zip's city and the distance, and the row
// is kept. The geography is the shared real build's (Census places and ZIP points, Connecticut); the distances in the
// expectations are recomputed here from those points, not read from the rule.
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { HEADER, canonicalSources, load, sale } from '../helpers/canonical-sources.ts';
import { buildDir } from '../helpers/build.ts';
import { removeTmpDirs } from '../helpers/tmp.ts';
import type { TestContext } from '../helpers/context.ts';
import { run as rowContracts } from '../../pipelines/intermediate/30_market_44_row_contracts.ts';

afterAll(removeTmpDirs);

const ct = (o: Parameters<typeof sale>[0]): string => sale({ state: 'CT', lat: '', lng: '', ...o });

/** The real build's states, and its Connecticut and Washington places and ZIP points. */
async function realGeography(ctx: TestContext): Promise<void> {
  await ctx.db.run(`attach '${path.join(buildDir(), 'warehouse.duckdb')}' as real (read_only)`);
  await ctx.db.run(`create or replace table states as select * from real.states;
    create or replace table zips as select * from real.zips where state_code in ('CT', 'WA');
    create or replace table cities as select * from real.cities where state_code in ('CT', 'WA')`);
  await ctx.db.run('detach real');
}

/** km between two points, by hand (haversine, R = 6,371 km). */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = (d: number): number => (d * Math.PI) / 180;
  const h = Math.sin(r(b.lat - a.lat) / 2) ** 2 + Math.cos(r(a.lat)) * Math.cos(r(b.lat)) * Math.sin(r(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('a canonical city that contradicts its zip', () => {
  test('Hartford on a Branford zip is nulled and recorded; a town the lookup lists, a village and a near city stay', async () => {
    const lines = [HEADER,
      ct({ address: '1 A ST', city: 'Hartford', zip: '06405' }),   // 2 Branford's zip, 50+ km from Hartford: nulled
      ct({ address: '2 A ST', city: 'Hartford', zip: '06103' }),   // 3 Hartford's own zip: kept
      ct({ address: '3 A ST', city: 'Branford', zip: '06405' }),   // 4 the zip's USPS city: kept
      ct({ address: '4 A ST', city: 'West Hartford', zip: '06103' }), // 5 a neighbour under 25 km: kept
      ct({ address: '5 A ST', city: 'Nowhereville', zip: '06405' }), // 6 no place of that name: nothing to contradict
      ...Array.from({ length: 5 }, (_, i) => ct({ address: `${10 + i} B ST`, city: 'Branford', zip: '06405' })),
    ];
    const { ctx } = await load(canonicalSources({ 'sales.csv': lines.join('\n') + '\n' }));
    try {
      await realGeography(ctx);
      const [hartford] = await ctx.rows<{ lat: number; lng: number }>(`select lat, lng from cities where state_code = 'CT' and city_slug = 'hartford'`);
      const [branford] = await ctx.rows<{ lat: number; lng: number; city: string }>(`select lat, lng, city from zips where zip = '06405'`);
      const [wh] = await ctx.rows<{ lat: number; lng: number }>(`select lat, lng from cities where state_code = 'CT' and city_slug = 'west-hartford'`);
      const [z06103] = await ctx.rows<{ lat: number; lng: number }>(`select lat, lng from zips where zip = '06103'`);
      const away = Math.round(km(hartford!, branford!));
      expect(away).toBeGreaterThan(25);
      expect(km(wh!, z06103!)).toBeLessThan(25);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 0.1 } });
      expect(await ctx.rows(`select line::int as line, rule, detail from meta.repairs where rule like '%city%'`)).toEqual([
        { line: 2, rule: 'nulled_city_not_at_zip', detail: `city=Hartford (zip 06405 is ${branford!.city}, ${away} km away) -> null` },
      ]);
      expect(await ctx.rows(`select line::int as line, city, zip from sales where line <= 6 order by line`)).toEqual([
        { line: 2, city: null, zip: '06405' }, // kept, placed by its zip; 30_market_80_fill_geo.sql gives it the zip's city
        { line: 3, city: 'Hartford', zip: '06103' },
        { line: 4, city: 'Branford', zip: '06405' },
        { line: 5, city: 'West Hartford', zip: '06103' },
        { line: 6, city: 'Nowhereville', zip: '06405' },
      ]);
      expect(await ctx.rows(`select count(*)::int as n from meta.rejects`)).toEqual([{ n: 0 }]);
    } finally { ctx.close(); }
  });

  test('a reference source is never touched by the rule, and over the real sources no pair of city and zip breaks it', async () => {
    const { ctx } = await load(canonicalSources({ 'sales.csv': `${HEADER}\n` }));
    try {
      await realGeography(ctx);
      // the same contradiction in a reference source's row is left as the source wrote it
      await ctx.db.run(`insert into sales by name select 'x:1' as sale_id, 'anysource' as source, '1 A ST' as address, 'Hartford' as city,
        'CT' as state_code, '06405' as zip, date '2024-01-05' as sale_date, 300000::double as sale_price, 'sfr' as property_type, true as is_arms_length, '/x.csv' as file, 2 as line`);
      await ctx.db.run(`insert into meta.source_files values ('anysource', 'sales', 'x.csv', 'x', 0, 1)`);
      await rowContracts({ ...ctx, settings: { ...ctx.settings, rejectMaxShare: 1 } });
      expect(await ctx.rows(`select city from sales`)).toEqual([{ city: 'Hartford' }]);
      expect(await ctx.rows(`select count(*)::int as n from meta.repairs`)).toEqual([{ n: 0 }]);
      // every (city, zip) pair the real build's reference sales hold: none over the threshold unlisted (the widest
      // honest pair is NYC's New York on 11040, about 21 km), so the rule reads a real file as it is
      await ctx.db.run(`attach '${path.join(buildDir(), 'warehouse.duckdb')}' as real (read_only)`);
      const pairs = await ctx.rows<{ city: string; zip: string; km: number }>(`
        with c as (select state_code, city_slug, any_value(lat) lat, any_value(lng) lng, any_value(zip_codes) zc from real.cities
                   where lat is not null group by all having count(*) = 1)
        select distinct s.city, s.zip, km_between(c.lat, c.lng, z.lat, z.lng) as km
        from real.sales s join c on c.state_code = s.state_code and c.city_slug = slug(s.city) join real.zips z on z.zip = s.zip
        where s.source <> 'canonical' and not list_contains(coalesce(c.zc, []), s.zip) and slug(coalesce(z.city, '')) <> c.city_slug`);
      expect(pairs.length).toBeGreaterThan(10);
      expect(pairs.filter((p) => p.km > 25)).toEqual([]);
    } finally { ctx.close(); }
  });
});
