-- requires: raw."superfund__npl_sites"
-- EPA SEMS National Priorities List sites (npl_sites.csv): one row per NPL site; rename and cast only.
create or replace view stg_superfund__npl_sites as
select
    trim(epa_id)                         as epa_id,
    trim(sems_id)                        as sems_id,
    trim(site_name)                      as site_name,
    trim(npl_status)                     as npl_status_raw,
    nullif(trim(street), '')             as street,
    nullif(trim(city), '')               as city,
    nullif(trim(county), '')             as county_name,
    zip5(nullif(trim(county_fips), ''))  as county_fips,
    upper(trim(state))                   as state_code,
    zip5(zip)                            as zip,
    try_cast(latitude as double)         as lat,
    try_cast(longitude as double)        as lng,
    try_cast(epa_region as integer)      as epa_region,
    trim(federal_facility) = 'Y'         as federal_facility,
    _file,
    _row
from raw."superfund__npl_sites";
