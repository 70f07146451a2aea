// The price index of the market trends (warehouse/docs/market.md "market_monthly and the trends"): per market and
// property type of market_monthly, a repeat-sales index (pairs of arm's-length sales of the same property, identity
// = property_id(), at least REPEAT_SALES_MIN_DAYS apart) where it gives as many months with a usable sample as the
// median model (chooseIndex), else the median model; fitted by warehouse/price-index.ts. Adds the index columns to market_monthly and
// writes mart_trends (one row per market x property_type: method, pairs, the 3/12/24-month changes and the month they
// end on, and the 30-day direction read from mart_market_direction, the definition the rehab score reads too, with the
// day its windows end). A month is complete when the files of its market's sales cover the whole month (coveredMonths:
// a file's first and last sale day within COVER_EDGE_DAYS of the month's edges, and the file holding its full volume
// there: int_market_file_coverage, 30_mart_00_market_file_coverage.sql, the coverage rule the marts read too) and no
// source of its sales has it among its partial months (partialMonths over the source's total arm's-length sales: a
// file's cut or survivor-biased month, not one market's seasonal dip; `covered` keeps the first test alone, which the
// trends answer and research read to tell a month the files do not cover from a partial one); a month not complete, or whose sales of the type include sales of no known subtype (untyped_count),
// has low confidence whatever its count, and no change starts or ends there. The index is based on a complete month
// (baseMonth), and a change or an index step of the median model compares months of one subtype mix only
// (warehouse/price-mix.ts; change_note says when that withholds a change).
import type { StageContext } from '../../warehouse/context.ts';
import { queryRows, tableExists } from '../../warehouse/db.ts';
import { appendReportSection } from '../../warehouse/build-folder.ts';
import { appendRows } from '../../live/location/prepare.ts';
import {
  changePct, chooseIndex, latestSolid, medianLevel, partialMonths, rebase, REPEAT_SALES_MIN_DAYS, type Pair,
} from '../../warehouse/price-index.ts';
import { mixOf, mixWords } from '../../warehouse/price-mix.ts';

export const requires = ['market_monthly', 'sales', 'permits', 'int_market_unit_parcels', 'int_market_city_parts', 'int_market_file_coverage'];

const MONTHS = 60;
/** The key of a market, from the market columns of alias `m`. */
const marketKey = (m: string): string =>
  `${m}.market_kind || '|' || coalesce(${m}.zip, '') || '|' || coalesce(${m}.state_code, '') || '|' || coalesce(${m}.city_slug, '')`;
/** The series key of a market and property type, from the market columns of alias `m` and the type of alias `t`. */
const key = (m: string, t = m): string => `${marketKey(m)} || '|' || ${t}.property_type`;

/** How far a source's first (last) record day may fall after a month's first (before its last) day for the source to
 *  cover the month: 3 days, the most a month's first or last working day sits from its edge (a weekend and a Monday or
 *  Friday holiday: New Year's Day on Friday 1 January, the first deed Monday the 4th; Memorial Day on Monday 31 May,
 *  the last Friday the 28th). The real files' starts are 0-1 day in (Connecticut 2020-10-01, Denver 2018-01-01, King
 *  County 2014-05-02, NYC 2021-04-01) and their ends 0-1 working day (NYC 2024-02-29, Connecticut Friday 2023-09-29);
 *  King County's 2015-05-27 (Wednesday, two working days short), Denver's 2019-07-09, Philadelphia's 2022-12-12 and
 *  Sacramento's 2008-05-15..05-21 cut their month. */
export const COVER_EDGE_DAYS = 3;

/** The figures a month covered in part only has none of (its sales_count and sample count stay: the sales recorded). */
const PART_MONTH_FIGURES = ['median_price', 'median_price_per_sqft', 'median_days_on_market', 'investor_purchase_share_pct', 'ln_price_sd'];
const PART_MONTH_INDEX = ['index_level', 'index_se', 'price_index', 'price_index_low', 'price_index_high'];

