// Market expectations of the research question set, from our own SQL over the build's canonical tables (never its
// marts or shards): comps (median price per sqft of arm's-length sales), rehab momentum of a zip without sales (the
// permit components), investor purchase rate of a city. The formulas: warehouse/docs/market.md.
import { ARMS_LENGTH_SALES_SQL, RESIDENTIAL_REHAB_SQL, SALES_FOR_VALUE_SQL } from './oracle-market.ts';
import { fail } from './research-questions.ts';
import { num, round1, sql } from './oracle-research.ts';
import { coveredMonth, rawPartialMonths, type Span } from './oracle-complete-month.ts';

// ---- market figures, from our own SQL over the canonical tables ----
export const ZIP = /^\d{5}$/;
/** The arm's-length sales, decided by the market oracle's own SQL (market.md "Arm's-length rule"), not by the
 *  build's flags: a temp table made once on the read-only connection. */
let armsMade: Promise<unknown> | null = null;
const arms = (): Promise<unknown> => (armsMade ??= sql(`create temp table oracle_arms as ${ARMS_LENGTH_SALES_SQL}`));
export const zipOk = (z: string): string => (ZIP.test(z) ? z : fail(`bad zip ${z}`));

/** Median price per sqft of a zip's arm's-length comps of one type in the window ending at the zip's latest arm's-length sale. */
export async function compsOracle(zip: string, type: string, months: number): Promise<{ n: number; median: number | null }> {
  await arms();
  const [r] = await sql<{ zip_sales: number; n: number; median: number | null }>(`
    with e as (select max(sale_date) as window_end from oracle_arms where zip = $zip)
    select (select count(*) from oracle_arms where zip = $zip)::int as zip_sales, count(s.sale_price)::int as n,
           quantile_cont(s.sale_price / s.sqft, 0.5) as median
    from e left join oracle_arms s on s.zip = $zip and s.property_type = $type and s.sqft > 0
      and s.sale_date > e.window_end - to_months($months::int) and s.sale_date <= e.window_end`, { zip: zipOk(zip), type, months });
  if (!r || r.zip_sales === 0) fail(`no sale recorded for zip ${zip}: no arm's-length sale in the sales table (if no source covers it, the question must expect noData)`);
  return { n: r!.n, median: r!.n >= 5 ? num(r!.median) : null };
}

/** Rehab momentum of a zip whose window has no sale (the permit components only; the resale component is not derived
 *  here), by the rules of market.md mart_rehab: a permit whose zip was guessed counts only in a zip whose city is the
 *  permit's own (a Chicago permit at O'Hare is not Des Plaines' 60018); the window ends where the records of the zip's
 *  sources end; a zip with under half of its residential addresses in its permit source's county (the raw HUD-USPS
 *  crosswalk) has no permit component, else its rates are over that share of its housing units. */
