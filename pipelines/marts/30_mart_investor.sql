-- requires: sales, distress, int_market_resales, int_market_city_tiers, int_market_city_parts, int_market_file_coverage
-- mart_investor: one row per city x state x months (3..24) for every city with arm's-length sales or distress
-- filings. Cities are matched by slug(city) within a state. The window ends where the sources that cover the city
-- end (as_of: the latest arm's-length sale or filing of each such source, the latest of them), dates in
-- (as_of - months, as_of]. Not the city's own latest record: a borough whose last foreclosure filing was in 2014
-- would show that year's count as its window in a file that runs to 2022 (review 4: Haysville "1 as of
-- 2014-10-28"), and a covered city could never show its true 0. A source's sales and its filings end apart (one
-- canonical folder): each kind's end is its own, and the distress figures have their own window, (distress_as_of -
-- months, distress_as_of], distress_as_of the latest filing of the distress sources covering the city. The flags of 30_market_45_sale_flags.sql:
--   investor_purchase_rate_pct = 100 * investor buyers / sales for value whose buyer name is known (null when no
--                                buyer names: King County, NYC, Sacramento, Connecticut). The spec's "percent of all
--                                sales bought by investors" reads no price, so a sale for value is every recorded sale
--                                but a duplicate copy and a transfer that is no sale (nominal price, related parties, a
--                                deed not for value): portfolio deeds count (once per parcel, as recorded: each parcel
--                                is a property bought), and so do sales flagged only because their price is no market
--                                price (a non-use code, the assessment ratio). Philadelphia's 12 months: 247 portfolio
--                                parcels, 80% bought by investors, left out they took the rate from ~27.5% to 23.6%.
--   flips (below)              = arm's-length sales only: they read prices
-- Minimum cohort (as comps, warehouse/docs/market.md "mart_investor"): the rate needs 5 sales for value with a known
-- buyer, flip velocity and margin 5 flips; below, the figure is null and the note says 'fewer than 5' (a single
-- flip's margin and days held give its two prices and dates). The counts stay here; the export nulls 1-4.
-- A sale with a city part (an NYC borough, int_market_city_parts) counts in its city (New York) and in its part
-- (Brooklyn), a flip by its resale, as market_monthly.
--   flip_velocity_days         = median days held over investor flips resold in the window
--   gross_flip_margin_pct      = 100 * median((resale - purchase) / purchase) over the same flips
--   distressed_pipeline_count  = distinct properties with an open pre-foreclosure, tax-delinquent or lien filing
--                                in the window (a case closed on or before the window's as_of, distress.status 'closed'
--                                with its status_date: by its docket or sold at the commissioner sale, is no active
--                                signal and is not counted, nor in distress_filings; a Louisville case sold after as_of
--                                still counts); null unless a distress source covers the city (the city has at least
--                                one filing in `distress`, any date): no source is not the same as no filing. A
--                                property is its parcel id, else its address and zip; a filing with neither (172
--                                Allegheny docket rows have no pin) is a property of its own, so Penn Hills' 12
--                                months are 63: 61 parcels and 2 cases without one
--   distressed_without_parcel  = of distressed_pipeline_count, the filings that name neither a parcel nor an address
--                                (Penn Hills' 2): the note says so, so the identified properties (61) can be recomputed;
--                                a filing whose records give no case outcome (status null: a canonical distress.csv
--                                without closed_date) counts as open, and the note says how many (review 22)
--   platform_active_deals      = 0 (no community deal data yet)
--   market_tier                = int_market_city_tiers (geo `cities`, else the population fallback rule; a city
--                                no Census place: its county's CBSA, 30_market_90); a city found in none is rural by rule
--   confidence                 = confidence_by_count(sales for value whose buyer name is known + distress
--                                filings in the window): the figures are computed from those records only, so a
--                                city whose sales carry no buyer names and no distress source covers is low; at most
--                                confidence_by_coverage(records_days, window_days), as comps (review 9 #3)
-- Coverage of the window (as mart_comps, int_market_file_coverage: review 17): the days of the window a sales file of a
-- source with arm's-length sales of the city covers with its full volume (its solid months), merged: the rate and the
-- flips are of sales, so a distress file's span is not their coverage (review 25); a city of filings only, its filing
-- files' spans. The distress count's own window says its files' days apart in its clause of the note where they
-- cover less. The note opens with 'records cover <spans> only, <d>
-- of the <w> days asked' when they cover less (Denver's file: 2018-01-01..2019-06-30 solid, 546 of 24 months' 730
-- days), and the comps' partial-extract words when a thin month reaches further (coverage_words, 30_mart_00_market_file_coverage.sql).
create or replace table mart_investor as
with city_sales as (
    -- every sale for value (above); is_arms_length marks the ones whose price is a market price (the window's end)
    select source, file, state_code, slug(city) as city_slug, city, sale_date, is_arms_length, buyer_is_investor
    from sales
    where not coalesce(is_duplicate, false) and coalesce(non_arms_length_reason not in ('nominal_price', 'related_parties', 'deed_type'), true)
      and city is not null and state_code is not null and slug(city) <> ''
    union all
    select s.source, s.file, s.state_code, slug(cp.city_part), cp.city_part, s.sale_date, s.is_arms_length, s.buyer_is_investor
    from sales s join int_market_city_parts cp using (sale_id)
    where not coalesce(s.is_duplicate, false) and coalesce(s.non_arms_length_reason not in ('nominal_price', 'related_parties', 'deed_type'), true)
      and s.state_code is not null and slug(cp.city_part) <> ''
),
city_resales as (
    select *, slug(city) as city_slug from int_market_resales where is_investor_flip and city is not null
    union all
    select r.* replace (cp.city_part as city), slug(cp.city_part) from int_market_resales r join int_market_city_parts cp using (sale_id)
    where r.is_investor_flip
),
city_distress as (
    select source, file, state_code, slug(city) as city_slug, city, filing_date, status, status_date,
           coalesce(source || ':' || parcel_id, source || ':' || address || '|' || coalesce(zip, ''), distress_id) as property_key,
           parcel_id is null and address is null as unidentified
    from distress where city is not null and state_code is not null and slug(city) <> ''
),
distress_cities as (
    -- the cities a distress source covers: any filing of the city, whatever its date
    select distinct state_code, city_slug from city_distress
),
city_records as (
    -- kind: a source's sales and its filings end apart (a canonical folder's sales.csv to 2022-12, its distress.csv to
    -- 2016-06: review 15), so an end and a span are a kind's of a source, never the whole source's
    select source, 'sale' as kind, file, state_code, city_slug, city, case when is_arms_length then sale_date end as d from city_sales
    union all select source, 'distress', file, state_code, city_slug, city, filing_date as d from city_distress
),
source_end as (
    -- where each source's records of a kind end: its latest arm's-length sale, or its latest filing
    select source, kind, max(d) as source_as_of from city_records where d is not null group by source, kind
),
city_window as (
    -- distress_as_of: where the city's distress records end, the distress window's own end (a folder's sales running
    -- six years past its filings would otherwise count no filing: Louisville 0 to 2022-12 instead of 91 to 2016-06-03)
    select state_code, city_slug, max(e.source_as_of) as as_of,
           max(e.source_as_of) filter (where kind = 'distress') as distress_as_of, mode(city) as city_name
    from city_records r join source_end e using (source, kind)
    where r.d is not null
    group by state_code, city_slug
),
months as (
    select cast(range as integer) as months from range(3, 25)
),
grid as (
    select c.*, m.months, cast(c.as_of - to_months(m.months) as date) as window_start,
           cast(c.distress_as_of - to_months(m.months) as date) as distress_window_start
    from city_window c cross join months m
),
sales_w as (
    select g.state_code, g.city_slug, g.months,
           count(*) as sales_for_value,
           count(*) filter (where s.is_arms_length) as arms_length_sales,
           count(s.buyer_is_investor) as known_buyer_sales,
           count(*) filter (where s.buyer_is_investor) as investor_purchases
    from grid g join city_sales s on s.state_code = g.state_code and s.city_slug = g.city_slug
     and s.sale_date > g.window_start and s.sale_date > g.as_of - interval 24 month
     and s.sale_date <= g.as_of -- a portfolio deed after the last arm's-length sale is outside the window
    group by all
),
flips_w as (
    select g.state_code, g.city_slug, g.months,
           count(*) as flips, median(r.days_held) as flip_days, median(r.gross_margin) as flip_margin
    from grid g join city_resales r
      on r.state_code = g.state_code and r.city_slug = g.city_slug and r.resale_date > g.window_start
    group by all
),
sale_cities as (
    -- the cities with an arm's-length sale of any date: their coverage is their sales files'
    select distinct state_code, city_slug from city_records where kind = 'sale' and d is not null
),
cover_sources as (
    -- the files whose days cover the window: the city's sales sources' sales files, since the investor share and the
    -- flips are shares and pairs of sales (review 25: a folder's distress.csv spanning 2022-12-19..2023-08-07 read
    -- Madison's 12 months as 233 days covered over the same thin sales extract that covers 1 day); a city of filings
    -- only: its distress files, the only records its answer counts (not the same folder's sales.csv)
    select distinct r.state_code, r.city_slug, r.source, r.kind from city_records r left join sale_cities sc using (state_code, city_slug)
    where r.d is not null and (r.kind = 'sale' or sc.city_slug is null)
),
clipped as (
    -- the part of each window inside a month of a file of cover_sources; kind 'full' the months the file covers
    -- with its full volume, 'any' all of them (int_market_file_coverage: the one coverage rule, as mart_comps)
    select g.state_code, g.city_slug, g.months, k.kind as cover, greatest(f.lo, cast(g.window_start + 1 as date)) as lo, least(f.hi, g.as_of) as hi
    from grid g
    join cover_sources cs using (state_code, city_slug)
    join int_market_file_coverage f using (source, kind)
    join (values ('full'), ('any')) k(kind) on k.kind = 'any' or f.full_volume
    where f.lo <= g.as_of and f.hi > g.window_start
    union all
    -- the distress window's own coverage (cover 'distress'), said apart in the note where the city has sales as well
    select g.state_code, g.city_slug, g.months, 'distress', greatest(f.lo, cast(g.distress_window_start + 1 as date)), least(f.hi, g.distress_as_of)
    from grid g
    join (select distinct state_code, city_slug, source from city_records where kind = 'distress' and d is not null) cs using (state_code, city_slug)
    join int_market_file_coverage f on f.source = cs.source and f.kind = 'distress'
    where f.lo <= g.distress_as_of and f.hi > g.distress_window_start
),
islands as (
    select *, count(*) filter (where lo > prev_hi + 1) over (partition by state_code, city_slug, months, cover order by lo, hi) as island
    from (select *, max(hi) over (partition by state_code, city_slug, months, cover order by lo, hi rows between unbounded preceding and 1 preceding) as prev_hi
          from clipped)
),
coverage as (
    select state_code, city_slug, months,
           min(lo) filter (where cover = 'full') as records_start, max(hi) filter (where cover = 'full') as records_end,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where cover = 'full'), 0) as records_days,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where cover = 'any'), 0) as any_days,
           string_agg(strftime(lo, '%Y-%m-%d') || ' to ' || strftime(hi, '%Y-%m-%d'), ' and ' order by lo) filter (where cover = 'full') as records_spans,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where cover = 'distress'), 0) as distress_days,
           string_agg(strftime(lo, '%Y-%m-%d') || ' to ' || strftime(hi, '%Y-%m-%d'), ' and ' order by lo) filter (where cover = 'distress') as distress_spans
    from (select state_code, city_slug, months, cover, island, min(lo) as lo, max(hi) as hi from islands group by all)
    group by all
),
distress_w as (
    select g.state_code, g.city_slug, g.months,
           count(*) as filings, count(distinct d.property_key) as properties,
           count(distinct d.property_key) filter (where d.unidentified) as unidentified,
           -- filings whose records give no case outcome (a canonical distress.csv without closed_date): open by default
           count(*) filter (where d.status is null) as status_unknown
    from grid g join city_distress d on d.state_code = g.state_code and d.city_slug = g.city_slug
     and d.filing_date > g.distress_window_start and d.filing_date <= g.distress_as_of
     and (d.status is distinct from 'closed' or d.status_date > g.distress_as_of)
    group by all
)
select
    g.state_code, coalesce(t.city_name, g.city_name) as city, g.city_slug, g.months,
    case when s.known_buyer_sales >= 5 then 100.0 * s.investor_purchases / s.known_buyer_sales end as investor_purchase_rate_pct,
    case when f.flips >= 5 then f.flip_days end as flip_velocity_days,
    case when f.flips >= 5 then 100.0 * f.flip_margin end as gross_flip_margin_pct,
    case when dc.city_slug is not null then coalesce(d.properties, 0) end as distressed_pipeline_count,
    case when dc.city_slug is not null then coalesce(d.unidentified, 0) end as distressed_without_parcel,
    0 as platform_active_deals,
    coalesce(t.market_tier, 'rural') as market_tier,
    coalesce(t.tier_source, 'no city match: rural by rule') as tier_source,
    min_confidence(confidence_by_count(coalesce(s.known_buyer_sales, 0) + coalesce(d.filings, 0)),
                   confidence_by_coverage(coalesce(cv.records_days, 0), date_diff('day', g.window_start, g.as_of))) as confidence,
    coalesce(s.known_buyer_sales, 0) + coalesce(d.filings, 0) as sample_count,
    coalesce(s.sales_for_value, 0) as sales_for_value,
    coalesce(s.arms_length_sales, 0) as arms_length_sales,
    coalesce(s.known_buyer_sales, 0) as known_buyer_sales,
    coalesce(s.investor_purchases, 0) as investor_purchases,
    coalesce(f.flips, 0) as flips,
    coalesce(d.filings, 0) as distress_filings,
    g.window_start,
    g.as_of,
    g.distress_as_of,
    cast(date_diff('day', g.window_start, g.as_of) as integer) as window_days,
    cv.records_start, cv.records_end, cast(coalesce(cv.records_days, 0) as integer) as records_days,
    -- note: why each null figure is null, one clause per cause ('; ' between them); null when none is
    nullif(concat_ws('; ',
        coverage_words('records', 'city''s sales', coalesce(cv.records_days, 0), coalesce(cv.any_days, 0),
                       date_diff('day', g.window_start, g.as_of), cv.records_spans),
        case when coalesce(s.known_buyer_sales, 0) = 0 and coalesce(s.sales_for_value, 0) = 0
             then 'no sale for value in the window: no investor purchase rate, flip velocity or flip margin'
             when coalesce(s.known_buyer_sales, 0) = 0
             then 'the sales records of this city carry no buyer names: no investor purchase rate, and without an investor purchase no flip can be told (no flip velocity or margin)'
             when s.known_buyer_sales < 5
             then 'fewer than 5 sales for value in the window record a buyer name: no investor purchase rate (minimum cohort 5)' end,
        case when coalesce(s.known_buyer_sales, 0) = 0 then null
             when f.flips is null
             then 'no investor purchase resold 1 to 365 days later has its resale in the window (a flip needs both deeds in the records): no flip velocity or margin'
             when f.flips < 5
             then 'fewer than 5 investor flips have their resale in the window: no flip velocity or margin (minimum cohort 5)' end,
        case when dc.city_slug is null
             then 'no distress source covers this city (no pre-foreclosure, tax-delinquent or lien filing on record): no distressed pipeline count'
             else format('distressed_pipeline_count counts the properties with an open filing filed in the last {} months (to {}), not every filing still open',
                         g.months, strftime(g.distress_as_of, '%Y-%m-%d'))
                  -- a city with sales: coverage is the sales files', so the filings' own days are said here
                  || case when sc.city_slug is not null and cv.distress_days < date_diff('day', g.distress_window_start, g.distress_as_of)
                          then format('; the filing records cover {} only, {} of that window''s {} days', cv.distress_spans, cv.distress_days,
                                      date_diff('day', g.distress_window_start, g.distress_as_of)) else '' end
                  || case when coalesce(d.unidentified, 0) > 0
                          then format('; {} of its {} are filings that name no parcel or address, each counted as a property of its own ({} identified properties)',
                                      d.unidentified, d.properties, d.properties - d.unidentified) else '' end
                  || case when coalesce(d.status_unknown, 0) > 0
                          then format('; {} of the window''s {} filings come from records that give no case outcome (distress.csv has no closed_date): a case closed, dismissed or redeemed since its filing is counted as open',
                                      d.status_unknown, d.filings) else '' end end
    ), '') as note
from grid g
left join sales_w s using (state_code, city_slug, months)
left join flips_w f using (state_code, city_slug, months)
left join distress_w d using (state_code, city_slug, months)
left join distress_cities dc using (state_code, city_slug)
left join sale_cities sc using (state_code, city_slug)
left join coverage cv using (state_code, city_slug, months)
left join (select state_code, city_slug, any_value(city_name) as city_name, any_value(market_tier) as market_tier, any_value(tier_source) as tier_source
           from int_market_city_tiers group by all) t using (state_code, city_slug);
