-- check: location risk values are in their domains (label set, confidence set, score 0-100, count >= 0, nearby = count > 0);
-- the Superfund fields and the score are null exactly when the build read no EPA Superfund file (no raw table of it
-- and no site: live/location/prepare.ts superfundLoaded), never a count of 0 from no file and never a missing count beside a loaded one
-- requires: mart_location_risk, superfund_sites
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
   or (superfund_count_1mi is null) <> ((select count(*) from duckdb_tables()
        where schema_name = 'raw' and table_name in ('superfund__npl_sites', 'superfund__sems_sites')) = 0
        and (select count(*) from superfund_sites) = 0)
   or (superfund_nearby is null) <> (superfund_count_1mi is null)
   or (environmental_risk_score is null) <> (superfund_count_1mi is null)
