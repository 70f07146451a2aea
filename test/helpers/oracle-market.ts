// An oracle for the market endpoints (comps, rehab score, investor overview), written from the rules in
// warehouse/docs/market.md (and geo.md for the market tier) without the product's marts, shards or macros:
// its own SQL over the canonical tables (sales, permits, distress, zips, cities) and the raw source files
// (Redfin snapshots, ACS housing units and county populations, the OMB CBSA delineation), and the statistics
// (percentiles, medians, confidence bands, scores) computed here in TypeScript. Which sales are arm's-length is
// decided here too (ARMS_LENGTH_SALES_SQL, market.md "Arm's-length rule"), from the columns the sources recorded
// (price, parties, document, deed type, non-use code, tax block, property), never from the build's own flags.
// Over 300 lines: one oracle for the three market endpoints, whose figures share its arm's-length, sales-for-value and
// resale tables; split per endpoint, each would rebuild them.
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { permitAreaOracle } from './oracle-permit-area.ts';

export const PROPERTY_TYPES = ['sfr', 'multi', 'condo', 'land', 'commercial'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface CompsAnswer {
  zip_code: string; city: string; state: string; property_type: string; sample_count: number | null;
  price_per_sqft: { p25: number | null; median: number | null; p75: number | null };
  days_on_market: { median: number | null; source: 'sales' | 'redfin' | null; redfin: { property_type: string; period_start: string; period_end: string; homes_sold: number } | null };
  list_to_sale_ratio: number | null; confidence: string; as_of: string;
  coverage: { window_start: string; window_end: string; window_days: number; records_start: string | null; records_end: string | null; records_days: number };
  note: string | null;
}
export interface RehabAnswer {
  zip_code: string; city: string; state: string; rehab_momentum_score: number; label: string; trend: string;
  trend_pct: number; trend_end: string; confidence: string; as_of: string; coverage: CompsAnswer['coverage'];
  permits_window: CompsAnswer['coverage'] | null; sales_window: CompsAnswer['coverage'] | null;
  counts: { rehab_permits: number | null; sales: number | null; rehab_resales: number | null; trend_last_30d: number; trend_prior_30d: number }; note: string | null;
}
export interface InvestorAnswer {
  city: string; state: string; investor_purchase_rate_pct: number | null; flip_velocity_days: number | null;
  gross_flip_margin_pct: number | null; distressed_pipeline_count: number | null; platform_active_deals: number;
  market_tier: string; confidence: string; as_of: string; distress_as_of: string | null; distressed_without_parcel: number | null; coverage: CompsAnswer['coverage']; note: string | null;
}

/** Confidence by record count, as the spec and market.md state it: low below 20, medium 20-49, high 50+. */
export function band(n: number): 'low' | 'medium' | 'high' {
  return n >= 50 ? 'high' : n >= 20 ? 'medium' : 'low';
}

/** Continuous (linearly interpolated) quantile of sorted values: the definition market.md names (quantile_cont). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of nothing');
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function median(values: number[]): number | null {
  return values.length ? quantile([...values].sort((a, b) => a - b), 0.5) : null;
}

/** Which Redfin rows describe a property type (market.md: residential only; a row whose type was not recorded, every
 *  capture but 2025-05, describes none: SOURCE.md says Domapus kept whichever type came first). */
function redfinDescribes(redfinType: string | null, type: PropertyType): boolean {
  switch (redfinType) {
    case 'All Residential': return type === 'sfr' || type === 'condo' || type === 'multi';
    case 'Single Family Residential': case 'Townhouse': return type === 'sfr';
    case 'Condo/Co-op': return type === 'condo';
    case 'Multi-Family (2-4 Unit)': return type === 'multi';
    default: return false;
  }
}

/** The words of a flag in the comps note (market.md mart_comps "note"). */
const LEFT_OUT_WORDS: Record<string, string> = {
  nominal_price: 'nominal price', related_parties: 'related parties', deed_type: 'non-sale deed type', non_use_code: 'non-use code',
  assessment_ratio: 'price out of line with the assessed value', portfolio: 'portfolio (multi-parcel) deed', duplicate: 'duplicate record',
};
/** Redfin's types as a comps note names them. */
const REDFIN_WORDS: Record<string, string> = { 'All Residential': 'all residential', 'Single Family Residential': 'single-family',
  Townhouse: 'townhouse', 'Condo/Co-op': 'condo and co-op', 'Multi-Family (2-4 Unit)': '2-4 unit' };

/** A party's name as market.md compares them: upper case, punctuation as one space. */
const party = (col: string): string => `nullif(trim(regexp_replace(regexp_replace(upper(coalesce(${col}, '')), '[^A-Z0-9&]', ' ', 'g'), ' +', ' ', 'g')), '')`;

/**
 * The arm's-length sales of the canonical `sales` table by market.md's rule, computed from the recorded columns
 * (never `is_arms_length` or the other flags the build wrote): a price of at least $10,000 (NYC: over it); buyer and seller not the
 * same party; no related-party (01, 02, 03) or other non-use code; a deed for value (WD, SW, PR, TR, BS) when a deed
 * type is recorded; not one of two or more properties sharing a document, a buyer or a tax block on one date at one
 * price, or NYC's borough at a price no multiple of $500 nor $1 under one of $1,000 (a portfolio deed); for a sale with an assessment, its ratio (assessed value / price) inside the fences
 * Q1 - 3 IQR .. Q3 + 3 IQR of the ratios of its source file and property type's sales passing the rules above (only where
 * 30 or more such sales: IAAO Standard on Ratio Studies, Appendix B); and the copy kept of a sale recorded twice
 * (within a source: same property, date, price and buyer, or a near copy: the same but a price within 0.5% of the
 * higher, with the same facts; across sources: same street line + unit, state, date and price). A deed whose buyer sells on to another buyer the same day (one sale date, or one recording date), by a sale
 * for value, is a pass-through (one price) or a double closing (two prices): a sale for value, no market price.
 * A select of every `sales` column.
 */
const FLAGGED_SALES_SQL = `
  with s as (
    select *,
      case when parcel_id is not null or address is not null then
        coalesce(parcel_id, '') || '|' || coalesce(address, '') || '|' || coalesce(unit, '') || '|' || coalesce(zip, upper(city) || ',' || state_code, '') end as o_prop,
      ${party('buyer_name')} as o_buyer, ${party('seller_name')} as o_seller
    from sales
  ),
  resold as (
    -- a buyer who sells the property on to another buyer the same day (one sale date, or a later one recorded the same
    -- day), both deeds sales for value (a pass-through at one price, a double closing at two: the last deed counts). The
    -- last: of two deeds of one date recorded the same day, the one with the later document number (the recorder's
    -- order, numbers compared as numbers), else the resale
    select distinct case when b.sale_date = a.sale_date and b.recorded_date = a.recorded_date
                              and lpad(b.document_id, 40, '0') < lpad(a.document_id, 40, '0') then b.sale_id else a.sale_id end as sale_id
    from s a join s b on b.source = a.source and b.o_prop = a.o_prop
    where a.o_buyer is not null and b.o_seller = a.o_buyer and b.o_buyer is distinct from a.o_buyer and b.sale_id <> a.sale_id
      and (b.sale_date = a.sale_date or (b.recorded_date = a.recorded_date and b.sale_date > a.sale_date))
      and b.sale_price >= 10000 and not coalesce(b.o_buyer = b.o_seller, false) and b.non_use_code is null
      and not coalesce(upper(b.deed_type) not in ('WD', 'SW', 'PR', 'TR', 'BS'), false)
      and a.sale_price >= 10000 and not (a.source = 'nyc' and a.sale_price <= 10000) and a.non_use_code is null
      and not coalesce(a.o_buyer = a.o_seller, false)
      and not coalesce(upper(a.deed_type) not in ('WD', 'SW', 'PR', 'TR', 'BS'), false)
  ),
  flagged as (
    select *,
      sale_price < 10000 or (source = 'nyc' and sale_price <= 10000)
        or coalesce(o_buyer = o_seller, false)
        or non_use_code is not null
        or coalesce(upper(deed_type) not in ('WD', 'SW', 'PR', 'TR', 'BS'), false) as o_transfer,
      o_transfer or sale_id in (select sale_id from resold) as o_non_market,
      o_prop is not null and (
        (document_id is not null and count(distinct o_prop) over (partition by source, document_id, sale_date, sale_price) > 1)
        or (o_buyer is not null and count(distinct o_prop) over (partition by source, o_buyer, sale_date, sale_price) > 1)
        or (block_key is not null and count(distinct o_prop) over (partition by source, block_key, sale_date, sale_price) > 1)
        -- NYC: the blocks of one borough at a price over $10,000, neither a multiple of $500 nor $1 under one of $1,000
        or (block_key is not null and sale_price > 10000 and sale_price % 500 <> 0 and (sale_price + 1) % 1000 <> 0
            and count(distinct o_prop) over (partition by source, split_part(block_key, '-', 1), sale_date, sale_price) > 1)) as o_portfolio
    from s
  ),
  fences as (
    select source, file, property_type, quantile_cont(r, 0.25) as q1, quantile_cont(r, 0.75) as q3
    from (select source, file, property_type, assessed_value / sale_price as r from flagged
          where not o_non_market and not o_portfolio and assessed_value > 0)
    group by all having count(*) >= 30
  ),
  rated as (
    select flagged.*, coalesce(not o_non_market and assessed_value > 0
      and (assessed_value / sale_price < q1 - 3 * (q3 - q1) or assessed_value / sale_price > q3 + 3 * (q3 - q1)), false) as o_ratio
    from flagged left join fences using (source, file, property_type)
  ),
  near as (
    -- a near copy: the same property, date, buyer and facts at prices within 0.5% of the higher (a wider group is left
    -- alone); one copy of the group is kept, as of an exact copy
    select *, o_prop is not null and count(*) over g > 1 and min(sale_price) over g < max(sale_price) over g
                and max(sale_price) over g - min(sale_price) over g <= 0.005 * max(sale_price) over g as o_near
    from rated window g as (partition by source, o_prop, sale_date, o_buyer, property_type, beds, baths, sqft, year_built, assessed_value)
  ),
  copies as (
    select * exclude (o_non_market, o_near), o_non_market or o_ratio as o_non_market,
      o_prop is null or row_number() over (partition by source, o_prop, sale_date, o_buyer, o_near,
          case when o_near then null else sale_price end,
          case when o_near then [property_type, beds::varchar, baths::varchar, sqft::varchar, year_built::varchar, assessed_value::varchar] end
        order by (o_transfer or o_ratio or o_portfolio), document_id is null, document_id desc, line desc, file desc) = 1 as o_kept
    from near
  ),
  across as (
    select *,
      address is null or not o_kept or source = first_value(source) over (partition by state_code, address, coalesce(unit, ''), sale_date, sale_price, o_kept
        order by (o_transfer or o_ratio or o_portfolio), document_id is null, document_id desc, source, line desc, file desc) as o_first_source
    from copies
  )
  select * from across`;

/** The sales that are not arm's-length, each by its first flag as market.md's "Arm's-length rule" orders them (the
 *  comps note counts them by it: review 26): the rule's reason (nominal price, related parties, deed type, non-use
 *  code, a resale of the same day, the assessment ratio), else a portfolio deed, else a duplicate copy. A resale's two
 *  reasons (pass_through, double_close) are not told apart here: no zip-keyed source has one (Denver's sales have no
 *  zip), and the comps oracle fails on one. */
const LEFT_OUT_SQL = `
  select zip, property_type, sale_date,
    case when sale_price < 10000 or (source = 'nyc' and sale_price <= 10000) then 'nominal_price'
         when coalesce(o_buyer = o_seller, false) or coalesce(try_cast(regexp_extract(cast(non_use_code as varchar), '^\\s*([0-9]+)', 1) as integer) in (1, 2, 3), false) then 'related_parties'
         when coalesce(upper(trim(deed_type)) not in ('WD', 'SW', 'PR', 'TR', 'BS'), false) then 'deed_type'
         when non_use_code is not null then 'non_use_code'
         when o_ratio then 'assessment_ratio'
         when o_non_market then 'resold'
         when o_portfolio then 'portfolio' else 'duplicate' end as why
  from (${FLAGGED_SALES_SQL}) where o_non_market or o_portfolio or not o_kept or not o_first_source`;

/** A residential rehab permit of the canonical permits table (market.md "Residential rehab"): a rehab type on a
 *  building its source names residential, or, where the source cannot tell (building_use null), a declared cost of
 *  $500,000 or less. The build's building_use itself is recomputed from the raw files in market-rehab-use-build.test.ts. */
export const RESIDENTIAL_REHAB_SQL = `(permit_type in ('renovation', 'addition', 'repair')
  and coalesce(building_use = 'residential', coalesce(valuation, 0) <= 500000))`;
export const ARMS_LENGTH_SALES_SQL = `
  select * exclude (o_prop, o_buyer, o_seller, o_transfer, o_ratio, o_non_market, o_portfolio, o_kept, o_first_source)
  from (${FLAGGED_SALES_SQL}) where not o_non_market and not o_portfolio and o_kept and o_first_source`;

/**
 * The sales the investor purchase rate counts (market.md mart_investor, "sales for value"; the spec: "percent of all
 * sales in the period bought by investors"), decided here from the recorded columns: every sale but a duplicate copy
 * (the copy kept as above) and a transfer that is no sale: a price under $10,000, buyer and seller the same party, a
 * related-party non-use code (01 family, 02 love and affection, 03 inter-corporation) or a deed not for value. A
 * portfolio deed's parcels count, each once, and so does a sale flagged for its price alone (another non-use code, the
 * assessment ratio). `o_arms` says whether the sale is also arm's-length.
 */
export const SALES_FOR_VALUE_SQL = `
  select * exclude (o_prop, o_buyer, o_seller, o_transfer, o_ratio, o_non_market, o_portfolio, o_kept, o_first_source),
         not o_non_market and not o_portfolio as o_arms
  from (${FLAGGED_SALES_SQL})
  where o_kept and o_first_source and sale_price >= 10000 and not coalesce(o_buyer = o_seller, false)
    and not coalesce(try_cast(regexp_extract(non_use_code, '^\\s*([0-9]+)', 1) as integer) in (1, 2, 3), false)
    and not coalesce(upper(deed_type) not in ('WD', 'SW', 'PR', 'TR', 'BS'), false)`;

/** The property key of market.md's resale rule: parcel id (else address + zip) plus the unit, within a source. */
const PROPERTY_KEY = `source || '#' || coalesce(parcel_id, address || '@' || coalesce(zip, '')) || '#' || coalesce(regexp_replace(upper(unit), '[^A-Z0-9]', '', 'g'), '')`;

/** Consecutive arm's-length sales of one property (market.md int_market_resales, flips and quick resales at a gain),
 *  two deeds of one day in the order of their document numbers (the recorder's reception numbers), then file line. A
 *  condo (or NYC co-op) sale without a unit names its unit only by a parcel id of a source none of whose condo parcel ids (over all its
 *  recorded sales) carries two different units (Denver's schedule numbers; not NYC's co-op lots). */
const RESALES_SQL = `
  with unit_sources as (
    select source from (select source, parcel_id, count(distinct unit) as units from sales
                        where property_type in ('condo', 'coop') and trim(coalesce(parcel_id, '')) <> '' group by source, parcel_id)
    group by source having max(units) <= 1
  ),
  keyed as (
    select sale_id, zip, city, state_code, sale_date, sale_price, buyer_is_investor, document_id, line, ${PROPERTY_KEY} as k
    from oracle_arms
    where (parcel_id is not null or address is not null)
      and (property_type not in ('condo', 'coop') or unit is not null
           or (trim(coalesce(parcel_id, '')) <> '' and source in (select source from unit_sources)))
  )
  select *, lag(sale_date) over w as prev_date, lag(sale_price) over w as prev_price, lag(buyer_is_investor) over w as prev_investor
  from keyed window w as (partition by k order by sale_date, document_id, line)`;

/** The county of towns and townships of the market files that are no Census place (Census county subdivisions:
 *  the Connecticut towns are in planning regions since 2022; the Allegheny docket is Allegheny County's). */
export const NON_PLACE_COUNTIES: Record<string, string> = {
  'CT|fairfield': '09120', 'CT|darien': '09190', 'CT|westport': '09190', 'CT|madison': '09170',
  'PA|mount lebanon township': '42003', 'PA|penn hills township': '42003', 'CA|el dorado': '06017',
};

export class MarketOracle {
  private readonly made = new Map<string, Promise<void>>();
  private readonly memo = new Map<string, Promise<unknown>>();
  private constructor(private readonly inst: DuckDBInstance, private readonly conn: DuckDBConnection, private readonly sources: string) {}

  /** A temp table made once per oracle (the warehouse is opened read-only; temp tables live in memory). */
  private table(name: 'oracle_arms' | 'oracle_value' | 'oracle_resales' | 'oracle_redfin' | 'oracle_left_out'): Promise<void> {
    if (name === 'oracle_resales') return this.table('oracle_arms').then(() => this.make(name, RESALES_SQL));
    if (name === 'oracle_left_out') return this.make(name, LEFT_OUT_SQL);
    if (name === 'oracle_arms') return this.make(name, ARMS_LENGTH_SALES_SQL);
    if (name === 'oracle_value') return this.make(name, SALES_FOR_VALUE_SQL);
    return this.make(name, `
        select zip_code, nullif(property_type, '') as rtype, try_cast(period_end as date) as period_end,
               try_cast(nullif(median_dom, '') as double) as dom, try_cast(nullif(avg_sale_to_list_ratio, '') as double) as ratio,
               try_cast(nullif(homes_sold, '') as double) as homes_sold
        from read_csv('${this.file('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)`);
  }

  private make(name: string, sql: string): Promise<void> {
    if (!this.made.has(name)) this.made.set(name, this.conn.run(`create temp table ${name} as ${sql}`).then(() => undefined));
    return this.made.get(name)!;
  }

  /** One computation per question: the tests ask some twice (the answers, then what tells them apart). */
  private once<T>(id: string, compute: () => Promise<T>): Promise<T> {
    if (!this.memo.has(id)) this.memo.set(id, compute());
    return this.memo.get(id) as Promise<T>;
  }

  static async open(warehouseFile: string, sources: string): Promise<MarketOracle> {
    const inst = await DuckDBInstance.create(warehouseFile, { access_mode: 'READ_ONLY', threads: '2' });
    const conn = await inst.connect();
    return new MarketOracle(inst, conn, sources);
  }

  close(): void {
    this.conn.closeSync();
    this.inst.closeSync();
  }

  async rows<T>(sql: string, params?: Record<string, string | number>): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params as never);
    return reader.getRowObjectsJson() as T[];
  }

  private file(rel: string): string {
    return path.join(this.sources, rel).replaceAll("'", "''");
  }

  /** Window starts (exclusive) for each lookback: the end minus that many calendar months (DuckDB month arithmetic). */
  private async starts(end: string, months: number[]): Promise<Map<number, string>> {
    const rows = await this.rows<{ m: number; start: string }>(
      `select m::int as m, strftime(cast($end::date - to_months(m) as date), '%Y-%m-%d') as start
       from (values ${months.map((m) => `(${Math.trunc(m)})`).join(', ')}) t(m)`, { end });
    return new Map(rows.map((r) => [r.m, r.start]));
  }

  /** The zip's display city and state: the geo zips table's primary city, else the most frequent city of its records. */
  private async zipName(zip: string): Promise<{ city: string; state: string }> {
    const [z] = await this.rows<{ city: string; state: string }>(
      `select any_value(city) as city, any_value(state_code) as state from zips where zip = $zip group by zip`, { zip });
    if (z) return z;
    const [m] = await this.rows<{ city: string; state: string }>(`
      select mode(city) as city, mode(state_code) as state from (
        select city, state_code from sales where zip = $zip union all select city, state_code from permits where zip = $zip
        union all select city, state_code from distress where zip = $zip)`, { zip });
    return { city: m?.city ?? '', state: m?.state ?? '' };
  }

  /** Expected comps answers per `${type}-${months}`; null when the zip has no sale at all (a 404). */
  comps(zip: string, months: number[]): Promise<Map<string, CompsAnswer> | null> {
    return this.once(`comps ${zip} ${months.join()}`, () => this.computeComps(zip, months));
  }

  private async computeComps(zip: string, months: number[]): Promise<Map<string, CompsAnswer> | null> {
    // the window ends at the zip's latest arm's-length sale; a zip without one has no comps at all
    await this.table('oracle_arms');
    const [w] = await this.rows<{ end: string | null }>(`select strftime(max(sale_date), '%Y-%m-%d') as "end" from oracle_arms where zip = $zip`, { zip });
    const end = w?.end ?? null;
    if (!end) return null;
    const starts = await this.starts(end, months);
    const name = await this.zipName(zip);
    // every arm's-length sale of the window; a comp is one with a living area (ppsf)
    const sold = await this.rows<{ type: PropertyType; d: string; ppsf: number | null; ratio: number | null; dom: number | null }>(`
      select property_type as type, strftime(sale_date, '%Y-%m-%d') as d, case when sqft > 0 then sale_price / sqft end as ppsf,
             case when list_price > 0 then sale_price / list_price end as ratio,
             case when list_date <= sale_date then date_diff('day', list_date, sale_date)::double end as dom
      from oracle_arms
      where zip = $zip and sale_date <= $end::date
        and sale_date > $end::date - to_months(${Math.max(...months)})`, { zip, end });
    // the window's sales left out as not arm's-length, by first flag (LEFT_OUT_SQL)
    await this.table('oracle_left_out');
    const left = await this.rows<{ type: PropertyType; d: string; why: string }>(`
      select property_type as type, strftime(sale_date, '%Y-%m-%d') as d, why from oracle_left_out
      where zip = $zip and sale_date <= $end::date and sale_date > $end::date - to_months(${Math.max(...months)})`, { zip, end });
    if (left.some((x) => x.why === 'resold')) throw new Error(`comps oracle: zip ${zip} has a same-day resale left out, which this oracle does not split into pass_through and double_close`);
    const leftOut = (type: PropertyType, start: string): string | null => {
      const by = new Map<string, number>();
      for (const x of left) if (x.type === type && x.d > start) by.set(x.why, (by.get(x.why) ?? 0) + 1);
      const parts = [...by].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const n = parts.reduce((t, [, k]) => t + k, 0);
      return n ? `${n} other ${n === 1 ? 'sale of this type in the window is' : 'sales of this type in the window are'} left out as not arm's-length: ${parts.map(([w, k]) => `${k} ${LEFT_OUT_WORDS[w]}`).join(', ')}` : null;
    };
    // Redfin snapshots straight from the raw file (market.md "Days on market / list-to-sale"): a row stands for a window
    // of a type only when its 90 days (Redfin's period: the three calendar months to period_end) lie inside the window,
    // its recorded type describes the type, and 5 or more homes sold; the latest such period. Its sale-to-list is an
    // average, never the ratio (a median)
    await this.table('oracle_redfin');
    const redfin = await this.rows<{ rtype: string | null; start: string; end: string; dom: number | null; sold: number | null }>(`
      select rtype, strftime(date_trunc('month', period_end) - interval 2 month, '%Y-%m-%d') as start, strftime(period_end, '%Y-%m-%d') as "end",
             dom, homes_sold as sold
      from oracle_redfin where zip_code = $zip and period_end is not null`, { zip });
    const redfinFor = (type: PropertyType, windowStart: string) => {
      const usable = redfin.filter((r) => r.start > windowStart && r.end <= end && (r.sold ?? 0) >= 5 && redfinDescribes(r.rtype, type) && r.dom !== null);
      usable.sort((x, y) => y.end.localeCompare(x.end));
      return usable[0] ?? null;
    };
    // coverage (market.md "Coverage of a window"): the spans (first to last arm's-length sale, over every zip) of every
    // file keying zips of the zip's town, cut to the months the file holds a quarter of its source's busiest month in
    // (thin extracts), cut to the window, merged; confidence is at most what the covered share allows
    const segments = await this.rows<{ lo: string; hi: string; full: boolean }>(`
      with fm as (select source, file, date_trunc('month', sale_date)::date as m, count(*) as n from oracle_arms group by all),
      sp as (select source, file, min(sale_date) as lo, max(sale_date) as hi from oracle_arms group by all),
      busiest as (select source, max(n) as n from (select source, m, sum(n) as n from fm group by all) group by all),
      files as (select distinct source, file from oracle_arms where zip is not null
                  and (state_code, city) in (select state_code, city from oracle_arms where zip = $zip)
                union select distinct source, file from oracle_arms where zip = $zip)
      select strftime(greatest(sp.lo, fm.m), '%Y-%m-%d') as lo, strftime(least(sp.hi, last_day(fm.m)), '%Y-%m-%d') as hi, fm.n >= 0.25 * b.n as full
      from fm join sp using (source, file) join busiest b using (source) join files using (source, file)`, { zip });
    const coverage = (start: string): Coverage => windowCoverage(segments.filter((x) => x.full), start, end);
    const reach = (start: string): number => windowCoverage(segments, start, end).days;
    // NYC's co-op apartments (the warehouse's 'coop', no type of the five): the condo note counts them (1-4: fewer than 5)
    const coopsLeft = (type: PropertyType, start: string): string | null => {
      const k = type === 'condo' ? sold.filter((c) => (c.type as string) === 'coop' && c.d > start).length : 0;
      return k ? `${k >= 5 ? k : 'fewer than 5'} arm's-length co-op apartment sales in the window are not counted: a co-op (New York City building classes 09, 10 and 17) is a share in a cooperative, not a condominium, and no property type here covers co-ops` : null;
    };
    // the types the zip's sales sources record any sale of, anywhere (every record, flagged or not): a type none records
    // has no sale for want of any record, said so (market.md mart_comps "note"); one of single-family sales alone is a
    // file without a type
    const recorded = (await this.rows<{ t: string }>(`select distinct property_type as t from sales
      where source in (select distinct source from oracle_arms where zip = $zip)`, { zip })).map((r) => r.t);
    const sources = (await this.rows<{ n: number }>(`select count(distinct source)::int as n from oracle_arms where zip = $zip`, { zip }))[0]!.n;
    const unrecorded = (type: PropertyType): string | null => {
      if (recorded.includes(type)) return null;
      const [has, their] = sources > 1 ? ['sources record', 'their'] : ['source records', 'its'];
      const kinds = PROPERTY_TYPES.filter((t) => recorded.includes(t));
      if (kinds.length === 1 && kinds[0] === 'sfr') return `the zip's sales ${has} no property type (every sale is counted as a single-family house, sfr), so ${type} sales cannot be told apart: no count of them, not even 0`;
      return `the zip's sales ${has} no ${type} sale in any of ${their} markets (${their} sales are of the types ${kinds.join(', ').replace(/, ([^,]+)$/, ' and $1')} only), so none made here is in this build`;
    };
    const out = new Map<string, CompsAnswer>();
    for (const type of PROPERTY_TYPES) {
      for (const m of months) {
        const start = starts.get(m)!;
        const cov = coverage(start);
        const byCoverage = coverageBand(cov);
        const sales = sold.filter((c) => c.type === type && c.d > start);
        const inWindow = sales.filter((c) => c.ppsf !== null);
        const n = inWindow.length;
        const ppsf = inWindow.map((c) => c.ppsf!).sort((a, b) => a - b);
        const ok = n >= 5;
        const doms = inWindow.map((c) => c.dom).filter((x): x is number => x !== null);
        const ratios = inWindow.map((c) => c.ratio).filter((x): x is number => x !== null);
        const fromSales = ok && doms.length >= 5;
        const rf = fromSales ? null : redfinFor(type, start);
        const dom = fromSales ? median(doms) : rf?.dom ?? null;
        const ratio = ok && ratios.length >= 5 ? median(ratios) : null;
        const residential = type !== 'land' && type !== 'commercial';
        out.set(`${type}-${m}`, {
          zip_code: zip, city: name.city, state: name.state, property_type: type,
          sample_count: ok ? n : null,
          price_per_sqft: ok ? { p25: quantile(ppsf, 0.25), median: quantile(ppsf, 0.5), p75: quantile(ppsf, 0.75) } : { p25: null, median: null, p75: null },
          days_on_market: { median: dom, source: fromSales ? 'sales' : rf ? 'redfin' : null,
            redfin: rf ? { property_type: rf.rtype!, period_start: rf.start, period_end: rf.end, homes_sold: rf.sold! } : null },
          list_to_sale_ratio: ratio,
          confidence: minBand(band(n), byCoverage),
          // minimum cohort: below 5 comps no date of theirs either, the window end
          as_of: ok ? inWindow.reduce((a, c) => (c.d > a ? c.d : a), '') : end,
          coverage: coverageAnswer(cov, start, end),
          // the window's coverage, then why each null figure is null (market.md mart_comps "note"); a count of 1-4 sales is not given
          note: [
            cov.days >= cov.window ? null
              : (cov.days === 0 ? `sales records cover none of the ${cov.window} days asked whole` : `sales records cover ${cov.text} only, ${cov.days} of the ${cov.window} days asked`)
                + (reach(start) > cov.days ? `${partialWords(cov, reach(start), "zip's sales")}, under a quarter of its busiest month's sales a month, not every recorded sale, so a count or figure here describes that extract only` : ''),
            [leftOut(type, start), coopsLeft(type, start)].filter((x) => x !== null).join('; ') || null,
            sales.length === 0 ? `no arm's-length sale of this type in the window: ${unrecorded(type) ? `${unrecorded(type)}; ` : ''}no price per square foot`
              : n === 0 ? `${sales.length >= 5 ? sales.length : 'fewer than 5'} arm's-length sales of this type in the window, none with a recorded living area: no price per square foot`
              : n < 5 ? "fewer than 5 arm's-length sales of this type in the window with a recorded living area: too few for a price per square foot (minimum cohort 5)" : null,
            dom === null || ratio === null
              ? `${dom === null && ratio === null ? 'no days on market or list-to-sale ratio' : dom === null ? 'no days on market' : 'no list-to-sale ratio'}: fewer than 5 comps of the window record a list date and price${
                dom !== null ? '' : residential ? ', and no Redfin zip snapshot stands for the window (one needs its 90 days inside the window, its type this one or all residential, and 5 or more homes sold)' : ', and the Redfin zip snapshots cover residential types only'}${
                ratio === null && residential ? " (Redfin's sale-to-list is an average, not a median: not used for the ratio)" : ''}`
              : null,
            rf ? `days on market: the Redfin zip tracker's median for ${REDFIN_WORDS[rf.rtype!]} sales of the 90 days ${rf.start} to ${rf.end} (${rf.sold} homes sold, data provided by Redfin)` : null,
          ].filter((x) => x !== null).join('; ') || null,
        });
      }
    }
    return out;
  }

  /** Expected rehab answers per months; null when the zip has no computable component (a 404). */
  rehab(zip: string, months: number[]): Promise<Map<number, RehabAnswer | null>> {
    return this.once(`rehab ${zip} ${months.join()}`, () => this.computeRehab(zip, months));
  }

  private async computeRehab(zip: string, months: number[]): Promise<Map<number, RehabAnswer | null>> {
    await this.table('oracle_arms');
    // a permit whose zip was guessed counts only in a zip whose city (the geo zips table's) is the permit's own
    const zipPermits = `select * from permits where zip = $zip and (not zip_imputed
      or regexp_replace(lower(city), '[^a-z]', '', 'g') = (select regexp_replace(lower(any_value(city)), '[^a-z]', '', 'g') from zips where zip = $zip))`;
    const [w] = await this.rows<{ last_permit: string | null; last_sale: string | null }>(`
      select (select strftime(max(issue_date), '%Y-%m-%d') from (${zipPermits})) as last_permit,
             (select strftime(max(sale_date), '%Y-%m-%d') from oracle_arms where zip = $zip) as last_sale`, { zip });
    const out = new Map<number, RehabAnswer | null>();
    // the window ends where the records of the zip's sources end (any zip's last permit or arm's-length sale of those
    // sources), not at the zip's own last record (market.md mart_rehab "Window")
    // each kind's own end (market.md mart_rehab "Window"): the permit components count the months to the last permit of
    // the zip's permit sources, the resale share the months to the last arm's-length sale of its sales sources
    const [e] = await this.rows<{ as_of: string | null; permits_as_of: string | null; sales_as_of: string | null; source: string | null }>(`
      with own as (select source, 'permit' as k from (${zipPermits}) union select source, 'sale' from oracle_arms where zip = $zip),
      ends as (select k, max(d) as d from (select source, 'permit' as k, issue_date as d from permits union all select source, 'sale', sale_date from oracle_arms)
               join own using (source, k) group by k)
      select strftime(max(d), '%Y-%m-%d') as as_of, strftime(max(d) filter (where k = 'permit'), '%Y-%m-%d') as permits_as_of,
             strftime(max(d) filter (where k = 'sale'), '%Y-%m-%d') as sales_as_of, (select min(source) from (${zipPermits})) as source
      from ends`, { zip });
    const asOf = w?.last_permit || w?.last_sale ? e?.as_of ?? undefined : undefined;
    if (!asOf) {
      for (const m of months) out.set(m, null);
      return out;
    }
    // permit source area (market.md "Permit source area"): the zip's share of the area its permit source covers, from
    // the raw files (Davidson County by the HUD-USPS crosswalk, the City of Chicago by the Census ZCTA-place land and
    // ACS housing units); under 0.5 no permit component, else rates over that share of the housing units
    const area = permitAreaOracle(e?.source, [zip], (rel) => this.file(rel));
    const [xw] = area ? await this.rows<{ zip: string; share: number }>(area.sql) : [];
    const share = xw ? Number(xw.share) : null;
    const hasPermits = !!w?.last_permit && (share === null || share >= 0.5);
    const starts = await this.starts(asOf, months);
    const permitsAsOf = e?.permits_as_of ?? null;
    const salesAsOf = e?.sales_as_of ?? null;
    const pStarts = permitsAsOf ? await this.starts(permitsAsOf, months) : null;
    const sStarts = salesAsOf ? await this.starts(salesAsOf, months) : null;
    const name = await this.zipName(zip);
    const [acs] = await this.rows<{ units: number | null }>(`
      select max(try_cast("B25001_001E" as double)) as units
      from read_csv('${this.file('census-acs2023-population/acs5_2023_zcta_population.csv.gz')}', all_varchar = true)
      where "zip code tabulation area" = $zip`, { zip });
    const units = acs?.units && acs.units > 0 ? acs.units * (share ?? 1) : null;
    const permits = await this.rows<{ source: string; d: string; rehab: boolean; value: number | null; imputed: boolean; useless: boolean }>(`
      select source, strftime(issue_date, '%Y-%m-%d') as d, coalesce(zip_imputed, false) as imputed,
             source = 'canonical' and building_use is null as useless,
             ${RESIDENTIAL_REHAB_SQL} as rehab,
             case when ${RESIDENTIAL_REHAB_SQL} and valuation > 0 then valuation end as value
      from (${zipPermits}) where issue_date <= $asOf::date`, { zip, asOf });
    await this.table('oracle_resales');
    const sales = await this.rows<{ source: string; d: string; rehab: boolean }>(`
      select s.source, strftime(s.sale_date, '%Y-%m-%d') as d,
             coalesce(s.year_renovated between year(s.sale_date) - 1 and year(s.sale_date), false)
             or coalesce(date_diff('day', r.prev_date, r.sale_date) between 1 and 365 and r.prev_price > 0 and r.sale_price >= 1.10 * r.prev_price, false) as rehab
      from oracle_arms s left join oracle_resales r using (sale_id)
      -- residential: NYC's co-ops too ('coop', homes though no type of the five: market.md "Co-ops")
      where s.zip = $zip and s.sale_date <= $asOf::date and s.property_type in ('sfr', 'condo', 'multi', 'coop')`, { zip, asOf });
    const [obs] = await this.rows<{ n: number }>(`
      select (select count(*) from oracle_resales where zip = $zip and prev_date is not null and prev_price > 0)
           + (select count(*) from oracle_arms where zip = $zip and year_renovated is not null) as n`, { zip });
    const observesResales = (obs?.n ?? 0) > 0;
    // trend: rehab events in the 30 days to the trend's end against the 30 days before (whatever the lookback); the
    // end is as_of, or the earliest day one of the zip's sources is complete through when that comes first
    const complete = await this.completeThrough();
    const trendEnd = [asOf, ...new Set([...permits, ...sales].map((r) => complete.get(r.source)!))].sort()[0]!;
    const events = [...permits.filter((p) => p.rehab), ...sales.filter((s) => s.rehab)].map((e) => dayNo(trendEnd) - dayNo(e.d));
    const last = events.filter((age) => age >= 0 && age < 30).length;
    const prior = events.filter((age) => age >= 30 && age < 60).length;
    const trendPct = (100 * (last - prior)) / Math.max(prior, 1);
    // coverage: every file of the zip's sources, a permit file by its span, a sales file by its months cut to its span,
    // full within its solid months (market.md "Coverage of a window", review 17)
    const segs = await this.rows<Segment>(segmentsSql(
      `select source, 'permit' as k, file, issue_date as d from permits union all select source, 'sale', file, sale_date from oracle_arms`,
      `select source, 'permit' as k from (${zipPermits}) union select source, 'sale' from oracle_arms where zip = $zip`), { zip });
    const spans = segs.filter((x) => x.full);
    for (const m of months) {
      const start = starts.get(m)!;
      const cov = windowCoverage(spans, start, asOf);
      const pStart = pStarts?.get(m) ?? null;
      const sStart = sStarts?.get(m) ?? null;
      // each kind's window, covered by that kind's files only
      const pCov = pStart ? windowCoverage(spans.filter((x) => x.k === 'permit'), pStart, permitsAsOf!) : null;
      const sCov = sStart ? windowCoverage(spans.filter((x) => x.k === 'sale'), sStart, salesAsOf!) : null;
      const p = pStart ? permits.filter((x) => x.d > pStart) : [];
      const s = sStart ? sales.filter((x) => x.d > sStart) : [];
      const rehab = p.filter((x) => x.rehab);
      const valued = rehab.filter((x) => x.value !== null);
      const value = valued.reduce((a, x) => a + x.value!, 0);
      const years = m / 12;
      const permitRate = hasPermits && units ? (rehab.length * 1000) / units / years : null;
      const valueRate = hasPermits && units && (rehab.length === 0 || valued.length > 0) ? value / units / years : null;
      const declared = rehab.length === 0 ? 1 : valued.length / rehab.length;
      // minimum cohort 5 (market.md mart_rehab, as comps and investor): no share of 1-4 sales
      const resaleShare = observesResales && s.length >= 5 ? s.filter((x) => x.rehab).length / s.length : null;
      const resaleSmall = observesResales && s.length >= 1 && s.length <= 4;
      const parts: [number, number][] = [];
      if (permitRate !== null) parts.push([0.45, 100 * Math.min(1, Math.log(1 + permitRate) / Math.log(51))]);
      if (valueRate !== null) parts.push([0.35 * declared, 100 * Math.min(1, Math.log(1 + valueRate) / Math.log(2001))]);
      if (resaleShare !== null) parts.push([0.2, 100 * Math.min(1, resaleShare / 0.1)]);
      const weight = parts.reduce((a, [wt]) => a + wt, 0);
      if (weight === 0) {
        out.set(m, null);
        continue;
      }
      const score = parts.reduce((a, [wt, v]) => a + wt * v, 0) / weight;
      out.set(m, {
        zip_code: zip, city: name.city, state: name.state,
        rehab_momentum_score: score,
        label: bandOf(Math.round(score * 10) / 10), // the band of the score as published (1 decimal), market.md
        trend: trendPct > 5 ? 'up' : trendPct < -5 ? 'down' : 'flat',
        trend_pct: trendPct,
        trend_end: trendEnd,
        // the resale share alone (no permit component): low whatever the count (market.md, mart_rehab)
        // counted: the events the score is computed from, the rehab permits of a permit component and the sales of a share
        confidence: permitRate === null && valueRate === null ? 'low'
          // capped by each computed measure's coverage of its own window
          : minBand(minBand(band(rehab.length + (resaleShare === null ? 0 : s.length)), coverageBand(pCov!)), resaleShare === null ? 'high' : coverageBand(sCov!)),
        as_of: asOf,
        coverage: coverageAnswer(cov, start, asOf),
        permits_window: pCov ? coverageAnswer(pCov, pStart!, permitsAsOf!) : null,
        sales_window: sCov ? coverageAnswer(sCov, sStart!, salesAsOf!) : null,
        // the events behind the score: each kind counted where its window is, the resales where the share is
        counts: {
          rehab_permits: pStart ? rehab.length : null, sales: sStart ? s.length : null,
          rehab_resales: resaleShare === null ? null : s.filter((x) => x.rehab).length,
          trend_last_30d: last, trend_prior_30d: prior,
        },
        note: [
          coverageWords(cov, windowCoverage(segs, start, asOf).days, "zip's sales"),
          pCov && sCov && permitsAsOf !== salesAsOf
            ? `the zip's permit and sales records end apart (permits ${permitsAsOf}, sales ${salesAsOf}): permits are counted over ${dayIso(dayNo(pStart!) + 1)} to ${permitsAsOf} (${pCov.days} of its ${pCov.window} days covered) and sales over ${dayIso(dayNo(sStart!) + 1)} to ${salesAsOf} (${sCov.days} of its ${sCov.window} days covered)`
            : null,
          resaleSmall ? "fewer than 5 residential arm's-length sales in the window: no rehab resale share (minimum cohort 5)" : null,
          // no permit component: why, and that the score is the resale share alone (market.md mart_rehab, review r16b #19)
          permitRate === null && valueRate === null
            ? `${share !== null && share < 0.5 ? `the permit source covers ${area!.area} only, which holds ${Math.round(100 * share)}% ${area!.basis}: under half, so no permit component`
              : !w?.last_permit ? 'no building permit source covers this zip: no renovation permit data' : 'no housing unit count for this zip: no permit rate'}: the score is the rehab resale share alone (${s.filter((x) => x.rehab).length} of the window's ${s.length} residential arm's-length sales are renovated resales or quick resales at a gain)`
            : null,
          (permitRate !== null || valueRate !== null) && share !== null && share < 0.95
            ? `the permit source covers ${area!.area} only, which holds ${Math.round(100 * share)}% ${area!.basis}: permit rates are over that share of its housing units`
            : null,
          (permitRate !== null || valueRate !== null) && e?.source === 'nashville'
            ? "Nashville's permits are a snapshot of building permit applications by the day entered (Date_Entered), not issued permits" : null,
          // a permit component counting permits whose zip was guessed from their point says so (market.md mart_rehab)
          (permitRate !== null || valueRate !== null) && rehab.some((x) => x.imputed)
            ? `${rehab.filter((x) => x.imputed).length} of the window's ${rehab.length} residential rehab permits have no recorded zip: each is placed in the zip whose centroid is nearest its point, so near a zip line it may belong to the next zip`
            : null,
          // canonical permits whose building use permits.csv does not record (review 22)
          (permitRate !== null || valueRate !== null) && rehab.some((x) => x.useless)
            ? `${rehab.filter((x) => x.useless).length} of the window's ${rehab.length} residential rehab permits do not record the building's use (permits.csv gives no building_use): each is counted when its declared cost is $500,000 or less, so commercial work may be counted`
            : null,
          // a trend on fewer than 5 prior events says what it rests on (market.md mart_rehab "Trend")
          prior < 5 && last + prior > 0
            ? `the trend rests on few events: ${last} rehab events in the 30 days to ${trendEnd} against ${prior} in the 30 days before (fewer than 5 before, so one event more or less moves trend_pct widely)`
            : null,
        ].filter((x) => x !== null).join('; ') || null,
      });
    }
    return out;
  }

  /**
   * The day each source is complete through (market.md mart_market_direction): the latest day D whose 7 days
   * (D-7, D] hold at least 3/4 of the average week of the 8 weeks (D-63, D-7] (last_7 >= 0.75 * prior_56 / 8), the
   * records being every arm's-length sale (the oracle's own, oracle_arms) or every permit of the source; the days from
   * the source's first record to its last. Counted here day by day from the daily counts, compared as 32 * last_7 >=
   * 3 * prior_56 (integers: a week at exactly 3/4 passes).
   */
  completeThrough(): Promise<Map<string, string>> {
    return this.once('complete through', async () => {
      await this.table('oracle_arms');
      const daily = await this.rows<{ source: string; d: string; n: number }>(`
        select source, strftime(d, '%Y-%m-%d') as d, count(*)::int as n
        from (select source, sale_date as d from oracle_arms union all select source, issue_date from permits)
        where d is not null group by all order by source, d`);
      const bySource = new Map<string, Map<number, number>>();
      for (const r of daily) (bySource.get(r.source) ?? bySource.set(r.source, new Map()).get(r.source)!).set(dayNo(r.d), r.n);
      const out = new Map<string, string>();
      for (const [source, counts] of bySource) {
        const days = [...counts.keys()];
        const first = Math.min(...days);
        const sum = (from: number, to: number): number => { // records on days from < day <= to
          let n = 0;
          for (let day = from + 1; day <= to; day++) n += counts.get(day) ?? 0;
          return n;
        };
        for (let d = Math.max(...days); d >= first; d--) {
          if (32 * sum(d - 7, d) >= 3 * sum(d - 63, d - 7)) {
            out.set(source, new Date(d * 86_400_000).toISOString().slice(0, 10));
            break;
          }
        }
      }
      return out;
    });
  }

  /** The geo.md market tier of a city: its county's CBSA by ACS 2023 population (raw files); rural outside every CBSA.
   *  A city the geo cities table lacks takes its county from NON_PLACE_COUNTIES (Census county subdivisions, named
   *  here), else rural (market.md "rural by rule"). */
  async tier(state: string, city: string): Promise<string> {
    const [c] = await this.rows<{ fips: string | null; pop: number | null }>(`
      select county_fips as fips, coalesce(population, 0)::double as pop from cities
      where state_code = $state and lower(city_name) = lower($city) order by pop desc limit 1`, { state, city });
    const fips = c?.fips ?? NON_PLACE_COUNTIES[`${state}|${city.toLowerCase()}`];
    if (!fips) return 'rural';
    const [t] = await this.rows<{ pop: number | null }>(`
      with cbsa as (
        select "CBSA Code" as cbsa, "FIPS State Code" || "FIPS County Code" as fips
        from read_csv('${this.file('census-cbsa-delineation-2023/list1_Jul_2023.csv')}', all_varchar = true)
      ),
      pop as (
        select state || county as fips, try_cast("B01003_001E" as double) as pop
        from read_csv('${this.file('census-acs2023-population/acs5_2023_county_population.csv')}', all_varchar = true)
      )
      select sum(pop.pop) as pop from cbsa join pop using (fips) where cbsa.cbsa = (select cbsa from cbsa where fips = $fips)`, { fips });
    const pop = t?.pop ?? null;
    if (pop === null) return 'rural';
    return pop >= 1_000_000 ? 'primary' : pop >= 250_000 ? 'secondary' : 'tertiary';
  }

  /** Expected investor answers per months; null when the city has neither a sale nor a filing (a 404). */
  investor(state: string, city: string, months: number[]): Promise<Map<number, InvestorAnswer | null>> {
    return this.once(`investor ${state} ${city} ${months.join()}`, () => this.computeInvestor(state, city, months));
  }

  private async computeInvestor(state: string, city: string, months: number[]): Promise<Map<number, InvestorAnswer | null>> {
    const params = { state, city };
    // the city's window ends where its sources end (below); flagged sales count nowhere but in the purchase
    // rate, which counts every sale for value (SALES_FOR_VALUE_SQL)
    await this.table('oracle_arms');
    await this.table('oracle_value');
    // the window ends where the sources with records of the city end: each source's latest arm's-length sale, and
    // apart its latest filing (a source's two kinds end apart: one canonical folder); the distress count's own window
    // ends at the latest filing of the distress sources covering the city
    const [w] = await this.rows<{ as_of: string | null; distress_as_of: string | null; covered: boolean; name: string | null }>(`
      with ends as (select source, 'sale' as k, max(sale_date) as d from oracle_arms group by source
                    union all select source, 'distress', max(filing_date) from distress group by source),
      own as (select source, 'sale' as k from oracle_arms where state_code = $state and lower(city) = lower($city)
              union select source, 'distress' from distress where state_code = $state and lower(city) = lower($city))
      select strftime((select max(d) from ends join own using (source, k)), '%Y-%m-%d') as as_of,
             strftime((select max(d) from ends join own using (source, k) where k = 'distress'), '%Y-%m-%d') as distress_as_of,
             exists (select 1 from distress where state_code = $state and lower(city) = lower($city)) as covered,
             coalesce((select city_name from cities where state_code = $state and lower(city_name) = lower($city) order by population desc nulls last limit 1),
                      (select mode(city) from (select city from oracle_arms where state_code = $state and lower(city) = lower($city)
                                               union all select city from distress where state_code = $state and lower(city) = lower($city)))) as name`, params);
    const out = new Map<number, InvestorAnswer | null>();
    const asOf = w?.as_of ?? null;
    if (!asOf) {
      for (const m of months) out.set(m, null);
      return out;
    }
    const starts = await this.starts(asOf, months);
    const dAsOf = w?.distress_as_of ?? null;
    const dStarts = dAsOf ? await this.starts(dAsOf, months) : new Map<number, string>();
    const sales = await this.rows<{ d: string; investor: boolean | null }>(`
      select strftime(sale_date, '%Y-%m-%d') as d, buyer_is_investor as investor
      from oracle_value where state_code = $state and lower(city) = lower($city) and sale_date <= $asOf::date`, { ...params, asOf });
    await this.table('oracle_resales');
    const flips = await this.rows<{ d: string; days: number; margin: number }>(`
      select strftime(sale_date, '%Y-%m-%d') as d, date_diff('day', prev_date, sale_date)::double as days,
             (sale_price - prev_price) / prev_price as margin
      from oracle_resales where state_code = $state and lower(city) = lower($city) and prev_investor
        and prev_price > 0 and date_diff('day', prev_date, sale_date) between 1 and 365`, params);
    const filings = await this.rows<{ d: string; k: string; u: boolean; open: boolean }>(`
      select strftime(filing_date, '%Y-%m-%d') as d, parcel_id is null and address is null as u, status is null as open,
             source || '#' || coalesce(parcel_id, address || '@' || coalesce(zip, ''), distress_id) as k
      from distress where state_code = $state and lower(city) = lower($city) and filing_date <= $dAsOf::date
        and (status is distinct from 'closed' or status_date > $dAsOf::date)`, { ...params, dAsOf: dAsOf ?? asOf }); // closed by the window end: not counted
    const tier = await this.tier(state, city);
    // coverage: the files of the city's sales sources, a sales file by its months cut to its span, full within its
    // solid months (market.md "Coverage of a window", review 17); a city with no arm's-length sale: its filing files'
    // spans (review 25: a distress file's span is no sales coverage). The filings' own window is covered apart.
    const segs = await this.rows<Segment>(segmentsSql(
      `select source, 'sale' as k, file, sale_date as d from oracle_arms union all select source, 'distress', file, filing_date from distress`,
      `select source, 'sale' as k from oracle_arms where state_code = $state and lower(city) = lower($city)
       union select source, 'distress' from distress where state_code = $state and lower(city) = lower($city)`), params);
    const hasSales = segs.some((x) => x.k === 'sale');
    const coverSegs = hasSales ? segs.filter((x) => x.k === 'sale') : segs;
    const spans = coverSegs.filter((x) => x.full);
    const filingSpans = segs.filter((x) => x.k === 'distress');
    for (const m of months) {
      const start = starts.get(m)!;
      const cov = windowCoverage(spans, start, asOf);
      const known = sales.filter((s) => s.d > start && s.investor !== null);
      const investors = known.filter((s) => s.investor === true).length;
      const f = flips.filter((x) => x.d > start);
      const filed = filings.filter((x) => x.d > (dStarts.get(m) ?? start));
      // of the properties, those a filing naming no parcel or address stands for (market.md mart_investor)
      const props = new Set(filed.map((x) => x.k)).size;
      // the filings' own window and the days their files cover, said in the note where coverage is the sales files'
      const dCov = hasSales && dAsOf ? windowCoverage(filingSpans, dStarts.get(m)!, dAsOf) : null;
      const dWords = dCov && dCov.days < dCov.window ? `; the filing records cover ${dCov.text} only, ${dCov.days} of that window's ${dCov.window} days` : '';
      const without = new Set(filed.filter((x) => x.u).map((x) => x.k)).size;
      // minimum cohort (market.md mart_investor): no rate of 1-4 known buyers, no flip figure of 1-4 flips
      const days = f.length >= 5 ? median(f.map((x) => x.days)) : null;
      const margin = f.length >= 5 ? median(f.map((x) => x.margin)) : null;
      out.set(m, {
        city: w!.name ?? city, state,
        investor_purchase_rate_pct: known.length >= 5 ? (100 * investors) / known.length : null,
        flip_velocity_days: days,
        gross_flip_margin_pct: margin === null ? null : 100 * margin,
        distressed_pipeline_count: w!.covered ? new Set(filed.map((x) => x.k)).size : null,
        platform_active_deals: 0,
        market_tier: tier,
        confidence: minBand(band(known.length + filed.length), coverageBand(cov)),
        as_of: asOf,
        distress_as_of: w!.covered ? dAsOf : null,
        distressed_without_parcel: w!.covered ? without : null,
        coverage: coverageAnswer(cov, start, asOf),
        // the window's coverage, then why each null figure is null (market.md mart_investor "note")
        note: [
          coverageWords(cov, windowCoverage(coverSegs, start, asOf).days, "city's sales"),
          sales.every((s) => s.d <= start) ? 'no sale for value in the window: no investor purchase rate, flip velocity or flip margin'
            : !known.length ? 'the sales records of this city carry no buyer names: no investor purchase rate, and without an investor purchase no flip can be told (no flip velocity or margin)'
            : known.length < 5 ? 'fewer than 5 sales for value in the window record a buyer name: no investor purchase rate (minimum cohort 5)' : null,
          !known.length ? null
            : f.length === 0 ? 'no investor purchase resold 1 to 365 days later has its resale in the window (a flip needs both deeds in the records): no flip velocity or margin'
            : f.length < 5 ? 'fewer than 5 investor flips have their resale in the window: no flip velocity or margin (minimum cohort 5)' : null,
          w!.covered ? `distressed_pipeline_count counts the properties with an open filing filed in the last ${m} months (to ${dAsOf}), not every filing still open${dWords}${without ? `; ${without} of its ${props} are filings that name no parcel or address, each counted as a property of its own (${props - without} identified properties)` : ''}${filed.some((x) => x.open) ? `; ${filed.filter((x) => x.open).length} of the window's ${filed.length} filings come from records that give no case outcome (distress.csv has no closed_date): a case closed, dismissed or redeemed since its filing is counted as open` : ''}`
            : 'no distress source covers this city (no pre-foreclosure, tax-delinquent or lien filing on record): no distressed pipeline count',
          // where a flip velocity is given, what it measures (review 18; pipelines/shards/investor.sql writes it)
          days !== null ? "flip_velocity_days is the median days from an investor's purchase deed to the property's resale deed, not to its re-listing as the spec defines it: no source of the build records listing dates, so the resale stands for the re-list (a flip: an investor purchase resold 1 to 365 days later)" : null,
        ].filter((x) => x !== null).join('; ') || null,
      });
    }
    return out;
  }
}

