-- check: every sale's zip is in the sale's state: the zip's own state, or a state the HUD ZIP-county crosswalk puts the zip in (a zip across a state line: 03804, mailed from Portsmouth NH, lies in York County ME)
-- requires: sales, zips, states, stg_hud_crosswalk__zip_county
-- The rule of the row contracts' zip_not_in_state (30_market_44_row_contracts.ts), so a sale they keep never fails
-- here: before (in market_geography), a canonical sale in Kittery, ME, 03804 passed its contract and failed the build
-- naming no line (review 22: no canonical row may reach a failing check).
select 'sales' as "table", s.zip, 'zip of ' || z.state_code || ' on a sale in ' || s.state_code as problem, count(*)::varchar as rows
from sales s join zips z using (zip)
where s.state_code <> z.state_code
  and not exists (select 1 from stg_hud_crosswalk__zip_county h join states st on st.state_fips = left(h.county_fips, 2)
                  where h.zip = s.zip and st.state_code = s.state_code)
group by s.zip, s.state_code, z.state_code
