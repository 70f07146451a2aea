-- check: mart_valuation_apartments has one row per property_id, each named by the source it came from, with units
-- of five or more (NYC a count; Philadelphia the OPA code's range or "5+"); mart_valuation_apartment_sales one row per
-- sale of the sales table, a multi-family sale whose own row reads five or more units
-- requires: mart_valuation_apartments, mart_valuation_apartment_sales, sales
select property_id, 'property_id missing or duplicate' as problem
from mart_valuation_apartments group by property_id having property_id is null or count(*) > 1
union all
select property_id, 'units below 5 or unreadable: ' || coalesce(units, 'null') from mart_valuation_apartments
where coalesce(try_cast(regexp_extract(units, '^[0-9]+', 0) as integer) >= 5, false) = false
union all
select sale_id, 'apartment sale: sale_id missing or duplicate' from mart_valuation_apartment_sales
group by sale_id having sale_id is null or count(*) > 1
union all
select a.sale_id, 'apartment sale: not a multi-family sale of the sales table or units below 5: ' || coalesce(a.units, 'null')
from mart_valuation_apartment_sales a left join sales s using (sale_id)
where s.sale_id is null or s.property_type <> 'multi' or coalesce(try_cast(a.units as integer) >= 5, false) = false
