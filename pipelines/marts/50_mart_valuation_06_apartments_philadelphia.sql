-- requires: mart_valuation_apartments, sales, parcels, raw."philadelphia__properties"
-- Philadelphia's apartment buildings (valuation scope, 50_mart_valuation_04_apartments.sql): a multi-family OPA row
-- whose category is APARTMENTS > 4 UNITS, or whose building code names five or more units ("APTS 5-50 UNITS
-- MASONRY", "APTS 51-100 UNITS", "APTS 100+ UNITS"; "APT 2-4 UNITS" is a small multi-family house and stays), read
-- from the same file row of every sale and parcel row. The roll is one snapshot, so a property's rows agree.
insert into mart_valuation_apartments by name
with rows as (
    select property_id(s.source, s.parcel_id, s.address, s.unit, s.zip) as property_id, s.property_type, s.file, s.line
    from sales s where s.source = 'philadelphia'
    union all
    select property_id(p.source, p.parcel_id, p.address, p.unit, p.zip), p.property_type, p.file, p.line
    from parcels p where p.source = 'philadelphia'
), read as (
    select x.property_id, trim(r.category_code_description) as category, trim(r.building_code_description) as code
    from rows x join raw."philadelphia__properties" r on r._file = x.file and r._row + 1 = x.line
    where x.property_type = 'multi' and x.property_id is not null
)
select property_id, 'philadelphia' as source,
       coalesce(nullif(regexp_extract(any_value(code), '^APTS ([0-9]+[-+][0-9]*) UNITS', 1), ''), '5+') as units,
       any_value(case when category like 'APARTMENTS%' then 'category_code_description ' || category
                      else 'building_code_description ' || code end) as evidence
from read
where category like 'APARTMENTS%' or code similar to 'APTS [0-9]+[-+][0-9]* UNITS.*'
group by property_id;
