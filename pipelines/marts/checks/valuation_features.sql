-- check: mart_valuation_features has one row per sale_id, each a sale of the sales table
-- requires: mart_valuation_features, sales
select sale_id, 'sale_id missing or duplicate' as problem
from mart_valuation_features group by sale_id having sale_id is null or count(*) > 1
union all
select sale_id, 'not in sales' from mart_valuation_features f where not exists (select 1 from sales s where s.sale_id = f.sale_id)
