// Live data of POST /v1/research/query (live/research/endpoint.ts), written under <build>/live/research/:
//   regulations.json  every active or pending regulation record (the spec's fields, structured_data parsed)
//   bm25.json         the BM25 index over those records (title twice, summary, category and subcategory words,
//                     structured_data keys and string values, citation, city); live/research/text.ts
//   state-legal.json  the state_legal rows (landlord friendliness, foreclosure and tax sale summary), when present
//   places.json       the 51 jurisdictions, the city list (name, state, population, zips), zip -> city, state, county FIPS
//                     and the county names (FIPS, name, state, population),
//                     the gazetteer the question parser resolves places against (live/research/places.ts), and the
//                     municipalities the foreclosure and lien filings name (mart_investor, 12 months: filing-places.ts),
//                     and the neighbourhoods the sales sources name (int_market_neighborhoods: hoods.ts), and Chicago's
//                     community areas with their permits over 12 months (permit-areas-build.ts)
//   market.json       what the shards cannot give a question about sales (market-window.ts): per market (a zip, or a
//                     state + city slug, as market_monthly, a New York City borough too, a neighbourhood: hood|<state>|<name>, or a state: state-market-build.ts) and property type, the arm's-length sales of each window of
//                     3..24 months to the market's last sale (count, median price, count with a living area), and the
//                     months whose single-family sales include Connecticut's 2022 file, which has no residential subtype,
//                     and per market the sources of its sales (an answer says when they are a partial extract: partial.ts),
//                     and every Redfin zip tracker snapshot with a median days on market of every zip (redfin.ts)
//                     and the zips whose USPS city's figures leave out some of their sales, with the cities the geo
//                     lookup places them in (zip_cities: zip-city.ts)
//   sales-cover.json  every zip and city with a sale record of any kind: its sources, arm's-length and flagged counts
//                     (sales-cover-build.ts; the market endpoints' `source` and 404s, api/market-source.ts)
//   metro.json        every CBSA (OMB July 2023) with its counties and the sales placed in each, and the sales of each metro
//                     with sales (and of its suburbs) per window of 3..24 months and per year (metro-build.ts, metro.ts)
//   meta.json         format, counts, build id; written last: its presence marks a complete set
// Mart facts (comps, rehab, investor, location, legal shards) are NOT copied: the module reads the build's shards.
import fs from 'node:fs';
import path from 'node:path';
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import { buildBm25 } from './text.ts';
import type { RegulationDoc, PlacesData, ResearchMeta, StateLegalRow } from './data.ts';
import { RESEARCH_FORMAT, regulationText } from './data.ts';
import type { MarketWindows } from './market-window.ts';
import type { SourceFileSpan } from './market-window.ts';
import { groupHoods, hoodKeys } from './hoods.ts';
import { formerCounties } from '../places/former-counties-build.ts';
import { permitAreas } from './permit-areas-build.ts';
import { redfinSnapshots } from './redfin-build.ts';
import { redfinFile } from './redfin-index.ts';
import { metroIndex } from './metro-build.ts';
import { STATE_TAGGED, stateCounties, stateCovered } from './state-market-build.ts';
import { salesCover } from './sales-cover-build.ts';
import { permitCounts, permitMonths } from './permit-counts-build.ts';
import { distressKinds, distressMonths, distressSources } from './distress-kinds-build.ts';
import { ownerCounts } from './owner-counts-build.ts';

export const requires = ['regulations'];

interface RegRow {
  id: string; jurisdiction_level: string; state_code: string; county_fips: string | null; city: string | null;
  category: string; subcategory: string; title: string; summary: string; structured_data: string | null;
  source_citation: string | null; source_url: string | null; effective_date: string | null; status: string;
  verified_at: string | null; last_reviewed_at: string | null; uncertain_fields: string;
}

