// The 30-day direction (trends `summary.direction_30d*`, rehab-score `trend*`) of New York City's and Connecticut's
// zips, boroughs, city and towns recomputed from the RAW files by warehouse/docs/market.md "mart_market_direction",
// written out again without the build's macros or marts: the events are residential (sfr, condo, multi, and NYC's
// co-ops: "Co-ops") quick resales at a gain (the property's previous arm's-length sale 1 to 365 days before, at a
// price >= 10% lower: oracle-raw-rehab.ts's NYC pairs; Connecticut's street line naming a lot within its zip, else
// its town, as market.md "int_market_resales" keys a sale without a zip); the windows are the 30 days to `end` and the 30 before, `end` the earlier of the
// source's last arm's-length sale and the latest day D its arm's-length sales are complete through (the 7 days to D
// hold at least 3/4 of the average week of the 56 days before them, every calendar day from its first sale counted);
// a market observing no resale at all (no repeat sale of a property in it) has no direction. Used by
// test/api/h75-direction-nyc-ct-raw.test.ts.
import { RAW_MARKET_SALES, rawQuery } from './oracle-raw-comps.ts';
import { CT_SALES } from './oracle-ct.ts';
import { CT_SALES_ZIPPED, NAMES_LOT, PUNCT, STREET, SUFFIX, UNIT } from './oracle-ct-zips.ts';

/** One market's raw direction: `market` is `zip/<zip>` or `city/<ST>/<slug>`. */
export interface RawDirection { market: string; end: string; last: number; prior: number; observes: boolean }

/** market.md: `100 x (last - prior) / max(prior, 1)`; up above +5, down below -5, else flat. */
export const directionPct = (d: RawDirection): number => 100 * (d.last - d.prior) / Math.max(d.prior, 1);
export const directionWord = (pct: number): string => (pct > 5 ? 'up' : pct < -5 ? 'down' : 'flat');

/** The end of the windows over a relation `arms` with a sale day `d`: SQL for a one-row `e(e)`. */
const END = (arms: string): string => `
    days as (select unnest(range((select min(d) from ${arms}), (select max(d) from ${arms}) + interval 1 day, interval 1 day))::date as day),
    series as (select days.day, count(a.d) as n from days left join ${arms} a on a.d = days.day group by days.day),
    roll as (select day, sum(n) over (order by day rows between 6 preceding and current row) as last7,
                    sum(n) over (order by day rows between 62 preceding and 7 preceding) as prior56 from series),
    e as (select least((select max(d) from ${arms}), (select max(day) from roll where last7 >= 0.75 * prior56 / 8)) as e)`;

/** The windows' counts per market of `ev(market, d)` over the markets of `mk(market, observes)`. */
const COUNTS = `
    select mk.market, strftime(e.e, '%Y-%m-%d') as "end", count(ev.d) filter (where ev.d > e.e - 30 and ev.d <= e.e)::int as last,
           count(ev.d) filter (where ev.d > e.e - 60 and ev.d <= e.e - 30)::int as prior, mk.observes
    from mk cross join e left join ev using (market) group by all`;

const BOROUGH_SLUGS = `case split_part(block, '-', 1) when '1' then 'manhattan' when '2' then 'bronx' when '3' then 'brooklyn'
  when '4' then 'queens' when '5' then 'staten-island' end`;

/** Every NYC zip, borough and the city of New York. */
export function rawNycDirections(): Promise<RawDirection[]> {
  return rawQuery<RawDirection>(`${RAW_MARKET_SALES},
    arms as (select *, split_part(prop, '|', 1) || '|' || coalesce(regexp_replace(unit, '[^A-Z0-9]', '', 'g'), '') as pkey,
                    ${BOROUGH_SLUGS} as borough from market where src = 'nyc' and not portfolio),
    chain as (select *, lag(d) over w as pd, lag(price) over w as pp from arms
              where not (type in ('condo', 'coop') and unit is null)
              window w as (partition by pkey order by d)),
    ${END('arms')},
    quick as (select * from chain where type in ('sfr', 'condo', 'multi', 'coop') and d - pd between 1 and 365 and price >= 1.1 * pp),
    ev as (select 'zip/' || zip as market, d from quick where zip is not null
           union all select 'city/NY/' || borough, d from quick union all select 'city/NY/new-york', d from quick),
    obs as (select distinct zip, borough from chain where pd is not null),
    mk as (select distinct 'zip/' || zip as market, zip in (select zip from obs) as observes from arms where zip is not null
           union all select distinct 'city/NY/' || borough, borough in (select borough from obs) from arms
           union all select 'city/NY/new-york', exists (select 1 from obs))
    ${COUNTS}`);
}

/** Every Connecticut zip and town (a town's slug: lower case, spaces as hyphens). */
export function rawCtDirections(): Promise<RawDirection[]> {
  return rawQuery<RawDirection>(`
    with arms as (select *, day as d from ${CT_SALES}),
    ${END('arms')},
    p as (select * replace (${PUNCT('address')} as address) from ${CT_SALES_ZIPPED}),
    u as (select *, ${UNIT('address')} as unit, ${STREET('address')} as street0 from p),
    s as (select *, ${SUFFIX('street0')} as street from u),
    -- market.md int_market_resales: the street line naming a lot within its zip, else its town (the 2022 extract's
    -- rows have no zip; oracle-ct-zips.ts's zip rehab share reads the zip's pairs only)
    keyed as (select *, coalesce(zip, upper(town)) || '|' || street || '|' || coalesce(regexp_replace(unit, '[^A-Z0-9]', '', 'g'), '') as pkey from s
              where address is not null and ${NAMES_LOT('street')} and not (type = 'condo' and unit is null)),
    chain as (select *, lag(day) over w as pd, lag(price) over w as pp from keyed
              window w as (partition by pkey order by day, lpad(doc, 40, '0'), line_no)),
    quick as (select *, day as d from chain where type in ('sfr', 'condo', 'multi') and day - pd between 1 and 365 and price >= 1.1 * pp),
    slugged as (select *, regexp_replace(lower(trim(town)), '[^a-z0-9]+', '-', 'g') as tslug from s),
    ev as (select 'zip/' || zip as market, d from quick where zip is not null
           union all select 'city/CT/' || regexp_replace(lower(trim(town)), '[^a-z0-9]+', '-', 'g'), d from quick),
    obs as (select distinct zip, regexp_replace(lower(trim(town)), '[^a-z0-9]+', '-', 'g') as tslug from chain where pd is not null),
    mk as (select distinct 'zip/' || zip as market, zip in (select zip from obs) as observes from s where zip is not null
           union all select distinct 'city/CT/' || tslug, tslug in (select tslug from obs) from slugged)
    ${COUNTS}`);
}
