// market.json (live/research/market-window.ts), built once per build from the warehouse: the window figures of every
// market and type, each market's sources, source files, covered months and the zips mailed as another city, with the
// permit, distress and owner counts (their own -build.ts files) and the calendar years' medians (year-medians-build.ts).
import type { StageContext } from '../../warehouse/context.ts';
import { columnExists, queryRows, tableExists } from '../../warehouse/db.ts';
import type { MarketWindows, SourceFileSpan } from './market-window.ts';
import { stateCounties, stateCovered } from './state-market-build.ts';
import { permitCounts, permitMonths } from './permit-counts-build.ts';
import { distressKinds, distressMonths, distressSources } from './distress-kinds-build.ts';
import { ownerCounts } from './owner-counts-build.ts';
import { taggedSales } from './market-tagged.ts';
import { yearMedians } from './year-medians-build.ts';

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
  out.years = await yearMedians(db); // each calendar year's sales and median (year-facts.ts)
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
