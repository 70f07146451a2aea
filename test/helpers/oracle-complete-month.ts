// The trends' complete-month rule written out again for the tests that recompute a change or a price level
// (warehouse/docs/market.md `change_<n>m_pct`, "complete"): a month of a market is complete when (coveredMonth) the
// market's sources cover the whole month and it is no partial month (partialMonths) of the market's source: over the
// source's total monthly records (rawSourceMonths: every property type, from the raw files), a month is partial
// unless its count is at least half the larger of the month before it and the median of the 12 months before it, and
// at least half the larger of the month after it and the median of the 12 months after it (completeMonth; a side
// without months passes). Never the market's own few sales: their seasonal dips are no file edge. Both ends of a
// change must be complete.
import { dataFile, PHILADELPHIA_DATE, rawQuery } from './oracle-raw-comps.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

export function completeMonth(counts: readonly number[], i: number): boolean {
  const before = counts.slice(Math.max(0, i - 12), i);
  const after = counts.slice(i + 1, i + 13);
  const backOk = before.length === 0 || counts[i]! >= 0.5 * Math.max(median(before), before.at(-1)!);
  const aheadOk = after.length === 0 || counts[i]! >= 0.5 * Math.max(median(after), after[0]!);
  return backOk && aheadOk;
}

/** A source's records span: its first and last record day (YYYY-MM-DD). */
export interface Span { first: string; last: string }

const day = (d: string): number => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);

/**
 * The coverage rule (market.md "complete"), written out again from its words: a source covers month `YYYY-MM` whole
 * when its first record is on or before the month's 4th day and its last on or after the 4th day from its end (3 days
 * of tolerance at each edge: a weekend plus a Monday or Friday holiday); it covers part of it when its span meets the
 * month without covering it whole. The month is covered when some source of the market covers it whole and none
 * covers only part of it; a month outside every source's span is not.
 */
export function coveredMonth(month: string, spans: readonly Span[]): boolean {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = Math.round(Date.UTC(y, m - 1, 1) / 86_400_000);
  const end = Math.round(Date.UTC(y, m, 1) / 86_400_000) - 1; // the month's last day
  let whole = false, part = false;
  for (const s of spans) {
    const first = day(s.first), last = day(s.last);
    if (first - start <= 3 && end - last <= 3) whole = true;
    else if (first <= end && last >= start) part = true;
  }
  return whole && !part;
}

/** `YYYY-MM` of a month number (year * 12 + month - 1), and back. */
const monthNo = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOf = (t: number): string => `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;

/** A source's partial months: of its monthly counts (`YYYY-MM` -> records), every calendar month from its first to its
 *  last (a month without a record counts 0) that fails completeMonth. */
export function partialMonths(counts: ReadonlyMap<string, number>): Set<string> {
  if (counts.size === 0) return new Set();
  const nos = [...counts.keys()].map(monthNo);
  const first = Math.min(...nos);
  const series = Array.from({ length: Math.max(...nos) - first + 1 }, (_, i) => counts.get(monthOf(first + i)) ?? 0);
  return new Set(series.flatMap((_, i) => (completeMonth(series, i) ? [] : [monthOf(first + i)])));
}

let rawMemo: Promise<Map<string, Map<string, number>>> | null = null;
/**
 * Each sales source's records per month (`source` -> `YYYY-MM` -> n) read straight from its raw files, every property
 * type: a record with a date and a price of at least $10,000 counted once (its record key, date and price). The
 * dates as each SOURCE.md gives them: King County's `date`; Denver's deed date (SALE_YEAR, SALE_MONTHDAY), else its
 * recording date; Sacramento's `sale_date_iso`; Connecticut's `Date Recorded` (both files); NYC's `SALE DATE`;
 * Philadelphia's `sale_date` (2060-2099 read as 1960-1999). Plainer than the build's arm's-length rule, the totals
 * give the same partial months wherever a file covers a month whole (the only months the rule is asked of).
 */
export function rawSourceMonths(): Promise<Map<string, Map<string, number>>> {
  rawMemo ??= rawQuery<{ source: string; m: string; n: number }>(`
    with r as (
      select 'king_county' as source, strptime("date", '%Y%m%dT%H%M%S')::date as d, try_cast(price as double) as p, id as k
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      union all
      select 'denver', coalesce(try_strptime(trim(SALE_YEAR) || lpad(trim(SALE_MONTHDAY), 4, '0'), '%Y%m%d'), try_strptime(RECEPTION_DATE, '%Y%m%d'))::date,
             try_cast(SALE_PRICE as double), RECEPTION_NUM || '|' || SCHEDNUM
      from read_csv('${dataFile('denver-real-property-sales/real_property_sales_and_transfers_2018-2019.csv.gz')}', all_varchar = true)
      union all
      select 'sacramento', try_cast(sale_date_iso as date), try_cast(price as double), street || '|' || zip
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      union all
      select 'connecticut', try_strptime("Date Recorded", '%m/%d/%Y')::date, try_cast(replace("Sale Amount", ',', '') as double),
             "Serial Number" || '|' || Town || '|' || "List Year"
      from read_csv('${dataFile('connecticut-real-estate-sales/*.csv.gz')}', all_varchar = true, union_by_name = true)
      union all
      select 'nyc', try_cast("SALE DATE" as date), try_cast(replace("SALE PRICE", ',', '') as double),
             "BOROUGH" || '-' || "BLOCK" || '-' || "LOT" || '|' || "ADDRESS" || '|' || coalesce("APARTMENT NUMBER", '')
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true)
      union all
      select 'philadelphia', ${PHILADELPHIA_DATE}, try_cast(sale_price as double), parcel_number
      from (select *, try_cast(left(sale_date, 10) as date) as d0
            from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true))
    )
    select source, strftime(d, '%Y-%m') as m, count(distinct (k, d, p))::int as n from r where p >= 10000 and d is not null group by all`)
    .then((rows) => {
      const out = new Map<string, Map<string, number>>();
      for (const r of rows) (out.get(r.source) ?? out.set(r.source, new Map()).get(r.source)!).set(r.m, r.n);
      return out;
    });
  return rawMemo;
}

/** Each source's partial months from its raw files (rawSourceMonths, partialMonths). */
export async function rawPartialMonths(): Promise<Map<string, Set<string>>> {
  return new Map([...await rawSourceMonths()].map(([source, counts]) => [source, partialMonths(counts)]));
}
