-- check: parcels, permits and distress filings have their key (parcel_id or address, permit_id, distress_id) unique and present, dates from 1900 to the build date, amounts above 0 (a parcel's last sale price at least 0) and values in their sets
-- requires: parcels, permits, distress
select 'parcels' as "table", coalesce(parcel_id, address) as id, 'parcel without parcel_id or address' as problem, null as value
from parcels where coalesce(parcel_id, address) is null
union all
select 'parcels', parcel_id, 'parcel duplicate (source, parcel_id, unit)', count(*)::varchar
from parcels where parcel_id is not null group by source, parcel_id, unit having count(*) > 1
union all
select 'parcels', coalesce(parcel_id, address), 'property_type not in sfr, multi, condo, land, commercial, coop (NYC only)', coalesce(property_type, 'null')
from parcels where not list_contains(recorded_property_types(), property_type) or (property_type = 'coop' and source <> 'nyc')
union all
select 'parcels', coalesce(parcel_id, address), 'last sale outside 1900-01-01 .. build date or price negative', concat_ws(' ', last_sale_date, last_sale_price)
from parcels where last_sale_date < date '1900-01-01' or last_sale_date > build_date() or last_sale_price < 0 or not isfinite(last_sale_price)
union all
select 'permits', permit_id, 'permit_id missing or duplicate', count(*)::varchar
from permits group by permit_id having permit_id is null or count(*) > 1
union all
select 'permits', permit_id, 'issue_date missing or outside 1900-01-01 .. build date', issue_date::varchar
from permits where issue_date is null or issue_date < date '1900-01-01' or issue_date > build_date()
union all
select 'permits', permit_id, 'permit_type not in renovation, addition, repair, new, demolition, other', coalesce(permit_type, 'null')
from permits where permit_type is null or permit_type not in ('renovation', 'addition', 'repair', 'new', 'demolition', 'other')
union all
select 'permits', permit_id, 'valuation not above 0', valuation::varchar
from permits where valuation <= 0 or not isfinite(valuation)
union all
select 'permits', permit_id, 'zip not 5 digits', zip from permits where not regexp_matches(zip, '^\d{5}$')
union all
select 'distress', distress_id, 'distress_id missing or duplicate', count(*)::varchar
from distress group by distress_id having distress_id is null or count(*) > 1
union all
select 'distress', distress_id, 'filing_date missing or outside 1900-01-01 .. build date', filing_date::varchar
from distress where filing_date is null or filing_date < date '1900-01-01' or filing_date > build_date()
union all
select 'distress', distress_id, 'kind not in pre_foreclosure, tax_delinquent, lien_foreclosure', coalesce(kind, 'null')
from distress where kind is null or kind not in ('pre_foreclosure', 'tax_delinquent', 'lien_foreclosure')
union all
select 'distress', distress_id, 'amount not above 0', amount::varchar
from distress where amount <= 0 or not isfinite(amount)
union all
select 'distress', distress_id, 'zip not 5 digits', zip from distress where not regexp_matches(zip, '^\d{5}$')