export async function rehabOracle(zip: string, months: number): Promise<number> {
  await arms();
  const zipPermits = `select * from permits where zip = $zip and (not coalesce(zip_imputed, false)
    or regexp_replace(lower(city), '[^a-z]', '', 'g') = (select regexp_replace(lower(any_value(city)), '[^a-z]', '', 'g') from zips where zip = $zip))`;
  const [r] = await sql<{ as_of: string | null; source: string | null; sales: number; rehab: number; valued: number; value: number; units: number | null; permits_ever: number }>(`
    with own as (select source from (${zipPermits}) union select source from oracle_arms where zip = $zip),
    e as (select max(d) as as_of from (select source, issue_date as d from permits union all select source, sale_date from oracle_arms)
          where source in (select source from own) and exists (select 1 from own)),
    p as (select count(*) filter (where ${RESIDENTIAL_REHAB_SQL})::int as rehab,
                 count(*) filter (where ${RESIDENTIAL_REHAB_SQL} and valuation > 0)::int as valued,
                 coalesce(sum(valuation) filter (where ${RESIDENTIAL_REHAB_SQL} and valuation > 0), 0)::double as value
          from (${zipPermits}), e where issue_date > e.as_of - to_months($months::int) and issue_date <= e.as_of)
    select e.as_of::varchar as as_of, (select min(source) from (${zipPermits})) as source, p.rehab, p.valued, p.value,
      (select count(*) from oracle_arms where zip = $zip and sale_date > e.as_of - to_months($months::int) and sale_date <= e.as_of)::int as sales,
      (select count(*) from (${zipPermits}))::int as permits_ever,
      (select try_cast("B25001_001E" as integer) from raw.acs_population__zctas where "zip code tabulation area" = $zip) as units
    from e, p`, { zip: zipOk(zip), months });
  if (!r || r.as_of === null) fail(`no permit or sale for zip ${zip}`);
  if (r!.sales > 0) fail(`zip ${zip} has sales in its ${months}-month window: this oracle derives the permit components only`);
  if (!r!.permits_ever || !r!.units) fail(`zip ${zip} has no permit data or no ACS housing units: no permit component`);
  // the share of the zip's residential addresses (all addresses where it has none) in its permit source's county
  const county = r!.source === 'nashville' ? '47037' : r!.source === 'chicago' ? '17031' : fail(`no permit source area known for ${r!.source}`);
  const [xw] = await sql<{ rows: number; share: number | null }>(`
    with x as (select trim("COUNTY") as c, try_cast("RES_RATIO" as double) as r, try_cast("TOT_RATIO" as double) as t
               from raw.hud_crosswalk__zip_county where lpad(trim("ZIP"), 5, '0') = $zip)
    select count(*)::int as rows, case when sum(r) > 0 then coalesce(sum(r) filter (where c = $county), 0)
                                       else coalesce(sum(t) filter (where c = $county), 0) end as share from x`, { zip, county });
  const share = xw && xw.rows > 0 ? Number(xw.share) : 1;
  if (share < 0.5) fail(`zip ${zip} has ${Math.round(share * 100)}% of its addresses in its permit source's county: no permit component, no score without sales`);
  const { rehab, valued, value } = r!; const units = r!.units! * share;
  const perYear = 12 / months;
  const permit = 100 * Math.min(1, Math.log(1 + rehab * 1000 / units * perYear) / Math.log(51));
  // with rehab permits but none declaring a cost the value component is unknown (left out), never $0
  const declared = rehab === 0 ? 1 : valued / rehab;
  const valueScore = rehab > 0 && valued === 0 ? null : 100 * Math.min(1, Math.log(1 + value / units * perYear) / Math.log(2001));
  const w = valueScore === null ? 0 : 0.35 * declared;
  return round1((0.45 * permit + w * (valueScore ?? 0)) / (0.45 + w));
}

let valueMade: Promise<unknown> | undefined;
const forValue = (): Promise<unknown> => (valueMade ??= sql(`create temp table oracle_value as ${SALES_FOR_VALUE_SQL}`));

/** Investor purchase rate of a city: investor buyers / sales for value (SALES_FOR_VALUE_SQL: portfolio deeds included)
 *  with a known buyer, in the window ending at its latest arm's-length sale or filing. */
export async function investorOracle(st: string, city: string, months: number): Promise<number | null> {
  await arms();
  await forValue();
  const [r] = await sql<{ as_of: string | null; known: number; inv: number }>(`
    with a as (select * from oracle_arms where state_code = $st and lower(city) = lower($city)),
    c as (select * from oracle_value where state_code = $st and lower(city) = lower($city)),
    e as (select max(d) as as_of from (select sale_date as d from a union all select filing_date from distress where state_code = $st and lower(city) = lower($city)))
    select e.as_of::varchar as as_of, count(c.buyer_is_investor)::int as known, count(*) filter (where c.buyer_is_investor)::int as inv
    from e left join c on c.sale_date > e.as_of - to_months($months::int) and c.sale_date <= e.as_of
    group by e.as_of`, { st, city, months });
  if (!r || r.as_of === null) fail(`no sale or distress filing for ${city}, ${st} (if no source covers it, the question must expect noData)`);
  return r!.known === 0 ? null : round1(100 * r!.inv / r!.known);
}

