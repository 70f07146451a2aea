-- requires: raw."fema_nri__tracts"
-- FEMA National Risk Index census-tract table (v1.19 sample): one row per census tract; rename and cast only.
create or replace view stg_fema_nri__tracts as
select
    lpad(trim("TRACTFIPS"), 11, '0')      as tract_fips,
    lpad(trim("STCOFIPS"), 5, '0')        as county_fips,
    trim("STATEABBRV")                    as state_code,
    try_cast("POPULATION" as bigint)      as population,
    try_cast("RISK_SCORE" as double)      as risk_score,
    nullif(trim("RISK_RATNG"), '')        as risk_rating,
    try_cast("RFLD_RISKS" as double)      as riverine_flood_risk_score,
    nullif(trim("RFLD_RISKR"), '')        as riverine_flood_risk_rating,
    try_cast("CFLD_RISKS" as double)      as coastal_flood_risk_score,
    nullif(trim("CFLD_RISKR"), '')        as coastal_flood_risk_rating,
    nullif(trim("NRI_VER"), '')           as nri_version,
    _file,
    _row
from raw."fema_nri__tracts";
