// The periods of a research question as read, with what was not (pure): the follow-up's period beside the context's
// (context-period.ts), a date's day said as read by its month (years.ts `said`), and period words no reader takes ("two
// years ago", "last month", "this year") said, never silently replaced by the latest figures: "I could not read "two
// years ago" as a period; ...". Rules: warehouse/docs/research.md "Years".
import type { Context } from './context-place.ts';
import type { Target } from './place-words.ts';
import { contextPeriods } from './context-period.ts';
import { YEAR_AGO } from './year-ago.ts';
import { parseYears, type Years } from './years.ts';

const COUNT = '(?:\\d{1,3}|a few|few|several|a couple of|couple of|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|one|an)';
/** A period named by an event ("before the pandemic", "since covid", "after the 2008 crash"), whose months are the
 *  asker's to name: not read, said (session 25: "permits in Chicago before the pandemic" got the latest scores, unsaid). */
const EVENT = /\b(?:before|since|after|during|pre|post)[- ](?:the\s+)?(?:pandemic|covid(?:-19)?|lockdowns?|(?:20\d\d\s+)?(?:housing\s+)?(?:crash|recession|financial crisis))\b/;
/** Time counted back or named from today, which no period reader takes (each source ends on its own day, most years
 *  before today: the answer says where its figures' data ends, freshness.ts sayDataEnd). */
const UNREAD = new RegExp(`\\b${COUNT}\\s+(?:years?|yrs?|months?|weeks?|days?|decades?)\\s+(?:ago|back|earlier)\\b|\\b(?:last|this|next|past|previous)\\s+(?:month|week|decade)\\b|\\b(?:this|next)\\s+(?:year|yr|quarter)\\b|\\b(?:yesterday|tomorrow|last night)\\b|\\b(?:year|month)[- ]to[- ]date\\b|\\b[ym]td\\b|${EVENT.source}`, 'i');

/** Why a time counted from today is not read; freshness.ts sayDataEnd adds where the figures' data ends (session 26:
 *  "the sources end years before today" was said of Chicago's permits, which end 4 months before the build). */
export const TODAY_UNREAD = 'a time counted from today is not read';

/** The period words of `q` no reader takes, or null. "a year ago" and its kind are read (year-ago.ts). */
export function unreadPeriod(q: string): string | null {
  const m = UNREAD.exec(q);
  if (!m || YEAR_AGO.test(m[0].toLowerCase())) return null;
  return m[0];
}

/** The periods asked (parseYears, beside the context's for a follow-up), readings said in `readAs`, period words not
 *  read said in `gaps` when a market figure is asked (`market`: a legal rule is the one in force, whatever the period).
 *  `pq`: the question with a follow-up's relative period written out (follow-up-period.ts). */
export function readPeriods(pq: string, context: Context, readAs: string[], gaps: string[], targets: readonly Target[], market: boolean): Years | null {
  const years = contextPeriods(parseYears(pq), context, pq.toLowerCase(), readAs, targets);
  if (years?.said) readAs.push(years.said);
  const unread = market ? unreadPeriod(pq) : null;
  const why = unread && EVENT.test(unread.toLowerCase()) ? 'a period named by an event is not read: its months are yours to name' : TODAY_UNREAD;
  if (unread) gaps.push(`I could not read "${unread}" as a period (${why}), so no figure here is for it: ${years ? `the period read is ${years.label}` : 'the figures given are the latest of each place\'s data'}; name a month, a quarter or a year (e.g. "in May 2014", "Q1 2015", "in 2014")`);
  return years;
}