/** Differences between an answer and the oracle's: numbers within `tolerance[field]` (rounding), the rest exact. */
export function diffAnswer(label: string, got: unknown, want: unknown, tolerance: Record<string, number>, at = ''): string[] {
  if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object') return [`${label} ${at}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`];
    const g = got as Record<string, unknown>;
    const wnt = want as Record<string, unknown>;
    const keys = new Set([...Object.keys(g), ...Object.keys(wnt)]);
    return [...keys].flatMap((k) => diffAnswer(label, g[k], wnt[k], tolerance, at ? `${at}.${k}` : k));
  }
  if (typeof want === 'number' && typeof got === 'number') {
    const tol = tolerance[at] ?? 0;
    return Math.abs(got - want) <= tol + 1e-9 ? [] : [`${label} ${at}: got ${got}, want ${want} (tolerance ${tol})`];
  }
  return Object.is(got, want) ? [] : [`${label} ${at}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`];
}

/** Rehab label bands (market.md): < 20 Cold, < 40 Warming, < 60 Active, < 80 Hot, else Very Hot. */
function bandOf(score: number): string {
  return score < 20 ? 'Cold' : score < 40 ? 'Warming' : score < 60 ? 'Active' : score < 80 ? 'Hot' : 'Very Hot';
}

interface Coverage { days: number; window: number; from: number | null; to: number | null; text: string }

