// The rehab score of a permit source's zips (Nashville, Chicago: no sales source there, so the score is its two permit
// components) recomputed from the RAW permit files for every zip and window of 3..24 months, by warehouse/docs/market.md
// "mart_rehab" ("Window", "Permit source area", "Components", "Score", "Label", "Trend", "Confidence") and
// "mart_market_direction" ("Window end"), never the build's permits, zips, areas or marts: the residential rehab
// permits and Chicago's point zips of oracle-rehab-use.ts, the area share of oracle-permit-area.ts, the source's
// complete-through day over every permit it keeps (oracle-raw-permits.ts NASHVILLE / CHICAGO). Used by
// test/api/h75-rehab-permits-sample.test.ts.
import { dataFile, rawQuery } from './oracle-raw-comps.ts';
import { CHICAGO_POINT_ZIPS, CHICAGO_REHAB_CTES, NASHVILLE_REHAB_CTES } from './oracle-rehab-use.ts';
import { CHICAGO, NASHVILLE } from './oracle-raw-permits.ts';
import { permitAreaOracle } from './oracle-permit-area.ts';

export type PermitSource = 'nashville' | 'chicago';

/** One zip and window: the rehab permits counted and the trend's two 30-day counts. */
export interface RawPermitWindow {
  zip: string; months: number; as_of: string; trend_end: string;
  rehab: number; valued: number; value: number; last30: number; prior30: number;
}

/**
 * Per zip with a residential rehab permit of the source (any date) and `months` 3..24: the window's rehab permits (the
 * `months` to `as_of`, the source's last kept permit of any kind), those declaring a cost over $0 and their sum; the
 * trend's counts in the 30 days to `trend_end` and the 30 before, `trend_end` the earlier of `as_of` and the latest
 * day D whose 7 days hold at least 3/4 of the average week of the 56 days before them (every kept permit of the
 * source, every calendar day of its span counted).
 */
export function rawPermitWindows(source: PermitSource): Promise<RawPermitWindow[]> {
  const ctes = source === 'nashville'
    ? `${NASHVILLE_REHAB_CTES()}, kept as (select rehab.*, raw_zip as zip from rehab where residential)`
    : `${CHICAGO_REHAB_CTES()}, kept as (select rehab.*, z.zip from rehab left join ${CHICAGO_POINT_ZIPS()} z using (lat, lng) where residential)`;
  const all = source === 'nashville' ? NASHVILLE : CHICAGO;
  return rawQuery<RawPermitWindow>(`${ctes},
    allp as (select d from ${all}),
    days as (select unnest(range((select min(d) from allp), (select max(d) from allp) + interval 1 day, interval 1 day))::date as day),
    series as (select days.day, count(a.d) as n from days left join allp a on a.d = days.day group by days.day),
    roll as (select day, sum(n) over (order by day rows between 6 preceding and current row) as last7,
                    coalesce(sum(n) over (order by day rows between 62 preceding and 7 preceding), 0) as prior56 from series),
    e as (select (select max(d) from allp) as a, least((select max(d) from allp), (select max(day) from roll where last7 >= 0.75 * prior56 / 8)) as t),
    m as (select range::int as months from range(3, 25))
    select k.zip, m.months, strftime(e.a, '%Y-%m-%d') as as_of, strftime(e.t, '%Y-%m-%d') as trend_end,
      count(*) filter (where k.issued > e.a - to_months(m.months) and k.issued <= e.a)::int as rehab,
      count(*) filter (where k.issued > e.a - to_months(m.months) and k.issued <= e.a and k.cost > 0)::int as valued,
      coalesce(sum(k.cost) filter (where k.issued > e.a - to_months(m.months) and k.issued <= e.a and k.cost > 0), 0)::double as value,
      count(*) filter (where k.issued > e.t - 30 and k.issued <= e.t)::int as last30,
      count(*) filter (where k.issued > e.t - 60 and k.issued <= e.t - 30)::int as prior30
    from kept k, e, m where k.zip is not null group by all order by k.zip, m.months`);
}

/** Each zip's homes in the source's area (ACS 2023 B25001 x the covered share) and the share; a zip the area data does
 *  not know, or with no housing units, is absent. */
export async function rawPermitHomes(source: PermitSource, zips: string[]): Promise<Map<string, { homes: number; share: number }>> {
  const area = permitAreaOracle(source, zips, dataFile)!;
  const rows = await rawQuery<{ zip: string; homes: number; share: number }>(`
    with share as (${area.sql}),
    hu as (select "zip code tabulation area" as zip, max(try_cast("B25001_001E" as double)) as hu
      from read_csv('${dataFile('census-acs2023-population/acs5_2023_zcta_population.csv.gz')}', all_varchar = true) group by 1)
    select zip, hu.hu * share.share as homes, share.share from share join hu using (zip) where hu.hu > 0`);
  return new Map(rows.map((r) => [r.zip, { homes: r.homes, share: r.share }]));
}

/** The permit components' score, renormalised: intensity `100 min(1, ln(1 + permits a year per 1,000 homes) / ln 51)` at
 *  0.45, value `100 min(1, ln(1 + declared dollars a year per home) / ln 2001)` at 0.35 x the declared share (left out
 *  when permits declare no cost; a true $0 at full weight with no permit). */
export function permitScore(w: RawPermitWindow, homes: number): number {
  const perYear = 12 / w.months;
  const intensity = 100 * Math.min(1, Math.log(1 + (1000 * w.rehab * perYear) / homes) / Math.log(51));
  const value = 100 * Math.min(1, Math.log(1 + (w.value * perYear) / homes) / Math.log(2001));
  if (w.rehab > 0 && w.valued === 0) return intensity;
  const vw = w.rehab === 0 ? 0.35 : 0.35 * (w.valued / w.rehab);
  return (0.45 * intensity + vw * value) / (0.45 + vw);
}

/** market.md "Rounding in the answers": half away from zero to 1 decimal. */
export const round1 = (x: number): number => Math.sign(x) * Math.round(Math.abs(x) * 10) / 10;
export const label = (score: number): string => (score < 20 ? 'Cold' : score < 40 ? 'Warming' : score < 60 ? 'Active' : score < 80 ? 'Hot' : 'Very Hot');
export const countConfidence = (n: number): string => (n >= 50 ? 'high' : n >= 20 ? 'medium' : 'low');
