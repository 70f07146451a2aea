-- requires: parcels, int_property_extra, states, raw."philadelphia__properties"
-- Philadelphia OPA: the lot area (total_area) and the owner's mailing street, zip and state for each parcel row, by the
-- row's file and line (raw _row = line - 1). Sales rows of the same file line share them. The state is the last word
-- of mailing_city_state ("CHERRY HILL NJ") when it is a state's code (research's owner counts: out of state).
insert into int_property_extra (file, line, lot_sqft, mailing_street, mailing_zip, mailing_state)
select p.file, p.line, positive_or_null(try_cast(r.total_area as double)),
       nullif(trim(r.mailing_street), ''), canonical_zip(nullif(trim(r.mailing_zip), '')),
       st.state_code
from parcels p join raw."philadelphia__properties" r on r._file = p.file and r._row = p.line - 1
left join states st on st.state_code = regexp_extract(upper(trim(r.mailing_city_state)), '\s([A-Z]{2})$', 1)
where p.source = 'philadelphia';
