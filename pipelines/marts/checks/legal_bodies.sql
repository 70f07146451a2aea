-- check: every landlord profile (51 state-level rows plus the markets) and every tax-sale row (51) has its score or type, a summary, a review date and the disclaimer
-- requires: mart_legal_landlord, mart_legal_tax_sale
select state_code, city_name, 'landlord profile incomplete' as problem
from mart_legal_landlord
where landlord_friendliness_score is null or landlord_friendliness_label is null or summary is null
    or last_reviewed_at is null or disclaimer is null or squatter_risk is null
union all
select 'count', null, 'mart_legal_landlord has ' || count(*) || ' state-level rows, not 51'
from mart_legal_landlord
where city_name is null
having count(*) <> 51
union all
select state_code, null, 'tax sale row incomplete'
from mart_legal_tax_sale
where lien_or_deed is null or sale_process_summary is null or last_reviewed_at is null or disclaimer is null
    or (lien_or_deed = 'deed' and (interest_rate_pct is not null or redemption_period_months is not null))
union all
select 'count', null, 'mart_legal_tax_sale has ' || count(*) || ' rows, not 51'
from mart_legal_tax_sale
having count(*) <> 51
