-- requires: sales, permits, distress
-- int_market_zip_names: the display city and state of every zip that has market data. The geo `zips` table
-- (primary city) wins when present (30_market_96); otherwise the most frequent city of the zip's records.
create or replace table int_market_zip_names as
select zip, mode(city) as city, mode(state_code) as state_code
from (
    select zip, city, state_code from sales where zip is not null
    union all select zip, city, state_code from permits where zip is not null
    union all select zip, city, state_code from distress where zip is not null
)
group by zip;
