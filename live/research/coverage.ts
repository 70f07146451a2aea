// The months each market's sales source files cover (POST /v1/research/query): inside the market's trends series, the
// trends' own per-month flag (market.json `covered`, live/research/market-window-build.ts marketCovered: the trends mart's
// coveredMonths, what GET /v1/market/trends says), so a month is said uncovered, or covered in part only, as the trends
// say it (review 21: research read the manifest's vintage, "2014-05..2015-05", which calls King County's 2015-05, 27
// days, covered); outside the series, or in a build before the flags, the build manifest's sources[] vintage
// ("2021-04..2022-03, 2023-03..2024-02": New York City's two rolling-sales files). A month of a market with no sales
// that none of its sources' files covers is said to be outside the source ("no file covers it"), never a thin month of
// fewer than 5 sales. Only month-precise vintages are read ("2021-2023" or "2022" says nothing: Philadelphia's roll
// holds sales from decades before its vintage year). Rules: warehouse/docs/research.md "Years".
import { marketKey, type Market, type MarketWindows } from './market-window.ts';

/** What these lookups read of the research data (data.ts ResearchData; `partial`: its samples and partial extracts). */
interface ResearchData { market: MarketWindows | null; spans: ReadonlyMap<string, SourceSpan>; partial?: ReadonlyMap<string, unknown> }

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

/** How a market's source files cover a month (YYYY-MM): `whole`, `part` (not whole, but they hold sales of it: a file
 *  starting or ending inside it, a thin extract's month) or `none`; null where nothing is known. Inside the market's
 *  trends series its flag (market.json `covered`), else its month-precise vintages (whole inside a range, none outside). */
export function monthCover(data: ResearchData, m: Market, month: string): 'whole' | 'part' | 'none' | null {
  const c = data.market?.covered?.[marketKey(m)];
  if (c) {
    const i = monthIndex(month) - monthIndex(c[0]);
    if (i >= 0 && i < c[1].length) return c[1][i] === '1' ? 'whole' : c[1][i] === 'p' ? 'part' : 'none';
  }
  const spans = marketSpans(data, m);
  if (spans.length === 0) return null;
  return spans.some((s) => s.ranges.some(([a, b]) => month >= a && month <= b)) ? 'whole' : 'none';
}

/** The months of `months` that no file of the market's sources covers (none when their coverage is not known). */
export function uncoveredMonths(data: ResearchData, m: Market, months: readonly string[]): string[] {
  return months.filter((x) => monthCover(data, m, x) === 'none');
}

/** What the market's source files cover, said: inside a trends series the trends' own words (coveredWords: "the source
 *  files cover 2021-04 to 2022-03 and 2023-03 to 2024-02 of the 60 months to 2024-02"), with the months they cover in
 *  part only ("; 2008-05 in part only": Sacramento's week of sales; but the months `said`, the sentence names them), or,
 *  for a market whose sources are all partial extracts or samples, extractCoverWords (review 24: Hartford's list of 19 months
 *  in part only ran to 4 runs); else its sources' vintages ("NYC DOF rolling sales covers 2021-04 to 2022-03 and
 *  2023-03 to 2024-02"). */
export function spanWords(data: ResearchData, m: Market, said: readonly string[] = []): string {
  const c = data.market?.covered?.[marketKey(m)];
  if (c) {
    const months = [...c[1]].map((_, i) => monthOf(monthIndex(c[0]) + i));
    const part = months.filter((x, i) => c[1][i] === 'p' && !said.includes(x));
    const ids = data.market?.sources?.[marketKey(m)] ?? [];
    if (c[1].includes('p') && ids.length > 0 && ids.every((id) => data.partial?.has(id))) return extractCoverWords(months, c[1]);
    return `${coveredWords(months, [...c[1]].map((f) => f === '1'), c[1].includes('p'))}${part.length ? `; ${monthRuns(part)} in part only` : ''}`;
  }
  return marketSpans(data, m).map((s) => `${s.name} covers ${s.ranges.map(([a, b]) => (a === b ? a : `${a} to ${b}`)).join(' and ')}`).join('; ');
}

/** The coverage of a partial extract's market in one clause, with no colon (the window's words put it after theirs):
 *  its months covered whole by runs, and its months held in part only by runs when they make 2 runs or fewer, else
 *  counted with their first and last ("the source files, a partial extract, hold no month whole of the 60 months to
 *  2023-09, and 19 months between 2021-01 and 2023-09 in part only"). A month of neither holds no sale (`0`). */
export function extractCoverWords(months: readonly string[], flags: string): string {
  const whole = months.filter((_, i) => flags[i] === '1');
  const part = months.filter((_, i) => flags[i] === 'p');
  const runs = monthRuns(part);
  const held = runs.split(' and ').length <= 2 ? runs : `${part.length} ${whole.length ? 'other ' : ''}months between ${part[0]} and ${part.at(-1)}`;
  return `the source files, a partial extract, hold ${whole.length ? monthRuns(whole) : 'no month'} whole of the ${months.length} months to ${months.at(-1)}, and ${held} in part only`;
}

/** "the source files cover 2021-04 to 2022-03 and 2023-03 to 2024-02 of the 60 months to 2024-02": the covered runs;
 *  none covered while some are held in part (`part`: Sacramento's 2008-05, its file's last week) is "none ... whole",
 *  as the comps note says it, never "none" alone, which denied the sales the answer had just counted. */
export function coveredWords(months: readonly string[], covered: readonly boolean[], part = false): string {
  const runs = monthRuns(months.filter((_, i) => covered[i]));
  return runs ? `the source files cover ${runs} of the ${months.length} months to ${months.at(-1)}` : `the source files cover none of the ${months.length} months to ${months.at(-1)}${part ? ' whole' : ''}`;
}

const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOf = (i: number): string => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

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
