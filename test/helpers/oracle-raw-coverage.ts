// The comps answer's window, `coverage` and Redfin days on market recomputed from the RAW files (King County,
// Sacramento, NYC, Philadelphia sales; the Redfin zip snapshots) by warehouse/docs/market.md "mart_comps" ("Window",
// "Coverage of a window", "Thin extracts", "Empty months", "Days on market / list-to-sale"), written out again without
// the build's int_market_file_coverage, marts or macros. Used by test/api/h75-comps-coverage-raw.test.ts, and through
// oracle-raw-changes.ts and oracle-raw-investor-cover.ts by the trends' and investor overview's raw tests (h75-*).
import { PHILADELPHIA_DATE, RAW_MARKET_SALES, dataFile, rawQuery } from './oracle-raw-comps.ts';
import type { Span } from './oracle-complete-month.ts';

const DAY = 86_400_000;
const dayNo = (d: string): number => Math.round(Date.parse(`${d}T00:00:00Z`) / DAY);
const dayOf = (n: number): string => new Date(n * DAY).toISOString().slice(0, 10);
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b), h = s.length >> 1; return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2; };

/** The covered days of one source file: day numbers, inclusive runs. */
type Runs = [number, number][];

export interface RawCoverageInputs {
  /** source -> its files' covered runs (market.md "Coverage of a window") */
  covered: Map<string, Runs[]>;
  /** `src|zip` -> the zip's latest arm's-length sale of any type (the window's end) */
  zipEnd: Map<string, string>;
  /** zip -> its Redfin rows */
  redfin: Map<string, RedfinRow[]>;
}

export interface RedfinRow { zip: string; period_end: string; median_dom: number | null; homes_sold: number | null; property_type: string | null }

/**
 * Each file's covered days: from its first to its last arm's-length sale, cut to its solid months (the first to the
 * last month holding a quarter or more of its source's busiest month, every file of the source summed), less each
 * month without a sale between them when a quarter of the file's median month with a sale (between the solid months)
 * would leave a month empty with a Poisson chance under 1% (`exp(-median/4) < 0.01`). NYC's rows are given to the
 * file whose record span (any record) holds their date.
 */
export async function rawCoverageInputs(): Promise<RawCoverageInputs> {
  const spans = await rawSourceSpans();
  const rows = await rawQuery<{ src: string; zip: string | null; d: string }>(`${RAW_MARKET_SALES}
    select src, zip, strftime(d, '%Y-%m-%d') as d from market where not portfolio and d is not null`);
  const zipEnd = new Map<string, string>();
  const tagged = rows.map((r) => {
    if (r.zip) {
      const k = `${r.src}|${r.zip}`;
      if (!zipEnd.has(k) || zipEnd.get(k)! < r.d) zipEnd.set(k, r.d);
    }
    return { src: r.src, d: r.d, file: spans.get(r.src)!.findIndex((s) => s.first <= r.d && r.d <= s.last) };
  });
  const { counts, ends } = fileMonths(tagged);
  return { covered: coveredRuns(counts, ends), zipEnd, redfin: await rawRedfin() };
}

/** Each source's files' covered runs from their arm's-length sales per month (`source` -> file -> `YYYY-MM` -> n) and
 *  their first and last arm's-length sale days (market.md "Thin extracts", "Empty months"). */
