-- check: every flood zone is a FEMA zone code (V, VE, V1-V30, A, AE, A1-A30, AH, AO, AR, A99, X, B, C, D, OPEN WATER) and carries its documented label (V Very High; A High; B, D, OPEN WATER Moderate; C Minimal; X Moderate, Low or Minimal by subtype), in the zip answers and in the polygons
-- requires: mart_location_risk, flood_zones
with zoned as (
    select 'mart_location_risk' as "table", zip as "key", flood_zone as zone, flood_risk_label as label from mart_location_risk
    union all
    select 'flood_zones', polygon_id::varchar, zone, risk_label from flood_zones
)
select "table", "key", zone, label,
    case when zone is null or not regexp_matches(zone, '^(V|VE|V[0-9]{1,2}|A|AE|AH|AO|AR|A99|A[0-9]{1,2}|AR/.+|X|B|C|D|OPEN WATER)$') then 'not a FEMA zone code'
         else 'label does not match the zone' end as problem
from zoned
where zone is null or not regexp_matches(zone, '^(V|VE|V[0-9]{1,2}|A|AE|AH|AO|AR|A99|A[0-9]{1,2}|AR/.+|X|B|C|D|OPEN WATER)$')
   or label is distinct from case
        when regexp_matches(zone, '^V') then 'Very High'
        when regexp_matches(zone, '^A') then 'High'
        when zone in ('B', 'D', 'OPEN WATER') then 'Moderate'
        when zone = 'C' then 'Minimal'
        when zone = 'X' and label in ('Moderate', 'Low', 'Minimal') then label
    end
