-- requires: sales, int_market_zip_names, int_market_city_parts, int_market_untyped_files
-- market_monthly: one row per market x property_type x month, the monthly series of GET /v1/market/trends
-- (warehouse/docs/market.md "market_monthly and the trends"). A market is a zip (market_kind 'zip', as comps) or a
-- city (market_kind 'city': state_code + slug(city), as the investor overview) with at least one arm's-length sale;
-- every market has all five property types (as comps). A sale with a city part (an NYC borough,
-- int_market_city_parts) counts in its city (New York) and in its part (Brooklyn): the borough is a city market too. Only arm's-length sales (the one rule,
-- 30_market_45_sale_flags.sql): a flagged record neither counts nor moves a window.
-- Months: the 60 calendar months ending with the month of the market's as_of (its most recent arm's-length sale of
-- any type, as comps' window end), month 1 the oldest; a sale counts in the month of its sale_date.
-- Minimum cohort 5: a month with fewer than 5 sales of the type has sales_count and every figure null (sale_count
-- keeps the raw count for the warehouse); a median over a subset (price per sqft, days on market, investor share)
-- needs 5 sales with that value too.
-- untyped_count: the month's sales of the type from a file that records no residential subtype
-- (int_market_untyped_files: Connecticut's 2022 extract), whose sfr is every residential sale.
-- ln_price_sd (the spread of ln price, the median model's error) feeds the price index; the index columns
-- (index_method, index_level, index_se, index_sample_count, price_index*) are added by 30_mart_market_trends.ts.
create or replace table market_monthly as
with arm as (
    select sale_id, zip, state_code, slug(city) as city_slug, city, property_type, sale_date, sale_price,
           case when sqft > 0 then sale_price / sqft end as ppsf,
           case when list_date is not null and list_date <= sale_date then date_diff('day', list_date, sale_date) end as dom,
           buyer_is_investor,
           u.file is not null as untyped
    from sales left join int_market_untyped_files u using (source, file)
    where is_arms_length
),
arm_city as (
    -- the sales of the city markets: each sale in its city, and once more in its part of the city (a borough)
    select * from arm where state_code is not null and city_slug is not null and city_slug <> ''
    union all
    select a.* replace (slug(cp.city_part) as city_slug, cp.city_part as city)
    from arm a join int_market_city_parts cp using (sale_id)
    where a.state_code is not null and slug(cp.city_part) <> ''
),
markets as (
    select 'zip' as market_kind, zip, null::varchar as state_code, null::varchar as city_slug, max(sale_date) as as_of
    from arm where zip is not null group by zip
    union all
    select 'city', null, state_code, city_slug, max(sale_date)
    from arm_city group by state_code, city_slug
),
names as (
    -- the display city and state: a zip's as comps (int_market_zip_names), a city's most frequent spelling
    select m.market_kind, m.zip, m.state_code, m.city_slug,
           coalesce(nm.city, '') as city_name, nm.state_code as state_name
    from markets m left join int_market_zip_names nm using (zip) where m.market_kind = 'zip'
    union all
    select 'city', null, state_code, city_slug, mode(city), state_code
    from arm_city group by state_code, city_slug
),
grid as (
    select m.market_kind, m.zip, m.state_code, m.city_slug, m.as_of, t.property_type, i.month_no,
           cast(date_trunc('month', m.as_of) - to_months(60 - i.month_no) as date) as month
    from markets m
    cross join (select unnest(property_types()) as property_type) t
    cross join (select cast(range as integer) as month_no from range(1, 61)) i
),
tagged as (
    -- each sale once per market that holds it: its zip's and its city's
    select 'zip' as market_kind, zip, null::varchar as state_code, null::varchar as city_slug, * exclude (sale_id, zip, state_code, city_slug, city)
    from arm where zip is not null
    union all
    select 'city', null, state_code, city_slug, * exclude (sale_id, zip, state_code, city_slug, city)
    from arm_city
),
monthly as (
    select market_kind, zip, state_code, city_slug, property_type, cast(date_trunc('month', sale_date) as date) as month,
           count(*) as n, median(sale_price) as median_price, stddev_samp(ln(sale_price)) as ln_sd,
           count(ppsf) as n_ppsf, median(ppsf) as median_ppsf,
           count(dom) as n_dom, median(dom) as median_dom,
           count(buyer_is_investor) as n_buyer, count(*) filter (where buyer_is_investor) as n_investor,
           count(*) filter (where untyped) as n_untyped
    from tagged group by all
)
select
    g.market_kind, g.zip, g.state_code, g.city_slug, nm.city_name as city, nm.state_name as state, g.property_type,
    g.month_no, g.month, strftime(g.month, '%Y-%m') as month_label,
    coalesce(s.n, 0) as sale_count,
    case when s.n >= 5 then s.n end as sales_count,
    case when s.n >= 5 then s.median_price end as median_price,
    case when s.n >= 5 and s.n_ppsf >= 5 then s.median_ppsf end as median_price_per_sqft,
    case when s.n >= 5 and s.n_dom >= 5 then s.median_dom end as median_days_on_market,
    case when s.n >= 5 and s.n_buyer >= 5 then 100.0 * s.n_investor / s.n_buyer end as investor_purchase_share_pct,
    case when s.n >= 5 then s.ln_sd end as ln_price_sd,
    coalesce(s.n_ppsf, 0) as sqft_count, coalesce(s.n_dom, 0) as dom_count, coalesce(s.n_buyer, 0) as known_buyer_count,
    coalesce(s.n_untyped, 0) as untyped_count,
    g.as_of
from grid g
left join monthly s
  on s.market_kind = g.market_kind and s.zip is not distinct from g.zip and s.state_code is not distinct from g.state_code
 and s.city_slug is not distinct from g.city_slug and s.property_type = g.property_type and s.month = g.month
join names nm
  on nm.market_kind = g.market_kind and nm.zip is not distinct from g.zip and nm.state_code is not distinct from g.state_code
 and nm.city_slug is not distinct from g.city_slug
order by g.market_kind, g.zip, g.state_code, g.city_slug, g.property_type, g.month_no;
