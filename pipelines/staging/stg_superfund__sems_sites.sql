-- requires: raw."superfund__sems_sites"
-- EPA SEMS active sites extract (NPL and non-NPL): one row per SEMS site record; rename and cast only.
-- County FIPS and ZIP carry float artefacts (12095.0) in the raw file: zip5() normalises both.
create or replace view stg_superfund__sems_sites as
select
    trim("SITE_EPA_ID")                               as epa_id,
    trim("SITE_ID")                                   as sems_id,
    trim("SITE_NAME")                                 as site_name,
    trim("NPL")                                       as npl_status_raw,
    nullif(trim(concat_ws(' ', nullif(trim("SITE_STRT_ADRS1"), ''), nullif(trim("SITE_STRT_ADRS2"), ''))), '') as street,
    nullif(trim("SITE_CITY_NAME"), '')                as city,
    nullif(trim("SITE_CNTY_NAME"), '')                as county_name,
    zip5(nullif(trim("SITE_FIPS_CODE"), ''))          as county_fips,
    upper(trim("SITE_STATE"))                         as state_code,
    zip5("SITE_ZIP_CODE")                             as zip,
    try_cast("LATITUDE" as double)                    as lat,
    try_cast("LONGITUDE" as double)                   as lng,
    try_cast("RG" as integer)                         as epa_region,
    trim("FF") = 'Y'                                  as federal_facility,
    _file,
    _row
from raw."superfund__sems_sites";
