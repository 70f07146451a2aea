-- check: every state (50 + DC) has at least one active state-level regulation record in each of the nine categories
-- requires: regulations, int_legal_state_names
with category as (
    select unnest(['landlord_tenant', 'eviction', 'creative_finance', 'adverse_possession', 'foreclosure', 'zoning',
                   'disclosure', 'rent_control', 'tax_deed_lien']) as category
),
expected as (
    select s.state_code, c.category from int_legal_state_names s cross join category c
),
present as (
    select distinct state_code, category from regulations where status = 'active' and jurisdiction_level = 'state'
)
select e.state_code, e.category, 'no active state record' as problem
from expected e
anti join present p using (state_code, category)
