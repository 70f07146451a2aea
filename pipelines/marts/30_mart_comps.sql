-- requires: sales, int_market_zip_names, int_market_redfin_zip, int_market_file_coverage
-- mart_comps: one row per zip x property_type x months (3..24) for every zip with at least one arm's-length sale,
-- for all five property types (a type without comps answers with sample_count null and confidence low, not a 404).
-- The window of a lookback ends at the zip's most recent arm's-length sale (any type): sale_date in
-- (as_of - months, as_of]. A flagged record (a $0 transfer, a portfolio deed, a duplicate: 30_market_45_sale_flags.sql)
-- is no market signal: it neither moves the window nor makes a zip a market.
-- Comps are arm's-length sales of that type with a living area (price per sqft = sale_price / sqft).
-- sale_count: the window's arm's-length sales of the type, with a living area or not; note: why there is no price per
-- sqft when the window has such sales but none records a living area (Connecticut's files record none, nor do NYC's
-- condo and co-op sales): the data says so, not a list of states.
-- Minimum cohort: below 5 comps sample_count and every percentile are null and as_of is the window end, and the
-- note counts fewer than 5 sales as 'fewer than 5' (nothing about a cohort of 1-4 leaks: no count, figure or date);
-- days on market and list-to-sale come from the comps' own list data when at least 5 comps have it (a median each).
-- Else days on market may come from a Redfin zip snapshot, only where it is what the field claims (redfin_stands_for:
-- its 90 days lie inside the window, its recorded type is the type or All Residential, 5 or more homes sold, the
-- minimum cohort); the latest such period, named in dom_source/redfin_* and the answer (note, days_on_market.source).
-- list_to_sale_ratio never comes from Redfin: its sale-to-list is an average, the field a median (spec). Else null.
-- Formulas: warehouse/docs/market.md.
-- How: windows are nested (a comp inside the m-month window is inside every longer one), so each comp is put
-- in the shortest window holding it (its bucket) and the statistics are cumulative window aggregates over
-- buckets. A copy of every comp per window (22x the rows, held whole by the percentile aggregates) took
-- 8.3 GB at 10 million sales; this is one pass (figures: warehouse/docs/market.md).
-- Coverage of the window (review 9 #3): the days of the window that the zip's sales records cover, the union of the
-- spans of every file keying zips of the zip's town (a file's span: its first and last arm's-length sale, over every
-- zip; NYC's two files leave 2022-04..2023-02 uncovered), cut to the months the file holds at least a quarter of its
-- source's busiest month in (review 15: int_market_file_coverage, 30_mart_00_market_file_coverage.sql; Connecticut's head-of-file extract never does). records_start / records_end are
-- the first and last covered day of the window, records_days of window_days. Confidence is the lower of
-- confidence_by_count(comps) and confidence_by_coverage(records_days, window_days) (macros.sql): Sacramento's one week
-- (2008-05-15..21) answered 60 comps 'high' for 3, 6 and 24 months alike.
-- note: first, when the records cover less than the window, 'sales records cover <spans> only, <d> of the <w> days
-- asked'; then why each null figure of the answer is null, one clause per cause ('; ' between them), null when none is:
--   price per sqft (sample_count null): no sale of the type in the window; sales none of which records a living area
--   (their count, or 'fewer than 5'); 1-4 comps (the minimum cohort);
--   days on market / list-to-sale: fewer than 5 comps with list data and no Redfin snapshot that can stand for the
--   window (redfin_stands_for; land and commercial never); the ratio, that Redfin's is an average, not used;
-- and, when days on market is Redfin's, where it comes from: the tracker, its type, its 90 days and homes sold.
-- After the coverage: how many of the window's sales of the type are left out as not arm's-length, by their first flag
-- (the rule's reason, else portfolio, else duplicate: comps_left_out), no clause when none is. Review 26:
-- Philadelphia 19134's 12-month single-family comps left out 14 portfolio deeds and 19 sales far under their assessed
-- value, and the answer never said so.
-- The Redfin macros (redfin_stands_for, redfin_describes, redfin_period_start): warehouse/macros.sql (the check reads them too).
-- The coverage clause: the days of the window the zip's files cover whole (full volume), and the days only a thin
-- extract's months reach (review 15: Windsor, CT 06095, whose one zip-keyed record is from the head-of-file extract,
-- answered 'no arm's-length sale of this type in the window' with records_days 365 of 365 beside 412 raw arm's-length
-- residential sales of the town in the window, none with a zip).
create or replace macro comps_coverage_words(records_days, any_days, window_days, spans) as
    coverage_words('sales records', 'zip''s sales', records_days, any_days, window_days, spans);
