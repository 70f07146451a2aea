-- check: location risk values are in their domains (label set, confidence set, score 0-100, count >= 0, nearby = count > 0)
-- requires: mart_location_risk
select zip, flood_zone, flood_risk_label, confidence, environmental_risk_score, superfund_count_1mi, superfund_nearby
from mart_location_risk
where flood_risk_label not in ('Minimal', 'Low', 'Moderate', 'High', 'Very High')
   or confidence not in ('low', 'medium', 'high')
   or environmental_risk_score not between 0 and 100
   or superfund_count_1mi < 0
   or superfund_nearby <> (superfund_count_1mi > 0)
   or not regexp_matches(zip_code, '^\d{5}$')
   or as_of is null
   or flood_risk_notes = ''
