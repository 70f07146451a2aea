-- check: a rehab label matches the published score's band (< 20 Cold, < 40 Warming, < 60 Active, < 80 Hot, else Very Hot)
-- severity: error
-- requires: mart_rehab
select zip, months, rehab_momentum_score, label,
    case when rehab_momentum_score < 20 then 'Cold' when rehab_momentum_score < 40 then 'Warming'
         when rehab_momentum_score < 60 then 'Active' when rehab_momentum_score < 80 then 'Hot' else 'Very Hot' end as band
from mart_rehab
where label is distinct from (case when rehab_momentum_score < 20 then 'Cold' when rehab_momentum_score < 40 then 'Warming'
         when rehab_momentum_score < 60 then 'Active' when rehab_momentum_score < 80 then 'Hot' else 'Very Hot' end)
