// mart_market_source: one row per market (a zip, or a state and city slug, a New York City borough too) where a sales
// source of the build records a sale of any kind, arm's-length or flagged: its sources, the counts of each kind, the
// flagged records by reason, and `source`, the additive {id, name, vintage} of the market answers (review 18), as the
// build's manifest names each source (pipelines/sources/registry.ts: its `title` and `vintage`). The comps, rehab,
// investor and trends shards (pipelines/shards/*.sql) write `source` from it; the research build writes it to
// live/research/sales-cover.json (sales-cover-build.ts) for the 404 of a market whose records are all flagged
// (api/market-source.ts). warehouse/docs/market.md "The source of a market answer".
import type { StageContext } from '../../warehouse/context.ts';
import { tableExists } from '../../warehouse/db.ts';
import { sqlString } from '../../warehouse/sql.ts';
import { OPERATOR_VINTAGE, SOURCES } from '../sources/registry.ts';

export async function run(ctx: StageContext): Promise<void> {
  if (!(await tableExists(ctx.db, 'sales'))) {
    // no market domain: the table empty, so the shards that read it (a rehab score of permits alone) still write
    await ctx.db.run(`create or replace table mart_market_source (market_kind varchar, zip varchar, state_code varchar, city_slug varchar,
      market_key varchar, sources varchar[], arms_length bigint, flagged bigint, reasons struct(reason varchar, n bigint)[],
      source struct(id varchar, name varchar, vintage varchar))`);
    return;
  }
  // a sale with a city part (a New York City borough, int_market_city_parts) counts in its part's market too, as in the trends
  const parts = (await tableExists(ctx.db, 'int_market_city_parts')) ? `
      union all
      select 'city', null, s.state_code, slug(cp.city_part), s.* exclude (sale_id, zip, state_code, city_slug)
      from s join int_market_city_parts cp using (sale_id)
      where s.state_code is not null and slug(cp.city_part) <> ''` : '';
  const names = SOURCES.map((s) => `(${sqlString(s.id)}, ${sqlString(s.title)}, ${sqlString(s.vintage)})`).join(', ');
  // a source whose period only its files tell (OPERATOR_VINTAGE): the months they hold, as the manifest says them
  const dataVintage = (await tableExists(ctx.db, 'int_market_source_vintage'))
    ? `left join int_market_source_vintage dv on dv.source = r.id and r.vintage = ${sqlString(OPERATOR_VINTAGE)}` : '';
  await ctx.db.run(`
    create or replace table mart_market_source as
    with s as (
      select sale_id, zip, state_code, slug(city) as city_slug, source, is_arms_length,
             case when is_arms_length then null
                  else coalesce(nullif(non_arms_length_reason, ''), case when is_duplicate then 'duplicate' when is_portfolio then 'portfolio' else 'unstated' end) end as reason
      from sales where source is not null),
    tagged as (
      select 'zip' as market_kind, zip, null as state_code, null as city_slug, * exclude (sale_id, zip, state_code, city_slug)
      from s where zip is not null
      union all
      select 'city', null, state_code, city_slug, * exclude (sale_id, zip, state_code, city_slug)
      from s where state_code is not null and city_slug is not null and city_slug <> ''${parts}),
    counted as (
      select market_kind, zip, state_code, city_slug, list(distinct source order by source) as sources,
             count(*) filter (where is_arms_length) as arms_length, count(*) filter (where not is_arms_length) as flagged
      from tagged group by all),
    reasons as (
      select market_kind, zip, state_code, city_slug, list({reason: reason, n: n} order by n desc, reason) as reasons
      from (select market_kind, zip, state_code, city_slug, reason, count(*) as n from tagged where reason is not null group by all)
      group by all),
    -- the manifest's names (id, title, vintage), joined in the order of \`sources\`: a source the registry does not list
    -- stands for itself, with no vintage
    registry0(id, title, vintage) as (values ${names}),
    registry as (select r.id, r.title, ${dataVintage ? 'coalesce(dv.vintage, r.vintage)' : 'r.vintage'} as vintage from registry0 r ${dataVintage}),
    named as (
      select u.market_kind, u.zip, u.state_code, u.city_slug,
             string_agg(u.id, '+' order by u.id) as id, string_agg(coalesce(r.title, u.id), '; ' order by u.id) as name,
             case when bool_and(r.vintage is null) then null else string_agg(coalesce(r.vintage, '?'), '; ' order by u.id) end as vintage
      from (select market_kind, zip, state_code, city_slug, unnest(sources) as id from counted) u left join registry r on r.id = u.id
      group by all)
    select c.market_kind, c.zip, c.state_code, c.city_slug,
           case when c.market_kind = 'zip' then 'zip|' || c.zip else 'city|' || c.state_code || '|' || c.city_slug end as market_key,
           c.sources, c.arms_length, c.flagged, coalesce(r.reasons, []) as reasons,
           case when n.id is not null then {id: n.id, name: n.name, vintage: n.vintage} end as source
    from counted c
    left join reasons r on r.market_kind = c.market_kind and r.zip is not distinct from c.zip
     and r.state_code is not distinct from c.state_code and r.city_slug is not distinct from c.city_slug
    left join named n on n.market_kind = c.market_kind and n.zip is not distinct from c.zip
     and n.state_code is not distinct from c.state_code and n.city_slug is not distinct from c.city_slug
    order by market_key`);
}
