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
  await recordSources(ctx);
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

// mart_market_records: one row per market (a zip, or a state and city slug) x kind of record ('sale': arm's-length
// sales, as mart_rehab and the coverage count them; 'permit': the permits that count in a zip, int_market_zip_permits;
// 'distress': filings) x source, with its count (`rehab`: of the permits, the residential rehab ones) and its name (the registry's title). The rehab 404
// reads a zip's permits and filings from it (sales-cover.json's `permits` and `distress`: a zip whose permits give no
// score is not a zip no permit source covers; 37240's one $13.2M renovation).
// mart_answer_source: the additive `source` of the rehab and investor answers, named from the kinds of record each
// counts (rehab: a zip's sales and permits; investor: a city's sales and filings), never from a kind it does not (a
// canonical folder's distress months in a rehab score's vintage): {id, name, vintage} as mart_market_source composes
// them (ids by `+`, titles and vintages by `; `), the canonical source's vintage the months of its files of those kinds
// only, and `kinds`, each kind counted with its source and vintage. warehouse/docs/market.md "The source of a market answer".
async function recordSources(ctx: StageContext): Promise<void> {
  const has = async (t: string) => tableExists(ctx.db, t);
  const parts: string[] = [];
  if (await has('sales')) {
    parts.push(`select 'zip|' || zip as market_key, 'sale' as kind, source, false as rehab from sales where is_arms_length and zip is not null`,
      `select 'city|' || state_code || '|' || slug(city), 'sale', source, false from sales
       where is_arms_length and state_code is not null and city is not null and slug(city) <> ''`);
    if (await has('int_market_city_parts')) {
      parts.push(`select 'city|' || s.state_code || '|' || slug(cp.city_part), 'sale', s.source, false from sales s join int_market_city_parts cp using (sale_id)
       where s.is_arms_length and s.state_code is not null and slug(cp.city_part) <> ''`);
    }
  }
  if (await has('int_market_zip_permits')) {
    parts.push(`select 'zip|' || zip, 'permit', source, is_residential_rehab(permit_type, building_use, valuation) from int_market_zip_permits where zip is not null`);
  }
  if (await has('distress')) {
    parts.push(`select 'zip|' || zip, 'distress', source, false from distress where zip is not null`,
      `select 'city|' || state_code || '|' || slug(city), 'distress', source, false from distress
       where city is not null and state_code is not null and slug(city) <> ''`);
  }
  const recs = parts.length ? parts.join('\n      union all ')
    : `select null::varchar as market_key, null::varchar as kind, null::varchar as source, null::boolean as rehab where false`;
  const names = SOURCES.map((s) => `(${sqlString(s.id)}, ${sqlString(s.title)}, ${sqlString(s.vintage)})`).join(', ');
  await ctx.db.run(`
    create or replace table mart_market_records as
    with registry(id, title, vintage) as (values ${names})
    select r.market_key, r.kind, r.source, coalesce(any_value(g.title), r.source) as name, count(*) as n, count(*) filter (where r.rehab) as rehab
    from (${recs}) r left join registry g on g.id = r.source where r.source is not null group by r.market_key, r.kind, r.source order by 1, 2, 3`);
  // a source whose period only its files tell (OPERATOR_VINTAGE): the months its files of the kinds counted hold
  const fileMonths = (await has('int_market_file_coverage'))
    ? `select distinct source, kind, month from int_market_file_coverage` : `select null::varchar as source, null::varchar as kind, null::date as month where false`;
  await ctx.db.run(`
    create or replace table mart_answer_source as
    with answer_kinds(answer, prefix, kind, word) as (values ('rehab', 'zip|', 'sale', 'sales'), ('rehab', 'zip|', 'permit', 'permits'),
                                                             ('investor', 'city|', 'sale', 'sales'), ('investor', 'city|', 'distress', 'distress')),
    registry(id, title, vintage) as (values ${names}),
    counted as (
      select a.answer, r.market_key, r.source, a.kind, a.word from mart_market_records r
      join answer_kinds a on a.kind = r.kind and starts_with(r.market_key, a.prefix)),
    -- month runs ('2021-04..2022-03, 2023-03..2024-02', the registry's form) of an operator source's files, per kind
    -- (kinds = [kind]) and over the kinds an answer counts (all: true)
    op_months as (
      select c.answer, c.market_key, c.source, c.kind, f.month from counted c
      join registry g on g.id = c.source and g.vintage = ${sqlString(OPERATOR_VINTAGE)}
      join (${fileMonths}) f on f.source = c.source and f.kind = c.kind),
    keyed as (
      select answer, market_key, source, kind, month from op_months
      union select answer, market_key, source, null, month from op_months),
    runs as (
      select *, date_diff('month', date '2000-01-01', month) - row_number() over (partition by answer, market_key, source, kind order by month) as run
      from keyed),
    spans as (select answer, market_key, source, kind, min(month) as a, max(month) as b from runs group by answer, market_key, source, kind, run),
    op_vintage as (
      select answer, market_key, source, kind,
             string_agg(case when a = b then strftime(a, '%Y-%m') else strftime(a, '%Y-%m') || '..' || strftime(b, '%Y-%m') end, ', ' order by a) as vintage
      from spans group by all),
    per_kind as (
      select c.answer, c.market_key, c.source, c.kind, c.word, coalesce(ov.vintage, nullif(g.vintage, ${sqlString(OPERATOR_VINTAGE)})) as vintage
      from counted c left join registry g on g.id = c.source
      left join op_vintage ov on ov.answer = c.answer and ov.market_key = c.market_key and ov.source = c.source and ov.kind = c.kind),
    per_source as (
      select c.answer, c.market_key, c.source as id, coalesce(any_value(g.title), c.source) as name,
             coalesce(any_value(ov.vintage), nullif(any_value(g.vintage), ${sqlString(OPERATOR_VINTAGE)})) as vintage
      from counted c left join registry g on g.id = c.source
      left join op_vintage ov on ov.answer = c.answer and ov.market_key = c.market_key and ov.source = c.source and ov.kind is null
      group by c.answer, c.market_key, c.source),
    kinds as (
      select answer, market_key, list({kind: word, id: source, vintage: vintage} order by case kind when 'sale' then 0 else 1 end, source) as kinds
      from per_kind group by all)
    select p.answer, p.market_key,
           {id: string_agg(p.id, '+' order by p.id), name: string_agg(p.name, '; ' order by p.id),
            vintage: case when bool_and(p.vintage is null) then null else string_agg(coalesce(p.vintage, '?'), '; ' order by p.id) end,
            kinds: any_value(k.kinds)} as source
    from per_source p join kinds k using (answer, market_key)
    group by p.answer, p.market_key order by p.answer, p.market_key`);
}