/** A market's arm's-length sales of one type in the window of `months` ending at the market's latest arm's-length sale
 *  of any type (a zip, or a city by state and lower-cased name): count, median price (5 or more), count with an area. */
export async function windowSalesOracle(m: { zip?: string; state?: string; city?: string }, type: string, months: number): Promise<{ asOf: string; n: number; median: number | null; withArea: number }> {
  await arms();
  const where = m.zip ? 'zip = $zip' : 'state_code = $st and lower(city) = lower($city)';
  const params = m.zip ? { zip: zipOk(m.zip), type, months } : { st: m.state!, city: m.city!, type, months };
  const [r] = await sql<{ as_of: string | null; n: number; median: number | null; a: number }>(`
    with c as (select * from oracle_arms where ${where}), e as (select max(sale_date) as as_of from c)
    select e.as_of::varchar as as_of, count(c.sale_price)::int as n, quantile_cont(c.sale_price, 0.5) as median,
           count(c.sqft) filter (where c.sqft > 0)::int as a
    from e left join c on c.property_type = $type and c.sale_date > e.as_of - to_months($months::int) and c.sale_date <= e.as_of
    group by e.as_of`, params);
  if (!r || r.as_of === null) fail(`no arm's-length sale for ${m.zip ?? `${m.city}, ${m.state}`}`);
  return { asOf: r!.as_of!, n: r!.n, median: r!.n >= 5 ? num(r!.median) : null, withArea: r!.a };
}

/** A city's median price per sqft of one type in its latest calendar month that is complete (its sources cover it whole
 *  and it is no partial month of theirs by their raw files' monthly totals: oracle-complete-month.ts) with 20 or more sales of the type, 5 of them with a
 *  living area (a monthly median's rule, warehouse/docs/market.md "market_monthly"), and that month. */
export async function cityMonthPpsfOracle(st: string, city: string, type: string): Promise<{ month: string; median: number } | null> {
  await arms();
  // every month of the city's sales, with its count of arm's-length sales of the type and their median price per sqft
  const rows = await sql<{ month: string; n: number; with_area: number; median: number | null }>(`
    with m as (select strftime(sale_date, '%Y-%m') as month, count(*)::int as n, count(*) filter (where sqft > 0)::int as with_area,
                      quantile_cont(sale_price / sqft, 0.5) filter (where sqft > 0) as median
               from oracle_arms where state_code = $st and lower(city) = lower($city) and property_type = $type group by 1),
         r as (select min(sale_date) as a, max(sale_date) as b from oracle_arms where state_code = $st and lower(city) = lower($city))
    select strftime(d, '%Y-%m') as month, coalesce(m.n, 0) as n, coalesce(m.with_area, 0) as with_area, m.median
    from r, range(date_trunc('month', r.a), r.b + interval 1 day, interval 1 month) t(d) left join m on m.month = strftime(d, '%Y-%m')
    order by 1`, { st, city, type });
  const spans = await sql<Span & { source: string }>(`
    select source, strftime(min(sale_date), '%Y-%m-%d') as first, strftime(max(sale_date), '%Y-%m-%d') as last from sales
    where source in (select distinct source from sales where state_code = $st and lower(city) = lower($city)) group by source`, { st, city });
  const partial = await rawPartialMonths();
  // the latest month its sources cover whole and record whole, with 20+ sales (CHANGE_MIN_SAMPLE) and a median
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    const whole = !spans.some((s) => partial.get(s.source)?.has(r.month));
    if (r.median !== null && r.with_area >= 5 && r.n >= 20 && whole && coveredMonth(r.month, spans)) return { month: r.month, median: Number(r.median) };
  }
  return null;
}
