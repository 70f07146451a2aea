-- requires: stg_superfund__sems_sites
-- Fallback adapter: NPL sites (final, proposed, deleted) of the raw SEMS extract that npl_sites.csv did not
-- already supply (none when both files are present: npl_sites.csv is the cleaned subset of this extract).
-- SEMS URL-escapes names (%26 = &); decoded here as npl_sites.csv does.
insert into superfund_sites
select
    s.epa_id, s.sems_id,
    replace(replace(replace(s.site_name, '%26', '&'), '%27', ''''), '%22', '"'),
    case s.npl_status_raw when 'Currently on the Final NPL' then 'final' when 'Proposed for NPL' then 'proposed' else 'deleted' end,
    s.npl_status_raw,
    s.npl_status_raw in ('Currently on the Final NPL', 'Proposed for NPL'),
    s.street, s.city, s.county_name, s.county_fips, s.state_code, s.zip, s.lat, s.lng, s.federal_facility,
    'sems_sites',
    date '2021-06-13'
from (select *, row_number() over (partition by epa_id order by _row) as k from stg_superfund__sems_sites where epa_id is not null) s
where s.k = 1
  and s.npl_status_raw in ('Currently on the Final NPL', 'Proposed for NPL', 'Deleted from the Final NPL')
  and s.lat between -90 and 90 and s.lng between -180 and 180 and not (s.lat = 0 and s.lng = 0)
  and not exists (select 1 from superfund_sites f where f.epa_id = s.epa_id);

-- The active SEMS sites not on the NPL, with coordinates (59 in the 2021 extract): counted apart, never as Superfund.
insert into superfund_sems_other
select s.epa_id, replace(replace(replace(s.site_name, '%26', '&'), '%27', ''''), '%22', '"'), s.npl_status_raw, s.state_code, s.lat, s.lng
from (select *, row_number() over (partition by epa_id order by _row) as k from stg_superfund__sems_sites where epa_id is not null) s
where s.k = 1 and s.npl_status_raw = 'Not on the NPL'
  and s.lat between -90 and 90 and s.lng between -180 and 180 and not (s.lat = 0 and s.lng = 0);
