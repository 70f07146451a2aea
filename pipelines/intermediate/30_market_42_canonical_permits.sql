-- requires: stg_canonical__permits, permits
-- The operator's canonical permits.csv -> permits, validated row by row: missing_address, bad_zip, bad_date,
-- bad_permit_type, bad_valuation (not a number or negative), bad_coordinates, duplicate_permit (a permit_id
-- already seen on an earlier line). City and state come from the zip (30_market_80_fill_geo.sql).
create or replace temp view int_market_canonical_permits_checked as
select *,
    case
        when address is null then 'missing_address'
        when canonical_zip(zip) is null then 'bad_zip'
        when issue_date is null or year(issue_date) not between 1800 and 2100 then 'bad_date'
        when permit_type is null or permit_type not in ('renovation', 'addition', 'repair', 'new', 'demolition', 'other') then 'bad_permit_type'
        when valuation_text is not null and (valuation is null or valuation < 0) then 'bad_valuation'
        when (lat_text is not null and (lat is null or lat not between -90 and 90))
          or (lng_text is not null and (lng is null or lng not between -180 and 180)) then 'bad_coordinates'
        when permit_id is not null and row_number() over (partition by permit_id order by file, row_number) > 1 then 'duplicate_permit'
    end as reject_reason
from stg_canonical__permits;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, reject_reason,
    case reject_reason
        when 'bad_zip' then 'zip=' || coalesce(zip, '')
        when 'bad_date' then 'issue_date=' || coalesce(issue_date_text, '')
        when 'bad_permit_type' then 'permit_type=' || coalesce(permit_type, '')
        when 'bad_valuation' then 'valuation=' || coalesce(valuation_text, '')
        when 'bad_coordinates' then 'lat=' || coalesce(lat_text, '') || ' lng=' || coalesce(lng_text, '')
        when 'duplicate_permit' then 'permit_id=' || permit_id
        else reject_reason
    end
from int_market_canonical_permits_checked where reject_reason is not null;

insert into permits by name
select
    'canonical:' || coalesce(permit_id, regexp_extract(file, '[^/]+$') || ':' || cast(row_number as varchar)) as permit_id,
    'canonical' as source,
    normalize_address(address) as address, canonical_zip(zip) as zip,
    null as city, null as state_code,
    issue_date, permit_type, valuation, lat, lng,
    null as parcel_id, null as description, false as zip_imputed,
    file, row_number + 1 as line
from int_market_canonical_permits_checked where reject_reason is null;
