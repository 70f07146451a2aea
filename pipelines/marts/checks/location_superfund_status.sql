-- check: only final and proposed NPL sites are counted, and every counted site has H3 cells
-- requires: superfund_sites, int_superfund_h3
select epa_id, npl_status, counted
from superfund_sites s
where counted <> (npl_status in ('final', 'proposed'))
   or (counted and not exists (select 1 from int_superfund_h3 h where h.epa_id = s.epa_id))
