-- requires: raw."acs_population__zctas", int_market_housing_units
-- Housing units per ZCTA (ACS 2019-2023 5-year, B25001_001E): the denominator of the rehab permit rates.
insert into int_market_housing_units
select zip5("zip code tabulation area") as zip, max(try_cast("B25001_001E" as double)) as housing_units
from raw."acs_population__zctas"
where zip5("zip code tabulation area") is not null and try_cast("B25001_001E" as double) > 0
group by 1;