export async function run(ctx: StageContext): Promise<void> {
  const dir = path.join(ctx.paths.build, 'live', 'research');
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(dir, 'meta.json'), { force: true });

  const rows = await queryRows<RegRow>(ctx.db, `
    select id, jurisdiction_level, state_code, county_fips, city, category, subcategory, title, summary,
           cast(structured_data as varchar) as structured_data, source_citation, source_url,
           cast(effective_date as varchar) as effective_date, status, cast(verified_at as varchar) as verified_at,
           cast(last_reviewed_at as varchar) as last_reviewed_at, to_json(uncertain_fields)::varchar as uncertain_fields
    from regulations
    where status in ('active', 'pending')
    order by state_code, case jurisdiction_level when 'state' then 3 when 'county' then 2 else 1 end, category, subcategory, id`);
  const docs: RegulationDoc[] = rows.map((r) => ({
    id: r.id, level: r.jurisdiction_level, state: r.state_code, county_fips: r.county_fips, city: r.city,
    category: r.category, subcategory: r.subcategory, title: r.title, summary: r.summary,
    data: r.structured_data ? (JSON.parse(r.structured_data) as Record<string, unknown>) : {},
    citation: r.source_citation, url: r.source_url, effective_date: r.effective_date, status: r.status,
    verified_at: r.verified_at, last_reviewed_at: r.last_reviewed_at, uncertain: JSON.parse(r.uncertain_fields) as string[],
  }));
  const bm25 = buildBm25(docs.map(regulationText));

  let stateLegal: StateLegalRow[] = [];
  if (await tableExists(ctx.db, 'state_legal')) {
    stateLegal = await queryRows<StateLegalRow>(ctx.db, `
      select state_code, state_name, cast(landlord_friendliness_score as double) as landlord_friendliness_score,
             landlord_friendliness_label, foreclosure_type, lien_or_deed, cast(interest_rate_pct as double) as interest_rate_pct,
             cast(redemption_period_months as double) as redemption_period_months, rent_control_preemption,
             statewide_rent_control, cast(last_reviewed_at as varchar) as last_reviewed_at
      from state_legal order by state_code`);
  } else ctx.log.warn('live/research: no state_legal table; landlord friendliness answers will say so');

  const places: PlacesData = { states: [], cities: [], zips: [] };
  if (await tableExists(ctx.db, 'int_legal_state_names')) {
    places.states = (await queryRows<{ c: string; n: string }>(ctx.db, 'select state_code as c, state_name as n from int_legal_state_names order by 1'))
      .map((r) => [r.c, r.n]);
  }
  if (await tableExists(ctx.db, 'cities')) {
    const cities = await queryRows<{ n: string; s: string; p: number | bigint | null; z: string | null; f: string | null; i: boolean | null }>(ctx.db, `
      select city_name as n, state_code as s, coalesce(population, 0) as p, array_to_string(coalesce(zip_codes, []), ' ') as z, county_fips as f,
        is_incorporated as i
      from cities order by state_code, city_name`);
    places.cities = cities.map((c) => [c.n, c.s, Number(c.p ?? 0), c.z ?? '', c.f ?? '', c.i === true]);
  } else ctx.log.warn('live/research: no cities table; questions can name states and zips only');
  if (await tableExists(ctx.db, 'zips')) {
    const zips = await queryRows<{ z: string; c: string | null; s: string | null; f: string | null }>(ctx.db,
      'select zip as z, city as c, state_code as s, county_fips as f from zips where state_code is not null order by zip');
    places.zips = zips.map((z) => [z.z, z.c ?? '', z.s ?? '', z.f ?? '']);
  }
  if (await tableExists(ctx.db, 'counties')) {
    // county names, for a per-zip market question about a county ("which zip in King County ...")
    places.counties = (await queryRows<{ f: string; n: string; s: string; p: number | bigint | null }>(ctx.db,
      'select county_fips as f, county_name as n, state_code as s, coalesce(population, 0) as p from counties where county_name is not null order by 1'))
      .map((c) => [c.f, c.n, c.s, Number(c.p ?? 0)]);
  }

  // Connecticut's former counties (Fairfield County...) and their towns, which a question naming one reads it as
  const former = await formerCounties(ctx.db);
  if (former.counties.length) { places.former_counties = former.counties; places.unplaced_towns = former.unplaced; }

  if (await tableExists(ctx.db, 'mart_investor')) {
    // the filing municipalities (filing-places.ts): every city whose 12-month investor overview has a distressed
    // pipeline (a distress source covers it), as its shard names it, with that count
    places.filings = (await queryRows<{ n: string; s: string; p: number }>(ctx.db, `
      select city as n, state_code as s, cast(distressed_pipeline_count as integer) as p
      from mart_investor where months = 12 and distressed_pipeline_count is not null order by state_code, city_slug`)).map((r) => [r.n, r.s, r.p]);
  }

  if (await tableExists(ctx.db, 'int_market_neighborhoods')) {
    // the neighbourhoods the sources name for their sales (hoods.ts): city part, zips, sales (duplicate copies left out)
    const rows = await queryRows<{ n: string; s: string; c: string; p: string; z: string | null; k: number }>(ctx.db, `
      select h.neighborhood as n, h.state_code as s, any_value(s.city) as c, h.city_part as p, s.zip as z, cast(count(*) as integer) as k
      from int_market_neighborhoods h join sales s using (sale_id) where not s.is_duplicate group by h.neighborhood, h.state_code, h.city_part, s.zip
      order by 1, 2, 4, 5`);
    places.hoods = groupHoods(rows).map((h) => [h.key, h.state, h.city, h.part, h.zips.join(' '), h.sales, h.names.join('|')]);
  }

  // Chicago's community areas and their permits (permit-areas.ts): the permits file names each permit's area
  const areas = await permitAreas(ctx.db);
  if (areas.length) places.permit_areas = areas;

  const write = (name: string, v: unknown): number => { const s = JSON.stringify(v); fs.writeFileSync(path.join(dir, name), s); return s.length; };
  const market = await marketWindows(ctx.db);
  const bytes = write('regulations.json', docs) + write('bm25.json', bm25) + write('state-legal.json', stateLegal) + write('places.json', places)
    + write('market.json', market) + write('redfin.json', redfinFile(await redfinSnapshots(ctx.db)))
    + write('sales-cover.json', await salesCover(ctx.db));
  // the metro areas (CBSAs), the counties of each the build has sales for, and their sales (metro-build.ts, metro.ts)
  const metro = await metroIndex(ctx.db);
  fs.rmSync(path.join(dir, 'metro.json'), { force: true });
  const metroBytes = metro ? write('metro.json', metro) : 0;
  const meta: ResearchMeta = {
    format: RESEARCH_FORMAT, build_id: ctx.buildId,
    counts: { regulations: docs.length, terms: Object.keys(bm25.df).length, state_legal: stateLegal.length, states: places.states.length,
      cities: places.cities.length, zips: places.zips.length, filing_places: places.filings?.length ?? 0, market_windows: Object.keys(market.windows).length,
      metro_areas: metro?.metros.length ?? 0 },
  };
  write('meta.json', meta);
  ctx.log.info('live/research', { ...meta.counts, mb: Number(((bytes + metroBytes) / 1048576).toFixed(1)) });
}

