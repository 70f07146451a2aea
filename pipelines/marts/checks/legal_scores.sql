-- check: every legal market has a 0-100 legal risk score, a label, a summary with the state's facts, at least one investor action, a review date and the disclaimer
-- requires: mart_legal_market_risk
select state_code, city_name, legal_risk_score, legal_risk_label
from mart_legal_market_risk
where legal_risk_score is null or legal_risk_score < 0 or legal_risk_score > 100
    or legal_risk_label not in ('Low', 'Moderate', 'Elevated', 'High', 'Very High') or legal_risk_label is null
    or plain_english_summary is null or length(plain_english_summary) < 200
    or investor_actions is null or len(investor_actions) = 0
    or last_reviewed_at is null or disclaimer is null
