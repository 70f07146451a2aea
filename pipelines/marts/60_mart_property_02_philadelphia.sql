-- requires: parcels, int_property_extra, raw."philadelphia__properties"
-- Philadelphia OPA: the lot area (total_area) and the owner's mailing street and zip for each parcel row, by the
-- row's file and line (raw _row = line - 1). Sales rows of the same file line share them.
insert into int_property_extra
select p.file, p.line, positive_or_null(try_cast(r.total_area as double)),
       nullif(trim(r.mailing_street), ''), canonical_zip(nullif(trim(r.mailing_zip), ''))
from parcels p join raw."philadelphia__properties" r on r._file = p.file and r._row = p.line - 1
where p.source = 'philadelphia';
