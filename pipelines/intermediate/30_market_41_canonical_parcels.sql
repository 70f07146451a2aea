-- requires: stg_canonical__parcels, parcels
-- The operator's canonical parcels.csv (assessor roll) -> parcels, validated row by row (reasons as for sales:
-- missing_address, missing_city, bad_state, bad_zip, bad_property_type, bad_number, bad_coordinates).
create or replace temp view int_market_canonical_parcels_checked as
select *,
    case
        when address is null then 'missing_address'
        when city is null then 'missing_city'
        when state is null or not regexp_matches(state, '^[A-Za-z]{2}$') then 'bad_state'
        when canonical_zip(zip) is null then 'bad_zip'
        when property_type is null or property_type not in ('sfr', 'multi', 'condo', 'land', 'commercial') then 'bad_property_type'
        when (beds_text is not null and (beds is null or beds < 0 or beds > 100))
          or (baths_text is not null and (baths is null or baths < 0 or baths > 100))
          or (sqft_text is not null and (sqft is null or sqft < 0))
          or (year_built_text is not null and (year_built is null or year_built not between 1600 and 2100)) then 'bad_number'
        when (lat_text is not null and (lat is null or lat not between -90 and 90))
          or (lng_text is not null and (lng is null or lng not between -180 and 180)) then 'bad_coordinates'
    end as reject_reason
from stg_canonical__parcels;

insert into meta.rejects
select 'intermediate', 'canonical', file, row_number + 1, reject_reason,
    case reject_reason
        when 'bad_state' then 'state=' || coalesce(state, '')
        when 'bad_zip' then 'zip=' || coalesce(zip, '')
        when 'bad_property_type' then 'property_type=' || coalesce(property_type, '')
        when 'bad_number' then 'beds=' || coalesce(beds_text, '') || ' baths=' || coalesce(baths_text, '') || ' sqft=' || coalesce(sqft_text, '') || ' year_built=' || coalesce(year_built_text, '')
        when 'bad_coordinates' then 'lat=' || coalesce(lat_text, '') || ' lng=' || coalesce(lng_text, '')
        else reject_reason
    end
from int_market_canonical_parcels_checked where reject_reason is not null;

insert into parcels by name
select
    parcel_id, 'canonical' as source,
    normalize_address(address) as address, address_unit(address) as unit,
    title_case(city) as city, upper(state) as state_code, canonical_zip(zip) as zip,
    property_type, beds, baths, positive_or_null(sqft) as sqft, year_built, lat, lng, owner_name,
    null as last_sale_date, null as last_sale_price,
    file, row_number + 1 as line
from int_market_canonical_parcels_checked where reject_reason is null;