-- the words of a flag (sales.non_arms_length_reason, or 'portfolio' / 'duplicate'), as the "Arm's-length rule" names it
create or replace macro left_out_words(why) as case why
    when 'nominal_price' then 'nominal price' when 'related_parties' then 'related parties'
    when 'deed_type' then 'non-sale deed type' when 'non_use_code' then 'non-use code'
    when 'pass_through' then 'pass-through resale' when 'double_close' then 'double closing'
    when 'assessment_ratio' then 'price out of line with the assessed value'
    when 'portfolio' then 'portfolio (multi-parcel) deed' when 'duplicate' then 'duplicate record' else why end;
create or replace macro comps_left_out(n, parts) as
    case when n = 1 then format('1 other sale of this type in the window is left out as not arm''s-length: {}', parts)
         when n > 1 then format('{} other sales of this type in the window are left out as not arm''s-length: {}', n, parts) end;
-- New York City's co-op apartments ('coop', warehouse/macros.sql recorded_property_types()) in the condo comps' window:
-- not condos and no type of the contract's five, so not counted; the condo note says how many (1-4: 'fewer than 5').
create or replace macro comps_coops(n) as
    case when n > 0 then format('{} arm''s-length co-op apartment sales in the window are not counted: a co-op (New York City building classes 09, 10 and 17) is a share in a cooperative, not a condominium, and no property type here covers co-ops',
                                case when n >= 5 then n::varchar else 'fewer than 5' end) end;
