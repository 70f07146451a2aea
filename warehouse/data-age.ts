// How old a figure's data is, and what that does to its confidence: the one rule of the answers that report a
// figure from a source that ended long ago (the valuation's comps, research's prices). DESIGN.md "Time windows": a
// figure ends at its market's latest record, not today, and `as_of` says which date; these sources end years before
// a build (King County 2015, Sacramento 2008), so an answer reads that date against the build's own date (the
// manifest's as_of: the day the data was assembled, pinned in tests) and says what a reader of "today" must know.

export type Confidence = 'low' | 'medium' | 'high';

/** Data older than this many years caps a figure's confidence at medium; older than LOW_AFTER_YEARS, at low. */
export const MEDIUM_AFTER_YEARS = 1;
export const LOW_AFTER_YEARS = 3;

const DAY_MS = 86_400_000;
const YEAR_DAYS = 365.25;

/** Years from `latest` (the data's last record, YYYY-MM-DD or YYYY-MM) to `today` (the build's date); null when either is
 *  not a date. Never negative. */
export function yearsOld(latest: string, today: string): number | null {
  const a = Date.parse(latest.length === 7 ? `${latest}-01` : latest.slice(0, 10));
  const b = Date.parse(today.slice(0, 10));
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return Math.max(0, (b - a) / DAY_MS / YEAR_DAYS);
}

/** The highest confidence data of this age may carry: null (no cap) within MEDIUM_AFTER_YEARS. */
export function ageCap(years: number | null): Confidence | null {
  if (years === null || years <= MEDIUM_AFTER_YEARS) return null;
  return years > LOW_AFTER_YEARS ? 'low' : 'medium';
}

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** `c`, lowered to the cap of its data's age. */
export function capByAge(c: Confidence, years: number | null): Confidence {
  const cap = ageCap(years);
  return cap !== null && RANK[cap] < RANK[c] ? cap : c;
}

/** "about 11 years", "about 2 years", "14 months": the age in words. */
export function ageWords(years: number): string {
  if (years < 2) return `${Math.round(years * 12)} months`;
  return `about ${Math.round(years)} years`;
}

/** The sentence an answer adds when its data is older than MEDIUM_AFTER_YEARS at the build's date; null otherwise. */
export function staleNote(latest: string, today: string, what: string): string | null {
  const years = yearsOld(latest, today);
  if (years === null || years <= MEDIUM_AFTER_YEARS) return null;
  return `The latest record of this source is from ${latest.slice(0, 10)}, ${ageWords(years)} before this build's data date (${today.slice(0, 10)}): ${what}.`;
}