/**
 * Whether the files of each market's sales cover each of its months (`marketKey|month_no`): a file's span is its
 * first and last arm's-length sale day; the market's files are those with arm's-length sales in it (a zip, a city, a
 * city part, as market_monthly). A month is covered when one of them covers it whole: spans it (first day <= the
 * month's first + COVER_EDGE_DAYS, last day >= its last - COVER_EDGE_DAYS) and holds its full volume there
 * (int_market_file_coverage.full_volume, 30_mart_00_market_file_coverage.sql: the rule comps, investor and rehab read); and none spans only part of it (a file starting or ending inside it adds
 * a partial month to the count). A month before every file's first sale or after its last, or in a gap between two
 * files of a source (NYC's 2022-04..2023-02), is not. By file, not by source: Connecticut's 2022 extract holds no
 * Hartford sale, so Hartford's 2022 months are covered by neither file.
 */
async function coveredMonths(ctx: StageContext): Promise<Set<string>> {
  const rows = await queryRows<{ k: string }>(ctx.db, `
    with arm as (
      select s.source, s.file, s.zip, s.state_code, slug(s.city) as city_slug, slug(cp.city_part) as part_slug
      from sales s left join int_market_city_parts cp using (sale_id) where s.is_arms_length and s.sale_date is not null
    ),
    market_files as (
      select distinct 'zip' as market_kind, zip, null::varchar as state_code, null::varchar as city_slug, source, file from arm where zip is not null
      union select distinct 'city', null, state_code, city_slug, source, file from arm where state_code is not null and city_slug is not null and city_slug <> ''
      union select distinct 'city', null, state_code, part_slug, source, file from arm where state_code is not null and part_slug <> ''
    ),
    months as (select distinct market_kind, zip, state_code, city_slug, month_no, month, last_day(month) as month_end from market_monthly),
    edges as (
      -- a file's month of int_market_file_coverage (the one coverage rule of the marts: its span cut to the month, and
      -- whether it holds its full volume there)
      select m.*, f.lo <= m.month + ${COVER_EDGE_DAYS} and f.hi >= m.month_end - ${COVER_EDGE_DAYS} as spanned, f.full_volume, true as meets
      from months m
      join market_files mf on mf.market_kind = m.market_kind and mf.zip is not distinct from m.zip
       and mf.state_code is not distinct from m.state_code and mf.city_slug is not distinct from m.city_slug
      join int_market_file_coverage f on f.kind = 'sale' and f.source = mf.source and f.file is not distinct from mf.file and f.month = m.month
    )
    select ${marketKey('e')} || '|' || e.month_no as k from edges e group by all
    having bool_or(spanned and full_volume) and not bool_or(meets and not spanned)`);
  return new Set(rows.map((r) => r.k));
}

/**
 * Each source's partial months (year * 12 + month - 1): partialMonths over the monthly count of all its arm's-length
 * sales, every property type (a file's edge cuts every type; a type's own few sales, Philadelphia's 26-51 commercial
 * a month, dip by chance), from its first to its last sale month. King County's January 2015 (978 sales against 1,471
 * in December) is not one; its May 2015 (646 to the 27th against 2,231), Denver's June and July 2019, Philadelphia's
 * months to August 2022 (125 against 955 in September: a roll keeping each parcel's last sale) and December 2022 are.
 */
async function sourcePartialMonths(ctx: StageContext): Promise<Map<string, Set<number>>> {
  const rows = await queryRows<{ source: string; m: number; n: number }>(ctx.db, `
    select source, (year(sale_date) * 12 + month(sale_date) - 1)::int as m, count(*)::int as n
    from sales where is_arms_length and sale_date is not null and source is not null group by all`);
  const counts = new Map<string, Map<number, number>>();
  for (const r of rows) (counts.get(r.source) ?? counts.set(r.source, new Map()).get(r.source)!).set(r.m, r.n);
  return new Map([...counts].map(([source, c]) => [source, partialMonths(c)]));
}

