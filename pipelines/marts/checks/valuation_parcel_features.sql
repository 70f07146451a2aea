-- check: mart_valuation_parcel_features has one row per parcels row (source, file, line), each a row of the parcels table
-- requires: mart_valuation_parcel_features, parcels
select source || ':' || coalesce(file, '') || ':' || coalesce(line::varchar, '') as key, 'parcel row missing or duplicate' as problem
from mart_valuation_parcel_features group by source, file, line having file is null or line is null or count(*) > 1
union all
select f.source || ':' || f.file || ':' || f.line, 'not in parcels' from mart_valuation_parcel_features f
where not exists (select 1 from parcels p where p.source = f.source and p.file = f.file and p.line = f.line)