/** market.json (live/research/market-window.ts): the window figures of every market and type, the Connecticut
 *  months whose single-family sales are all residential sales, and the sources of each market's sales. Empty where
 *  the sales table is absent. */
export async function marketWindows(db: StageContext['db']): Promise<MarketWindows> {
  const out: MarketWindows = { windows: {}, all_residential: {}, investor_rates: [] };
  if (await tableExists(db, 'mart_investor')) {
    // the cities whose sales carry buyer names (the rate is null elsewhere): what "which city has the most investors" can rank
    out.investor_rates = (await queryRows<{ s: string; c: string; r: number; a: string }>(db, `
      select state_code as s, city as c, investor_purchase_rate_pct as r, cast(as_of as varchar) as a
      from mart_investor where months = 12 and investor_purchase_rate_pct is not null order by r desc, s, c`)).map((r) => [r.s, r.c, r.r, r.a]);
  }
  const owners = await ownerCounts(db); if (owners) out.owners = owners; // owners counted per city and zip (owner-counts.ts)
  if (!(await tableExists(db, 'sales'))) return out;
  // a sale from a file that records no residential subtype (int_market_untyped_files: Connecticut's 2022 extract),
  // counted per window by the window's own day bounds (the note that says how many of a window's sales are such)
  const counted = await tableExists(db, 'int_market_untyped_files');
  const untyped = counted ? 'exists (select 1 from int_market_untyped_files u where u.source = sales.source and u.file = sales.file) as untyped' : 'false as untyped';
  if (counted) out.untyped_counted = true;
  const tagged = await taggedSales(db, ['zip', 'state_code', 'slug(city) as city_slug', 'property_type', 'sale_date', 'sale_price', 'coalesce(sqft, 0) > 0 as has_area', untyped]);
  const rows = await queryRows<{ k: string; t: string; m: number; n: number | bigint; med: number; a: number | bigint; u: number | bigint; as_of: string }>(db, `
    with ${tagged},
    ends as (select k, max(sale_date) as as_of from tagged group by k)
    select t.k, t.property_type as t, w.m, count(*) as n, median(t.sale_price) as med, count(*) filter (where t.has_area) as a,
           count(*) filter (where t.untyped) as u, cast(e.as_of as varchar) as as_of
    from tagged t join ends e using (k)
    cross join (select cast(range as integer) as m from range(3, 25)) w
    where t.sale_date > e.as_of - to_months(w.m)
    group by all order by 1, 2, 3`);
  for (const r of rows) {
    const key = `${r.k}|${r.t}`;
    const w = (out.windows[key] ??= { as_of: r.as_of, n: [], median: [], with_area: [] });
    const i = r.m - 3;
    w.n[i] = Number(r.n); w.median[i] = r.med; w.with_area[i] = Number(r.a);
    if (Number(r.u) > 0) (w.untyped ??= [])[i] = Number(r.u);
  }
  for (const w of Object.values(out.windows)) for (let i = 0; i < 22; i++) { w.n[i] ??= 0; w.median[i] ??= null; w.with_area[i] ??= 0; if (w.untyped) w.untyped[i] ??= 0; }
  // Connecticut's 2022 file tells no single-family home from a condo or a 2-4 family house (30_market_18_sales_connecticut_2022.sql
  // maps its "Residential" to sfr): the months of each town where its sfr sales hold such records, and how many
  // (market_monthly.untyped_count, the count the trends' months carry)
  if (await tableExists(db, 'market_monthly')) {
    const mixed = await queryRows<{ k: string; month: string; n: number | bigint }>(db, `
      select 'city|' || state_code || '|' || city_slug as k, month_label as month, untyped_count as n
      from market_monthly
      where market_kind = 'city' and property_type = 'sfr' and untyped_count > 0
      order by 1, 2`);
    for (const r of mixed) (out.all_residential[r.k] ??= {})[r.month] = Number(r.n);
  }
  out.sources = await marketSources(db);
  out.source_files = await marketSourceFiles(db);
  out.covered = { ...await marketCovered(db), ...await stateCovered(db) };
  out.state_counties = await stateCounties(db);
  if (await tableExists(db, 'zips')) out.zip_cities = await zipCities(db);
  // the permits of each zip and city by kind (permit-counts.ts) and the distressed properties of each city by filing kind (distress-kinds.ts)
  out.permit_counts = await permitCounts(db);
  out.permit_months = await permitMonths(db);
  out.distress_kinds = await distressKinds(db);
  out.distress_months = await distressMonths(db);
  out.distress_sources = await distressSources(db);
  return out;
}

