-- requires: sales, zips, int_geo_city_parts, int_market_city_parts
-- The part of a consolidated city each canonical sale lies in (int_market_city_parts), as the NYC adapter records its
-- BOROUGH: a canonical file names a sale's city as its own records do, and NYC's (scripts/canonical-sales.ts --from nyc,
-- any county export of the city) name all five boroughs "New York". Without a part, Brooklyn had no market of its own
-- on such a build: trends and research answered for all of New York or not at all (review 21). The parts are the
-- Census's, never a list written here: a city of int_geo_city_parts is a whole county of its parent city (Brooklyn is
-- Kings County, 36047), so a sale whose city is the parent (New York) lies in the part whose county is its zip's
-- county (zips.county_fips: HUD's county with most of the zip's addresses). On the native NYC rows this reading
-- agrees with the file's own BOROUGH for 99.8% of the sales (172,934 of 173,203 at the build of review 22; the rest
-- are zips of a neighbour's county: Marble Hill, borough 1 in the Bronx's 10463, is read as the Bronx; 11001 and 11040
-- on the Queens-Nassau line are Nassau's by most addresses). A sale whose zip's county is no part of its city gets
-- none and counts in its city only.
-- After the row contracts (30_market_44_row_contracts.ts): a rejected sale has no row in `sales`.
insert into int_market_city_parts
select s.sale_id, s.state_code, p.city_name
from sales s
join zips z on z.zip = s.zip
join int_geo_city_parts p
  on p.state_code = s.state_code and p.parent_city_slug = slug(s.city) and p.county_fips = z.county_fips
where s.source = 'canonical';