export function coveredRuns(counts: Map<string, Map<string | number, Map<string, number>>>, ends: Map<string, Map<string | number, [number, number]>>): Map<string, Runs[]> {
  const covered = new Map<string, Runs[]>();
  for (const [src, byFile] of counts) {
    const total = new Map<string, number>();
    for (const months of byFile.values()) for (const [m, n] of months) total.set(m, (total.get(m) ?? 0) + n);
    const busiest = Math.max(...total.values());
    const out: Runs[] = [];
    for (const [f, months] of byFile) {
      const solid = [...months].filter(([, n]) => n >= 0.25 * busiest).map(([m]) => m).sort();
      if (solid.length === 0) { out.push([]); continue; }
      const [a, b] = [solid[0]!, solid.at(-1)!];
      const inside = [...months].filter(([m]) => m >= a && m <= b).map(([, n]) => n);
      const holesMatter = Math.exp(-median(inside) / 4) < 0.01;
      const [first, last] = ends.get(src)!.get(f)!;
      const lo = Math.max(first, dayNo(`${a}-01`)), hi = Math.min(last, monthEnd(b));
      const runs: Runs = [];
      for (let d = lo; d <= hi; d++) {
        if (holesMatter && !months.has(dayOf(d).slice(0, 7))) continue;
        const run = runs.at(-1);
        if (run && run[1] === d - 1) run[1] = d; else runs.push([d, d]);
      }
      out.push(runs);
    }
    covered.set(src, out);
  }
  return covered;
}

/** Per source and file, the arm's-length sales per month and the first and last sale day, from (source, file, day) rows. */
export function fileMonths(rows: Iterable<{ src: string; file: string | number; d: string }>): { counts: Map<string, Map<string | number, Map<string, number>>>; ends: Map<string, Map<string | number, [number, number]>> } {
  const counts = new Map<string, Map<string | number, Map<string, number>>>();
  const ends = new Map<string, Map<string | number, [number, number]>>();
  for (const r of rows) {
    const byFile = counts.get(r.src) ?? counts.set(r.src, new Map()).get(r.src)!;
    const months = byFile.get(r.file) ?? byFile.set(r.file, new Map()).get(r.file)!;
    months.set(r.d.slice(0, 7), (months.get(r.d.slice(0, 7)) ?? 0) + 1);
    const e = ends.get(r.src) ?? ends.set(r.src, new Map()).get(r.src)!;
    const n = dayNo(r.d), was = e.get(r.file);
    e.set(r.file, was ? [Math.min(was[0], n), Math.max(was[1], n)] : [n, n]);
  }
  return { counts, ends };
}

/** The covered days of `runs` within first..last (day numbers): their count and first and last day. */
export function coveredIn(runs: readonly Runs[], first: number, last: number): { days: number; start: string | null; end: string | null } {
  const days = new Set<number>();
  for (const rs of runs) for (const [a, b] of rs) for (let x = Math.max(a, first); x <= Math.min(b, last); x++) days.add(x);
  const sorted = [...days].sort((a, b) => a - b);
  return { days: sorted.length, start: sorted.length ? dayOf(sorted[0]!) : null, end: sorted.length ? dayOf(sorted.at(-1)!) : null };
}

/** The first day of the window of `months` to `end` (sales after `end - months`, DuckDB's month arithmetic: the same
 *  day of the month, else that month's last day) as a day number. */
export function windowFirst(end: string, months: number): number {
  const [y, m, d] = end.split('-').map(Number) as [number, number, number];
  const back = new Date(Date.UTC(y, m - 1 - months, 1));
  const lastDay = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 0)).getUTCDate();
  return Math.round(Date.UTC(back.getUTCFullYear(), back.getUTCMonth(), Math.min(d, lastDay)) / DAY) + 1;
}
export { dayNo, dayOf };

const monthEnd = (m: string): number => {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return Math.round(Date.UTC(y, mo, 1) / DAY) - 1;
};

/** Every Redfin row with a 5-digit zip and a period end, as the file gives it. */
async function rawRedfin(): Promise<Map<string, RedfinRow[]>> {
  const rows = await rawQuery<RedfinRow>(`
    select zip_code as zip, strftime(try_cast(period_end as date), '%Y-%m-%d') as period_end, try_cast(median_dom as double) as median_dom,
           try_cast(homes_sold as double) as homes_sold, nullif(trim(property_type), '') as property_type
    from read_csv('${dataFile('redfin-zip-market-snapshots/redfin_zip_latest_2025-05_to_2025-09.csv.gz')}', all_varchar = true)
    where regexp_matches(zip_code, '^[0-9]{5}$') and try_cast(period_end as date) is not null`);
  const out = new Map<string, RedfinRow[]>();
  for (const r of rows) (out.get(r.zip) ?? out.set(r.zip, []).get(r.zip)!).push(r);
  return out;
}

