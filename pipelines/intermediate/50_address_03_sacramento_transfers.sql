-- requires: stg_sacramento__sales, int_address_candidates, sales
-- Sacramento rows the market domain rejected as sales (the bogus 4,897 prices, an unknown type) still carry a
-- real address with beds, baths, sqft and coordinates (0 = unknown, so null). Same normalisation as
-- 30_market_11_sales_sacramento.sql; rows that became sales are not repeated (anti join on file+line).
insert into int_address_candidates by name
select
    'sacramento' as source, 'transfer' as kind,
    normalize_address(s.street) as address, address_unit(s.street) as unit,
    title_case(s.city) as city, coalesce(upper(s.state_code), 'CA') as state_code, zip5(s.zip) as zip,
    case when s.lat between 17 and 72 and s.lng between -180 and -60 then s.lat end as lat,
    case when s.lat between 17 and 72 and s.lng between -180 and -60 then s.lng end as lng,
    positive_or_null(s.beds) as beds, positive_or_null(s.baths) as baths, positive_or_null(s.sqft) as sqft,
    s.sale_date as seen_date, s.file, s.row_number + 1 as line
from stg_sacramento__sales s
anti join (select file, line from sales where source = 'sacramento') k on k.file = s.file and k.line = s.row_number + 1
where normalize_address(s.street) is not null;
