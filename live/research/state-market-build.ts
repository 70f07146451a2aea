// A state's own market in the research index (market.json, build.ts): key `state|<state>`, the arm's-length sales of
// every source placed in the state (every town's and zip's together, zip or none), counted by the same rule as the
// town and zip figures (sales.is_arms_length, one rule: 30_market_45_sale_flags.sql), with its window figures
// (`windows['state|CT|sfr']`), its sources (`sources['state|CT']`) and its months' coverage (`covered['state|CT']`).
// "Median sale price in Connecticut" had no figure: the index held towns only (F4). A state's figure is its sources'
// sales only (Connecticut: OPM's two partial extracts, 2022-01..09 all residential sales with no subtype, then the
// head-of-file extract's thin months), so a reading says which sources and months it holds (warehouse/docs/research.md
// "State figures").
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';

/** The `tagged` union arm of a state market (market-tagged.ts taggedSales): each arm's-length sale with a state, once. */
export const STATE_TAGGED = `
        union all
        select 'state|' || state_code, * from arm where state_code is not null`;

/** market.json's `covered` of each state market: its months from the first to the last month of its towns' trends
 *  series (market_monthly's city markets), one letter a month as market-window-build.ts marketCovered: `1` where a file of the state's
 *  sales covers the month whole for a town of it (the trends' own `covered` flag, the one coverage rule), `p` where its
 *  towns hold sales of it but none is covered whole, `0` where none holds a sale. */
export async function stateCovered(db: StageContext['db']): Promise<Record<string, [string, string]>> {
  if (!(await tableExists(db, 'market_monthly')) || !(await columnExists(db, 'market_monthly', 'covered'))) return {};
  const rows = await queryRows<{ k: string; first: string; flags: string }>(db, `
    with m as (
      select state_code, strptime(month_label, '%Y-%m')::date as month,
             case when bool_or(covered) then '1' when sum(sale_count) > 0 then 'p' else '0' end as f
      from market_monthly where market_kind = 'city' and state_code is not null group by all
    ),
    spans as (select state_code, min(month) as lo, max(month) as hi from m group by all),
    grid as (select s.state_code, g.month::date as month from spans s, unnest(range(s.lo::timestamp, (s.hi + interval 1 month)::timestamp, interval 1 month)) g(month))
    select 'state|' || g.state_code as k, strftime(min(g.month), '%Y-%m') as first, string_agg(coalesce(m.f, '0'), '' order by g.month) as flags
    from grid g left join m using (state_code, month) group by g.state_code order by 1`);
  return Object.fromEntries(rows.map((r) => [r.k, [r.first, r.flags]]));
}

/** market.json's `state_counties`: for each state with an arm's-length sale, its counties holding one (the county of the
 *  sale's city, the `cities` table, or of its zip, the `zips` table: New York City's sales are its five counties') and
 *  all its counties (the `counties` table). A state's figure is its whole state's only where the two are equal
 *  (Connecticut 9 of 9: OPM's statewide files); elsewhere its sales are one market's (Washington: King County's), said
 *  instead of a figure (state-market.ts). */
export async function stateCounties(db: StageContext['db']): Promise<Record<string, [withSales: number, counties: number]>> {
  for (const t of ['sales', 'cities', 'zips', 'counties']) if (!(await tableExists(db, t))) return {};
  const rows = await queryRows<{ k: string; w: number; n: number }>(db, `
    with arm as (select distinct state_code, zip, slug(city) as city_slug from sales where is_arms_length and state_code is not null),
    placed as (
        select a.state_code, c.county_fips from arm a join cities c using (state_code, city_slug) where c.county_fips is not null
        union
        select a.state_code, z.county_fips from arm a join zips z on z.zip = a.zip and z.state_code = a.state_code where z.county_fips is not null)
    select 'state|' || s.state_code as k,
           (select count(distinct p.county_fips) from placed p where p.state_code = s.state_code)::integer as w,
           (select count(*) from counties c where c.state_code = s.state_code)::integer as n
    from (select distinct state_code from arm) s order by 1`);
  return Object.fromEntries(rows.map((r) => [r.k, [Number(r.w), Number(r.n)]]));
}
