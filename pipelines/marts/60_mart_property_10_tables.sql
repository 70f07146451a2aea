-- requires: sales, parcels, permits, distress, int_property_files, int_property_extra, int_property_field_cites, int_market_resales, zips, int_unit_shared_sqft
-- The property record (issue 22; rules and grain: warehouse/docs/property.md). Every row of sales, parcels, permits
-- and distress whose property identity is known (property_identity(): the source's parcel id, else the normalised
-- street line and unit within a recorded zip) is a candidate for each field it has. Per property and field the
-- written rule picks one value: the newest record wins (sales: sale date; parcels: last sale date; permits: issue
-- date; distress: filing date), then the most specific source (parcels, then sales, then permits, then distress),
-- then the later document in the source's recording order (document_order(): Denver's reception number; deeds of one
-- day), then the earlier file and the later line. The other values are kept as the losing values. A value is cited at
-- the file and line it was read from (int_property_field_cites: Denver's beds, baths, sqft and year built at the
-- residential file's row; a canonical sale's place taken from its parcel at that parcels.csv line), and a value the
-- cited row does not record is cited as imputed, not as read: a zip the geography fill guessed (zip_imputed), a city or
-- state it filled from the zip, a constant the source's adapter writes (on every row, or where the file left it empty).
--   properties        one row per property (property_id), the chosen value of every field
--   property_sales    one row per recorded sale of a property (duplicate copies left out), newest first
--   property_lineage  one row per property, field and distinct value: the chosen value and each losing value, with the
--                     row that carries it (source, table, file relative to the sources folder, line, record date, vintage)

-- owner_type(): the owner class of a name, with the other name classifiers (30_market_00_canonical_tables.sql).

