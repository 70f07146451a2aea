-- check: every zip in zips has exactly one mart_location_risk row
-- requires: zips, mart_location_risk
select z.zip, count(m.zip) as rows
from zips z left join mart_location_risk m using (zip)
group by z.zip
having count(m.zip) <> 1
