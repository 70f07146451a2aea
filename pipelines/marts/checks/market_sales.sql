-- check: sales have a unique sale_id, a source, a sale date from 1900 to the build date, a finite price of at least 0 ($10,000 when arm's-length), a known property type and condition, a 5-digit zip, a state code and coordinates inside the United States
-- requires: sales
select sale_id, 'sale_id missing' as problem, null as value from sales where sale_id is null or sale_id = ''
union all
select sale_id, 'sale_id duplicate', count(*)::varchar from sales where sale_id is not null group by sale_id having count(*) > 1
union all
select sale_id, 'source missing', null from sales where source is null or source = ''
union all
select sale_id, 'sale_date missing or outside 1900-01-01 .. build date', sale_date::varchar
from sales where sale_date is null or sale_date < date '1900-01-01' or sale_date > build_date()
union all
select sale_id, 'list_date outside 1900-01-01 .. build date', list_date::varchar
from sales where list_date < date '1900-01-01' or list_date > build_date()
union all
select sale_id, 'sale_price missing, negative or not finite', sale_price::varchar
from sales where sale_price is null or not isfinite(sale_price) or sale_price < 0
union all
-- a $0 or nominal transfer is kept, flagged: never an arm's-length sale (the floor is $10,000, NYC's at or under it as
-- its SOURCE.md reads, warehouse/docs/market.md)
select sale_id, 'arm''s-length at a nominal price (under $10,000; NYC at or under)', sale_price::varchar
from sales where is_arms_length and (sale_price < 10000 or (source = 'nyc' and sale_price <= 10000))
union all
select sale_id, 'list_price not above 0 or not finite', list_price::varchar
from sales where list_price is not null and (not isfinite(list_price) or list_price <= 0)
union all
select sale_id, 'property_type not in sfr, multi, condo, land, commercial, coop (NYC only)', coalesce(property_type, 'null')
from sales where property_type is null or not list_contains(recorded_property_types(), property_type) or (property_type = 'coop' and source <> 'nyc')
union all
select sale_id, 'condition not in excellent, good, fair, poor', condition
from sales where condition not in ('excellent', 'good', 'fair', 'poor')
union all
select sale_id, 'zip not 5 digits', zip from sales where not regexp_matches(zip, '^\d{5}$')
union all
select sale_id, 'state_code missing', null from sales where state_code is null or not regexp_matches(state_code, '^[A-Z]{2}$')
union all
select sale_id, 'is_arms_length missing', null from sales where is_arms_length is null
union all
select sale_id, 'sqft, beds or baths not above 0', concat_ws('/', sqft, beds, baths)
from sales where sqft <= 0 or beds < 0 or baths < 0 or not isfinite(sqft)
union all
select sale_id, 'year_built after the build year', year_built::varchar from sales where year_built > year(build_date()) + 1
union all
select sale_id, 'coordinates outside the United States or only one of lat, lng', concat_ws(',', lat, lng)
from sales
where (lat is null) <> (lng is null)
   or lat not between 17.5 and 71.5
   or not (lng between -180 and -64.5 or lng between 172 and 180)
