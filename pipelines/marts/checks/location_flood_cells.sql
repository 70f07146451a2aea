-- check: every flood polygon piece has at least one H3 cell and a known risk label
-- requires: flood_zones, int_flood_h3
select polygon_id, source_file, zone
from flood_zones f
where not exists (select 1 from int_flood_h3 h where h.polygon_id = f.polygon_id)
   or risk_label not in ('Minimal', 'Low', 'Moderate', 'High', 'Very High')
