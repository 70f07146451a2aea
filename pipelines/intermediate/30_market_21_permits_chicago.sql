-- requires: stg_chicago__permits, permits
-- Chicago building permits adapter -> permits. No zip column: 30_market_80_fill_geo.sql assigns the nearest
-- ZCTA centroid (zip_imputed = true). Cancelled and revoked permits are rejected (no work happened).
-- Type: RENOVATION/ALTERATION -> renovation; NEW CONSTRUCTION -> new; WRECKING/DEMOLITION -> demolition;
-- EASY PERMIT PROCESS and express-program repair work (reroofing, masonry, porch/deck, windows/doors,
-- nonstructural interior, plumbing, electrical, mechanical work) -> repair; express "Detached Frame Garage"
-- -> addition; signs, elevators, scaffolding, maintenance, administrative, solar, fire alarm, fences,
-- reinstatements and the rest -> other. reported_cost 0 means "not declared": valuation null.
create or replace temp view int_market_chicago_checked as
select *,
    case
        when permit_type like '%RENOVATION/ALTERATION%' then 'renovation'
        when permit_type like '%NEW CONSTRUCTION%' then 'new'
        when permit_type like '%WRECKING/DEMOLITION%' then 'demolition'
        when permit_type like '%EASY PERMIT%' then 'repair'
        when permit_type like '%EXPRESS PERMIT%' and work_type in ('Reroofing', 'Masonry Work', 'Porch,Deck,Balcony,or Fire Escape',
             'Exterior Windows/Doors Replacement', 'Nonstructural Interior Work', 'Plumbing Work', 'Electrical Work', 'Mechanical Work') then 'repair'
        when permit_type like '%EXPRESS PERMIT%' and work_type = 'Detached Frame Garage' then 'addition'
        else 'other'
    end as canonical_type,
    case
        when issue_date is null then 'bad_date'
        when permit_number is null then 'missing_permit_id'
        when permit_status in ('CANCELLED', 'REVOKED') then 'cancelled_permit'
        when row_number() over (partition by permit_number order by row_number) > 1 then 'duplicate_permit'
    end as reject_reason
from stg_chicago__permits;

insert into meta.rejects
select 'intermediate', 'chicago', file, row_number + 1, reject_reason,
       'permit=' || coalesce(permit_number, '') || ' status=' || coalesce(permit_status, '') || ' date=' || coalesce(issue_date_text, '')
from int_market_chicago_checked where reject_reason is not null;

insert into permits by name
select
    'chicago:' || permit_number as permit_id,
    'chicago' as source,
    normalize_address(address) as address,
    null as zip,
    'Chicago' as city, 'IL' as state_code,
    issue_date,
    canonical_type as permit_type,
    positive_or_null(reported_cost) as valuation,
    lat, lng,
    null as parcel_id,
    permit_type || coalesce(' / ' || nullif(work_type, ''), '') as description,
    false as zip_imputed,
    file, row_number + 1 as line
from int_market_chicago_checked where reject_reason is null;
