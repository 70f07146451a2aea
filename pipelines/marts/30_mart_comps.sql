-- requires: sales, int_market_zip_names, int_market_redfin_zip
-- mart_comps: one row per zip x property_type x months (3..24) for every zip and type with at least one sale.
-- The window of a lookback ends at the zip's most recent sale (any type): sale_date in (as_of - months, as_of].
-- Comps are arm's-length sales of that type with a living area (price per sqft = sale_price / sqft).
-- Minimum cohort: below 5 comps sample_count and every percentile are null (nothing about the cohort leaks);
-- days on market and list-to-sale come from the comps' own list data when at least 5 comps have it, else from
-- the Redfin zip snapshot nearest the window end, else null. Formulas: warehouse/docs/market.md.
create or replace table mart_comps as
with zip_window as (
    select zip, max(sale_date) as zip_as_of from sales where zip is not null group by zip
),
combos as (
    select distinct zip, property_type from sales where zip is not null
),
months as (
    select cast(range as integer) as months from range(3, 25)
),
comps as (
    select s.zip, s.property_type, s.sale_date, w.zip_as_of,
           s.sale_price / s.sqft as ppsf,
           case when s.list_price > 0 then s.sale_price / s.list_price end as sale_to_list,
           case when s.list_date is not null and s.list_date <= s.sale_date then date_diff('day', s.list_date, s.sale_date) end as dom
    from sales s join zip_window w using (zip)
    where s.is_arms_length and s.sqft > 0 and s.sale_date > w.zip_as_of - interval 24 month
),
windowed as (
    select c.zip, c.property_type, m.months,
           count(*) as n,
           quantile_cont(c.ppsf, 0.25) as p25,
           quantile_cont(c.ppsf, 0.5) as p50,
           quantile_cont(c.ppsf, 0.75) as p75,
           count(c.dom) as n_dom, median(c.dom) as dom_median,
           count(c.sale_to_list) as n_ratio, median(c.sale_to_list) as ratio_median,
           max(c.sale_date) as last_comp_date
    from comps c join months m on c.sale_date > c.zip_as_of - to_months(m.months)
    group by c.zip, c.property_type, m.months
),
grid as (
    select k.zip, k.property_type, m.months, w.zip_as_of
    from combos k join zip_window w using (zip) cross join months m
),
redfin as (
    -- the Redfin snapshot nearest each zip's window end (ties: the later one)
    select g.zip, arg_min(r.median_dom, abs(date_diff('day', r.period_end, g.zip_as_of)) * 2 - (r.period_end > g.zip_as_of)::int) as median_dom,
           arg_min(r.avg_sale_to_list_ratio, abs(date_diff('day', r.period_end, g.zip_as_of)) * 2 - (r.period_end > g.zip_as_of)::int) as sale_to_list,
           arg_min(r.period_end, abs(date_diff('day', r.period_end, g.zip_as_of)) * 2 - (r.period_end > g.zip_as_of)::int) as period_end
    from zip_window g join int_market_redfin_zip r using (zip)
    group by g.zip
)
select
    g.zip, g.property_type, g.months,
    coalesce(nm.city, '') as city,
    nm.state_code,
    coalesce(w.n, 0) as comp_count,
    case when w.n >= 5 then w.n end as sample_count,
    case when w.n >= 5 then w.p25 end as ppsf_p25,
    case when w.n >= 5 then w.p50 end as ppsf_median,
    case when w.n >= 5 then w.p75 end as ppsf_p75,
    case when w.n >= 5 and w.n_dom >= 5 then w.dom_median else r.median_dom end as dom_median,
    case when w.n >= 5 and w.n_dom >= 5 then 'sales' when r.median_dom is not null then 'redfin' end as dom_source,
    case when w.n >= 5 and w.n_ratio >= 5 then w.ratio_median else r.sale_to_list end as list_to_sale_ratio,
    case when w.n >= 5 and w.n_ratio >= 5 then 'sales' when r.sale_to_list is not null then 'redfin' end as ratio_source,
    r.period_end as redfin_period_end,
    confidence_by_count(coalesce(w.n, 0)) as confidence,
    cast(g.zip_as_of - to_months(g.months) as date) as window_start,
    g.zip_as_of as window_end,
    coalesce(w.last_comp_date, g.zip_as_of) as as_of
from grid g
left join windowed w using (zip, property_type, months)
left join redfin r using (zip)
left join int_market_zip_names nm using (zip);
