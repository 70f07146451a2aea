// Why a price change does not reach back from its end month, when that month is not the data's last (Manhattan's
// single-family 2021-09, sales to 2024-01): the end month and the later months said, and a gap of the source files the
// same span back from the last sales (NYC's 2022-04..2023-02), around noChangeReason's "the data does not reach back
// that far" (sales-facts.ts), which alone read as if the data had no 12 months before its latest sales (review 20).
import { CHANGE_MIN_SAMPLE, type LevelPoint } from '../../warehouse/price-index.ts';

/** A change ending before the data's last sales (Manhattan's single-family 2021-09, sales to 2024-01): the end month
 *  said, and why no later month is one, before "the data does not reach back that far", which is of that end month
 *  only (review 20: said alone, it read as if the data had no 12 months before its latest sales). */
export function endedEarly(months: readonly string[], points: readonly LevelPoint[], last?: number, complete?: readonly boolean[]): string {
  const later = last === undefined ? [] : points.map((p, i) => ({ n: p.n, i })).filter((x) => x.i > last && x.n > 0);
  // later months all recorded in part only (a file's last months: Seattle's 2015-05, Denver's 2019-06 and 2019-07),
  // the usual case: nothing to say
  if (!later.some((x) => complete?.[x.i] !== false)) return '';
  const top = Math.max(...later.map((x) => x.n));
  const none = top >= CHANGE_MIN_SAMPLE ? `no later month with ${CHANGE_MIN_SAMPLE} is recorded whole` : `no later month has ${CHANGE_MIN_SAMPLE}: at most ${top} a month`;
  return `a change runs to the latest complete month with ${CHANGE_MIN_SAMPLE} or more sales, here ${months[last!]} (${none}), and `;
}

/** "; 2023-01, 12 months before its last month with sales (2024-01), falls in 2022-04 to 2023-02, months the source files do not
 *  cover": when a change ends early (endedEarly) and the same span back from the last sales starts in a gap. */
export function gapBack(months: readonly string[], points: readonly LevelPoint[], first: number, last?: number, covered?: readonly boolean[], complete?: readonly boolean[]): string {
  const end = points.findLastIndex((p) => p.n > 0);
  const g = end - (last! - first);
  // a gap between covered months only (NYC's 2022-04..2023-02), not the months before the data's first file
  if (!endedEarly(months, points, last, complete) || !covered || g < 0 || covered[g] !== false || !covered.slice(0, g).some(Boolean)) return '';
  let a = g, b = g;
  while (a > 0 && covered[a - 1] === false) a--;
  while (b < covered.length - 1 && covered[b + 1] === false) b++;
  return `; ${months[g]}, ${last! - first} months before its last month with sales (${months[end]}), falls in ${months[a] === months[b] ? months[a] : `${months[a]} to ${months[b]}`}, months the source files do not cover`;
}
