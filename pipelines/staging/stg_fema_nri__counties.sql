-- requires: raw."fema_nri__counties"
-- FEMA National Risk Index county table (~v1.18): one row per county; rename and cast only.
-- STCOFIPS lacks the leading zero for states < 10 (6037): padded to 5 digits here.
create or replace view stg_fema_nri__counties as
select
    lpad(trim("STCOFIPS"), 5, '0')        as county_fips,
    trim("NRI_ID")                        as nri_id,
    trim("STATEABBRV")                    as state_code,
    trim("COUNTY")                        as county_name,
    trim("COUNTYTYPE")                    as county_type,
    try_cast("POPULATION" as bigint)      as population,
    try_cast("RISK_SCORE" as double)      as risk_score,
    nullif(trim("RISK_RATNG"), '')        as risk_rating,
    try_cast("RISK_NPCTL" as double)      as risk_national_pctl,
    try_cast("EAL_SCORE" as double)       as eal_score,
    nullif(trim("EAL_RATNG"), '')         as eal_rating,
    try_cast("EAL_VALT" as double)        as eal_total_usd,
    try_cast("SOVI_SCORE" as double)      as sovi_score,
    try_cast("RESL_SCORE" as double)      as resl_score,
    _file,
    _row
from raw."fema_nri__counties";
