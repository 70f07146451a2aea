-- requires: sales, permits, distress
-- int_market_file_coverage: one row per source file x kind of record ('sale': arm's-length sales; 'permit'; 'distress':
-- filings) x calendar month of the file's span, the ONE coverage rule every market mart reads (warehouse/docs/market.md
-- "Coverage of a window"): mart_comps, mart_investor and mart_rehab (the days of a window covered) and the trends
-- (market_monthly.covered, 30_mart_market_trends.ts), so the bulk export, which writes those marts, reads the same days.
--   lo, hi   the part of the month inside the file's span (its first and last record of the kind), inclusive
--   full_volume  the file covers those days with its full volume. A sales file: the month lies within the file's solid
--            months, from its first to its last month holding at least a quarter (COVER_VOLUME_SHARE, written here
--            only) of its source's busiest month of arm's-length sales (all the source's files summed); a month outside
--            them is a partial extract's (Connecticut's head-of-file extract, whose months never reach 13% of June 2022
--            in the 2022 extract; Philadelphia's roll before 2022-09 and its December 2022). A dip between two solid
--            months is a season, not an extract (review 17: six Fairfield County towns' February 2023, 14 sales against
--            65 in June, 21.5%, was called a partial extract, and the other months of the span counted). But a month
--            with no record at all between solid months is a hole in the file, not a season, when the file's typical
--            month makes 0 improbable: a quarter of its median month (the deepest dip the solid rule allows) would
--            still give a month with no sale under ZERO_MONTH_CHANCE (1%, Poisson: exp(-n/4) < 0.01, a median of 19+
--            sales a month). Such a month is not covered (review 21: a canonical file of NYC's two years has no row in
--            2022-04..2023-02, and read 731 of 731 days covered at 24 months and "2023-02 had 0 sales"); a tiny
--            county's empty month (a median of 8 sales: a quarter-volume month is empty 13% of the time) stays a true 0.
--            Permit and filing files are covered by their span (no extract of them is known: market.md "Coverage of a window").
-- A sales file's rows are its months with a sale and its solid months but those holes; a permit or filing file's,
-- every month of its span.
create or replace table int_market_file_coverage as
with records as (
    select source, 'sale' as kind, file, sale_date as d from sales where is_arms_length and sale_date is not null
    union all select source, 'permit', file, issue_date from permits where issue_date is not null
    union all select source, 'distress', file, filing_date from distress where filing_date is not null
),
spans as (
    select source, kind, file, min(d) as first_day, max(d) as last_day from records group by all
),
file_months as (
    select source, kind, file, date_trunc('month', d)::date as month, count(*) as n from records group by all
),
busiest as (
    -- each source's busiest month of a kind (all its files summed)
    select source, kind, max(n) as n from (select source, kind, month, sum(n) as n from file_months group by all) group by all
),
solid as (
    -- a file's solid months: from its first to its last month at a quarter of its source's busiest
    select fm.source, fm.kind, fm.file, min(fm.month) as first_month, max(fm.month) as last_month
    from file_months fm join busiest b using (source, kind)
    where fm.n >= 0.25 * b.n
    group by all
),
typical as (
    -- a file's median month of sales within its solid months (its months with a sale), for the empty-month test
    select fm.source, fm.kind, fm.file, median(fm.n) as n
    from file_months fm join solid s on s.source = fm.source and s.kind = fm.kind and s.file is not distinct from fm.file
    where fm.month between s.first_month and s.last_month
    group by all
),
months as (
    select sp.source, sp.kind, sp.file, sp.first_day, sp.last_day, m.month::date as month
    from spans sp, unnest(range(date_trunc('month', sp.first_day)::timestamp, (sp.last_day + 1)::timestamp, interval 1 month)) m(month)
)
select m.source, m.kind, m.file, m.month,
       greatest(m.first_day, m.month) as lo, least(m.last_day, last_day(m.month)) as hi,
       m.kind <> 'sale' or coalesce(m.month between s.first_month and s.last_month, false) as full_volume
from months m
left join solid s on s.source = m.source and s.kind = m.kind and s.file is not distinct from m.file
left join file_months fm on fm.source = m.source and fm.kind = m.kind and fm.file is not distinct from m.file and fm.month = m.month
left join typical t on t.source = m.source and t.kind = m.kind and t.file is not distinct from m.file
where m.kind <> 'sale' or fm.n is not null
   -- an empty month between solid ones: covered (a true 0) unless the file's typical month makes it improbable
   -- (ZERO_MONTH_CHANCE 0.01 of a month at a quarter of the file's median)
   or (m.month between s.first_month and s.last_month and exp(-0.25 * t.n) >= 0.01);

-- int_market_source_vintage: per source, the months its files hold by the rule above (any kind, full volume or an
-- extract's), as month runs in the registry's vintage form ('2021-04..2022-03, 2023-03..2024-02'). The canonical source
-- has no vintage of its own (the registry's 'operator'): the manifest and the answers' `source.vintage` take these
-- months for it (build-manifest.ts, 30_mart_market_source.ts), so the research and trends words that read a source's
-- months from the manifest (live/research/coverage.ts) say a hole of its file is not covered, not "0 sales" (review 21).
create or replace table int_market_source_vintage as
with months as (select distinct source, month from int_market_file_coverage),
runs as (
    select source, month,
           date_diff('month', date '2000-01-01', month) - row_number() over (partition by source order by month) as run
    from months
)
select source, string_agg(case when first_month = last_month then strftime(first_month, '%Y-%m')
                               else strftime(first_month, '%Y-%m') || '..' || strftime(last_month, '%Y-%m') end, ', ' order by first_month) as vintage
from (select source, run, min(month) as first_month, max(month) as last_month from runs group by all)
group by source;

-- The coverage clause of an answer's note (comps, investor, rehab): null when the records cover the whole window; else
-- what they cover, and when a partial extract's months reach more days than the files cover whole (any_days, the days
-- of every month of the files, full or not), that those records are an extract's. what: 'sales records' / 'records';
-- whose: 'zip''s sales', 'city''s sales'.
create or replace macro coverage_words(what, whose, records_days, any_days, window_days, spans) as
    case when records_days >= window_days then null
         when records_days = 0 then format('{} cover none of the {} days asked', what, window_days)
              || case when any_days > 0 then ' whole' else '' end
         else format('{} cover {} only, {} of the {} days asked', what, spans, records_days, window_days) end
    || case when records_days < window_days and any_days > records_days
            then case when records_days = 0
                      then format(': the {} in the window come from a partial extract of their source', whose)
                      -- the days not covered, then how many of them hold a partial extract's sales (review 18: "the
                      -- other 9 days" of Denver's 24 months read as 9 uncovered days where 184 are)
                      when window_days - records_days = 1 then format(': the other day holds the {} from a partial extract of their source', whose)
                      else format(': of the other {} days, {} hold the {} from a partial extract of their source', window_days - records_days,
                                  case when any_days >= window_days then 'all ' || (window_days - records_days) else cast(any_days - records_days as varchar) end, whose) end
                 || ', under a quarter of its busiest month''s sales a month, not every recorded sale, so a count or figure here describes that extract only'
            else '' end;
