-- requires: stg_redfin__zip_snapshots, int_market_redfin_zip
-- Redfin zip market snapshots: the fallback for days on market in comps (sales files carry no list data). One row per
-- zip and snapshot; the comps mart takes the latest whose 90 days lie inside its window, whose recorded type describes
-- the property type and that counts 5+ homes sold (redfin_stands_for, warehouse/macros.sql). Rows that cannot serve go
-- to meta.rejects: bad_zip (not 5 digits), bad_date (no period end), no_metrics (neither days on market nor
-- sale-to-list).
create or replace temp view int_market_redfin_checked as
select *,
    case
        when zip is null or not regexp_full_match(zip, '[0-9]{5}') then 'bad_zip'
        when period_end is null then 'bad_date'
        when median_dom is null and avg_sale_to_list_ratio is null then 'no_metrics'
    end as reject_reason
from stg_redfin__zip_snapshots;

insert into meta.rejects
select 'intermediate', 'redfin', file, row_number + 1, reject_reason,
    case reject_reason
        when 'bad_zip' then 'zip_code=' || coalesce(zip, '')
        when 'bad_date' then 'period_end=' || coalesce(period_end_text, '')
        else 'median_dom and avg_sale_to_list_ratio empty (zip ' || zip || ', snapshot ' || coalesce(snapshot_month, '') || ')'
    end
from int_market_redfin_checked where reject_reason is not null;

insert into int_market_redfin_zip
select zip, period_end, snapshot_month, median_dom, avg_sale_to_list_ratio, homes_sold, property_type
from int_market_redfin_checked
where reject_reason is null;
