-- check: addresses have a unique address_id, a street line, a state code of a known state, a 5-digit zip when known, both coordinates or neither, and a last-seen date not after the build date
-- requires: addresses, states
select address_id, 'address_id missing or duplicate' as problem, count(*)::varchar as value
from addresses group by address_id having address_id is null or count(*) > 1
union all
select address_id, 'street line missing', null from addresses where address is null or address = ''
union all
select address_id, 'state not in states', state_code from addresses where state_code is null or state_code not in (select state_code from states)
union all
select address_id, 'zip not 5 digits', zip from addresses where not regexp_matches(zip, '^\d{5}$')
union all
select address_id, 'only one of lat, lng, or outside the United States', concat_ws(',', lat, lng)
from addresses
where (lat is null) <> (lng is null)
   or lat not between 17.5 and 71.5
   or not (lng between -180 and -64.5 or lng between 172 and 180)
union all
select address_id, 'last_seen_date after the build date', last_seen_date::varchar from addresses where last_seen_date > build_date()