/** market.json's `covered`: each market's months of its trends series (market_monthly, the 60 months to its latest
 *  sale) as its first month and one letter a month: `1` where the market's source files cover the month whole (the
 *  trends mart's own `covered` flag, 30_mart_market_trends.ts coveredMonths: what GET /v1/market/trends says), `p` where
 *  they do not but hold sales of it (a file starting or ending inside it, a thin extract's month), `0` where they hold
 *  none. The research answer reads a month's coverage from it (coverage.ts), so a month is said uncovered as the
 *  trends say it (review 21: research read the manifest's vintage months, which call King County's 2015-05, 27 days,
 *  covered, and say nothing of Connecticut's thin months). Empty in a build whose market_monthly has no `covered`. */
async function marketCovered(db: StageContext['db']): Promise<Record<string, [string, string]>> {
  if (!(await tableExists(db, 'market_monthly'))) return {};
  if (!(await columnExists(db, 'market_monthly', 'covered'))) return {};
  const rows = await queryRows<{ k: string; first: string; flags: string }>(db, `
    with m as (
      select case market_kind when 'zip' then 'zip|' || zip else 'city|' || state_code || '|' || city_slug end as k, month_label,
             case when bool_or(covered) then '1' when sum(sale_count) > 0 then 'p' else '0' end as f
      from market_monthly group by all
    )
    select k, min(month_label) as first, string_agg(f, '' order by month_label) as flags from m group by k order by k`);
  return Object.fromEntries(rows.map((r) => [r.k, [r.first, r.flags]]));
}

/** market.json's `zip_cities`: the zips whose USPS city (the zips table's) is a city with sales of its own while the
 *  geo lookup places some or all of the zip's arm's-length sales in another city (98168, mailed as Seattle: Tukwila),
 *  with the cities it places them in and how many, most first; an answer about the zip says so (zip-city.ts). */
