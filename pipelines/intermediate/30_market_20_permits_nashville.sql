-- requires: stg_nashville__permits, permits, permit_sources
-- Nashville permit applications adapter -> permits. Date_Issued is empty in this applications snapshot, so
-- issue_date is the application date (Date_Entered). Const_Cost 0 means "not declared": valuation null.
-- Type: Rehab -> renovation; Addition -> addition; Roofing/Siding, Fire Damage -> repair; New, Shell, Foundation,
-- Structural Frame, Tenant Finish Out -> new; Demolition -> demolition; the rest -> other. A Tenant Finish Out builds
-- out the shell of a building (231 of the file's 314 cite a shell, master or new-construction permit; its dwelling
-- ones finish new towers' floors and condominium units, "to construct 1914Sf dwelling unit ... Shell permit ..."),
-- the completion of new construction, not the renovation of homes: as a renovation it gave 37203 $35.2M of "rehab"
-- (915 Division St, a new 16-story tower, fitted out floor by floor; warehouse/docs/market.md "Residential rehab").
-- building_use (warehouse/docs/market.md "Residential rehab"): the subtype names the building's use. A dwelling
-- (single family, duplex, multifamily, townhome, condominium, apartment, dwelling unit, mobile home, boarding or group
-- home, fraternity) -> residential, whatever the type: Metro files multifamily work as "Building Commercial". A generic
-- subtype (accessory structure, detached garage, addition, master permit, none) -> the type's word: "Building
-- Residential" -> residential, "Building Commercial" -> nonresidential. Any other subtype names a business or
-- institution (office, restaurant, hotel, retail, ...) -> nonresidential. No type word and no use: null.
-- A permit number already seen on an earlier row is rejected (duplicate_permit).
create or replace temp view int_market_nashville_checked as
select *,
    case
        when permit_type_description ilike '%tenant finish out%' then 'new'
        when permit_type_description ilike '%rehab%' then 'renovation'
        when permit_type_description ilike '%addition%' then 'addition'
        when permit_type_description ilike '%roofing%' or permit_type_description ilike '%fire damage%' then 'repair'
        when permit_type_description ilike '%demolition%' then 'demolition'
        when permit_type_description ilike '% new%' or permit_type_description ilike '%shell%'
          or permit_type_description ilike '%foundation%' or permit_type_description ilike '%structural frame%' then 'new'
        else 'other'
    end as canonical_type,
    case
        when regexp_matches(lower(coalesce(permit_subtype_description, '')),
             'single family|duplex|multifamily|townhome|condominium|apartment|dwelling|mobile home|boarding house|group home|fraternity') then 'residential'
        when coalesce(permit_subtype_description, '') = '' or regexp_matches(lower(permit_subtype_description), '^(accessory|detached garage|addition$|master permit)') then
            case when permit_type_description ilike 'building residential%' then 'residential'
                 when permit_type_description ilike 'building commercial%' then 'nonresidential' end
        else 'nonresidential'
    end as building_use,
    case
        when coalesce(issued_date, entered_date) is null then 'bad_date'
        when permit_number is null then 'missing_permit_id'
        when row_number() over (partition by permit_number order by row_number) > 1 then 'duplicate_permit'
    end as reject_reason
from stg_nashville__permits;

insert into meta.rejects
select 'intermediate', 'nashville', file, row_number + 1, reject_reason,
       'permit=' || coalesce(permit_number, '') || ' entered=' || coalesce(entered_date_text, '') || ' address=' || coalesce(address, '')
from int_market_nashville_checked where reject_reason is not null;

insert into permits by name
select
    'nashville:' || permit_number as permit_id,
    'nashville' as source,
    normalize_address(address) as address,
    zip5(zip) as zip,
    title_case(city) as city,
    coalesce(upper(state_code), 'TN') as state_code,
    coalesce(issued_date, entered_date) as issue_date,
    canonical_type as permit_type,
    positive_or_null(construction_cost) as valuation,
    lat, lng,
    parcel as parcel_id,
    permit_type_description || coalesce(' / ' || permit_subtype_description, '') as description,
    building_use,
    false as zip_imputed,
    file, row_number + 1 as line
from int_market_nashville_checked where reject_reason is null;

-- The file's declarations (permit_sources): its dates are applications entered (SOURCE.md: Date_Issued is empty, "not
-- yet issued"), and it covers Metro Nashville and Davidson County's Codes permits: Davidson County 47037, a consolidated
-- city-county, whatever mailing city a permit gives (Brentwood, Nolensville or Pegram included).
insert or replace into permit_sources values ('nashville', 'applied', 'county', '47037', 'Davidson County, TN');
