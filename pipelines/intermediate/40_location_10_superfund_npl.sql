-- requires: stg_superfund__npl_sites
-- superfund_sites from npl_sites.csv. Status decision (warehouse/docs/location.md "NPL status"):
-- final and proposed sites count as Superfund sites; deleted sites are kept, flagged counted = false.
-- Rows without usable coordinates go to meta.rejects.
insert into meta.rejects
select 'intermediate', 'superfund', _file, _row + 1,
       case when lat is null or lng is null then 'missing_coordinates' else 'bad_coordinates' end,
       coalesce(epa_id, '') || ' ' || coalesce(cast(lat as varchar), '?') || ',' || coalesce(cast(lng as varchar), '?')
from stg_superfund__npl_sites
where lat is null or lng is null or lat not between -90 and 90 or lng not between -180 and 180 or (lat = 0 and lng = 0);

insert into meta.rejects
select 'intermediate', 'superfund', _file, _row + 1, 'unknown_npl_status', epa_id || ': ' || coalesce(npl_status_raw, '')
from stg_superfund__npl_sites
where npl_status_raw not in ('Currently on the Final NPL', 'Proposed for NPL', 'Deleted from the Final NPL') or npl_status_raw is null;

insert into meta.rejects
select 'intermediate', 'superfund', _file, _row + 1, 'duplicate_epa_id', epa_id
from (select *, row_number() over (partition by epa_id order by _row) as k from stg_superfund__npl_sites where epa_id is not null)
where k > 1;

insert into superfund_sites
select
    epa_id, sems_id, site_name,
    case npl_status_raw when 'Currently on the Final NPL' then 'final' when 'Proposed for NPL' then 'proposed' else 'deleted' end,
    npl_status_raw,
    npl_status_raw in ('Currently on the Final NPL', 'Proposed for NPL'),
    street, city, county_name, county_fips, state_code, zip, lat, lng, federal_facility,
    'npl_sites',
    date '2021-06-13'   -- EPA SEMS extract date (epa-superfund-sems/SOURCE.md); location-rules.ts SUPERFUND_AS_OF
from (select *, row_number() over (partition by epa_id order by _row) as k from stg_superfund__npl_sites where epa_id is not null)
where k = 1
  and lat between -90 and 90 and lng between -180 and 180 and not (lat = 0 and lng = 0)
  and npl_status_raw in ('Currently on the Final NPL', 'Proposed for NPL', 'Deleted from the Final NPL');
