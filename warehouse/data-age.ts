// How old a figure's data is, and what that does to its confidence: the one rule of the answers that report a
// figure from a source that ended long ago (the valuation's comps, research's market facts: live/research/
// freshness.ts). DESIGN.md "Time windows": a figure ends at its market's latest record, not today, and `as_of` says
// which date; these sources end years before a build (King County 2015, Sacramento 2008), so an answer reads that
// date against the build's own date (the manifest's as_of: the day the data was assembled, the suite's pinned clock
// in tests) and says what a reader of "today" must know.
import type { Confidence } from './confidence.ts';

/** Data older than this many whole months is said to be old and its confidence is at most medium ... */
export const STALE_MONTHS = 12;
/** ... and older than this many, at most low (the figure says little about today's market). */
export const VERY_STALE_MONTHS = 36;

/** Whole calendar months from the month of `end` (YYYY-MM or YYYY-MM-DD) to the month of `today` (YYYY-MM-DD); null
 *  when either is no date. */
export function monthsOld(end: string, today: string): number | null {
  const e = /^(\d{4})-(\d{2})/.exec(end);
  const t = /^(\d{4})-(\d{2})/.exec(today);
  if (!e || !t) return null;
  return (Number(t[1]) - Number(e[1])) * 12 + (Number(t[2]) - Number(e[2]));
}

/** The highest confidence data this old may carry: high (no cap) up to STALE_MONTHS, medium up to VERY_STALE_MONTHS,
 *  else low. */
export function ageCap(months: number | null): Confidence {
  return months === null || months <= STALE_MONTHS ? 'high' : months > VERY_STALE_MONTHS ? 'low' : 'medium';
}

/** "over 18 years" (24 months or more: whole years, "over" when months are left), else "14 months". */
export function ageWords(months: number): string {
  return months >= 24 ? `${months % 12 ? 'over ' : ''}${Math.floor(months / 12)} years` : `${months} months`;
}

/** The sentence an answer adds when its data ends more than STALE_MONTHS before the build's date; null otherwise. */
export function staleNote(end: string, today: string, what: string): string | null {
  const months = monthsOld(end, today);
  if (months === null || months <= STALE_MONTHS) return null;
  return `The latest record of this source is from ${end.slice(0, 10)}, ${ageWords(months)} before this build's data date (${today.slice(0, 10)}): ${what}.`;
}