async function zipCities(db: StageContext['db']): Promise<Record<string, [string, number][]>> {
  const rows = await queryRows<{ z: string; c: string; n: number }>(db, `
    with placed as (select zip, state_code, city, count(*) as n from sales where is_arms_length and zip is not null and city is not null group by all),
    cities as (select distinct state_code, slug(city) as c from sales where is_arms_length and city is not null)
    select p.zip as z, p.city as c, cast(p.n as integer) as n from placed p join zips z using (zip)
    where z.city is not null and exists (select 1 from cities c where c.state_code = z.state_code and c.c = slug(z.city))
      and exists (select 1 from placed o where o.zip = p.zip and slug(o.city) <> slug(z.city))
    order by 1, 3 desc, 2`);
  const out: Record<string, [string, number][]> = {};
  for (const r of rows) (out[r.z] ??= []).push([r.c, r.n]);
  return out;
}

/** The markets of market_monthly (30_mart_market_monthly.sql) as a `tagged` CTE over the arm's-length sales, `cols` of
 *  each: a sale counts in its zip's market and its city's, and a sale with a city part (a New York City borough,
 *  int_market_city_parts) in its part's too, so a borough's market is its own sales; and every sale in its state's (STATE_TAGGED). */
async function taggedSales(db: StageContext['db'], cols: readonly string[]): Promise<string> {
  let parts = (await tableExists(db, 'int_market_city_parts')) ? `
        union all
        select 'city|' || a.state_code || '|' || slug(cp.city_part), a.* from arm a join int_market_city_parts cp using (sale_id)
        where a.state_code is not null and slug(cp.city_part) <> ''` : '';
  if (await tableExists(db, 'int_market_neighborhoods')) {
    // a neighbourhood's market (hood|<state>|<name asked>, hoods.ts): the sales its source names it for
    const keys = hoodKeys((await queryRows<{ n: string }>(db, 'select distinct neighborhood as n from int_market_neighborhoods order by 1')).map((r) => r.n));
    const names = [...keys].flatMap(([n, ks]) => ks.map((k) => `('${n.replaceAll("'", "''")}', '${k.replaceAll("'", "''")}')`));
    if (names.length) parts += `
        union all
        select 'hood|' || h.state_code || '|' || hk.k, a.* from arm a join int_market_neighborhoods h using (sale_id)
        join (values ${names.join(', ')}) hk(n, k) on hk.n = h.neighborhood`;
  }
  return `arm as (select sale_id, ${cols.join(', ')} from sales where is_arms_length),
    tagged as (
        select 'zip|' || zip as k, * from arm where zip is not null
        union all
        select 'city|' || state_code || '|' || city_slug, * from arm where state_code is not null and city_slug is not null and city_slug <> ''${parts}${STATE_TAGGED}
    )`;
}

/** market.json's `sources`: the source ids of each market's arm's-length sales (the markets of market_monthly), which
 *  an answer reads to say when a market's sales are a partial extract (live/research/partial.ts); empty when the sales
 *  carry no source. */
export async function marketSources(db: StageContext['db']): Promise<Record<string, string[]>> {
  if (!(await tableExists(db, 'sales'))) return {};
  if (!(await columnExists(db, 'sales', 'source'))) return {};
  const tagged = await taggedSales(db, ['zip', 'state_code', 'slug(city) as city_slug', 'source']);
  const rows = await queryRows<{ k: string; s: string[] }>(db, `
    with ${tagged}
    select k, list(distinct source order by source) as s from tagged where source is not null group by k order by k`);
  return Object.fromEntries(rows.map((r) => [r.k, [...r.s]]));
}

/** market.json's `source_files`: the files of each market's arm's-length sales with their first and last month, as the
 *  trends mart lists them (mart_trends.source_files, 30_mart_market_trends.ts): which caveats of a source apply
 *  (partial.ts caveatsApplying). Absent where the mart has no such column. */
export async function marketSourceFiles(db: StageContext['db']): Promise<Record<string, SourceFileSpan[]> | undefined> {
  if (!(await tableExists(db, 'mart_trends')) || !(await columnExists(db, 'mart_trends', 'source_files'))) return undefined;
  const rows = await queryRows<{ k: string; f: SourceFileSpan[] }>(db, `
    select case when market_kind = 'zip' then 'zip|' || zip else 'city|' || state_code || '|' || city_slug end as k, any_value(source_files) as f
    from mart_trends where source_files is not null group by all order by k`);
  return Object.fromEntries(rows.map((r) => [r.k, r.f.map((x) => ({ file: x.file, first: x.first, last: x.last }))]));
}
