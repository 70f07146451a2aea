-- check: mart_rehab_permits has one row per (zip, months 3-24), counts nested (residential rehab <= rehab types <= all permits), and mart_rehab's permit counts are its own (the rehab 404 says the same counts the score reads)
-- requires: mart_rehab_permits, mart_rehab
select zip, months, 'duplicate key or months outside 3-24' as problem, count(*)::varchar as value
from mart_rehab_permits group by zip, months having count(*) > 1 or months not between 3 and 24
union all
select zip, months, 'counts not nested', concat_ws(' ', permits_rehab, permits_rehab_types, permits_all)
from mart_rehab_permits
where permits_rehab > permits_rehab_types or permits_rehab_use_unrecorded > permits_rehab or permits_rehab_types > permits_all or permits_rehab_nonresidential > permits_rehab_types
union all
select m.zip, m.months, 'mart_rehab permit counts differ from mart_rehab_permits', concat_ws(' ', m.permits_all, p.permits_all, m.permits_rehab, p.permits_rehab)
from mart_rehab m left join mart_rehab_permits p using (zip, months)
where m.permits_all <> coalesce(p.permits_all, 0) or m.permits_rehab <> coalesce(p.permits_rehab, 0)