-- Why a type has no sale in the window when the zip's sales sources record no sale of it anywhere (review h67: zip 98103's
-- condo comps said 'no arm''s-length sale of this type in the window', a count of 0, where King County's file records no
-- type at all; Sacramento's and Denver's no land sale): `types` the types of the five the sources record any sale of
-- (as the trends shard's source_types, api/trends-type-note.ts), a source of single-family sales alone being a file
-- without a type (its adapter counts every sale as a house). Null when the sources record the type.
create or replace macro comps_type_unrecorded(property_type, types, n_sources) as
    case when types is null or list_contains(types, property_type) then null
         when types = ['sfr'] then format('the zip''s sales {} no property type (every sale is counted as a single-family house, sfr), so {} sales cannot be told apart: no count of them, not even 0',
                                          case when n_sources > 1 then 'sources record' else 'source records' end, property_type)
         else format('the zip''s sales {} no {} sale in any of {} markets ({} sales are of the types {} only), so none made here is in this build',
                     case when n_sources > 1 then 'sources record' else 'source records' end, property_type,
                     case when n_sources > 1 then 'their' else 'its' end, case when n_sources > 1 then 'their' else 'its' end,
                     regexp_replace(array_to_string(list_filter(property_types(), t -> list_contains(types, t)), ', '), ', ([^,]+)$', ' and \1')) end;
create or replace macro comps_note(coverage, left_out, n, n_sales, property_type, no_dom, no_ratio, redfin_dom, unrecorded) as nullif(concat_ws('; ',
    coverage,
    left_out,
    case when n_sales = 0 and unrecorded is not null then format('no arm''s-length sale of this type in the window: {}; no price per square foot', unrecorded)
         when n_sales = 0 then 'no arm''s-length sale of this type in the window: no price per square foot'
         when n = 0 then format('{} arm''s-length sales of this type in the window, none with a recorded living area: no price per square foot',
                                case when n_sales >= 5 then n_sales::varchar else 'fewer than 5' end)
         when n < 5 then 'fewer than 5 arm''s-length sales of this type in the window with a recorded living area: too few for a price per square foot (minimum cohort 5)' end,
    case when no_dom or no_ratio then
        case when no_dom and no_ratio then 'no days on market or list-to-sale ratio' when no_dom then 'no days on market' else 'no list-to-sale ratio' end
        || ': fewer than 5 comps of the window record a list date and price'
        || case when not no_dom then ''
                when property_type in ('land', 'commercial') then ', and the Redfin zip snapshots cover residential types only'
                else ', and no Redfin zip snapshot stands for the window (one needs its 90 days inside the window, its type this one or all residential, and 5 or more homes sold)' end
        || case when no_ratio and property_type not in ('land', 'commercial') then ' (Redfin''s sale-to-list is an average, not a median: not used for the ratio)' else '' end end,
    redfin_dom
    ), '');

create or replace table mart_comps as
with zip_window as (
    select zip, max(sale_date) as zip_as_of from sales where zip is not null and is_arms_length group by zip
),
property_types as (
    select unnest(property_types()) as property_type
),
combos as (
    select zip, property_type from zip_window cross join property_types
),
months as (
    select cast(range as integer) as months from range(3, 25)
),
boundaries as (
    -- each zip's window starts: a sale is inside the m-month window when sale_date > boundary
    select w.zip, m.months, cast(w.zip_as_of - to_months(m.months) as date) as boundary
    from zip_window w cross join months m
),
comps as (
    -- every arm's-length sale of the 24 months; only one with a living area is a comp (ppsf, and its list data)
    select s.zip, s.property_type, s.sale_date,
           case when s.sqft > 0 then s.sale_price / s.sqft end as ppsf,
           case when s.sqft > 0 and s.list_price > 0 then s.sale_price / s.list_price end as sale_to_list,
           case when s.sqft > 0 and s.list_date is not null and s.list_date <= s.sale_date then date_diff('day', s.list_date, s.sale_date) end as dom
    from sales s join zip_window w using (zip)
    where s.is_arms_length and s.sale_date > w.zip_as_of - interval 24 month
),
bucketed as (
    -- the shortest window a comp is in (it is in every longer one too): the nearest boundary below its date
    select c.*, b.months as bucket
    from comps c asof join boundaries b on c.zip = b.zip and c.sale_date > b.boundary
),
cumulative as (
    -- statistics over the comps of every window up to a bucket: one pass, no copy of a comp per window
    select zip, property_type, bucket,
           count(ppsf) over w as n, count(*) over w as n_sales,
           quantile_cont(ppsf, [0.25, 0.5, 0.75]) over w as q,
           count(dom) over w as n_dom, median(dom) over w as dom_median,
           count(sale_to_list) over w as n_ratio, median(sale_to_list) over w as ratio_median,
           max(case when ppsf is not null then sale_date end) over w as last_comp_date
    from bucketed
    window w as (partition by zip, property_type order by bucket range between unbounded preceding and current row)
    qualify row_number() over (partition by zip, property_type, bucket) = 1
),
flagged as (
    -- the sales of the 24 months that are not arm's-length, by their first flag (each counted once)
    select s.zip, s.property_type, s.sale_date,
           coalesce(s.non_arms_length_reason, case when s.is_portfolio then 'portfolio' when s.is_duplicate then 'duplicate' end) as why
    from sales s join zip_window w using (zip)
    where not s.is_arms_length and s.sale_date > w.zip_as_of - interval 24 month and s.sale_date <= w.zip_as_of
),
left_out as (
    -- per window, how many and why: '57 nominal price, 19 price out of line with the assessed value, ...'
    select zip, property_type, months, sum(n)::integer as n,
           string_agg(format('{} {}', n, left_out_words(why)), ', ' order by n desc, why) as parts
    from (select f.zip, f.property_type, b.months, f.why, count(*) as n
          from flagged f join boundaries b on f.zip = b.zip and f.sale_date > b.boundary group by all)
    group by all
),
coops as (
    -- per window, the arm's-length co-op sales (comps_coops): said in the condo note
    select c.zip, 'condo' as property_type, b.months, count(*)::integer as n
    from comps c join boundaries b on c.zip = b.zip and c.sale_date > b.boundary
    where c.property_type = 'coop' group by all
),
grid as (
    select k.zip, k.property_type, m.months, w.zip_as_of
    from combos k join zip_window w using (zip) cross join months m
),
windowed as (
    select g.zip, g.property_type, g.months, c.n, c.n_sales, c.q[1] as p25, c.q[2] as p50, c.q[3] as p75,
           c.n_dom, c.dom_median, c.n_ratio, c.ratio_median, c.last_comp_date
    from grid g asof join cumulative c on g.zip = c.zip and g.property_type = c.property_type and g.months >= c.bucket
),
file_segments as (
    -- each month of a file's span with a sale, clipped to the span; full when the file covers it with its full volume
    -- (int_market_file_coverage, 30_mart_00_market_file_coverage.sql: the one coverage rule of the marts and the trends)
    select source, file, lo, hi, full_volume from int_market_file_coverage where kind = 'sale'
),
zip_files as (
    -- a zip's files: those keying zips of its town (every file of its sources that gives a zip there: NYC's two files
    -- for every New York zip, a zip without a sale in a covered month has a true 0 there), not a file that records the
    -- town's sales without a zip (Connecticut's 2022 extract for Windsor: 412 sales in 06095's window, none zip-keyed)
    select distinct z.zip, f.source, f.file
    from (select distinct zip, state_code, city from sales where zip is not null and is_arms_length) z
    join (select distinct source, file, state_code, city from sales where zip is not null and is_arms_length) f using (state_code, city)
    union select distinct zip, source, file from sales where zip is not null and is_arms_length
),
clipped as (
    -- the part of each window (sale_date > boundary, <= zip_as_of) inside a month of a file of the zip's sales: kind
    -- 'full' those the file covers with its full volume, 'any' all of them
    select b.zip, b.months, k.kind, greatest(f.lo, cast(b.boundary + 1 as date)) as lo, least(f.hi, w.zip_as_of) as hi
    from boundaries b join zip_window w using (zip)
    join zip_files zf using (zip)
    join file_segments f on f.source = zf.source and f.file is not distinct from zf.file
    join (values ('full'), ('any')) k(kind) on k.kind = 'any' or f.full_volume
    where f.lo <= w.zip_as_of and f.hi > b.boundary
),
islands as (
    -- overlapping or touching spans merged (files of one source may overlap, as Connecticut's)
    select zip, months, kind, lo, hi,
           count(*) filter (where lo > prev_hi + 1) over (partition by zip, months, kind order by lo, hi) as island
    from (select *, max(hi) over (partition by zip, months, kind order by lo, hi rows between unbounded preceding and 1 preceding) as prev_hi
          from clipped)
),
coverage as (
    select zip, months,
           min(lo) filter (where kind = 'full') as records_start, max(hi) filter (where kind = 'full') as records_end,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where kind = 'full'), 0) as records_days,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where kind = 'any'), 0) as any_days,
           string_agg(strftime(lo, '%Y-%m-%d') || ' to ' || strftime(hi, '%Y-%m-%d'), ' and ' order by lo) filter (where kind = 'full') as records_spans
    from (select zip, months, kind, island, min(lo) as lo, max(hi) as hi from islands group by all)
    group by zip, months
),
zip_types as (
    -- per zip, the types of the five its sales sources record any sale of, in any market (comps_type_unrecorded)
    select z.zip, count(distinct z.source)::integer as n_sources, list_sort(list_distinct(flatten(list(ty.types)))) as types
    from (select distinct zip, source from zip_files) z
    join (select source, list(distinct property_type) as types from sales
          where source is not null and list_contains(property_types(), property_type) group by all) ty using (source)
    group by z.zip
),
redfin as (
    -- per zip, type and window, the latest Redfin period that may stand for it (redfin_stands_for); none -> no row
    select g.zip, g.property_type, g.months,
           arg_max(r.median_dom, r.period_end) as median_dom, max(r.period_end) as period_end,
           arg_max(r.redfin_property_type, r.period_end) as redfin_type, arg_max(r.homes_sold, r.period_end) as homes_sold
    from grid g join int_market_redfin_zip r using (zip)
    where r.median_dom is not null
      and redfin_stands_for(r.period_end, r.homes_sold, r.redfin_property_type, g.property_type,
                            cast(g.zip_as_of - to_months(g.months) + interval 1 day as date), g.zip_as_of)
    group by all
)
select
    g.zip, g.property_type, g.months,
    coalesce(nm.city, '') as city,
    nm.state_code,
    coalesce(w.n, 0) as comp_count,
    coalesce(w.n_sales, 0) as sale_count,
    case when w.n >= 5 then w.n end as sample_count,
    case when w.n >= 5 then w.p25 end as ppsf_p25,
    case when w.n >= 5 then w.p50 end as ppsf_median,
    case when w.n >= 5 then w.p75 end as ppsf_p75,
    case when w.n >= 5 and w.n_dom >= 5 then w.dom_median else r.median_dom end as dom_median,
    case when w.n >= 5 and w.n_dom >= 5 then 'sales' when r.median_dom is not null then 'redfin' end as dom_source,
    case when w.n >= 5 and w.n_ratio >= 5 then w.ratio_median end as list_to_sale_ratio,
    case when w.n >= 5 and w.n_ratio >= 5 then 'sales' end as ratio_source,
    -- the Redfin period days on market comes from (null when it comes from the sales or is null)
    case when not coalesce(w.n >= 5 and w.n_dom >= 5, false) then redfin_period_start(r.period_end) end as redfin_period_start,
    case when not coalesce(w.n >= 5 and w.n_dom >= 5, false) then r.period_end end as redfin_period_end,
    case when not coalesce(w.n >= 5 and w.n_dom >= 5, false) then r.redfin_type end as redfin_property_type,
    case when not coalesce(w.n >= 5 and w.n_dom >= 5, false) then r.homes_sold::integer end as redfin_homes_sold,
    min_confidence(confidence_by_count(coalesce(w.n, 0)), confidence_by_coverage(coalesce(cv.records_days, 0), b.window_days)) as confidence,
    cast(g.zip_as_of - to_months(g.months) as date) as window_start,
    g.zip_as_of as window_end,
    b.window_days, cv.records_start, cv.records_end, cast(coalesce(cv.records_days, 0) as integer) as records_days,
    -- a cohort of 1-4 comps keeps its dates too: as_of is the window end (the zip's, shared by all five types)
    case when w.n >= 5 then w.last_comp_date else g.zip_as_of end as as_of,
    comps_note(comps_coverage_words(coalesce(cv.records_days, 0), coalesce(cv.any_days, 0), b.window_days, cv.records_spans),
               nullif(concat_ws('; ', comps_left_out(lo.n, lo.parts), comps_coops(co.n)), ''),
               coalesce(w.n, 0), coalesce(w.n_sales, 0), g.property_type,
               case when w.n >= 5 and w.n_dom >= 5 then w.dom_median else r.median_dom end is null,
               not coalesce(w.n >= 5 and w.n_ratio >= 5, false),
               case when not coalesce(w.n >= 5 and w.n_dom >= 5, false) and r.median_dom is not null
                    then format('days on market: the Redfin zip tracker''s median for {} sales of the 90 days {} to {} ({} homes sold, data provided by Redfin)',
                                redfin_type_words(r.redfin_type), strftime(redfin_period_start(r.period_end), '%Y-%m-%d'),
                                strftime(r.period_end, '%Y-%m-%d'), r.homes_sold::integer) end,
               comps_type_unrecorded(g.property_type, zt.types, zt.n_sources)) as note
from grid g
left join windowed w using (zip, property_type, months)
left join redfin r using (zip, property_type, months)
join (select zip, months, cast(date_diff('day', boundary, w.zip_as_of) as integer) as window_days
      from boundaries join zip_window w using (zip)) b using (zip, months)
left join coverage cv using (zip, months)
left join left_out lo using (zip, property_type, months)
left join coops co using (zip, property_type, months)
left join zip_types zt using (zip)
left join int_market_zip_names nm using (zip);
