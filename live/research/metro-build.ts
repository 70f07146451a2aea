// Metro areas for the research index (live/research/build.ts -> metro.json, read by metro.ts): every CBSA of the OMB
// July 2023 delineation (../shared/data/census-cbsa-delineation-2023, the `counties` table's cbsa_code and metro_area)
// with its counties and the arm's-length sales the build places in each, and per metro the sales of each window of
// 3..24 months to its last sale and of each year, by property type: count, median price, first and last sale date,
// and the count of each county. A sale's county: a New York City sale's borough, else its zip's county (the `zips`
// table: the HUD crosswalk's county with most of the zip's addresses), else, for a sale with no zip (Denver,
// most of Connecticut's), its city's county by the city list or else the county most zips of that name lie in;
// a sale placed in none is counted in `unplaced` per state. "Suburbs" (`suburbs|<cbsa>`): the same sales less those
// of the metro's first principal city (the first name of its title, in the title's first state).
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { BOROUGH_COUNTIES } from '../places/borough-counties.ts';

/** A CBSA: code, title, metro or micro, and its counties (FIPS, name, state, arm's-length sales placed in it). */
export type MetroArea = [code: string, title: string, kind: string, counties: [fips: string, name: string, state: string, sales: number][]];
/** One figure of a metro's sales: count, median price (null under 5 sales), first and last sale date, count by county
 *  FIPS, and how many come from a file with no residential subtype (Connecticut's 2022 file: its "sfr" is every
 *  residential sale; int_market_untyped_files). */
export type MetroFigure = [n: number, median: number | null, first: string, last: string, byCounty: Record<string, number>, untyped: number];
export interface MetroSales {
  /** the metro's (or its suburbs') last arm's-length sale, of any type: the end of every window */
  as_of: string;
  /** source ids of its sales (a sample or partial extract is said: partial.ts) */
  sources: string[];
  /** property type -> index W-3 for a window of W months (null: no sale in it) */
  windows: Record<string, (MetroFigure | null)[]>;
  /** property type -> year -> its figure */
  years: Record<string, Record<string, MetroFigure>>;
}
export interface MetroIndex {
  metros: MetroArea[];
  /** `metro|<cbsa>` or `suburbs|<cbsa>` -> its sales (metros with sales only) */
  sales: Record<string, MetroSales>;
  /** state -> arm's-length sales placed in no county, and their towns (most sales first) */
  unplaced: Record<string, [sales: number, towns: string[]]>;
}

const BOROUGH_COUNTY = BOROUGH_COUNTIES.map((b) => `('${b.borough}', '${b.fips}')`).join(', ');

/** The SQL of `placed`: every arm's-length sale with its county (null: placed in none). */
async function placedSql(db: StageContext['db']): Promise<string> {
  const parts = await tableExists(db, 'int_market_city_parts');
  const untyped = await tableExists(db, 'int_market_untyped_files');
  return `
    name_county as (
      select coalesce(c.state_code, t.state_code) as state_code, coalesce(c.city, t.city) as city, coalesce(c.f, t.f) as f
      from (select state_code, lower(city_name) as city, arg_max(county_fips, population) as f from cities where county_fips is not null group by all) c
      full join (select state_code, lower(city) as city, mode(county_fips) as f from zips where county_fips is not null and city is not null group by all) t
      using (state_code, city)
    ),
    placed as (
      select s.sale_id, s.source, s.state_code, s.city, slug(s.city) as city_slug, s.property_type, s.sale_date, s.sale_price,
             coalesce(${parts ? 'b.f, ' : ''}z.county_fips, case when s.zip is null then n.f end) as county_fips,
             ${untyped ? 'ut.file is not null' : 'false'} as untyped
      from sales s
      ${untyped ? 'left join int_market_untyped_files ut using (source, file)' : ''}
      ${parts ? `left join int_market_city_parts cp using (sale_id) left join (values ${BOROUGH_COUNTY}) b(p, f) on b.p = cp.city_part` : ''}
      left join zips z on z.zip = s.zip
      left join name_county n on n.state_code = s.state_code and n.city = lower(s.city)
      where s.is_arms_length
    )`;
}