/** The sources of each market's arm's-length sales (`marketKey`), which the trends answer reads to say when they are a
 *  sample or partial extract (api/market-trends.ts dataNote, the research answer's rule); the property types (of the
 *  five) those sources record a sale of, any record of any of their markets, flagged or not (`source_types`: the trends
 *  answer says when a type asked is none of them, api/trends-type-note.ts: Denver's and Sacramento's files hold no land
 *  sale, King County's none but houses, so their months of it are empty for want of any record, not few sales); and their files
 *  (`source_files`: each registry file, `<source id>/<file key>` as meta.source_files names it, with the first and last
 *  month, YYYY-MM, of the market's sales from it), so a caveat about one file of a source is said only of a market and
 *  months with sales from it (live/research/partial.ts caveatWords: Connecticut's 2022 extract holds no Hartford sale). */
const MARKET_SOURCES = `
  with keys as (
    select s.source, s.file, any_value(f.key) as file_key
    from (select distinct source, file from sales where source is not null and file is not null) s
    join meta.source_files f on f.source = s.source and (s.file = f.file or ends_with(s.file, '/' || f.file)) group by all
  ),
  arm as (
    select s.source, k.file_key, strftime(s.sale_date, '%Y-%m') as month, s.zip, s.state_code, slug(s.city) as city_slug, slug(cp.city_part) as part_slug
    from sales s left join int_market_city_parts cp using (sale_id) left join keys k using (source, file)
    where s.is_arms_length and s.source is not null
  ),
  tagged as (
    select 'zip' as market_kind, zip, null::varchar as state_code, null::varchar as city_slug, source, file_key, month from arm where zip is not null
    union all select 'city', null, state_code, city_slug, source, file_key, month from arm where state_code is not null and city_slug is not null and city_slug <> ''
    union all select 'city', null, state_code, part_slug, source, file_key, month from arm where state_code is not null and part_slug <> ''
  ),
  files as (select market_kind, zip, state_code, city_slug, source, file_key, min(month) as first, max(month) as last from tagged group by all),
  typed as (
    select source, list(distinct property_type) as types from sales
    where source is not null and list_contains(property_types(), property_type) group by all
  )
  select f.market_kind, f.zip, f.state_code, f.city_slug, list(distinct f.source order by f.source) as sources,
         list({file: f.source || '/' || f.file_key, first: f.first, last: f.last} order by f.source, f.file_key) filter (where f.file_key is not null) as source_files,
         list_sort(list_distinct(flatten(list(coalesce(ty.types, []))))) as source_types
  from files f left join typed ty using (source) group by all`;

