// How old a market figure's data is (POST /v1/research/query): the one rule every figure-bearing market answer (sale
// prices and trends, comparable sales, sales counts, rehab momentum, investor activity) goes through after retrieval,
// whatever its topic. The sources end years ago in places (Sacramento's sales end in 2008), so a figure is never
// offered as today's without saying so. Rules: warehouse/docs/research.md "Old data".
//
//   age      the whole months from the month the figure's data ends (its source's date: "as of 2008-05-21", "12 months
//            to 2024-02-29", the date every market citation names) to the month of the build's data date (its
//            manifest's as_of), by warehouse/data-age.ts, the rule the valuation's data_age_note follows too
//   > 12     the sentence (and a comparison's value) says when the data ends and how long ago, and that it is no
//            current figure
//   > 36     confidence at most low (the figure says little about today's market); 13-36: at most medium
import { NO_SALE_SAID } from './investor-bits.ts';
import { minConf, type Fact } from './facts.ts';
import { ageCap, ageWords, monthsOld, STALE_MONTHS } from '../../warehouse/data-age.ts';
import { TODAY_UNREAD } from './period-read.ts';

/** The date (YYYY-MM-DD or YYYY-MM) a market fact's data ends, from its source citation: the latest date it names
 *  after "as of" or "months to", a range's end included ("as of 2014-06 to 2015-04, as of 2015-05-27" ends
 *  2015-05-27, not 2014-06: a county's zips each end at their own latest data); null for any other fact. */
export function dataEnd(f: Fact): string | null {
  if (f.source?.category !== 'market') return null;
  const dates = [...f.source.citation.matchAll(/(?:as of|months to|latest data,) (\d{4}-\d{2}(?:-\d{2})?)\b(?: to (\d{4}-\d{2}(?:-\d{2})?)\b)?/g)]
    .flatMap((m) => [m[1]!, ...(m[2] ? [m[2]] : [])]).sort();
  return dates.at(-1) ?? null;
}

/** The records a rehab fact rests on: a zip's (or all a city's zips') permits alone, rehab resales alone, or both. */
function rehabRecords(f: Fact): string {
  if (f.zip?.permitsOnly || /\(from building permits alone/.test(f.sentence)) return 'permits';
  if (f.zip?.resalesOnly || /\(from rehab resales alone/.test(f.sentence)) return 'sales';
  return 'permits and sales';
}

/** Says the age of every market fact whose data ends more than STALE_MONTHS before `now`, and caps its confidence;
 *  and, in `gaps`, where the figures' data ends beside a time counted from today that was not read. */
export function markAge(facts: Fact[], today: string, gaps: string[] = []): void {
  sayDataEnd(gaps, facts, today);
  for (const f of facts) {
    const end = dataEnd(f);
    if (!end) continue;
    const months = monthsOld(end, today);
    if (months === null || months <= STALE_MONTHS) continue;
    const month = end.slice(0, 7);
    // a distressed count's source holds filings (a zip's said as its city's: "... (Louisville, KY as a whole)", review
    // 22), a permit count's permits, not sales
    const what = f.source!.type === 'rehab' ? rehabRecords(f) : f.source!.type === 'permits' ? 'permits' : /\bdistressed properties\b/.test(f.value ?? '') || f.sentence.includes(NO_SALE_SAID) ? 'filings' : 'sales';
    if (f.sentence) f.sentence = `${f.sentence.replace(/\.$/, '')}; the latest ${what} in this source are from ${month}, ${ageWords(months)} before ${today.slice(0, 10)}, so this is not a current figure`;
    if (f.value) f.value = `${f.value} [data ends ${month}, ${ageWords(months)} old]`;
    f.confidence = minConf(f.confidence, ageCap(months));
  }
}

/** A time counted from today not read ("year to date"): where the data of the figures given ends, said plainly, not
 *  "the sources end years before today" (session 26: Chicago's permits end 2026-07-15, 4 months before the build's
 *  2026-11-30); nothing added when no figure names its end. */
export function sayDataEnd(gaps: string[], facts: readonly Fact[], today: string): void {
  const ends = [...new Set(facts.filter((f) => f.primary).map(dataEnd).filter((d): d is string => d !== null))].sort();
  if (!ends.length) return;
  const age = (d: string): string => { const m = monthsOld(d, today); return m === null ? '' : m <= 0 ? `, in the month of ${today.slice(0, 10)}` : `, ${ageWords(m)} before ${today.slice(0, 10)}`; };
  const said = ends.length === 1 ? `the data of the figures here ends ${ends[0]}${age(ends[0]!)}`
    : `the data of the figures here ends between ${ends[0]} and ${ends.at(-1)}${age(ends.at(-1)!)}`;
  for (let i = 0; i < gaps.length; i++) gaps[i] = gaps[i]!.replace(`(${TODAY_UNREAD})`, `(${TODAY_UNREAD}: ${said})`);
}