/** market.md "Coverage of a window": the days of the window (start exclusive, end inclusive, YYYY-MM-DD) inside the
 *  given file spans (first and last record day), merged; `text` lists the covered spans. */
interface Segment { lo: string; hi: string; full: boolean; k: string }

/** The segments of the files of the records `records` (source, k, file, d) of the sources and kinds `own` (source, k):
 *  a sales file's months with a sale, and its solid months (from its first to its last month holding a quarter of its
 *  source's busiest month), each cut to the file's span, full within the solid months; any other file's span, full. */
function segmentsSql(records: string, own: string): string {
  return `with records as (${records}), own as (${own}),
    fm as (select source, k, file, date_trunc('month', d)::date as m, count(*) as n from records where d is not null group by all),
    busiest as (select source, k, max(n) as n from (select source, k, m, sum(n) as n from fm group by all) group by all),
    solid as (select fm.source, fm.k, fm.file, min(fm.m) as a, max(fm.m) as b from fm join busiest bb using (source, k) where fm.n >= 0.25 * bb.n group by all),
    sp as (select source, k, file, min(d) as lo, max(d) as hi from records where d is not null group by all),
    months as (select sp.*, unnest(generate_series(date_trunc('month', sp.lo)::timestamp, date_trunc('month', sp.hi)::timestamp, interval 1 month))::date as m from sp where k = 'sale')
    select strftime(greatest(x.lo, x.m), '%Y-%m-%d') as lo, strftime(least(x.hi, last_day(x.m)), '%Y-%m-%d') as hi, coalesce(x.m between s.a and s.b, false) as full, k
    from months x join own using (source, k) left join solid s using (source, k, file)
    left join fm using (source, k, file, m)
    where fm.n is not null or x.m between s.a and s.b
    union all
    select strftime(lo, '%Y-%m-%d'), strftime(hi, '%Y-%m-%d'), true, k from sp join own using (source, k) where k <> 'sale'`;
}

