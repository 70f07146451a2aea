// The rehab score's resale component recomputed from the RAW sales files (NYC, Philadelphia), by warehouse/docs/market.md
// "mart_rehab" and "int_market_resales" and property.md "Identity" written out again over RAW_MARKET_SALES
// (oracle-raw-comps.ts), never the build's macros, marts or shards. Used by test/pipelines/rehab-raw-nyc-philadelphia.test.ts.
import { RAW_MARKET_SALES, rawQuery } from './oracle-raw-comps.ts';

/** One zip and window of 3..24 months: `n` residential arm's-length sales, `rehab` of them quick resales at a gain. */
export interface RawRehab { zip: string; src: string; months: number; as_of: string; n: number; rehab: number }

/**
 * Per zip observing resales (a repeat arm's-length sale of one property in it, any type, any date) and window: the
 * window's residential arm's-length sales (sfr, condo, multi, coop; portfolio deeds out) and its quick resales at a
 * gain (the previous arm's-length sale of the same property 1 to 365 days before, at a price >= 10% lower). The
 * window is the `months` to the source's last arm's-length sale. The property: the parcel id plus the unit without
 * punctuation (property.md: "2-G and 2G are one property"); a condo or co-op sale naming no unit pairs with nothing
 * (`sale_names_property`: NYC's BBL is a building's). Philadelphia's parcel is the OPA parcel number.
 */
export function rawRehabResales(): Promise<RawRehab[]> {
  return rawQuery<RawRehab>(`${RAW_MARKET_SALES},
    arms as (select *, split_part(prop, '|', 1) || '|' || coalesce(regexp_replace(unit, '[^A-Z0-9]', '', 'g'), '') as pkey
             from market where src in ('nyc', 'philadelphia') and not portfolio),
    chain as (select *, lag(d) over w as pd, lag(price) over w as pp from arms
              where not (type in ('condo', 'coop') and unit is null and src = 'nyc')
              window w as (partition by src, pkey order by d)),
    observing as (select distinct zip from chain where pd is not null and zip is not null),
    residential as (select * from arms where type in ('sfr', 'condo', 'multi', 'coop') and zip in (select zip from observing)),
    quick as (select * from chain where type in ('sfr', 'condo', 'multi', 'coop') and d - pd between 1 and 365 and price >= 1.1 * pp),
    ends as (select src, max(d) as e from arms group by src),
    windows as (select range::int as months from range(3, 25))
    select r.zip, r.src, w.months, strftime(e.e, '%Y-%m-%d') as as_of, count(*)::int as n,
           (select count(*) from quick q where q.zip = r.zip and q.d > e.e - to_months(w.months) and q.d <= e.e)::int as rehab
    from residential r join ends e using (src) cross join windows w
    where r.d > e.e - to_months(w.months) and r.d <= e.e
    group by r.zip, r.src, w.months, e.e`);
}

/** The resale share's score, `100 * min(1, share / 0.10)`, rounded to 1 decimal; null under the minimum cohort of 5. */
export const resaleScore = (r: RawRehab): number | null =>
  r.n >= 5 ? Math.round(1000 * Math.min(1, r.rehab / r.n / 0.1)) / 10 : null;

/** market.md "Label": the band of the published score. */
export const rehabLabel = (score: number): string =>
  score < 20 ? 'Cold' : score < 40 ? 'Warming' : score < 60 ? 'Active' : score < 80 ? 'Hot' : 'Very Hot';
