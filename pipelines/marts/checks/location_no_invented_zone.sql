-- check: a zip outside every loaded flood map says zone D, no map loaded, low confidence; a mapped zone needs mapped samples
-- requires: mart_location_risk
select zip, flood_zone, flood_mapped_share, confidence, left(flood_risk_notes, 80) as notes
from mart_location_risk
where (flood_mapped_share = 0 and (flood_zone <> 'D' or confidence <> 'low' or flood_risk_notes not like '%no FEMA flood map was loaded%'))
   or (flood_zone <> 'D' and flood_mapped_share = 0)
