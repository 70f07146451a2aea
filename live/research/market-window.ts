// Sales figures the shards cannot give a research question (live/research/build.ts writes them to market.json): for
// every market (a zip, or a state + city slug, as market_monthly) and property type, the arm's-length sales of each
// window of 3..24 months ending at the market's last sale (count, median sale price, count with a living area), and
// the months of each Connecticut town whose "single-family" sales are in fact all residential sales (its 2022 file
// has no residential subtype). Pure lookups; a build without market.json answers null.
import { slug } from '../../warehouse/layout.ts';
import type { DistressKinds, DistressSources, PermitCounts, PermitMonths } from './permit-kinds.ts';
import type { MonthCounts } from './period-months.ts';
import type { OwnerCounts } from './owner-types.ts';

/** One file of a market's arm's-length sales (mart_trends.source_files): `<source id>/<file key>` and the first and
 *  last month (YYYY-MM) of the market's sales from it. */
export interface SourceFileSpan { file: string; first: string | null; last: string | null }

/** `untyped`: the window's sales from a file with no residential subtype (Connecticut's 2022 extract), by the window's
 *  own day bounds; absent where none (and in builds before it: then counted by whole months, mixedTypeNote) */
export interface WindowSeries { as_of: string; n: number[]; median: (number | null)[]; with_area: number[]; untyped?: number[] }
export interface MarketWindows {
  /** `zip|<zip>|<type>`, `city|<state>|<city slug>|<type>` or `state|<state>|<type>` (state-market-build.ts) -> index W-3 for a window of W months */
  windows: Record<string, WindowSeries>;
  /** `city|<state>|<city slug>` -> month (YYYY-MM) -> single-family sales from a file with no residential subtype */
  all_residential: Record<string, Record<string, number>>;
  /** the windows count their untyped sales (WindowSeries.untyped; builds since, absent before) */
  untyped_counted?: boolean;
  /** every city with a known investor share over 12 months (mart_investor): state, city, rate %, as_of; highest first */
  investor_rates?: [state: string, city: string, rate: number, asOf: string][];
  /** market key (`zip|<zip>` or `city|<state>|<city slug>`) -> the source ids of its arm's-length sales (builds since
   *  partial extracts are said: live/research/partial.ts) */
  sources?: Record<string, string[]>;
  /** market key -> the files of its arm's-length sales with their first and last month (mart_trends.source_files): which
   *  of a source's caveats apply to it (partial.ts caveatsApplying); absent in builds before it */
  source_files?: Record<string, SourceFileSpan[]>;
  /** zip -> the cities the geo lookup places its arm's-length sales in, most first, for the zips whose USPS city has
   *  city figures that leave some or all of them out (98168, mailed as Seattle: Tukwila); builds since review 21 */
  zip_cities?: Record<string, [city: string, sales: number][]>;
  /** market key -> the first month (YYYY-MM) of its trends series and a letter per month of it: `1` covered whole by
   *  its source files (the trends' `covered`), `p` in part only, `0` not at all (market-window-build.ts marketCovered); builds since
   *  review 22 */
  covered?: Record<string, [first: string, flags: string]>;
  /** `state|<state>` -> its counties with an arm's-length sale and all its counties (state-market-build.ts stateCounties):
   *  a state's figure is statewide only where they are equal; builds since h63 */
  state_counties?: Record<string, [withSales: number, counties: number]>;
  /** the building permits of each zip and city by kind over 1..24 months (permit-counts-build.ts); builds since review 22 */
  permit_counts?: PermitCounts;
  /** the same permits by calendar month, and each permit source's first and last issue date (permit-counts-build.ts
   *  permitMonths): a year or months asked; builds since review 23 */
  permit_months?: PermitMonths;
  /** the distressed properties of each city by filing kind over 3..24 months (distress-kinds-build.ts); builds since review 22 */
  distress_kinds?: DistressKinds;
  /** the foreclosure and lien filings of each city by kind and calendar month of filing, and each distress source's first
   *  and last filing date (distress-kinds-build.ts distressMonths): a year or months asked; builds since review 24 */
  distress_months?: MonthCounts;
  /** each distress source's distinct open properties over all its cities (distress-kinds-build.ts distressSources): a
   *  county's count without a property named in two municipalities twice; builds since review 29 */
  distress_sources?: DistressSources;
  /** the owners of each city's and zip's properties, per source whose records name owners (owner-counts-build.ts) */
  owners?: OwnerCounts;
  /** each market's arm's-length sales per calendar year and type, with their median (year-medians-build.ts); builds since h75 */
  years?: YearFigures;
}

/** `<market key>|<type>` -> year (YYYY) -> [arm's-length sales, their median sale price, null under 5 sales]. */
export type YearFigures = Record<string, Record<string, [sales: number, median: number | null]>>;

