-- requires: stg_chicago__permits, permits, permit_sources
-- Chicago building permits adapter -> permits. No zip column: 30_market_80_fill_geo.sql assigns the nearest
-- ZCTA centroid (zip_imputed = true). Cancelled and revoked permits are rejected (no work happened).
-- Type: RENOVATION/ALTERATION -> renovation; NEW CONSTRUCTION -> new; WRECKING/DEMOLITION -> demolition;
-- EASY PERMIT PROCESS and express-program repair work (reroofing, masonry, porch/deck, windows/doors,
-- nonstructural interior, plumbing, electrical, mechanical work) -> repair; express "Detached Frame Garage"
-- -> addition; signs, elevators, scaffolding, maintenance, administrative, solar, fire alarm, fences,
-- reinstatements and the rest -> other. reported_cost 0 means "not declared": valuation null.
-- building_use (warehouse/docs/market.md "Residential rehab"): the file has no use or occupancy column, so the work
-- description decides, first match wins: the express forms' stated unit counts ("LOCATIONS: 0 RESIDENTIAL UNIT(S), 1
-- NON-RESIDENTIAL UNIT(S)", "AFFECTS: 2 DWELLING UNITS; 0 NON-RESIDENTIAL UNITS": a dwelling affected -> residential,
-- none but a non-residential unit -> nonresidential; words such as BATHROOM in a restaurant's scope never outvote the
-- count); telecom (antennas, radio units, wireless) -> nonresidential; a dwelling word
-- (residence, dwelling, DU, apartment, condo, single family, flat, townhome, coach house, bedroom, bathroom, porch,
-- dormer, multifamily, an R-2..R-5 occupancy or RS/RT/RM zoning) -> residential; a business word (office, tenant,
-- retail, store, restaurant, hotel, bank, school, hospital, church, warehouse, commercial, suite, clinic, gym, salon,
-- an A/B/E/F/H/I/M/S occupancy, "0 dwelling units", non-residential, ...) -> nonresidential. A description that names neither takes its address's use:
-- the use named by more of the file's permits at the same address (upper case, spaces collapsed): an express
-- electrical permit at an office tower is the tower's. A tie or no named permit there: null (the file cannot tell).
create or replace temp view int_market_chicago_checked as
select * exclude (described_use, use_text, stated_dwellings, stated_nondwellings),
    coalesce(described_use, case when coalesce(trim(address), '') = '' then null
             when count(*) filter (where described_use = 'residential') over a > count(*) filter (where described_use = 'nonresidential') over a then 'residential'
             when count(*) filter (where described_use = 'residential') over a < count(*) filter (where described_use = 'nonresidential') over a then 'nonresidential'
        end) as building_use
from (
select *,
    -- the express forms' unit counts ("AFFECTS: 0 DWELLING UNITS; 1 NON-RESIDENTIAL UNITS", "0 RESIDENTIAL UNIT(S)")
    -- say no dwelling: they read as the word NONRESIDENTIAL, never as a dwelling word
    regexp_replace(upper(coalesce(work_description, '')), '\b0 (DWELLING|RESIDENTIAL) UNITS?(\(S\))?|NON-? ?RESIDENTIAL', ' NONRESIDENTIAL ', 'g') as use_text,
    -- the forms' stated dwelling and non-residential unit counts (null without a form count, or without its
    -- non-residential part); 0 and 0 (common areas, exterior work) states no use: the words decide
    try_cast(nullif(regexp_extract(upper(coalesce(work_description, '')), '(AFFECTS|LOCATIONS?):\s*(\d+) (DWELLING|RESIDENTIAL) UNITS?(\(S\))?[;,]?\s*((\d+) NON-? ?RESIDENTIAL)?', 2), '') as integer) as stated_dwellings,
    try_cast(nullif(regexp_extract(upper(coalesce(work_description, '')), '(AFFECTS|LOCATIONS?):\s*(\d+) (DWELLING|RESIDENTIAL) UNITS?(\(S\))?[;,]?\s*((\d+) NON-? ?RESIDENTIAL)?', 6), '') as integer) as stated_nondwellings,
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
        when stated_dwellings > 0 then 'residential'
        when stated_dwellings = 0 and stated_nondwellings > 0 then 'nonresidential'
        when regexp_matches(use_text, '\b(ANTENNAS?|WIRELESS|TELECOM\w*|CELL SITE|RADIO UNITS?)\b') then 'nonresidential'
        when regexp_matches(use_text, '\b(RESIDEN\w*|DWELLINGS?|D\.?U\.?S?|APARTMENTS?|APTS?|CONDO\w*|SINGLE[- ]FAMILY|TWO[- ]FLAT|\d[- ]?FLATS?|TOWN ?HOMES?|TOWN ?HOUSES?|COACH ?HOUSE|BEDROOMS?|BATHROOMS?|PORCH(ES)?|DORMERS?|MULTI[- ]?FAMILY|R-?[2-5]|R[STM]-?\d)\b') then 'residential'
        when regexp_matches(use_text, '\b(OFFICES?|TENANTS?|RETAIL|STORES?|RESTAURANTS?|CAFE|COFFEE|TAVERN|HOTEL|BANK|SCHOOL|HOSPITAL|CHURCH|WAREHOUSE|INDUSTRIAL|COMMERCIAL|SUITES?|CLINIC|MEDICAL|GYM|FITNESS|SALON|BUSINESS|MERCANTILE|ASSEMBLY|LAB|LABORATORY|UNIVERSITY|FACTORY|MANUFACTURING|SHOP|FOOD|NONRESIDENTIAL|(OCCUPANCY|USE GROUP|OCC\.?)( GROUP| TYPE| CLASSIFICATION)?:? ?[ABEFHIMS](-?\d)?)\b') then 'nonresidential'
    end as described_use,
    case
        when issue_date is null then 'bad_date'
        when permit_number is null then 'missing_permit_id'
        when permit_status in ('CANCELLED', 'REVOKED') then 'cancelled_permit'
        when row_number() over (partition by permit_number order by row_number) > 1 then 'duplicate_permit'
    end as reject_reason
from stg_chicago__permits
)
window a as (partition by regexp_replace(upper(trim(address)), '\s+', ' ', 'g'));

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
    building_use,
    false as zip_imputed,
    file, row_number + 1 as line
from int_market_chicago_checked where reject_reason is null;

-- The file's declarations (permit_sources): its dates are issue dates (SOURCE.md "permits issued by the Department of
-- Buildings"), and it covers the City of Chicago (Census place 1714000), not Cook County: the city lies in Cook and
-- DuPage counties, so a permit's county is its zip's.
insert or replace into permit_sources values ('chicago', 'issued', 'place', '1714000', 'the City of Chicago, IL');
