-- requires: stg_usgeo__states
-- Canonical states: the 50 states and DC (is_state false for DC). Territories (PR, GU, VI, AS, MP) are out of
-- scope for every geo table and recorded in meta.rejects.
create or replace table states as
with source as (
    select * from stg_usgeo__states
),
in_scope as (
    select * from source where state_type in ('state', 'district')
),
final as (
    select
        state_code,
        state_name,
        state_fips,
        population,
        state_type = 'state' as is_state,
        region,
        division,
        land_area_sqmi,
    from in_scope
)
select * from final order by state_code;

insert into meta.rejects
select 'intermediate', 'usgeo', _file, _row + 1, 'territory_out_of_scope', state_code || ' ' || state_name
from stg_usgeo__states
where state_type not in ('state', 'district');
