-- requires: zips, int_market_zip_names
-- The primary city and state of each zip from the geo `zips` table replace the record-based names.
create or replace table int_market_zip_names as
select n.zip, coalesce(z.city, n.city) as city, coalesce(z.state_code, n.state_code) as state_code
from int_market_zip_names n
left join (select zip, any_value(city) as city, any_value(state_code) as state_code from zips group by zip) z using (zip);