/** A comps window's coverage by the documented rule: the window's first day, end and days, and its covered days. */
export interface RawCoverage { window_start: string; window_end: string; window_days: number; records_start: string | null; records_end: string | null; records_days: number }

/** The window of `months` to the zip's latest sale, cut against the source's files (a zip's files: every file of its
 *  source, NYC's two for every New York zip). */
export function rawCoverage(inp: RawCoverageInputs, src: string, zip: string, months: number): RawCoverage | null {
  const end = inp.zipEnd.get(`${src}|${zip}`);
  if (!end) return null;
  const start = windowFirst(end, months), e = dayNo(end);
  const c = coveredIn(inp.covered.get(src) ?? [], start, e);
  return { window_start: dayOf(start), window_end: end, window_days: e - start + 1, records_start: c.start, records_end: c.end, records_days: c.days };
}

/** Each source's files' record spans (first and last dated record of each file), read from the raw files. */
export async function rawSourceSpans(): Promise<Map<string, Span[]>> {
  const rows = await rawQuery<Span & { src: string }>(`
    with d as (
      select 'king_county' as src, 'kc' as f, strptime("date", '%Y%m%dT%H%M%S')::date as d
      from read_csv('${dataFile('king-county-wa-house-sales/kc_house_data.csv.gz')}', all_varchar = true)
      union all
      select 'sacramento', 'sac', try_cast(sale_date_iso as date)
      from read_csv('${dataFile('sacramento-real-estate-transactions/sacramento_transactions.csv.gz')}', all_varchar = true)
      union all
      select 'nyc', filename, try_cast("SALE DATE" as date)
      from read_csv('${dataFile('nyc-rolling-sales/nyc_rolling_sales_*.csv.gz')}', all_varchar = true, filename = true)
      union all
      select 'philadelphia', 'phl', ${PHILADELPHIA_DATE}
      from (select try_cast(left(sale_date, 10) as date) as d0
            from read_csv('${dataFile('philadelphia-opa-properties-sample/opa_properties_public_sample.csv.gz')}', all_varchar = true)))
    select src, strftime(min(d), '%Y-%m-%d') as first, strftime(max(d), '%Y-%m-%d') as last from d where d is not null group by src, f`);
  const out = new Map<string, Span[]>();
  for (const r of rows) (out.get(r.src) ?? out.set(r.src, []).get(r.src)!).push({ first: r.first, last: r.last });
  return out;
}

const DESCRIBES: Record<string, string[]> = {
  'All Residential': ['sfr', 'condo', 'multi'], 'Single Family Residential': ['sfr'], Townhouse: ['sfr'],
  'Condo/Co-op': ['condo'], 'Multi-Family (2-4 Unit)': ['multi'],
};

/** The Redfin row standing for a comps window of a type: its 90 days (the three calendar months to period_end) inside
 *  the window, a recorded type describing the type, 5 or more homes sold; the latest such period; null when none. */
export function rawRedfinDom(inp: RawCoverageInputs, zip: string, type: string, cov: RawCoverage): RedfinRow | null {
  const ok = (inp.redfin.get(zip) ?? []).filter((r) => {
    const [y, m] = r.period_end.split('-').map(Number) as [number, number];
    const start = new Date(Date.UTC(y, m - 3, 1)).toISOString().slice(0, 10);
    return start >= cov.window_start && r.period_end <= cov.window_end && (r.homes_sold ?? 0) >= 5
      && r.property_type !== null && (DESCRIBES[r.property_type] ?? []).includes(type);
  });
  return ok.sort((a, b) => (a.period_end < b.period_end ? 1 : -1))[0] ?? null;
}
