-- check: state_legal has exactly the 50 states + DC, each with a foreclosure type, a tax sale type, a 0-100 friendliness score and label, a review date, and no rate or redemption period for deed states
-- requires: state_legal, int_legal_state_names
select state_code, 'missing from state_legal' as problem
from int_legal_state_names
where state_code not in (select state_code from state_legal)
union all
select 'count', 'state_legal has ' || count(*) || ' rows, not 51'
from state_legal
having count(*) <> 51
union all
select state_code, 'missing or out-of-range field'
from state_legal
where foreclosure_type not in ('judicial', 'non-judicial', 'hybrid') or foreclosure_type is null
    or lien_or_deed not in ('lien', 'deed', 'hybrid') or lien_or_deed is null
    or landlord_friendliness_score is null or landlord_friendliness_score < 0 or landlord_friendliness_score > 100
    or landlord_friendliness_label is null or last_reviewed_at is null
    or (lien_or_deed = 'deed' and (interest_rate_pct is not null or redemption_period_months is not null))
