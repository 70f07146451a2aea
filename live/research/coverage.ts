// The months each sales source's files cover (POST /v1/research/query), from the build manifest's sources[] vintage
// ("2021-04..2022-03, 2023-03..2024-02": New York City's two rolling-sales files): a month of a market with no sales
// that none of its sources' files covers is said to be outside the source ("no file covers it"), never a thin month of
// fewer than 5 sales. Only month-precise vintages are read ("2021-2023" or "2022" says nothing: Philadelphia's roll
// holds sales from decades before its vintage year). Rules: warehouse/docs/research.md "Years".
import { marketKey, type Market, type MarketWindows } from './market-window.ts';

/** What these lookups read of the research data (data.ts ResearchData). */
interface ResearchData { market: MarketWindows | null; spans: ReadonlyMap<string, SourceSpan> }

/** A source's files: its name and the month ranges (YYYY-MM, inclusive) its vintage gives. */
export interface SourceSpan { name: string; ranges: [from: string, to: string][] }

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month-precise vintages of a manifest's sources, by source id ("2008-05", "2014-05..2015-05", "a..b, c..d"). */
export function sourceSpans(manifest: unknown): Map<string, SourceSpan> {
  const out = new Map<string, SourceSpan>();
  const sources = (manifest as { sources?: unknown } | null)?.sources;
  for (const s of Array.isArray(sources) ? sources as { id?: unknown; title?: unknown; vintage?: unknown }[] : []) {
    if (typeof s.id !== 'string' || typeof s.vintage !== 'string') continue;
    const ranges = s.vintage.split(',').map((part) => part.trim().split('..').map((x) => x.trim()));
    if (!ranges.every((r) => r.length >= 1 && r.length <= 2 && r.every((x) => MONTH.test(x)))) continue;
    out.set(s.id, { name: typeof s.title === 'string' ? s.title : s.id, ranges: ranges.map((r) => [r[0]!, r.at(-1)!]) });
  }
  return out;
}

/** The sources of a market's sales, with month-precise spans; empty when any of its sources has none (then no month
 *  can be said uncovered). */
export function marketSpans(data: ResearchData, m: Market): SourceSpan[] {
  const ids = data.market?.sources?.[marketKey(m)] ?? [];
  const spans = ids.map((id) => data.spans.get(id));
  return ids.length && spans.every((s) => s !== undefined) ? spans as SourceSpan[] : [];
}

/** The months of `months` that no file of the market's sources covers (none when their spans are not known). */
export function uncoveredMonths(data: ResearchData, m: Market, months: readonly string[]): string[] {
  const spans = marketSpans(data, m);
  if (spans.length === 0) return [];
  return months.filter((x) => !spans.some((s) => s.ranges.some(([a, b]) => x >= a && x <= b)));
}

/** "NYC DOF rolling sales covers 2021-04 to 2022-03 and 2023-03 to 2024-02". */
export function spanWords(data: ResearchData, m: Market): string {
  return marketSpans(data, m).map((s) => `${s.name} covers ${s.ranges.map(([a, b]) => (a === b ? a : `${a} to ${b}`)).join(' and ')}`).join('; ');
}

/** Months (sorted) as runs: "2022-04 to 2023-02", "2021-01 to 2021-03 and 2022-04 to 2022-12". */
export function monthRuns(months: readonly string[]): string {
  const runs: [string, string][] = [];
  const next = (m: string): string => { const [y, n] = m.split('-').map(Number) as [number, number]; return n === 12 ? `${y + 1}-01` : `${y}-${String(n + 1).padStart(2, '0')}`; };
  for (const m of [...months].sort()) {
    const last = runs.at(-1);
    if (last && next(last[1]) === m) last[1] = m; else runs.push([m, m]);
  }
  return runs.map(([a, b]) => (a === b ? a : `${a} to ${b}`)).join(' and ');
}
