-- requires: stg_redfin__zip_snapshots, int_market_redfin_zip
-- Redfin zip market snapshots: the fallback for days on market and sale-to-list in comps (sales files carry no
-- list data). One row per zip and snapshot; the comps mart takes the snapshot nearest its window end.
insert into int_market_redfin_zip
select zip5(zip), period_end, snapshot_month, median_dom, avg_sale_to_list_ratio, homes_sold
from stg_redfin__zip_snapshots
where zip5(zip) is not null and period_end is not null and (median_dom is not null or avg_sale_to_list_ratio is not null);
