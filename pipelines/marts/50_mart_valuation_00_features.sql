-- requires: sales
-- Valuation: the assessor features of each sale that the canonical sales table has no column for, one column per
-- feature (live/valuation/build.ts reads every column but sale_id; TUNING.features says how each is used;
-- warehouse/docs/valuation.md "Data"). This step makes the table; one step per source fills its rows
-- (50_mart_valuation_01_king_county.sql ...), each skipped alone when its source is absent. A source's rows leave the
-- other sources' columns null. Grain: one row per King County, Philadelphia or NYC sale, or canonical sale with a lot
-- or a quality grade (50_mart_valuation_07_canonical.sql: `lot_sqft` as log_lot, `quality_grade` as grade).
create or replace table mart_valuation_features (
    sale_id varchar,
    -- King County (grade and log_lot also a canonical sales.csv's quality_grade and lot_sqft)
    grade double, view double, waterfront double, log_lot double,
    -- Philadelphia
    log_assessed double, quality double, exterior double, stories double, garage double, log_area double,
    log_frontage double, central_air double, attached double,
    -- NYC
    log_land double,
    -- the day the row's values were set, where a source dates them (Philadelphia: the roll's assessment_date); not a
    -- feature: the back-test reads a row's values only in slices that start after it (live/valuation/backtest.ts asOf)
    features_date date
);

-- The same features of the subjects that are no sale: one row per parcels row (source, file, line) a source's roll
-- describes, with the roll's condition (live/valuation/build.ts loadSubjects; a recorded property matched on its
-- parcel, never on a sale, is valued with its own fields, as the back-test values sales with theirs). Philadelphia
-- only today (50_mart_valuation_02_philadelphia.sql).
create or replace table mart_valuation_parcel_features as
select null::varchar as source, null::varchar as file, null::bigint as line, null::varchar as condition, * exclude (sale_id)
from mart_valuation_features limit 0;