/** The partial extract's clause of a coverage note: the days not covered and how many of them hold its sales. */
function partialWords(cov: Coverage, reach: number, whose: string): string {
  if (cov.days === 0) return `: the ${whose} in the window come from a partial extract of their source`;
  const other = cov.window - cov.days;
  if (other === 1) return `: the other day holds the ${whose} from a partial extract of their source`;
  return `: of the other ${other} days, ${reach >= cov.window ? `all ${other}` : reach - cov.days} hold the ${whose} from a partial extract of their source`;
}

/** The coverage clause of an investor or rehab note (the comps' words): null when the window is covered. */
function coverageWords(cov: Coverage, reach: number, whose: string): string | null {
  if (cov.days >= cov.window) return null;
  return (cov.days === 0 ? `records cover none of the ${cov.window} days asked${reach > 0 ? ' whole' : ''}` : `records cover ${cov.text} only, ${cov.days} of the ${cov.window} days asked`)
    + (reach > cov.days ? `${partialWords(cov, reach, whose)}, under a quarter of its busiest month's sales a month, not every recorded sale, so a count or figure here describes that extract only` : '');
}

function windowCoverage(spans: { lo: string; hi: string }[], start: string, end: string): Coverage {
  const first = dayNo(start) + 1;
  const last = dayNo(end);
  const cut = spans.map((p) => [Math.max(dayNo(p.lo), first), Math.min(dayNo(p.hi), last)] as [number, number])
    .filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of cut) {
    const top = merged[merged.length - 1];
    if (top && a <= top[1] + 1) top[1] = Math.max(top[1], b); else merged.push([a, b]);
  }
  const days = merged.reduce((t, [a, b]) => t + b - a + 1, 0);
  return { days, window: last - first + 1, from: merged[0]?.[0] ?? null, to: merged[merged.length - 1]?.[1] ?? null,
    text: merged.map(([a, b]) => `${dayIso(a)} to ${dayIso(b)}`).join(' and ') };
}

/** The most confidence a window's coverage allows: high from 90% of its days, medium from 50%. */
function coverageBand(c: Coverage): 'low' | 'medium' | 'high' {
  return c.days >= 0.9 * c.window ? 'high' : c.days >= 0.5 * c.window ? 'medium' : 'low';
}

/** The answer's `coverage` object. */
function coverageAnswer(c: Coverage, start: string, end: string): CompsAnswer['coverage'] {
  return { window_start: dayIso(dayNo(start) + 1), window_end: end, window_days: c.window,
    records_start: c.from === null ? null : dayIso(c.from), records_end: c.to === null ? null : dayIso(c.to), records_days: c.days };
}

/** A day number (days since 1970-01-01) as a YYYY-MM-DD date. */
function dayIso(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

/** The lower of two confidence bands. */
function minBand(a: 'low' | 'medium' | 'high', b: 'low' | 'medium' | 'high'): 'low' | 'medium' | 'high' {
  const rank = { low: 0, medium: 1, high: 2 };
  return rank[a] <= rank[b] ? a : b;
}

/** A YYYY-MM-DD date as a day number (days since 1970-01-01). */
function dayNo(d: string): number {
  return Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
}
