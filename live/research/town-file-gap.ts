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
