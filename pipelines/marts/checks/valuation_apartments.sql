-- check: mart_valuation_apartments has one row per property_id, each named by the source it came from, with units
-- of five or more (NYC a count; Philadelphia the OPA code's range or "5+")
-- requires: mart_valuation_apartments
select property_id, 'property_id missing or duplicate' as problem
from mart_valuation_apartments group by property_id having property_id is null or count(*) > 1
union all
select property_id, 'units below 5 or unreadable: ' || coalesce(units, 'null') from mart_valuation_apartments
where coalesce(try_cast(regexp_extract(units, '^[0-9]+', 0) as integer) >= 5, false) = false
