-- requires: sales, permits, int_market_zip_permits, int_market_resales, int_market_city_parts
-- mart_market_direction: the 30-day direction of a market, ONE definition read by the rehab score
-- (30_mart_rehab.sql, its `trend`) and the market trends (30_mart_market_trends.ts, summary.direction_30d), so the two
-- never disagree. One row per market: every zip with permits or arm's-length sales (market_kind 'zip'), and every
-- city (state + slug) with them (market_kind 'city'; a sale with a city part, an NYC borough, counts in its city and in
-- its part, as market_monthly). Flagged sales (30_market_45_sale_flags.sql) count nowhere.
-- as_of: the last day of its sources' records (any market's: a quiet market's days after its last record are days of none).
-- window_end: where the two windows end, the earlier of as_of and the day its sources are complete through. A source's
--   complete_through is the latest day D whose 7 days (D-7, D] hold at least 3/4 of the average week of the 8 weeks
--   before: last_7 >= 0.75 * prior_56 / 8, prior_56 the records of (D-63, D-7] (calendar days, a day without records
--   counting 0), the records being all the source's arm's-length sales or all its permits, rehab or not. A week holds
--   each weekday once (Denver records 50-80 deeds a weekday, 0-2 a weekend day, 155 on 2019-05-31, a month end), and a
--   file's last weeks are often under-recorded (deeds recorded weeks late, an extract cut mid-month): Denver's weeks
--   from 2019-06-03 hold 207, 149, 85, 8, 22 arm's-length sales against 316-370 in May, and its rehab resales read
--   -86.7% at the file's end (2019-07-09) and -46.4% at 2019-06-26, where a 30-day "half the 30 before" test ended
--   them; this rule ends them 2019-06-06: 67 against 79, -15.2% (warehouse/docs/market.md "mart_market_direction").
--   A market with several sources of a kind takes the earliest day of that kind's. A market of both kinds (a canonical
--   folder's permits.csv and sales.csv, which may end months apart) counts each kind over its own 30-day windows, as
--   the rehab score counts each over its own window (review 22: 37206 read "up +33.3%" from the 60 days to the last
--   sale, 2024-06-20, while its score counted permits to 2024-09-19): its rehab permits in the 30 days to the permits'
--   window end against the 30 before, plus its rehab resales in the 30 days to the sales' end against the 30 before;
--   window_end is the later of the two, permits_window_end and sales_window_end each (null without that kind).
-- Events: residential rehab permits (renovation, addition, repair on a residential building: is_residential_rehab) and
-- residential rehab resales (a home's sale, King County yr_renovated in the sale year or the year before, or a quick
-- resale at a gain: int_market_resales; is_rehab_resale), the rehab score's two tests (warehouse/macros.sql): a store's,
-- an office's or a vacant lot's quick resale is no rehab event (h27: NYC's and Connecticut's counted them).
--   direction_pct = 100 * (events in the 30 days to window_end - events in the 30 days before) / max(events before, 1)
--   direction     = up above +5, down below -5, else flat (a market whose sources could show events, none in either
--                   window: 0, flat).
-- observes_rehab: the market's records could show a rehab event at all: a permit that counts in it (any type, any
--   date: a permit source covers it), or an arm's-length sale that is a resale (int_market_resales) or records a
--   renovation year. The same two tests as mart_rehab's has_permits and observes_resales. Without either,
--   direction_pct and direction are null and direction_note says why: 0 against 0 from no source is no "flat"
--   (Sacramento's one-week file: no permit source, no parcel sold twice).
-- observes_span: a source of the market has records from 60 days before window_end or earlier (its file spans both
--   30-day windows); otherwise direction_pct and direction are null too and direction_note names the span: a 7-day
--   file (Sacramento, 2008-05-15 to 2008-05-21) cannot hold a prior 30 days, so 0 against 0 there is no "flat".
create or replace macro direction_30d_pct(last_30, prior_30) as
    100.0 * (coalesce(last_30, 0) - coalesce(prior_30, 0)) / greatest(coalesce(prior_30, 0), 1);
create or replace macro direction_30d(pct) as
    case when pct > 5 then 'up' when pct < -5 then 'down' else 'flat' end;

create or replace table mart_market_direction as
with permit_rows as (
    -- a zip market reads only the permits that count in it (int_market_zip_permits, as the rehab score), a city every
    -- permit of the city
    select p.source || ' permits' as source, 'permit' as kind, case when p.permit_id in (select permit_id from int_market_zip_permits) then p.zip end as zip, p.state_code,
           slug(p.city) as city_slug, null::varchar as part_slug, p.issue_date as event_date,
           -- a rehab event: residential rehab (is_residential_rehab, warehouse/macros.sql), the rehab score's own test
           is_residential_rehab(p.permit_type, p.building_use, p.valuation) as is_rehab, true as shows_rehab
    from permits p
),
sale_rows as (
    select s.source || ' sales' as source, 'sale' as kind, s.zip, s.state_code, slug(s.city) as city_slug, slug(cp.city_part) as part_slug, s.sale_date as event_date,
           -- a rehab event: a residential rehab resale (is_rehab_resale, warehouse/macros.sql), the rehab score's own test
           is_rehab_resale(s.property_type, s.year_renovated, s.sale_date, r.is_quick_gain_resale) as is_rehab,
           -- a sale that can show a rehab resale at all: a resale (a repeat sale) or a recorded renovation year
           r.sale_id is not null or s.year_renovated is not null as shows_rehab
    from sales s left join int_market_resales r using (sale_id) left join int_market_city_parts cp on cp.sale_id = s.sale_id
    where s.is_arms_length
),
events as (
    -- every record with its market keys; a zip row and a city row read the same records
    select 'zip' as market_kind, zip, null::varchar as state_code, null::varchar as city_slug, source, kind, event_date, is_rehab, shows_rehab
    from (select * from permit_rows union all select * from sale_rows) where zip is not null
    union all
    select 'city', null, state_code, city_slug, source, kind, event_date, is_rehab, shows_rehab
    from (select * from permit_rows union all select * from sale_rows)
    where state_code is not null and city_slug is not null and city_slug <> ''
    union all
    select 'city', null, state_code, part_slug, source, kind, event_date, is_rehab, shows_rehab
    from (select * from permit_rows union all select * from sale_rows)
    where state_code is not null and part_slug is not null and part_slug <> ''
),
source_days as (
    -- each source's records per day: every arm's-length sale and every permit (of any zip), rehab or not; a source's
    -- permits and its sales are two (one canonical folder's permits.csv and sales.csv end apart: review 15), keyed as
    -- permit_rows and sale_rows key them
    select source, d, count(*) as n
    from (select source || ' permits' as source, issue_date as d from permits
          union all select source || ' sales', sale_date from sales where is_arms_length)
    where d is not null group by all
),
spine as (
    -- every calendar day of the source's span, a day without records counting 0
    select source, cast(unnest(generate_series(first_day, last_day, interval 1 day)) as date) as d
    from (select source, min(d) as first_day, max(d) as last_day from source_days group by source)
),
rolling as (
    -- last_7: the records of (d-7, d]; prior_56: of the 8 weeks before, (d-63, d-7] (one row a calendar day)
    select s.source, s.d,
           sum(coalesce(n, 0)) over (partition by s.source order by s.d rows between 6 preceding and current row) as last_7,
           coalesce(sum(coalesce(n, 0)) over (partition by s.source order by s.d rows between 62 preceding and 7 preceding), 0) as prior_56
    from spine s left join source_days using (source, d)
),
source_complete as (
    -- last_7 >= 0.75 * prior_56 / 8, in exact decimals; the source's first day always passes (nothing before it), so
    -- every source has a day
    select source, max(d) filter (where 8 * last_7 >= 0.75 * prior_56) as complete_through from rolling group by source
),
kind_windows as (
    -- as_of: where the market's sources' records of a kind end (a quiet market's 60 days are days of none, not its
    -- last record's); kind_end: the earlier of that and the day those sources are complete through
    select ms.market_kind, ms.zip, ms.state_code, ms.city_slug, ms.kind, max(se.last_day) as as_of,
           least(max(se.last_day), min(c.complete_through)) as kind_end
    from (select distinct market_kind, zip, state_code, city_slug, source, kind from events) ms
    join source_complete c using (source)
    join (select source, max(d) as last_day from source_days group by source) se using (source) group by all
),
windows as (
    select market_kind, zip, state_code, city_slug, max(as_of) as as_of, max(kind_end) as window_end,
           max(kind_end) filter (where kind = 'permit') as permits_window_end, max(kind_end) filter (where kind = 'sale') as sales_window_end
    from kind_windows group by all
),
counted as (
    -- each kind's events over its own two windows (one kind: the market's)
    select w.market_kind, w.zip, w.state_code, w.city_slug, w.as_of, w.window_end, w.permits_window_end, w.sales_window_end,
           count(*) filter (where e.is_rehab and e.event_date > k.kind_end - 30 and e.event_date <= k.kind_end) as last_30,
           count(*) filter (where e.is_rehab and e.event_date <= k.kind_end - 30 and e.event_date > k.kind_end - 60) as prior_30,
           bool_or(e.shows_rehab) as observes_rehab
    from windows w join kind_windows k
      on k.market_kind = w.market_kind and k.zip is not distinct from w.zip
     and k.state_code is not distinct from w.state_code and k.city_slug is not distinct from w.city_slug
    join events e
      on e.market_kind = k.market_kind and e.zip is not distinct from k.zip and e.kind = k.kind
     and e.state_code is not distinct from k.state_code and e.city_slug is not distinct from k.city_slug
    group by all
)
select market_kind, zip, state_code, city_slug, as_of, window_end, permits_window_end, sales_window_end,
       last_30 as events_last_30d, prior_30 as events_prior_30d, observes_rehab,
       case when observes_rehab and observes_span then direction_30d_pct(last_30, prior_30) end as direction_pct,
       case when observes_rehab and observes_span then direction_30d(direction_30d_pct(last_30, prior_30)) end as direction,
       case when not observes_rehab then 'no rehab event source: no building permit is recorded for this market and its sales '
            || 'records show no repeat sale or renovation year, so no rehab event could be seen; not a flat trend'
            when not observes_span then format('the records span {} to {} only, {} days: fewer than the 60 days (two 30-day windows) a 30-day direction compares; not a flat trend',
                                               strftime(records_first, '%Y-%m-%d'), strftime(records_last, '%Y-%m-%d'), date_diff('day', records_first, records_last) + 1) end as direction_note
from (
    select c.*, min(sp.first_day) as records_first, max(sp.last_day) as records_last,
           coalesce(bool_or(sp.first_day <= c.window_end - 59), false) as observes_span
    from counted c
    join (select distinct market_kind, zip, state_code, city_slug, source from events) ms
      on ms.market_kind = c.market_kind and ms.zip is not distinct from c.zip
     and ms.state_code is not distinct from c.state_code and ms.city_slug is not distinct from c.city_slug
    join (select source, min(d) as first_day, max(d) as last_day from source_days group by source) sp using (source)
    group by all
);
