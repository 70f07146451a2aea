-- requires: mart_valuation_features, sales
-- Philadelphia's valuation feature: log_assessed = ln(OPA market_value, the roll's value, snapshot 2022-05-24;
-- SOURCE.md), read from sales.assessed_value (the same file row: the roll's row is the parcel and its last sale).
insert into mart_valuation_features by name
select s.sale_id,
       ln(s.assessed_value) as log_assessed -- positive or null: 30_market_16_sales_philadelphia.sql
from sales s
where s.source = 'philadelphia';
