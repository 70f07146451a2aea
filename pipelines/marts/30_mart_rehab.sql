-- requires: sales, permits, int_market_file_coverage, int_market_zip_permits, int_market_permit_area, int_market_resales, int_market_housing_units, int_market_zip_names, mart_market_direction
-- Over 300 lines: a 70-line header that documents every column and note clause, then the two tables the score is one
-- computation of (mart_rehab_permits, the window's permit counts per zip; mart_rehab, which reads them): kept together
-- so the permit window is defined once and read by both. The SQL itself is about 230 lines.
-- mart_rehab: one row per zip x months (3..24) for every zip with permits or arm's-length sales. Each measure's window
-- ends at the last day of its own kind of records of the zip's sources (a month without a record in the zip is a
-- month of none, not cut off): the permit components count permits in (permits_as_of - months, permits_as_of], the
-- resale share sales in (sales_as_of - months, sales_as_of]; as_of is the later of the two (the window of `coverage`).
-- Flagged sales (30_market_45_sale_flags.sql) count nowhere here.
-- Over 300 lines: one statement, the score and each of its windows, counts, trend and note built in one pass over the
-- same zip x months rows; split, each part would re-derive the windows the others read (market.md mart_rehab).
-- rehab_momentum_score (0-100) = weighted mean of the components that can be computed for the zip
-- (weights renormalised over the available ones):
-- Rehab permits: residential rehab only (renovation, addition, repair on a residential building; where the source
--   cannot tell the use, a declared cost of $500,000 or less: is_residential_rehab, warehouse/macros.sql); the rest are
--   permits_rehab_nonresidential and count in neither permit component (review: downtown office towers scored 100).
--   permit intensity  0.45: rehab permits (renovation + addition + repair) per 1,000 housing units per year,
--                           100 * min(1, ln(1 + rate) / ln(1 + 50))                (needs permits + ACS units)
--   permit value      0.35: declared rehab permit valuation per housing unit per year (USD),
--                           100 * min(1, ln(1 + usd) / ln(1 + 2000))              (needs permits + ACS units)
--                           A permit without a declared cost (valuation null or 0) adds nothing to the sum and is
--                           never counted as $0: the component's weight is 0.35 x the declared share (rehab permits
--                           with a declared cost / rehab permits), and with no declared cost at all the component is
--                           null and left out. A window with no rehab permit has a true $0 (full weight).
--   rehab resales     0.20: share of residential (sfr, condo, multi) arm's-length sales that are renovated resales or
--                           quick resales at a gain: both sides residential, as the permit components (a land or
--                           commercial sale where the source types one, NYC, Philadelphia, Connecticut, canonical,
--                           counts in neither; King County, Sacramento and Denver record homes only),
--                           100 * min(1, share / 0.10)   (needs 5 arm's-length sales in the window, the minimum
--                           cohort of comps and investor: a share of 1-4 sales is null and left out, and the note
--                           says so; and records that can show resales: a repeat sale or a renovation year somewhere
--                           in the zip; one-sale-per-parcel snapshots such as Philadelphia OPA cannot, so they get
--                           no resale component)
-- Permit source area (market.md "Permit source area"): a permit source covers one county or one city
--   (int_market_permit_area: Nashville, Davidson County, by residential addresses; Chicago, the city, by land);
--   a zip with under half (0.5) of it inside gets no permit component (La Vergne 37086: 0.4% in Davidson County
--   scored 0.0 "Cold" from the whole ZCTA's homes), and above, both rates divide by covered_share of the zip's
--   housing units; the note names the area, the share and its basis when it is under 95%.
-- A zip with no computable component has no row (its shard is a 404): a zip with no permit source and 1-4 sales in
-- the window is not scored (review: Canaan CT 06018 "Cold" from 3 sales in every window, NYC 10044).
-- label: < 20 Cold, < 40 Warming, < 60 Active, < 80 Hot, else Very Hot.
-- trend: the zip's 30-day direction, read from mart_market_direction (30_mart_market_direction.sql: rehab events in the
--   30 days to its window_end vs the 30 days before, up above +5%, down below -5%, else flat), the one definition the
--   market trends (30_mart_market_trends.ts) also read, so the two never disagree. trend_end: that window_end (the
--   earlier of as_of and the day the zip's sources are complete through; a zip of permits and sales ending apart: each
--   kind to its own such day, trend_end the later, and the note names both).
-- confidence: confidence_by_count(sample_count), the events the score is computed from: the window's residential
--   rehab permits when a permit component is computed, plus its arm's-length sales when the resale share is (review:
--   60602 read 'high' from 617 permits, 602 of them office work or new construction that no component counts, while
--   its 'Very Hot' rested on 15 rehab permits); low when neither permit component can be computed (the score is the
--   resale share alone); at most confidence_by_coverage(records_days, window_days) of each computed measure's own
--   window (the permits', and the sales' when the resale share is computed), as comps (review 9 #3;
--   int_market_file_coverage, review 17): the window's days a file covers with its full volume (a permit file its
--   span, first to last permit; a sales file its solid months) of a file of a source of that kind counting in the zip,
--   merged; records_days (the answer's coverage) merges both kinds' files over the window to as_of; note (additive):
--   'records cover <spans> only, <d> of the <w> days asked' when they cover less; then, when the zip's permits and
--   sales end apart, both windows and the days each kind's records cover of its own; then, when the zip's records can
--   show resales and the window has 1-4 arm's-length sales, 'fewer than 5 arm's-length sales in the window: no rehab
--   resale share (minimum cohort 5)'; then, when neither permit component is computed, why ('no building permit
--   source covers this zip: no renovation permit data', the permit source covering under half of it, no housing unit
--   count) and 'the score is the rehab resale share alone (<r> of the window's <n> arm's-length sales are renovated
--   resales or quick resales at a gain)'; then, when a permit component counts permits whose zip the source does not record
--   (Chicago: placed by the nearest ZCTA centroid, zip_imputed; permits_rehab_zip_imputed counts them), '<n> of the
--   window's <m> residential rehab permits have no recorded zip: ...'; then, when it counts canonical permits whose
--   building use permits.csv does not record (no building_use column, or the row's empty), '<n> of the window's <m>
--   residential rehab permits do not record the building's use ...: commercial work may be counted' (review 22)
--   ('; ' between the clauses, as investor); null when none applies.
-- mart_rehab_permits: one row per zip x months (3..24) for every zip with permits that count in it
-- (int_market_zip_permits), scored or not: the permits of the window the score counts them over, (permits_as_of -
-- months, permits_as_of], permits_as_of the last permit of any zip of the zip's permit sources. permits_all of every type
-- and use; permits_rehab_types of a rehab type (renovation, addition, repair) on any building; permits_rehab the
-- residential rehab ones (is_residential_rehab), the permit components' input; the rest as mart_rehab. mart_rehab reads
-- its permit counts from here, and the rehab 404 of a zip whose permits give no score says the same counts (its
-- residential rehab permits of the window, not its permits of every type and use: sales-cover.json `permits.windows`).
create or replace table mart_rehab_permits as
with ends as (
    select p.zip, max(e.last_day) as permits_as_of
    from (select distinct zip, source from int_market_zip_permits) p
    join (select source, max(issue_date) as last_day from permits group by source) e using (source)
    group by p.zip
),
events as (
    select p.zip, p.issue_date, p.permit_type in ('renovation', 'addition', 'repair') as is_rehab_type,
           is_residential_rehab(p.permit_type, p.building_use, p.valuation) as is_rehab,
           case when is_residential_rehab(p.permit_type, p.building_use, p.valuation) and p.valuation > 0 then p.valuation end as rehab_value,
           coalesce(p.zip_imputed, false) as zip_imputed,
           -- a canonical permits.csv without building_use (or a row leaving it empty): the use is not recorded
           p.source = 'canonical' and p.building_use is null as use_unrecorded
    from int_market_zip_permits p join ends e using (zip)
    where p.issue_date > e.permits_as_of - interval 24 month
)
select e.zip, cast(m.months as integer) as months, e.permits_as_of,
       count(v.issue_date) as permits_all, count(v.issue_date) filter (where v.is_rehab_type) as permits_rehab_types,
       count(v.issue_date) filter (where v.is_rehab) as permits_rehab, count(v.rehab_value) as permits_rehab_valued,
       count(v.issue_date) filter (where v.is_rehab_type and not v.is_rehab) as permits_rehab_nonresidential,
       count(v.issue_date) filter (where v.is_rehab and v.zip_imputed) as permits_rehab_zip_imputed,
       count(v.issue_date) filter (where v.is_rehab and v.use_unrecorded) as permits_rehab_use_unrecorded,
       coalesce(sum(v.rehab_value), 0) as rehab_value
from ends e cross join range(3, 25) m(months)
left join events v on v.zip = e.zip and v.issue_date > cast(e.permits_as_of - to_months(cast(m.months as integer)) as date)
group by all;

create or replace table mart_rehab as
with permit_zip as (
    -- the permits that count in their zip (int_market_zip_permits: a guessed zip only within the permit's own city)
    select zip, max(issue_date) as last_permit from int_market_zip_permits group by zip
),
sale_zip as (
    select zip, max(sale_date) as last_sale from sales where zip is not null and is_arms_length group by zip
),
resale_zip as (
    -- zips whose records can show rehab resales at all: a repeat sale or a recorded renovation year
    select distinct zip from int_market_resales where zip is not null
    union select distinct zip from sales where zip is not null and year_renovated is not null and is_arms_length
),
permit_area as (
    select zip, min(covered_share) as covered_share, string_agg(distinct area_name, ', ') as area_name,
           string_agg(distinct share_basis, ', ') as share_basis, bool_or(source = 'nashville') as nashville
    from int_market_permit_area group by zip
),
source_end as (
    -- the last day of each source's records of a kind (a permit of any zip, an arm's-length sale): a zip's window ends
    -- where its sources' records end, not at its own last record (Nashville 37135 ended 2023-04-19, its source runs to
    -- 2024-09-19); a source's permits and sales end apart (one canonical folder's permits.csv and sales.csv: review 15)
    select source, kind, max(d) as last_day
    from (select source, 'permit' as kind, issue_date as d from permits union all select source, 'sale', sale_date from sales where is_arms_length)
    group by source, kind
),
zip_sources as (
    -- the sources and kinds of records that count in each zip
    select distinct zip, source, 'permit' as kind from int_market_zip_permits
    union select distinct zip, source, 'sale' from sales where zip is not null and is_arms_length
),
zip_files as (
    -- the files whose coverage a zip's window reads: every permit file of its permit sources; of its sales sources the
    -- files keying zips of its town, as mart_comps (h72audit: Connecticut's 2022 extract, which gives no zip, read as
    -- covering 06120's 24 months 2022-01-01..09-30, 273 days, where its comps said 0 and no sale of it counts)
    select zip, source, 'permit' as kind, null::varchar as file from zip_sources where kind = 'permit'
    union select z.zip, f.source, 'sale', f.file
    from (select distinct zip, state_code, city from sales where zip is not null and is_arms_length) z
    join (select distinct source, file, state_code, city from sales where zip is not null and is_arms_length) f using (state_code, city)
    union select distinct zip, source, 'sale', file from sales where zip is not null and is_arms_length
),
zip_end as (
    -- as_of: the last day of any of the zip's records; permits_as_of, sales_as_of: each kind's own (null without one)
    select zip, max(e.last_day) as as_of, max(e.last_day) filter (where kind = 'permit') as permits_as_of,
           max(e.last_day) filter (where kind = 'sale') as sales_as_of
    from zip_sources join source_end e using (source, kind) group by zip
),
zip_window as (
    select zip, ze.as_of, ze.permits_as_of, ze.sales_as_of, p.last_permit is not null as has_permits,
           zip in (select zip from resale_zip) as observes_resales, pa.covered_share, pa.area_name, pa.share_basis, coalesce(pa.nashville, false) as nashville,
           coalesce(pa.covered_share, 1) >= 0.5 as permits_cover
    from permit_zip p full join sale_zip s using (zip) join zip_end ze using (zip) left join permit_area pa using (zip)
),
months as (
    select cast(range as integer) as months from range(3, 25)
),
grid as (
    select z.zip, z.as_of, z.permits_as_of, z.sales_as_of, z.has_permits and z.permits_cover as has_permits, z.observes_resales, z.covered_share, z.area_name, z.share_basis, z.nashville, m.months,
           cast(z.as_of - to_months(m.months) as date) as window_start,
           -- each measure's own window: the permits' months to the permits' last day, the sales' to the sales' (review:
           -- a canonical folder's sales.csv to 2024-06 and permits.csv to 2023-12 read its last 6 months as no permit)
           cast(z.permits_as_of - to_months(m.months) as date) as permit_start, cast(z.sales_as_of - to_months(m.months) as date) as sale_start
    from zip_window z cross join months m
),
scopes as (
    -- the windows coverage is measured over: 'all' the window to as_of over every kind of the zip's records (the
    -- answer's coverage), 'permit' and 'sale' each kind's own window over that kind's files (permits_window, sales_window)
    select zip, months, 'all' as scope, window_start as ws, as_of as we from grid
    union all select zip, months, 'permit', permit_start, permits_as_of from grid where permits_as_of is not null
    union all select zip, months, 'sale', sale_start, sales_as_of from grid where sales_as_of is not null
),
clipped as (
    -- the part of each window inside a month of a file of the zip's sources and kinds; cover 'full' the months the file
    -- covers with its full volume, 'any' all of them (int_market_file_coverage: the one coverage rule, as mart_comps)
    select g.zip, g.months, g.scope, k.kind as cover, greatest(f.lo, cast(g.ws + 1 as date)) as lo, least(f.hi, g.we) as hi
    from scopes g
    join zip_files zs on zs.zip = g.zip and (g.scope = 'all' or zs.kind = g.scope)
    join int_market_file_coverage f on f.source = zs.source and f.kind = zs.kind and (zs.kind = 'permit' or f.file is not distinct from zs.file)
    join (values ('full'), ('any')) k(kind) on k.kind = 'any' or f.full_volume
    where f.lo <= g.we and f.hi > g.ws
),
islands as (
    select *, count(*) filter (where lo > prev_hi + 1) over (partition by zip, months, scope, cover order by lo, hi) as island
    from (select *, max(hi) over (partition by zip, months, scope, cover order by lo, hi rows between unbounded preceding and 1 preceding) as prev_hi from clipped)
),
coverage as (
    select zip, months, scope, min(lo) filter (where cover = 'full') as records_start, max(hi) filter (where cover = 'full') as records_end,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where cover = 'full'), 0) as records_days,
           coalesce(sum(date_diff('day', lo, hi) + 1) filter (where cover = 'any'), 0) as any_days,
           string_agg(strftime(lo, '%Y-%m-%d') || ' to ' || strftime(hi, '%Y-%m-%d'), ' and ' order by lo) filter (where cover = 'full') as records_spans
    from (select zip, months, scope, cover, island, min(lo) as lo, max(hi) as hi from islands group by all)
    group by zip, months, scope
),
sale_events as (
    -- residential sales only (sfr, condo, multi), as the numerator's renovated resales and rehab permits: a land or
    -- commercial sale is no home an investor rehabs (market.md mart_rehab "rehab resales": per source)
    -- (is_residential_sale, is_rehab_resale: warehouse/macros.sql, the test the 30-day direction's rehab events read)
    select s.zip, s.sale_date as event_date,
           is_rehab_resale(s.property_type, s.year_renovated, s.sale_date, r.is_quick_gain_resale) as is_rehab_sale
    from sales s join zip_window z using (zip)
    left join int_market_resales r using (sale_id)
    where s.is_arms_length and is_residential_sale(s.property_type) and s.sale_date > z.sales_as_of - interval 24 month
),
permit_windows as (
    -- the window's permits by kind and use: mart_rehab_permits, the counts the rehab 404 says too
    select * from mart_rehab_permits
),
sale_windows as (
    select g.zip, g.months, count(*) as sales_n, count(*) filter (where e.is_rehab_sale) as rehab_sales
    from grid g join sale_events e on e.zip = g.zip and e.event_date > g.sale_start
    group by g.zip, g.months
),
components as (
    select g.zip, g.months, g.as_of, g.has_permits, g.covered_share, g.area_name, g.share_basis, g.nashville, date_diff('day', g.window_start, g.as_of) as window_days,
           cv.records_start, cv.records_end, coalesce(cv.records_days, 0) as records_days, coalesce(cv.any_days, 0) as any_days, cv.records_spans,
           g.permits_as_of, g.permit_start, date_diff('day', g.permit_start, g.permits_as_of) as permits_window_days,
           cp.records_start as permits_records_start, cp.records_end as permits_records_end,
           -- null, not 0, for a kind the zip has no source of (its window is null too)
           case when g.permits_as_of is not null then coalesce(cp.records_days, 0) end as permits_records_days,
           g.sales_as_of, g.sale_start, date_diff('day', g.sale_start, g.sales_as_of) as sales_window_days,
           cs.records_start as sales_records_start, cs.records_end as sales_records_end,
           case when g.sales_as_of is not null then coalesce(cs.records_days, 0) end as sales_records_days,
           coalesce(pw.permits_all, 0) as permits_all, coalesce(pw.permits_rehab, 0) as permits_rehab,
           coalesce(pw.permits_rehab_valued, 0) as permits_rehab_valued,
           coalesce(pw.permits_rehab_nonresidential, 0) as permits_rehab_nonresidential,
           coalesce(pw.permits_rehab_zip_imputed, 0) as permits_rehab_zip_imputed,
           coalesce(pw.permits_rehab_use_unrecorded, 0) as permits_rehab_use_unrecorded,
           coalesce(pw.rehab_value, 0) as rehab_value,
           coalesce(sw.sales_n, 0) as sales_n, coalesce(sw.rehab_sales, 0) as rehab_sales,
           h.housing_units, h.housing_units * coalesce(g.covered_share, 1) as covered_units,
           case when g.has_permits and h.housing_units > 0
                then coalesce(pw.permits_rehab, 0) * 1000.0 / covered_units / (g.months / 12.0) end as permit_rate,
           -- no rehab permit: a true $0; rehab permits but none with a declared cost: unknown (null)
           case when g.has_permits and h.housing_units > 0 and (coalesce(pw.permits_rehab, 0) = 0 or pw.permits_rehab_valued > 0)
                then coalesce(pw.rehab_value, 0) / covered_units / (g.months / 12.0) end as value_rate,
           case when coalesce(pw.permits_rehab, 0) = 0 then 1.0
                else pw.permits_rehab_valued::double / pw.permits_rehab end as value_declared_share,
           -- minimum cohort 5 (as comps and investor): no share of 1-4 sales
           case when g.observes_resales and coalesce(sw.sales_n, 0) >= 5 then sw.rehab_sales::double / sw.sales_n end as rehab_sale_share,
           g.observes_resales and coalesce(sw.sales_n, 0) between 1 and 4 as resale_cohort_small
    from grid g
    left join permit_windows pw using (zip, months)
    left join sale_windows sw using (zip, months)
    left join coverage cv on cv.zip = g.zip and cv.months = g.months and cv.scope = 'all'
    left join coverage cp on cp.zip = g.zip and cp.months = g.months and cp.scope = 'permit'
    left join coverage cs on cs.zip = g.zip and cs.months = g.months and cs.scope = 'sale'
    left join int_market_housing_units h using (zip)
),
scored as (
    select *,
           -- (least() ignores nulls: a missing component must stay null, not become 100)
           case when permit_rate is not null then 100 * least(1, ln(1 + permit_rate) / ln(51)) end as permit_score,
           case when value_rate is not null then 100 * least(1, ln(1 + value_rate) / ln(2001)) end as value_score,
           case when rehab_sale_share is not null then 100 * least(1, rehab_sale_share / 0.10) end as resale_score
    from components
),
combined as (
    select *,
           (coalesce(0.45 * permit_score, 0) + coalesce(0.35 * value_declared_share * value_score, 0) + coalesce(0.20 * resale_score, 0))
             / nullif((case when permit_score is not null then 0.45 else 0 end)
                    + (case when value_score is not null then 0.35 * value_declared_share else 0 end)
                    + (case when resale_score is not null then 0.20 else 0 end), 0) as score,
           -- the events the score is computed from (confidence's count): the rehab permits of a computed permit
           -- component, the sales of a computed resale share
           (case when permit_score is not null or value_score is not null then permits_rehab else 0 end)
             + (case when resale_score is not null then sales_n else 0 end) as sample_count
    from scored
)
select
    c.zip, c.months,
    coalesce(nm.city, '') as city, nm.state_code,
    round(c.score, 1) as rehab_momentum_score,
    -- the band of the score as published (rounded to 1 decimal), so a 19.96 shown as 20.0 is Warming, not Cold
    case when round(c.score, 1) < 20 then 'Cold' when round(c.score, 1) < 40 then 'Warming' when round(c.score, 1) < 60 then 'Active'
         when round(c.score, 1) < 80 then 'Hot' else 'Very Hot' end as label,
    coalesce(t.direction, direction_30d(0)) as trend,
    round(coalesce(t.direction_pct, 0), 1) as trend_pct,
    coalesce(t.window_end, c.as_of) as trend_end,
    -- a score from the resale share alone (no permit source covers the zip: NYC, King County) rests on one fifth of
    -- the design's weight: low, whatever the sales count (review 2: 137 NYC zips were "Cold, high" from resales alone)
    case when c.permit_score is null and c.value_score is null then 'low'
         -- each computed measure's coverage of its own window (the permits' when a permit component is, the sales' when
         -- the resale share is): the same as the zip's coverage where its records are of one kind (every native zip)
         else min_confidence(confidence_by_count(c.sample_count),
                             case when c.resale_score is not null
                                  then min_confidence(confidence_by_coverage(c.permits_records_days, c.permits_window_days),
                                                      confidence_by_coverage(c.sales_records_days, c.sales_window_days))
                                  else confidence_by_coverage(c.permits_records_days, c.permits_window_days) end) end as confidence,
    c.sample_count,
    c.permits_all, c.permits_rehab, c.permits_rehab_valued, c.permits_rehab_nonresidential, c.permits_rehab_zip_imputed, c.rehab_value, c.value_declared_share, c.housing_units, c.sales_n, c.rehab_sales,
    c.permit_rate, c.value_rate, c.rehab_sale_share, c.permit_score, c.value_score, c.resale_score,
    coalesce(t.events_last_30d, 0) as events_last_30d, coalesce(t.events_prior_30d, 0) as events_prior_30d,
    cast(c.as_of - to_months(c.months) as date) as window_start,
    c.as_of,
    cast(c.window_days as integer) as window_days, c.records_start, c.records_end, cast(c.records_days as integer) as records_days,
    c.permits_as_of, c.permit_start as permits_window_start, cast(c.permits_window_days as integer) as permits_window_days,
    c.permits_records_start, c.permits_records_end, cast(c.permits_records_days as integer) as permits_records_days,
    c.sales_as_of, c.sale_start as sales_window_start, cast(c.sales_window_days as integer) as sales_window_days,
    c.sales_records_start, c.sales_records_end, cast(c.sales_records_days as integer) as sales_records_days,
    nullif(concat_ws('; ',
        coverage_words('records', 'zip''s sales', c.records_days, c.any_days, c.window_days, c.records_spans),
        -- a zip whose permit and sales records end apart (one canonical folder's permits.csv and sales.csv): each window
        case when c.permits_as_of <> c.sales_as_of
             then format('the zip''s permit and sales records end apart (permits {}, sales {}): permits are counted over {} to {} ({} of its {} days covered) and sales over {} to {} ({} of its {} days covered)',
                         strftime(c.permits_as_of, '%Y-%m-%d'), strftime(c.sales_as_of, '%Y-%m-%d'),
                         strftime(c.permit_start + 1, '%Y-%m-%d'), strftime(c.permits_as_of, '%Y-%m-%d'), c.permits_records_days, c.permits_window_days,
                         strftime(c.sale_start + 1, '%Y-%m-%d'), strftime(c.sales_as_of, '%Y-%m-%d'), c.sales_records_days, c.sales_window_days)
                  -- the trend too: each kind's last 30 days against the 30 before, to its own end (mart_market_direction)
                  || case when t.permits_window_end <> t.sales_window_end
                          then format('; the trend compares each kind''s last 30 days with the 30 before: permits to {}, sales to {}',
                                      strftime(t.permits_window_end, '%Y-%m-%d'), strftime(t.sales_window_end, '%Y-%m-%d')) else '' end end,
        case when c.resale_cohort_small
             then 'fewer than 5 residential arm''s-length sales in the window: no rehab resale share (minimum cohort 5)' end,
        -- no permit component: the score is the resale share alone, and says so (review r16b #19: 98103 read as
        -- "renovation permits and rehab resales" where no permit source covers King County)
        case when c.permit_score is null and c.value_score is null
             then format('{}: the score is the rehab resale share alone ({} of the window''s {} residential arm''s-length sales are renovated resales or quick resales at a gain)',
                         case when c.covered_share < 0.5 then format('the permit source covers {} only, which holds {}% {}: under half, so no permit component',
                                                                    c.area_name, round(100 * c.covered_share)::integer, c.share_basis)
                              when c.covered_share is null then 'no building permit source covers this zip: no renovation permit data'
                              when not c.has_permits then 'no building permit is recorded in this zip: no renovation permit data'
                              else 'no housing unit count for this zip: no permit rate' end,
                         c.rehab_sales, c.sales_n) end,
        case when c.covered_share < 0.95 and (c.permit_score is not null or c.value_score is not null)
             then format('the permit source covers {} only, which holds {}% {}: permit rates are over that share of its housing units',
                         c.area_name, round(100 * c.covered_share)::integer, c.share_basis) end,
        case when c.nashville and (c.permit_score is not null or c.value_score is not null)
             then 'Nashville''s permits are a snapshot of building permit applications by the day entered (Date_Entered), not issued permits' end,
        case when c.permits_rehab_zip_imputed > 0 and (c.permit_score is not null or c.value_score is not null)
             then format('{} of the window''s {} residential rehab permits have no recorded zip: each is placed in the zip whose centroid is nearest its point, so near a zip line it may belong to the next zip',
                         c.permits_rehab_zip_imputed, c.permits_rehab) end,
        case when c.permits_rehab_use_unrecorded > 0 and (c.permit_score is not null or c.value_score is not null)
             then format('{} of the window''s {} residential rehab permits do not record the building''s use (permits.csv gives no building_use): each is counted when its declared cost is $500,000 or less, so commercial work may be counted',
                         c.permits_rehab_use_unrecorded, c.permits_rehab) end,
        -- a trend on a small base (under 5 events in the 30 days before): trend_pct is kept as the spec types it, and
        -- the note gives the counts it rests on (1 against 3 reads +200%)
        case when coalesce(t.events_prior_30d, 0) < 5 and coalesce(t.events_last_30d, 0) + coalesce(t.events_prior_30d, 0) > 0
             then format('the trend rests on few events: {} rehab events in the 30 days to {} against {} in the 30 days before (fewer than 5 before, so one event more or less moves trend_pct widely)',
                         t.events_last_30d, strftime(coalesce(t.window_end, c.as_of), '%Y-%m-%d'), t.events_prior_30d) end
    ), '') as note
from combined c
left join (select zip, direction, direction_pct, window_end, permits_window_end, sales_window_end, events_last_30d, events_prior_30d from mart_market_direction where market_kind = 'zip') t using (zip)
left join int_market_zip_names nm using (zip)
where c.score is not null;
