-- check: no source the build being replaced loaded is absent from this build (a missing or emptied folder would unpublish every market it feeds: review 19, King County's folder gone passed every other check), unless REII_DRIFT_SOURCES_GONE names it
-- requires: meta.source_files, previous.meta.source_files
with now_sources as (select source, count(*) as files from meta.source_files group by source),
previous_sources as (select source, count(*) as files, sum(rows) as rows from previous.meta.source_files group by source)
select p.source, p.files as previous_files, p.rows as previous_rows,
    'its folder is missing or holds none of its files now: restore it, or name it in REII_DRIFT_SOURCES_GONE to publish without it' as fix
from previous_sources p
left join now_sources n using (source)
where n.source is null
  and not list_contains(drift_sources_gone(), p.source)
order by p.source
