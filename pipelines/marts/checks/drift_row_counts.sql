-- check: no canonical or mart table loses more than the share REII_DRIFT_ROWS_SHARE (default 0.5) of its rows, or grows by more than it of its new count, against the build being replaced (tables under 100 rows in both builds excepted; a table gone fails)
-- requires: previous
with now_tables as (
    select table_name, estimated_size as rows from duckdb_tables()
    where database_name = current_database() and schema_name = 'main' and not starts_with(table_name, 'int_')
),
previous_tables as (
    select table_name, estimated_size as rows from duckdb_tables()
    where database_name = 'previous' and schema_name = 'main' and not starts_with(table_name, 'int_')
)
select p.table_name, p.rows as previous_rows, n.rows as rows,
    round(abs(coalesce(n.rows, 0) - p.rows) / greatest(coalesce(n.rows, 0), p.rows), 3) as change_share,
    drift_rows_share() as limit_share
from previous_tables p
left join now_tables n using (table_name)
where greatest(coalesce(n.rows, 0), p.rows) >= 100
  and abs(coalesce(n.rows, 0) - p.rows) / greatest(coalesce(n.rows, 0), p.rows) > drift_rows_share()
