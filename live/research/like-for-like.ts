// The one rule for ranking the sides of a comparison (review 25; compose.ts verdict): sides are ranked ("so Bridgeport,
// CT is the more expensive") only when their figures are of the same period (one month, or one window to the same day)
// and of months the source files cover alike (all whole, or all in part only); else each figure is given with its
// period and the answer says why none is ranked. Before, Hartford's median over 6 months and Bridgeport's over 3, of
// months a thin extract holds in part only (GET /v1/market/trends gives them no median), named "the more expensive",
// with a note that they were not like for like. Rules: warehouse/docs/research.md "Comparisons".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import { placeName, type Fact } from './facts.ts';
import { monthCover } from './coverage.ts';
import { windowMonths } from './sales-facts.ts';
import { windowCover } from './window-gaps.ts';
import type { Market } from './market-window.ts';

/** A figure's period, from the value that names it: a month ("$305,000 (2022-09, 116 sales)") or a window ("$340,000
 *  (45 sales, 6 months to 2023-09-29)", "189 sales (12 months to 2023-09-29)"); null when it names none. */
function periodOf(value: string): { said: string; key: string; month?: string; months?: number; asOf?: string } | null {
  const w = /\b(\d+) months to (\d{4}-\d{2}-\d{2})\)/.exec(value);
  if (w) return { said: `the ${w[1]} months to ${w[2]}`, key: `${w[1]}|${w[2]!.slice(0, 7)}`, months: Number(w[1]), asOf: w[2]! };
  const m = /\((\d{4}-\d{2}),/.exec(value);
  return m ? { said: m[1]!, key: m[1]!, month: m[1]! } : null;
}

/** How the market's source files cover the figure's months: `whole`, `part` (none whole: a thin extract's months) or
 *  `mixed`; `whole` where unknown. */
function coverOf(data: ResearchData, m: Market, p: NonNullable<ReturnType<typeof periodOf>>): 'whole' | 'part' | 'mixed' {
  if (p.month) return monthCover(data, m, p.month) === 'part' ? 'part' : 'whole';
  const c = windowCover(data, m, windowMonths(p.asOf!, p.months!), p.asOf!);
  return c.part.length === 0 ? 'whole' : c.whole.length === 0 ? 'part' : 'mixed';
}

const COVER_WORDS = { whole: 'months the source files cover whole', part: 'months the source files hold in part only (a partial extract, or a file starting or ending inside)', mixed: 'months some of which the source files hold in part only' } as const;

/** Whether the sides' figures of one topic may be ranked, and the note said after them when they may not (or '' ). */
export function likeForLike(data: ResearchData, targets: Understanding['targets'], facts: readonly Fact[]): { rank: boolean; note: string } {
  const sides = facts.flatMap((f) => {
    const p = f.value && f.target && targets.includes(f.target) ? periodOf(f.value) : null;
    return p ? [{ f, p }] : [];
  });
  if (sides.length < 2) return { rank: true, note: '' };
  // windows of one length ending in one month are one period (each ends at its market's latest sale: Greenwich's
  // 2023-09-29, Darien's 2023-09-25), their end days said
  const periods = [...new Set(sides.map((x) => x.p.said))];
  if (new Set(sides.map((x) => x.p.key)).size > 1) {
    const word = periods.some((x) => x.startsWith('the ')) ? 'periods' : 'months';
    // windows of one length ending in one month said once, by their first and last end day (a county's towns)
    const keys = [...new Set(sides.map((x) => x.p.key))].map((k) => {
      const said = [...new Set(sides.filter((x) => x.p.key === k).map((x) => x.p.said))].sort();
      return said.length === 1 ? said[0]! : `${said[0]}..${said.at(-1)!.replace(/.* to /, '')}`;
    });
    return { rank: false, note: ` (not ranked: these figures are of different ${word}, ${keys.join(' and ')}, so they are not a like-for-like comparison)` };
  }
  const covers = sides.map((x) => ({ name: placeName(data, x.f.target!), cover: coverOf(data, x.f.zip ? { zip: x.f.zip.zip, state: x.f.target!.state } : x.f.target!, x.p) }));
  const kinds = [...new Set(covers.map((x) => x.cover))];
  const days = periods.length > 1 ? `${sides[0]!.p.months}-month windows ending ${periods.map((x) => x.replace(/.* to /, '')).join(' and ')}` : null;
  if (kinds.length === 1) return { rank: true, note: kinds[0] === 'part' ? ` (each figure is of ${days ?? periods[0]}, months the source files hold in part only: a ranking of the sales they hold)` : days ? ` (${days}, each at its market's latest sale)` : '' };
  const said = kinds.map((k) => `${covers.filter((x) => x.cover === k).map((x) => x.name).join(' and ')}'s of ${COVER_WORDS[k]}`);
  return { rank: false, note: ` (not ranked: these figures are of the same period, ${days ?? periods[0]}, but ${said.join(', ')}, so they are not a like-for-like comparison)` };
}
