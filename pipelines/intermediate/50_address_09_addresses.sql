-- requires: int_address_candidates, zips, counties, sales, int_market_city_parts
-- addresses: one row per distinct street address (normalised street line + unit + zip) across every source.
-- Merge rule (warehouse/docs/address.md):
--   key      normalize_address(address) | unit ('' when none) | zip. A row without a zip first takes the zip of
--            the same address + unit in the same city and state when exactly one zip is known for it; still
--            without a zip, its key uses city + state instead of the zip (Connecticut 2022 extract: town only).
--            A row whose zip was guessed (zip_imputed: nearest zip centroid, Chicago permits and Connecticut GL
--            sales) likewise takes the single recorded zip of the same address + unit + city + state when there is
--            one; otherwise the guess is dropped and the row is keyed by city + state like a zip-less row (so a
--            Connecticut GL row and a 2022-extract row of the same address in the same town merge). Only recorded
--            zips are lent; a guessed zip never becomes an address's zip.
--   zip_imputed  true when the address has no recorded zip and the market tables had guessed one for a row of it
--            (zip is then null: the guess is not kept).
--   facts    beds, baths and sqft each from the candidate row with the most facts (0-3 of them known), then the
--            most recent date, then source and line (deterministic); null when no row knows it, never 0.
--   point    the most recent candidate row with coordinates; else the centroid of the zip (location_source
--            'zip_centroid'); else null (no zip either).
--   city     the most recent non-null city of the key's rows; state likewise. county: the county of the part of the
--            city its source's sale rows put it in when they name one part only (city_part: NYC's BOROUGH,
--            int_market_city_parts; Marble Hill, borough 1 in the Bronx's zip 10463, is New York County), else the
--            zip's county (counties.county_name through zips.county_fips, else zips.county_name); without a recorded
--            zip, the county of the city when every zip of that postal city and state lies in one county (zips); else
--            null. The autocomplete index reads this county (live/autocomplete/build.ts).
--   id       address_id = the first 16 hex digits of md5(key): stable across builds while the key is unchanged.

-- 1. zip-less rows and rows with a guessed zip borrow the single recorded zip of the same address + unit + city + state
create or replace temp table int_address_zip_fill as
select address, coalesce(unit, '') as unit_key, upper(city) as city_key, state_code, min(zip) as zip
from int_address_candidates
where zip is not null and not zip_imputed and city is not null
group by all
having count(distinct zip) = 1;

create or replace temp table int_address_rows as
select c.*,
    case when c.zip is null or c.zip_imputed then f.zip else c.zip end as zip_final,
    c.zip_imputed and f.zip is null as zip_guessed,
    (c.beds is not null)::int + (c.baths is not null)::int + (c.sqft is not null)::int as facts,
    -- recency rank of a row: its facts first, then its date, then a deterministic tie-break
    ((c.beds is not null)::int + (c.baths is not null)::int + (c.sqft is not null)::int) * 100000
        + coalesce(c.seen_date - date '1800-01-01', 0) as fact_rank,
    coalesce(c.seen_date - date '1800-01-01', 0) as date_rank
from int_address_candidates c
left join int_address_zip_fill f
  on f.address = c.address and f.unit_key = coalesce(c.unit, '') and f.city_key = upper(c.city) and f.state_code = c.state_code
where regexp_matches(c.address, '[A-Z]')                 -- a street line has a street name, not only numbers
  and ((c.zip is not null and not c.zip_imputed) or f.zip is not null or (c.city is not null and c.state_code is not null));

create or replace temp table int_address_merged as
select
    address || '|' || coalesce(unit, '') || '|' || coalesce(zip_final, upper(city) || ',' || state_code) as merge_key,
    any_value(address) as address,
    any_value(unit) as unit,
    any_value(zip_final) as zip,
    bool_or(zip_guessed) as zip_imputed,
    arg_max(city, (date_rank, source, line)) filter (where city is not null) as city,
    arg_max(state_code, (date_rank, source, line)) filter (where state_code is not null) as state_code,
    arg_max({'lat': lat, 'lng': lng}, (date_rank, source, line)) filter (where lat is not null and lng is not null) as point,
    arg_max(beds, (fact_rank, source, line)) filter (where beds is not null) as beds,
    arg_max(baths, (fact_rank, source, line)) filter (where baths is not null) as baths,
    arg_max(sqft, (fact_rank, source, line)) filter (where sqft is not null) as sqft,
    list(distinct source order by source) as sources,
    count(*) as source_rows,
    max(seen_date) as last_seen_date
from int_address_rows
group by all;

-- the county of a postal city that lies in one county (for addresses without a recorded zip)
create or replace temp table int_address_city_county as
select upper(z.city) as city_key, z.state_code, min(coalesce(c.county_name, z.county_name)) as county
from zips z left join counties c on c.county_fips = z.county_fips
where z.city is not null
group by all
having count(distinct coalesce(z.county_fips, z.county_name)) = 1;

-- the part of its city (NYC's borough) every sale row of a street line, unit and zip names, when they name one only,
-- with that part's county (Census FIPS: nyc_boroughs(), warehouse/macros.sql)
create or replace temp table int_address_city_part as
select s.address, coalesce(s.unit, '') as unit_key, s.zip, s.state_code, min(p.city_part) as city_part,
       min(b.county_fips) as county_fips
from sales s join int_market_city_parts p using (sale_id)
left join nyc_boroughs() b on p.state_code = 'NY' and b.name = p.city_part
where s.zip is not null and s.address is not null
group by s.address, coalesce(s.unit, ''), s.zip, s.state_code
having count(distinct p.city_part) = 1;

create or replace table addresses as
select
    left(md5(m.merge_key), 16) as address_id,
    m.address,
    m.unit,
    m.city,
    coalesce(m.state_code, z.state_code) as state_code,
    m.zip,
    m.zip_imputed,
    case when m.zip is not null then coalesce(pc.county_name, c.county_name, z.county_name) else cc.county end as county,
    coalesce(m.point.lat, z.lat) as lat,
    coalesce(m.point.lng, z.lng) as lng,
    m.beds,
    m.baths,
    round(m.sqft) as sqft,
    m.sources,
    -- added columns
    case when m.point.lat is not null then 'address' when z.lat is not null then 'zip_centroid' end as location_source,
    m.source_rows,
    m.last_seen_date,
    cp.city_part
from int_address_merged m
left join zips z on z.zip = m.zip
left join counties c on c.county_fips = z.county_fips
left join int_address_city_county cc on m.zip is null and cc.city_key = upper(m.city) and cc.state_code = m.state_code
left join int_address_city_part cp on cp.address = m.address and cp.unit_key = coalesce(m.unit, '') and cp.zip = m.zip
                                  and cp.state_code = coalesce(m.state_code, z.state_code)
left join counties pc on pc.county_fips = cp.county_fips
order by m.state_code, m.zip, m.address, m.unit;

drop table int_address_zip_fill;
drop table int_address_rows;
drop table int_address_merged;
drop table int_address_city_county;
drop table int_address_city_part;