export async function run(ctx: StageContext): Promise<void> {
  const monthly = await queryRows<{ k: string; month_no: number; cal: number; month_label: string; sale_count: number; untyped_count: number; median_price: number | null; ln_price_sd: number | null }>(ctx.db, `
    select ${key('m')} as k, month_no, (year(month) * 12 + month(month) - 1)::int as cal, month_label, sale_count::int as sale_count, untyped_count::int as untyped_count, median_price, ln_price_sd
    from market_monthly m order by k, month_no`);
  // Pairs: consecutive arm's-length sales of one property (the same type), far enough apart, the first purchase known
  // not to be by an investor, inside a market's 60 months; a condo sale that does not identify its unit left out (an NYC
  // co-op's lot is the whole building), as int_market_resales (sale_names_property, int_market_unit_parcels).
  const pairRows = await queryRows<{ k: string; m1: number; m2: number; y: number }>(ctx.db, `
    with arm as (
      -- property_id() exactly; the address passed only where the identity reads it (no parcel id): the macro normalises
      -- the address of every row it is given, which took half of this step at the real build. The unit always: NYC's
      -- identity is the lot plus the apartment, and without it 26,127 NYC condo sales were read as repeat sales of one
      -- property where 1,419 are (apartments of one co-op building's lot). No NYC pair is screened (no buyer names),
      -- so no figure moved; a source with buyer names and units under one parcel id would have paired them.
      select property_id(source, parcel_id, case when nullif(trim(parcel_id), '') is null then address end, unit, zip) as pid,
             zip, sales.state_code, slug(city) as city_slug, slug(cp.city_part) as part_slug,
             property_type, sale_date, sale_price, buyer_is_investor
      from sales left join int_market_unit_parcels u using (source) left join int_market_city_parts cp using (sale_id)
      where is_arms_length and sale_price > 0 and sale_names_property(property_type, unit, parcel_id, u.parcel_names_unit)
    ),
    seq as (
      select *, lag(sale_date) over w as d0, lag(sale_price) over w as p0, lag(property_type) over w as t0,
             lag(buyer_is_investor) over w as investor0
      from arm where pid is not null
      window w as (partition by pid order by sale_date, sale_price)
    ),
    pairs as (
      -- a purchase by an investor and its resale is a flip (a renovation premium, not the market's move): left out, and
      -- so is a purchase whose buyer is unknown (a source without buyer names): it cannot be screened, and NYC's
      -- single-family pairs, unscreened, gained a median 42% in about two years while the median sale price rose 4%
      select * from seq where d0 is not null and t0 = property_type and date_diff('day', d0, sale_date) >= ${REPEAT_SALES_MIN_DAYS}
        and investor0 = false
    ),
    markets as (select distinct market_kind, zip, state_code, city_slug, month as first_month from market_monthly where month_no = 1)
    select ${key('m', 'p')} as k,
           date_diff('month', m.first_month, d0)::int as m1, date_diff('month', m.first_month, sale_date)::int as m2,
           ln(sale_price / p0) as y
    from pairs p join markets m on m.market_kind = 'zip' and m.zip = p.zip
    where p.d0 >= m.first_month
    union all
    select ${key('m', 'p')}, date_diff('month', m.first_month, d0)::int, date_diff('month', m.first_month, sale_date)::int, ln(sale_price / p0)
    from pairs p join markets m on m.market_kind = 'city' and m.state_code = p.state_code and m.city_slug = p.city_slug
    where p.d0 >= m.first_month
    union all
    -- and in its part of the city (an NYC borough: int_market_city_parts), a city market of market_monthly too
    select ${key('m', 'p')}, date_diff('month', m.first_month, d0)::int, date_diff('month', m.first_month, sale_date)::int, ln(sale_price / p0)
    from pairs p join markets m on m.market_kind = 'city' and m.state_code = p.state_code and m.city_slug = p.part_slug
    where p.d0 >= m.first_month`);
  const pairsOf = new Map<string, Pair[]>();
  for (const p of pairRows) {
    if (p.m2 <= p.m1 || p.m2 >= MONTHS) continue;
    (pairsOf.get(p.k) ?? pairsOf.set(p.k, []).get(p.k)!).push({ m1: p.m1, m2: p.m2, y: p.y });
  }
  const covered = await coveredMonths(ctx);
  const partial = await sourcePartialMonths(ctx);
  const sourcesOf = new Map((await queryRows<{ k: string; sources: string[] }>(ctx.db, `select ${marketKey('ms')} as k, sources from (${MARKET_SOURCES}) ms`))
    .map((r) => [r.k, r.sources.map((src) => partial.get(src) ?? new Set<number>())]));
  const series = new Map<string, typeof monthly>();
  for (const r of monthly) (series.get(r.k) ?? series.set(r.k, []).get(r.k)!).push(r);

  await ctx.db.run(`create or replace temp table trends_index (k varchar, month_no integer, index_method varchar, index_level double,
    index_se double, index_sample_count integer, price_index double, price_index_low double, price_index_high double, complete boolean, covered boolean)`);
  await ctx.db.run(`create or replace temp table trends_summary (k varchar, index_method varchar, pair_count integer, base_month_no integer,
    end_month_no integer, change_3m_pct double, change_12m_pct double, change_24m_pct double, change_note varchar)`);
  const indexRows: unknown[][] = [];
  const summaryRows: unknown[][] = [];
  let repeat = 0;
  for (const [k, rows] of series) {
    const pairs = pairsOf.get(k) ?? [];
    const { method, levels } = chooseIndex(rows.map((r) => medianLevel(r.median_price, r.ln_price_sd, r.sale_count)), pairs, MONTHS);
    if (method === 'repeat_sales') repeat++;
    const counts = rows.map((r) => r.sale_count);
    const market = k.slice(0, k.lastIndexOf('|'));
    const cover = rows.map((r) => covered.has(`${market}|${r.month_no}`));
    const sourcePartial = sourcesOf.get(market) ?? [];
    const complete = rows.map((r, i) => cover[i]! && !sourcePartial.some((p) => p.has(r.cal)));
    // the median model compares months of one subtype mix only (warehouse/price-mix.ts); repeat sales are like for like
    const mix = method === 'median' ? rows.map((r) => mixOf(r.untyped_count, r.sale_count)) : undefined;
    const { base, points } = rebase(levels, method, complete, mix);
    levels.forEach((l, i) => indexRows.push([k, i + 1, method, l.level, l.se, l.n, points[i]!.index, points[i]!.low, points[i]!.high, complete[i], cover[i]]));
    const end = latestSolid(levels, complete);
    const changes = [3, 12, 24].map((back) => changePct(levels, back, complete, mix));
    // a change withheld for the mix alone says so: both ends solid and complete, of two mixes
    const notes = [3, 12, 24].flatMap((back, j) => (changes[j] === null && mix && changePct(levels, back, complete) !== null
      ? [`change_${back}m_pct is null: ${mixWords({ month: rows[end - back]!.month_label, n: counts[end - back]!, mix: mix[end - back]! }, { month: rows[end]!.month_label, n: counts[end]!, mix: mix[end]! })}`]
      : []));
    summaryRows.push([k, method, pairs.length, base === null ? null : base + 1, end < 0 ? null : end + 1, ...changes, notes.length ? notes.join('; ') : null]);
  }
  await appendRows(ctx.db, 'trends_index', ['varchar', 'integer', 'varchar', 'double', 'double', 'integer', 'double', 'double', 'double', 'boolean', 'boolean'], indexRows);
  await appendRows(ctx.db, 'trends_summary', ['varchar', 'varchar', 'integer', 'integer', 'integer', 'double', 'double', 'double', 'varchar'], summaryRows);
  // A month the source files cover in part only (`covered` false: a file starts or ends inside it, Denver's 2019-07, 9 days;
  // or its files hold under a quarter of their source's busiest month, a thin extract such as Hamden's 2022-10..) keeps its
  // count of the sales recorded and has no median, investor share or index level: a part-month's figures are not
  // comparable with whole months' (market.md "A month covered in part"). Its changes were never computed from it
  // (not complete); nulling them here, after the index and changes, is what every reader of the table then sees.
  await ctx.db.run(`create or replace table market_monthly as
    select m.* replace (${PART_MONTH_FIGURES.map((c) => `case when i.covered then m.${c} end as ${c}`).join(', ')}),
           i.* exclude (k, month_no) replace (${PART_MONTH_INDEX.map((c) => `case when i.covered then i.${c} end as ${c}`).join(', ')}),
           case when i.complete and m.untyped_count = 0 then confidence_by_count(i.index_sample_count) else 'low' end as confidence
    from market_monthly m join trends_index i on i.k = ${key('m')} and i.month_no = m.month_no
    order by m.market_kind, m.zip, m.state_code, m.city_slug, m.property_type, m.month_no`);
  const hasDirection = await tableExists(ctx.db, 'mart_market_direction');
  await ctx.db.run(`create or replace table mart_trends as
    select m.market_kind, m.zip, m.state_code, m.city_slug, any_value(m.city) as city, any_value(m.state) as state, m.property_type,
           s.index_method, s.pair_count, s.base_month_no, s.end_month_no,
           any_value(m.month_label) filter (where m.month_no = s.end_month_no) as change_end_month,
           s.change_3m_pct, s.change_12m_pct, s.change_24m_pct, s.change_note, any_value(ms.sources) as sources, any_value(ms.source_files) as source_files, any_value(ms.source_types) as source_types,
           ${hasDirection ? 'coalesce(any_value(d.direction), direction_30d(0))' : 'null::varchar'} as direction_30d,
           ${hasDirection ? 'coalesce(any_value(d.direction_pct), 0)' : 'null::double'} as direction_30d_pct,
           ${hasDirection ? 'any_value(d.window_end)' : 'null::date'} as direction_30d_end,
           any_value(m.as_of) as as_of
    from market_monthly m
    join trends_summary s on s.k = ${key('m')}
    left join (${MARKET_SOURCES}) ms on ms.market_kind = m.market_kind and ms.zip is not distinct from m.zip
      and ms.state_code is not distinct from m.state_code and ms.city_slug is not distinct from m.city_slug
    ${hasDirection ? `left join mart_market_direction d on d.market_kind = m.market_kind and d.zip is not distinct from m.zip
      and d.state_code is not distinct from m.state_code and d.city_slug is not distinct from m.city_slug` : ''}
    group by all order by all`);
  await ctx.db.run('drop table trends_index; drop table trends_summary');
  if (ctx.paths.build) await reportSection(ctx);
  ctx.log.info('mart_trends', { series: series.size, repeat_sales: repeat, pairs: pairRows.length });
}

