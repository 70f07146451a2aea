-- requires: zips, int_market_permit_area
-- mart_rehab_unaddressed: the zips with no area of their own (no Census ZCTA, zip_is_area: a PO-box or unique zip)
-- lying in the area a permit source covers: a county area holds the zip's primary county (zips.county_fips) when it
-- covers at least half of the zips of that county with permits; a city area (a place) the zip's city likewise (the zip
-- has no land to share with the place: its USPS city). Such a zip has no housing unit count, so no permit rate: a
-- PO-box zip has no street addresses, so no permit or home sale is recorded in it, while the source covers its city;
-- a unique zip (one organisation's) may record a few permits (Vanderbilt's 37240: one $13.2M renovation; its 404 counts
-- them from sales-cover.json `permits`). The rehab 404 says so (sales-cover.json `unaddressed`), not
-- "no building permit source covers the zip" (Nashville 37202, Chicago 60664) nor, for 37240, a bare "no housing unit
-- count" (h27).
create or replace table mart_rehab_unaddressed as
with covered as (
    select distinct a.source, a.area_kind, a.area_name, z.county_fips, z.city, z.state_code
    from int_market_permit_area a join zips z using (zip) where a.covered_share >= 0.5
)
select distinct z.zip, z.city, z.state_code, c.source, c.area_name
from zips z join covered c on c.state_code = z.state_code
     and case when c.area_kind = 'county' then c.county_fips = z.county_fips else c.city = z.city end
where not zip_is_area(z.is_zcta, z.centroid_source);
