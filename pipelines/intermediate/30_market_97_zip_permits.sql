-- requires: permits, int_market_zip_names
-- int_market_zip_permits: the permits that count in their zip's rehab measures (the rehab score and the zip's 30-day
-- direction). A permit whose zip was recorded counts where it is. A permit whose zip was guessed (zip_imputed: the
-- nearest ZCTA centroid of the source's city, 30_market_80_fill_geo.sql) counts only when the zip's city is the
-- permit's own city: a Chicago permit at O'Hare lands in 60018, Des Plaines, where the source covers only the airport,
-- and the zip's rate per housing unit would divide Chicago's airport work by Des Plaines' homes ("Hot, high",
-- review 4; also Elmwood Park, Riverdale, Cicero, Schiller Park and Franklin Park). Cities compare by their letters
-- ("Lavergne" is La Vergne). The permits stay in `permits` (property records, city markets).
create or replace table int_market_zip_permits as
select p.*
from permits p
left join int_market_zip_names n using (zip)
where p.zip is not null
  and (not coalesce(p.zip_imputed, false)
       or regexp_replace(lower(p.city), '[^a-z]', '', 'g') = regexp_replace(lower(n.city), '[^a-z]', '', 'g'));