const SPARK = '▁▂▃▄▅▆▇█';
/** A text chart of a series: one block per value, its height by the value's place between the series' min and max. */
function sparkline(values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return '';
  const lo = Math.min(...known); const hi = Math.max(...known);
  return values.map((v) => (v === null ? ' ' : SPARK[hi === lo ? 3 : Math.round(((v - lo) / (hi - lo)) * 7)]!)).join('');
}

/** The build report's section: the series of each source's largest market (the city and type with the most
 *  arm's-length sales): its index over the last 24 months as a chart, with the method and the 12-month change. */
async function reportSection(ctx: StageContext): Promise<void> {
  const rows = await queryRows<{
    source: string; city: string; state: string; property_type: string; method: string; pairs: number; sales: number;
    first: string; last: string; idx: (number | null)[]; change_12m: number | null;
  }>(ctx.db, `
    with s as (
      select source, state_code, slug(city) as city_slug, property_type, count(*) as n
      from sales where is_arms_length and state_code is not null and slug(city) <> '' group by all
    ),
    best as (select *, row_number() over (partition by source order by n desc, state_code, city_slug, property_type) as r from s)
    select b.source, t.city, t.state, t.property_type, t.index_method as method, t.pair_count::int as pairs,
           sum(m.sale_count)::int as sales, min(m.month_label) filter (where m.month_no > 36) as first,
           max(m.month_label) as last, list(round(m.price_index, 1) order by m.month_no) filter (where m.month_no > 36) as idx,
           round(t.change_12m_pct, 1) as change_12m
    from best b
    join mart_trends t on t.market_kind = 'city' and t.state_code = b.state_code and t.city_slug = b.city_slug and t.property_type = b.property_type
    join market_monthly m on m.market_kind = 'city' and m.state_code = b.state_code and m.city_slug = b.city_slug and m.property_type = b.property_type
    where b.r = 1
    group by all order by b.source`);
  appendReportSection(ctx.paths.build, {
    title: 'Market trends: the largest market of each source (price index, last 24 months)',
    headers: ['source', 'market', 'type', 'method', 'pairs', 'sales (60 months)', 'months', 'index (base 100 at the first month with one)', 'last index', '12-month change %'],
    rows: rows.map((r) => [r.source, `${r.city}, ${r.state}`, r.property_type, r.method, r.pairs, r.sales, `${r.first}..${r.last}`,
      sparkline(r.idx), r.idx.filter((v) => v !== null).at(-1) ?? null, r.change_12m]),
  });
}
