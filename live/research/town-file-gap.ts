// A Connecticut town that Connecticut's 2022 sales file (2022-01 to 2022-09, no residential subtype) holds no records
// of: its 2022 sales come from the other file's months only, said with the year's figure, so a short year is not read
// as an illiquid town (review r16b: Greenwich 2022, 38 sales, all of 2022-10 to 2022-12; Stamford 1,589 over the year).
// Pure. Rules: warehouse/docs/research.md "Answer templates" (years).
import { slug } from '../../warehouse/layout.ts';
import type { MarketWindows } from './market-window.ts';

/** The months (YYYY-MM) of Connecticut's 2022 file: every month any town's sales come from it in (market.json
 *  all_residential). */
function fileMonths(mw: MarketWindows): string[] {
  const out = new Set<string>();
  for (const [key, months] of Object.entries(mw.all_residential ?? {})) if (key.startsWith('city|CT|')) for (const m of Object.keys(months)) out.add(m);
  return [...out].sort();
}

/** " (Connecticut's 2022 sales file, 2022-01 to 2022-09, holds no Greenwich records: ...)" when the town asked (a
 *  Connecticut city) has no sales of that file while other towns do, and months of the years asked (`inAsked`) are
 *  months of that file with no sales of the town (`sold`: the town's months with sales); else ''. */
export function townFileGap(mw: MarketWindows | null, t: { state: string; city?: string; zip?: string }, inAsked: (m: string) => boolean, sold: readonly string[]): string {
  if (!mw || t.state !== 'CT' || !t.city || t.zip) return '';
  if (Object.keys(mw.all_residential?.[`city|CT|${slug(t.city)}`] ?? {}).length) return '';
  const months = fileMonths(mw);
  const missed = months.filter((m) => inAsked(m) && !sold.includes(m));
  if (!months.length || !missed.length) return '';
  return ` (Connecticut's 2022 sales file, ${months[0]} to ${months.at(-1)}, holds no ${t.city} records, so ${t.city} has no sales of ${missed[0] === missed.at(-1) ? missed[0] : `${missed[0]} to ${missed.at(-1)}`} in this data: a short count, not a quiet market)`;
}

/** A type other than single-family asked of a Connecticut town over months of the 2022 file (no residential subtype:
 *  its records are counted as single-family, all residential types together), when no month asked has a sale of that
 *  type: the sentence that says the type cannot be split out of that file and what is recorded instead (the town's
 *  residential records of those months, answered as its single-family figure); else null (review 19: "median condo
 *  price stamford ct 2022" said "2022 is outside the data" of a town with 1,588 residential sales that year). */
export function untypedFileYears(mw: MarketWindows | null, t: { state: string; city?: string; zip?: string }, type: string, noun: string, where: string, label: string, inAsked: (m: string) => boolean): string | null {
  const f = fileRecords(mw, t, type, inAsked);
  if (!f) return null;
  return `I don't have ${noun} sale prices for ${where} in ${label}: Connecticut's 2022 sales file, which holds its sales of ${f.span}, does not tell ${noun === 'condo' ? 'condos' : `${noun} homes`} from single-family homes and 2-4 family houses, so ${noun} sales cannot be split out of it (this is not a count of 0); what it records is ${f.n.toLocaleString('en-US')} arm's-length residential sales of all types together in those months, answered as the town's single-family figure (ask the median price of ${where} in ${label})`;
}

/** The town's records of the 2022 file (no residential subtype) in the months asked, when a type other than
 *  single-family is asked of a Connecticut town: how many and their months; else null. */
function fileRecords(mw: MarketWindows | null, t: { state: string; city?: string; zip?: string }, type: string, inAsked: (m: string) => boolean): { n: number; span: string } | null {
  if (!mw || type === 'sfr' || t.state !== 'CT' || !t.city || t.zip) return null;
  const months = Object.entries(mw.all_residential?.[`city|CT|${slug(t.city)}`] ?? {}).filter(([m]) => inAsked(m)).sort(([a], [b]) => a.localeCompare(b));
  const n = months.reduce((s, [, k]) => s + k, 0);
  if (n === 0) return null;
  return { n, span: months[0]![0] === months.at(-1)![0] ? months[0]![0] : `${months[0]![0]} to ${months.at(-1)![0]}` };
}

/** A type other than single-family counted over a window (`months`: the months it touches) of a Connecticut town that
 *  holds records of the 2022 file: the window's sales of the type leave those records out, as the file cannot tell the
 *  type apart. With none of the type, the sentence of untypedFileYears, never "0 condo sales" (review: "condo sales
 *  in Guilford CT" answered "Guilford, CT had 0 arm's-length condo sales in the 12 months to 2022-09-30" while it has
 *  325 residential records of the file, condos among them); with some, a clause saying the count is short of them. */
export function untypedFileWindow(mw: MarketWindows | null, t: { state: string; city?: string; zip?: string }, type: string, noun: string, where: string, months: readonly string[], sales: number, label: string): { sentence: string } | { note: string } | null {
  const inWindow = (m: string): boolean => months.includes(m);
  if (sales === 0) { const s = untypedFileYears(mw, t, type, noun, where, label, inWindow); return s ? { sentence: s } : null; }
  const f = fileRecords(mw, t, type, inWindow);
  return f ? { note: ` (besides these, ${f.n.toLocaleString('en-US')} arm's-length residential sales of ${f.span} come from Connecticut's 2022 sales file, which does not tell ${noun === 'condo' ? 'condos' : `${noun} homes`} from single-family homes and 2-4 family houses: its ${noun} sales of those months are among them, not counted here, so this figure is short of them)` } : null;
}