/** A market's arm's-length sales of one calendar year and their median (null under 5), or null where the build keeps no
 *  year figures (builds before h75) or the market had no sale of the type that year. */
export function yearFigure(mw: MarketWindows | null, m: Market, type: string, year: number): { sales: number; median: number | null } | null {
  const f = mw?.years?.[`${marketKey(m)}|${type}`]?.[String(year)];
  return f ? { sales: f[0], median: f[0] >= WINDOW_MIN_SALES ? f[1] : null } : null;
}

/** One Redfin snapshot of a zip: its capture month, the end of its 90 days, median days on market, homes sold, Redfin's
 *  property type of the row (recorded in the 2025-05 capture only, else null). The index of them: redfin-index.ts. */
export type RedfinSnap = [month: string, periodEnd: string, dom: number, sold: number | null, type: string | null];

/** One market's sales over a window: count, median price (null under 5 sales), count with a living area. */
export interface WindowFigure { months: number; asOf: string; sales: number; median: number | null; withArea: number; untyped?: number }

/** A zip, a city, a neighbourhood its sales source names (`hood`: its name asked as `key`, hoods.ts), or a whole state
 *  (none of them and no county or borough `area`: every sale placed in the state, state-market-build.ts). A county or
 *  borough alone has no market of its own here (its key matches none: its zips and cities are read instead). */
export interface Market { zip?: string; state: string; city?: string; hood?: { key: string }; area?: unknown }
export const marketKey = (m: Market): string => (m.zip ? `zip|${m.zip}` : m.hood ? `hood|${m.state}|${m.hood.key}`
  : m.city || m.area ? `city|${m.state}|${slug(m.city ?? '')}` : `state|${m.state}`);

export const WINDOW_MIN_SALES = 5;

export function windowFigure(mw: MarketWindows | null, m: Market, type: string, months: number): WindowFigure | null {
  if (!mw || months < 3 || months > 24) return null;
  const w = mw.windows[`${marketKey(m)}|${type}`];
  if (!w) return null;
  const i = months - 3;
  const sales = w.n[i] ?? 0;
  // market.json of this build counts the untyped sales of every window (build.ts); of an older build, none (undefined)
  const untyped = 'untyped' in w ? w.untyped![i] ?? 0 : mw.untyped_counted ? 0 : undefined;
  return { months, asOf: w.as_of, sales, median: sales >= WINDOW_MIN_SALES ? w.median[i] ?? null : null, withArea: w.with_area[i] ?? 0, ...(untyped !== undefined ? { untyped } : {}) };
}

/** A count of a window's sales as the minimum cohort lets it be said (warehouse/docs/market.md "Minimum cohort": nothing
 *  of a group of 1-4 sales leaves the build): 1-4 as "fewer than 5 <noun>s", else the count ("0 sales", "1,149 sales"). */
export const salesSaid = (n: number, noun: string): string =>
  n > 0 && n < WINDOW_MIN_SALES ? `fewer than ${WINDOW_MIN_SALES} ${noun}s` : `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** The end of a market's window as said: its day, the market's latest arm's-length sale of any type (the window end,
 *  the date every type and window of the market shares), unless the market's window holds 1-4 sales of every type
 *  together, whose latest sale's date that day is: then its month (review: Cool, CA's one sale's day, 2008-05-16). */
export function windowEndSaid(mw: MarketWindows | null, m: Market, months: number, asOf: string): string {
  const all = ['sfr', 'condo', 'multi', 'land', 'commercial'].reduce((s, type) => s + (windowFigure(mw, m, type, months)?.sales ?? 0), 0);
  return all > 0 && all < WINDOW_MIN_SALES ? asOf.slice(0, 7) : asOf;
}

/** The sales of a city's month that are all-residential records (no single-family subtype in the source), or 0. */
export function allResidential(mw: MarketWindows | null, m: Market, month: string): number {
  if (!mw || m.zip || !m.city) return 0;
  return mw.all_residential[marketKey(m)]?.[month] ?? 0;
}

/** Every source's title by source id, from a build's manifest (its sources[]): a file is named by it where the manifest
 *  gives it no month-precise vintage (distress-periods.ts: "Louisville Metro lien foreclosures covers ..."). */
export function sourceTitles(manifest: unknown): Map<string, string> {
  const sources = (manifest as { sources?: unknown } | null)?.sources;
  return new Map((Array.isArray(sources) ? sources as { id?: unknown; title?: unknown }[] : [])
    .flatMap((s) => (typeof s.id === 'string' && typeof s.title === 'string' ? [[s.id, s.title] as [string, string]] : [])));
}
