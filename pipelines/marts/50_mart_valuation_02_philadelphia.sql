-- requires: mart_valuation_features, mart_valuation_parcel_features, sales, parcels, raw."philadelphia__properties"
-- Philadelphia's valuation features (OPA roll, snapshot 2022-05-24; SOURCE.md), from each roll row (the staging view
-- does not carry them), for its sale (mart_valuation_features) and for its parcel (mart_valuation_parcel_features, the
-- subjects that are no sale, with the row's interior condition as the sales adapter reads it, opa_condition):
-- log_assessed = ln(market_value) (positive or null, as sales.assessed_value); quality_grade as a number (E 0 .. A+
-- 13, three steps a letter), exterior_condition (OPA code 1-7), number_stories, garage_spaces, ln(total_area) (the lot), ln(frontage), central_air (Y 1, N 0) and the building's
-- attachment from building_code_description (ROW 0; S/D, SEMI/DET, TWIN 1; DET 2). Only the trees read these eight
-- (TUNING.features: no comp weight, no slope; chosen on the calibration folds).
create or replace temp view int_valuation_philadelphia_roll as
select r._file as file, r._row + 1 as line,
       case when try_cast(r.market_value as double) > 0 then ln(try_cast(r.market_value as double)) end as log_assessed,
       case trim(r.quality_grade) when 'A+' then 13 when 'A' then 12 when 'A-' then 11 when 'B+' then 10 when 'B' then 9
            when 'B-' then 8 when 'C+' then 7 when 'C' then 6 when 'C-' then 5 when 'D+' then 4 when 'D' then 3
            when 'D-' then 2 when 'E+' then 1 when 'E' then 0 end::double as quality,
       case when try_cast(r.exterior_condition as integer) between 1 and 7 then try_cast(r.exterior_condition as double) end as exterior,
       case when try_cast(r.number_stories as double) between 1 and 6 then try_cast(r.number_stories as double) end as stories,
       case when try_cast(r.garage_spaces as double) between 0 and 10 then try_cast(r.garage_spaces as double) end as garage,
       case when try_cast(r.total_area as double) > 0 then ln(try_cast(r.total_area as double)) end as log_area,
       case when try_cast(r.frontage as double) > 0 then ln(try_cast(r.frontage as double)) end as log_frontage,
       case trim(r.central_air) when 'Y' then 1.0 when '1' then 1.0 when 'N' then 0.0 when '0' then 0.0 end as central_air,
       case when trim(r.building_code_description) like 'ROW%' then 0.0
            when trim(r.building_code_description) like 'S/D%' or trim(r.building_code_description) like 'SEMI%'
              or trim(r.building_code_description) like 'TWIN%' then 1.0
            when trim(r.building_code_description) like 'DET%' then 2.0 end as attached,
       -- the roll's assessment date (2022-05-24 for most rows; 2023 for parcels re-assessed after their sale)
       try_cast(left(trim(r.assessment_date), 10) as date) as features_date,
       opa_condition(try_cast(r.interior_condition as integer)) as condition
from raw."philadelphia__properties" r;

insert into mart_valuation_features by name
select s.sale_id, r.* exclude (file, line, condition)
from sales s join int_valuation_philadelphia_roll r using (file, line)
where s.source = 'philadelphia';

insert into mart_valuation_parcel_features by name
select p.source, r.*
from parcels p join int_valuation_philadelphia_roll r using (file, line)
where p.source = 'philadelphia';