const figure = (r: { n: number; med: number | null; a: string; b: string; h: string; u: number }): MetroFigure =>
  [Number(r.n), Number(r.n) >= 5 ? r.med : null, r.a, r.b, JSON.parse(r.h) as Record<string, number>, Number(r.u)];

/** The metro index; null without the counties table (no CBSA) or without sales. */
export async function metroIndex(db: StageContext['db']): Promise<MetroIndex | null> {
  if (!(await tableExists(db, 'counties')) || !(await tableExists(db, 'sales')) || !(await tableExists(db, 'zips')) || !(await tableExists(db, 'cities'))) return null;
  const placed = await placedSql(db);
  const counties = await queryRows<{ c: string; t: string; k: string; f: string; n: string; s: string; x: number }>(db, `
    with ${placed}, per as (select county_fips, count(*)::int as x from placed where county_fips is not null group by 1)
    select c.cbsa_code as c, c.metro_area as t, c.cbsa_type as k, c.county_fips as f, c.county_name as n, c.state_code as s, coalesce(per.x, 0) as x
    from counties c left join per using (county_fips) where c.cbsa_code is not null order by c.cbsa_code, x desc, c.population desc, c.county_fips`);
  const metros = new Map<string, MetroArea>();
  for (const r of counties) {
    const m = metros.get(r.c) ?? [r.c, r.t, r.k, []];
    m[3].push([r.f, r.n, r.s, r.x]);
    metros.set(r.c, m);
  }
  const tagged = `${placed},
    cb as (select county_fips, cbsa_code, metro_area as title from counties where cbsa_code is not null),
    core as (select cbsa_code, any_value(slug(regexp_extract(title, '^[^-/,]+'))) as city_slug, any_value(regexp_extract(title, ', ([A-Z]{2})', 1)) as st from cb group by 1),
    tagged as (
      select 'metro|' || cb.cbsa_code as k, p.* from placed p join cb using (county_fips)
      union all
      select 'suburbs|' || cb.cbsa_code, p.* from placed p join cb using (county_fips) join core using (cbsa_code)
      where not (p.city_slug is not distinct from core.city_slug and p.state_code = core.st)
    ),
    ends as (select k, max(sale_date) as as_of, list(distinct source order by source) as src from tagged group by k)`;
  const cols = "count(*)::int as n, median(sale_price) as med, cast(min(sale_date) as varchar) as a, cast(max(sale_date) as varchar) as b, to_json(histogram(county_fips))::varchar as h, count(*) filter (where untyped)::int as u";
  const windows = await queryRows<{ k: string; t: string; m: number; n: number; med: number | null; a: string; b: string; h: string; u: number; as_of: string; src: string[] }>(db, `
    with ${tagged}
    select t.k, t.property_type as t, w.m, ${cols}, cast(e.as_of as varchar) as as_of, any_value(e.src) as src
    from tagged t join ends e using (k) cross join (select cast(range as integer) as m from range(3, 25)) w
    where t.sale_date > e.as_of - to_months(w.m) and t.property_type is not null
    group by t.k, t.property_type, w.m, e.as_of order by 1, 2, 3`);
  const sales: Record<string, MetroSales> = {};
  for (const r of windows) {
    const s = (sales[r.k] ??= { as_of: r.as_of, sources: [...r.src], windows: {}, years: {} });
    const list = (s.windows[r.t] ??= Array.from({ length: 22 }, () => null));
    list[r.m - 3] = figure(r);
  }
  const years = await queryRows<{ k: string; t: string; y: number; n: number; med: number | null; a: string; b: string; h: string; u: number }>(db, `
    with ${tagged}
    select k, property_type as t, year(sale_date)::int as y, ${cols} from tagged where property_type is not null group by all order by 1, 2, 3`);
  for (const r of years) {
    const s = sales[r.k];
    if (s) (s.years[r.t] ??= {})[String(r.y)] = figure(r);
  }
  const unplaced: MetroIndex['unplaced'] = {};
  for (const r of await queryRows<{ s: string; c: string; n: number }>(db, `
    with ${placed} select state_code as s, city as c, count(*)::int as n from placed where county_fips is null and state_code is not null
    group by all order by n desc, c`)) {
    const u = (unplaced[r.s] ??= [0, []]);
    u[0] += r.n; u[1].push(r.c ?? '(no town)');
  }
  return { metros: [...metros.values()], sales, unplaced };
}
