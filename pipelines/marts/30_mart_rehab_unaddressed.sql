-- requires: zips, int_market_permit_area, int_market_zip_permits
-- mart_rehab_unaddressed: the zips with no area of their own (no Census ZCTA, zip_is_area: a PO-box or unique zip) in
-- which no permit counts, lying in the area a permit source covers: a county area holds the zip's primary county
-- (zips.county_fips) when it covers at least half of the zips of that county with permits; a city area (a place) the
-- zip's city likewise (the zip has no land to share with the place: its USPS city). Such a zip has no street
-- addresses, so no permit or home sale is recorded in it, while the source covers its city: the rehab 404 says so
-- (sales-cover.json `unaddressed`), not "no building permit source covers the zip" (Nashville 37202, Chicago 60664).
create or replace table mart_rehab_unaddressed as
with covered as (
    select distinct a.source, a.area_kind, a.area_name, z.county_fips, z.city, z.state_code
    from int_market_permit_area a join zips z using (zip) where a.covered_share >= 0.5
)
select distinct z.zip, z.city, z.state_code, c.source, c.area_name
from zips z join covered c on c.state_code = z.state_code
     and case when c.area_kind = 'county' then c.county_fips = z.county_fips else c.city = z.city end
where not zip_is_area(z.is_zcta, z.centroid_source)
  and z.zip not in (select zip from int_market_zip_permits where zip is not null);