-- every source row that names a property, with the facts it records; the identity is computed once per row (the
-- macro's regular expressions are the cost of this step) and property_id is property_id()'s formula over it
create or replace temp table int_property_rows_all as
select property_identity(r.source, r.parcel_id, r.address, r.unit, r.zip) as identity, r.*
from (
    select 'sales' as origin, 2 as origin_rank, source, sale_id as row_id, file, line, sale_date as record_date, parcel_id, address, unit,
           city, state_code, zip, zip_imputed, city_from_zip, state_from_zip, lat, lng, property_type, beds, baths, sqft, year_built, null::varchar as owner_name,
           document_order(document_id) as doc_order
    from sales where not is_duplicate
    union all by name
    select 'parcels' as origin, 1 as origin_rank, source, null as row_id, file, line, last_sale_date as record_date, parcel_id, address,
           unit, city, state_code, zip, zip_imputed, city_from_zip, state_from_zip, lat, lng, property_type, beds, baths, sqft, year_built, owner_name
    from parcels
    -- a permit's zip assigned from the nearest ZCTA centroid is a guess: no identity is made of it
    union all by name
    select 'permits' as origin, 3 as origin_rank, source, permit_id as row_id, file, line, issue_date as record_date, parcel_id, address,
           null as unit, city, state_code, case when not zip_imputed then zip end as zip, city_from_zip, state_from_zip, lat, lng
    from permits
    union all by name
    select 'distress' as origin, 4 as origin_rank, source, distress_id as row_id, file, line, filing_date as record_date, parcel_id,
           address, null as unit, city, state_code, zip, city_from_zip, state_from_zip, lat, lng
    from distress
) r;

-- a row without a parcel id (a canonical permits.csv has no parcel_id column; a filing naming no parcel) at the street
-- line, unit and zip of a parcel of its source is that parcel's property, as a native permit carrying its parcel id
-- joins it (review 22: 929 CAHAL AVE's permit was a property of its own beside the parcel's sales); a line two parcels
-- of the source share stays its own property (which parcel is not known)
create or replace temp table int_property_addr_parcels as
select addr_identity, any_value(identity) as identity
from (
    select distinct property_identity(source, null, address, unit, zip) as addr_identity, identity
    from int_property_rows_all
    where identity like '%|parcel|%' and address is not null
      and source in (select distinct source from int_property_rows_all where identity like '%|addr|%')
)
where addr_identity is not null
group by addr_identity having count(distinct identity) = 1;
update int_property_rows_all r set identity = a.identity
from int_property_addr_parcels a where r.identity = a.addr_identity;
drop table int_property_addr_parcels;

-- a unit row's sqft that is its lot's (several units of one lot and sale date share it: int_unit_shared_sqft) is not
-- the unit's size: no candidate, and no price per sqft
create or replace temp table int_property_rows as
select left(sha256(r.identity), 16) as property_id,
       r.* replace (case when u.line is null then r.sqft end as sqft), x.lot_sqft,
       case when x.mailing_street is not null and r.address is not null
            then not coalesce(same_street_line(normalize_address(x.mailing_street), normalize_address(r.address)), false)
                 or (x.mailing_zip is not null and x.mailing_zip is distinct from r.zip) end as absentee_owner
from int_property_rows_all r
left join (select file, line, max(lot_sqft) as lot_sqft, max(mailing_street) as mailing_street, max(mailing_zip) as mailing_zip
           from int_property_extra group by all) x on x.file = r.file and x.line = r.line
left join int_unit_shared_sqft u on u.source = r.source and u.file = r.file and u.line = r.line
where r.identity is not null;
drop table int_property_rows_all;

-- the fields a source's adapter writes as one constant on every row, its files having no such column
-- (pipelines/intermediate/30_market_*.sql): the value is the adapter's, not the cited row's, so lineage says
-- 'source_constant'. NYC's rolling sales have a BOROUGH and no city (30_market_12: 'New York', 'NY'); Philadelphia's
-- transfers and roll, Denver's transfers, Chicago's permits and Louisville's filings name no city or state; King
-- County's sales, Connecticut's and Allegheny's name no state. King County's have no type column either: the adapter
-- writes 'sfr' on every row (30_market_10: SOURCE.md, house sales). Sacramento's and Nashville's files have a state
-- column: their adapters' 'CA'/'TN' is a fallback for an empty one (no row of the shipped files), flagged per row by
-- int_property_field_cites (60_mart_property_00_files.ts FALLBACKS) with this same 'source_constant'.
create or replace temp table int_property_source_constants (source varchar, field varchar);
insert into int_property_source_constants values
    ('nyc', 'city'), ('nyc', 'state'), ('philadelphia', 'city'), ('philadelphia', 'state'),
    ('denver', 'city'), ('denver', 'state'), ('chicago', 'city'), ('chicago', 'state'),
    ('louisville', 'city'), ('louisville', 'state'), ('king_county', 'state'), ('king_county', 'property_type'), ('connecticut', 'state'),
    ('allegheny', 'state');

-- one candidate per row and field it records, ranked by the conflict rule; cite_file and cite_line are where the value
-- was read (the row's own, or int_property_field_cites: another file's row), imputed how a value the row does not
-- record was filled (null: read). A value the geography fill wrote is the fill's, whatever the row's cite says.
create or replace temp table int_property_candidates as
select c.property_id, c.field, c.value, c.origin, c.origin_rank, c.source, c.file, c.line, c.record_date,
       case when c.filled is null and fc.cite_file is not null then fc.cite_file else c.file end as cite_file,
       case when c.filled is null and fc.cite_file is not null then fc.cite_line else c.line end as cite_line,
       coalesce(c.filled, fc.imputed,
                case when (c.source, c.field) in (select (source, field) from int_property_source_constants) then 'source_constant' end) as imputed,
       row_number() over (partition by c.property_id, c.field
                          order by c.record_date desc nulls last, c.origin_rank, c.doc_order desc nulls last, c.file, c.line desc) as rank
from (
    select *, case when field = 'zip' and zip_imputed then 'nearest_zcta_centroid'
                   when field = 'city' and city_from_zip then 'zip_city'
                   when field = 'state' and state_from_zip then 'zip_state' end as filled
    from (
        select property_id, origin, origin_rank, source, file, line, record_date, doc_order, zip_imputed, city_from_zip, state_from_zip,
               unnest([
                   {'field': 'parcel_id', 'value': cast(parcel_id as varchar)},
                   {'field': 'address', 'value': address},
                   {'field': 'unit', 'value': unit},
                   {'field': 'city', 'value': city},
                   {'field': 'state', 'value': state_code},
                   {'field': 'zip', 'value': zip},
                   {'field': 'lat', 'value': cast(lat as varchar)},
                   {'field': 'lng', 'value': cast(lng as varchar)},
                   {'field': 'property_type', 'value': property_type},
                   {'field': 'beds', 'value': cast(beds as varchar)},
                   {'field': 'baths', 'value': cast(baths as varchar)},
                   {'field': 'sqft', 'value': cast(sqft as varchar)},
                   {'field': 'lot_sqft', 'value': cast(lot_sqft as varchar)},
                   {'field': 'year_built', 'value': cast(year_built as varchar)},
                   {'field': 'owner_name', 'value': owner_name},
                   {'field': 'owner_type', 'value': owner_type(owner_name)},
                   {'field': 'absentee_owner', 'value': cast(absentee_owner as varchar)}
               ], recursive := true)
        from int_property_rows
    ) where value is not null
) c
left join int_property_field_cites fc on fc.source = c.source and fc.file = c.file and fc.line = c.line and fc.field = c.field;

create or replace table property_lineage as
with chosen as (
    select * from int_property_candidates where rank = 1
),
lost as (
    select c.*, row_number() over (partition by c.property_id, c.field, c.value order by c.rank) as value_rank
    from int_property_candidates c join chosen w using (property_id, field)
    where c.rank > 1 and c.value <> w.value
)
select l.property_id, l.field, l.value, l.status, l.source, l.origin as source_table, f.rel_file as file, l.cite_line as line,
       l.record_date, f.vintage, l.rank, l.imputed
from (
    select property_id, field, value, 'chosen' as status, source, origin, cite_file, cite_line, record_date, rank, imputed from chosen
    union all
    select property_id, field, value, 'lost' as status, source, origin, cite_file, cite_line, record_date, rank, imputed from lost where value_rank = 1
) l
left join int_property_files f on f.file = l.cite_file
order by l.property_id, l.field, l.rank;

create or replace table property_sales as
with sold as (
    select r.property_id, s.* replace (r.sqft as sqft) from int_property_rows r join sales s on s.sale_id = r.row_id where r.origin = 'sales'
),
flips as (
    -- the investor overview's flips (int_market_resales, is_investor_flip): the resale, and the purchase it follows
    -- (the arm's-length sale of the same property at the purchase date and price)
    select r.sale_id as resale_id, p.sale_id as purchase_id
    from int_market_resales r
    join sold s on s.sale_id = r.sale_id
    left join sold p on p.property_id = s.property_id and p.is_arms_length and p.sale_date = r.purchase_date and p.sale_price = r.purchase_price
    where r.is_investor_flip
),
legs as (
    select resale_id as sale_id, 'resale' as flip_role from flips
    union
    select purchase_id, 'purchase' from flips where purchase_id is not null and purchase_id not in (select resale_id from flips)
)
select s.property_id, s.sale_id, s.source,
       s.sale_date as date, s.sale_price as price,
       -- a nominal price rounds to $0.00 a sqft: null, not 0 (a $1 deed, review 4); a portfolio deed's price is the
       -- total of several parcels, so over one parcel's sqft it is no price a sqft: null (review 15: 446.43 a sqft)
       case when s.sqft > 0 and s.sale_price > 0 and not coalesce(s.is_portfolio, false)
            then nullif(round(s.sale_price / s.sqft, 2), 0) end as price_per_sqft,
       s.buyer_name as buyer, s.seller_name as seller, s.is_arms_length as arms_length, s.is_portfolio as portfolio,
       s.buyer_is_investor as investor_buyer, l.flip_role is not null as flip_leg, l.flip_role,
       f.rel_file as file, s.line, s.document_id
from sold s
left join legs l using (sale_id)
left join int_property_files f on f.file = s.file
order by s.property_id, date desc, document_order(s.document_id) desc nulls last, s.line desc;

create or replace table properties as
with fields as (
    select property_id,
        max(value) filter (where field = 'parcel_id') as parcel_id,
        max(value) filter (where field = 'address') as address,
        max(value) filter (where field = 'unit') as unit,
        max(value) filter (where field = 'city') as city,
        max(value) filter (where field = 'state') as state,
        max(value) filter (where field = 'zip') as zip,
        bool_or(imputed is not null) filter (where field = 'zip') as zip_imputed,
        max(try_cast(value as double)) filter (where field = 'lat') as lat,
        max(try_cast(value as double)) filter (where field = 'lng') as lng,
        max(value) filter (where field = 'property_type') as property_type,
        max(try_cast(value as double)) filter (where field = 'beds') as beds,
        max(try_cast(value as double)) filter (where field = 'baths') as baths,
        max(try_cast(value as double)) filter (where field = 'sqft') as sqft,
        max(try_cast(value as double)) filter (where field = 'lot_sqft') as lot_sqft,
        max(try_cast(value as integer)) filter (where field = 'year_built') as year_built,
        max(value) filter (where field = 'owner_name') as owner_name,
        max(value) filter (where field = 'owner_type') as owner_type,
        max(try_cast(value as boolean)) filter (where field = 'absentee_owner') as absentee_owner
    from property_lineage where status = 'chosen' group by property_id
),
idents as (
    select property_id, any_value(identity) as identity, any_value(source) as source,
           count(*) filter (where origin = 'sales') as sale_rows, count(*) filter (where origin = 'parcels') as parcel_rows,
           count(*) filter (where origin = 'permits') as permit_count, count(*) filter (where origin = 'distress') as distress_filings_total,
           count(*) as source_rows
    from int_property_rows group by property_id
),
-- open filings only: a case closed by its docket or sold at the commissioner sale (distress.status 'closed', market.md
-- "Distress status") is no active signal; a filing whose source says nothing (null: canonical distress.csv) is open
open_filings as (
    select r.property_id, count(*) filter (where d.status is distinct from 'closed') as distress_count
    from int_property_rows r join distress d on d.distress_id = r.row_id where r.origin = 'distress' group by r.property_id
),
sold as (
    select property_id, count(*) as sale_count, max(date) as last_sale_date,
           arg_max(price, (date, coalesce(document_order(document_id), ''), line)) as last_sale_price
    from property_sales group by property_id
)
select i.property_id, i.identity, i.source, f.parcel_id, f.address, f.unit, f.city, f.state, f.zip, coalesce(f.zip_imputed, false) as zip_imputed,
       z.county_name as county, f.lat, f.lng, f.property_type, f.beds, f.baths, f.sqft, f.lot_sqft, f.year_built,
       f.owner_name, f.owner_type, f.absentee_owner,
       coalesce(s.sale_count, 0) as sale_count, s.last_sale_date, s.last_sale_price,
       i.permit_count, coalesce(o.distress_count, 0) as distress_count, i.distress_filings_total, i.source_rows
from idents i join fields f using (property_id)
left join sold s using (property_id)
left join open_filings o using (property_id)
left join zips z on z.zip = f.zip
order by i.property_id;

-- the permits and distress filings at each property (for the record's lists); a filing's docket type, status
-- (active / closed / null: the source does not say), outcome, status date and auction sale date and price
-- (Louisville's commissioner sale: on the filing only, no row of the property's sales; warehouse/docs/market.md)
create or replace table int_property_events as
select r.property_id, 'permit' as kind, p.permit_id as event_id, p.source, p.issue_date as date, p.permit_type as type,
       p.description, p.valuation as amount, f.rel_file as file, p.line,
       null::varchar as docket_type, null::varchar as status, null::varchar as outcome, null::date as status_date,
       null::date as sale_date, null::double as sale_price
from int_property_rows r join permits p on p.permit_id = r.row_id left join int_property_files f on f.file = p.file
where r.origin = 'permits'
union all
select r.property_id, 'distress', d.distress_id, d.source, d.filing_date, d.kind, null, d.amount, f.rel_file, d.line,
       d.docket_type, d.status, d.outcome, d.status_date, d.sale_date, d.sale_price
from int_property_rows r join distress d on d.distress_id = r.row_id left join int_property_files f on f.file = d.file
where r.origin = 'distress';
