// A year back asked ("compared to a year ago", "vs last year", "higher than a year ago"): the 12-month change of the
// price index beside the price level (asked.ts adds `change`), or why there is none, as "appreciation yoy" says; and a
// follow-up naming only a period or a year back with the context's place ("Is that higher than a year ago?" {zip
// 98103}, "and compared to 2021?" {Queens}): that place's sale prices of that period (intent.ts). Before, both read as
// a level only, or "I don't have data". Pure, no imports but a type. Rules: warehouse/docs/research.md "Years".
import type { Target } from './place-words.ts';

/** A year back compared with: "a year ago", "a year earlier", "vs last year", "than last year", "from the year before". */
export const YEAR_AGO = /\b(a|one|1) (year|yr) (ago|earlier|before)\b|\b(vs\.?|versus|compared? (to|with)|than|from|since|over|against) (last|the previous|the prior|a|the) (year|yr)\b|\b(previous|prior) year\b|\byear before\b/;

/** A follow-up with no topic of its own: a year back, or a period compared ("how does it compare to 2021", "and 2021?"),
 *  of a place the context gives and the question does not name; said as read. */
export function periodFollowUp(lower: string, hasPeriod: boolean, targets: readonly Target[], readAs: string[], context: { period?: string } = {}): boolean {
  if (!targets.length || !targets.every((t) => t.from === 'context') || !(YEAR_AGO.test(lower) || hasPeriod)) return false;
  const t = targets[0]!;
  // with the earlier answer's period (context.period), a year back is that period's year before (context-period.ts)
  const back = YEAR_AGO.test(lower) && !context.period?.trim();
  readAs.push(`the follow-up as the sale prices of ${t.zip ? `zip ${t.zip}` : t.city ? `${t.city}, ${t.state}` : t.state} (the context's place)${back ? ', the latest against a year before (the 12-month change)' : ', of the period named'}`);
  return true;
}

/** The months a price level's change is taken over: 12 when a year back is asked, whatever window the level is of
 *  ("NYC condo prices last 6 months vs a year ago": the year before, not the 6 months before, review 24 D); else
 *  `months`. */
export const changeMonths = (query: string, months: number): number => (YEAR_AGO.test(query.toLowerCase()) ? 12 : months);
