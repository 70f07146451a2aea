-- requires: sales
-- Valuation scope: the apartment buildings of five or more residential units, which the valuation does not value and
-- never uses as a comp (warehouse/docs/valuation.md "Scope: homes of one to four units"). An estimate from comparable
-- sales is the standard for homes of one to four units; a building of five or more trades on its rents and expenses,
-- which no source here records. This step makes the table; one step per source that records a building's size fills
-- its rows (50_mart_valuation_05_apartments_nyc.sql, _06_apartments_philadelphia.sql), each skipped alone when its
-- source is absent; a source that records no size (Sacramento's "Multi-Family", the canonical format) adds none.
-- Grain: one row per property (property_id) that one of its sale or parcel rows records as a building of five or more units.
create or replace table mart_valuation_apartments (
    property_id varchar,   -- the property record's id (macro property_id of 30_market_00_canonical_tables.sql)
    source varchar,
    units varchar,         -- as the source states it: NYC a count ("65"), Philadelphia the OPA code's range ("5-50")
    evidence varchar       -- the source column and value the row is read from
);

-- Grain: one row per sale (sale_id) whose own row records a building of five or more units: never a comp, whatever
-- the property's newest row reads (NYC: a multi-family row's RESIDENTIAL UNITS; 50_mart_valuation_05_apartments_nyc.sql).
create or replace table mart_valuation_apartment_sales (
    sale_id varchar,
    source varchar,
    units varchar,
    evidence varchar
);
