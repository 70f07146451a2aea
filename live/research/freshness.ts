// How old a market figure's data is (POST /v1/research/query): the one rule every figure-bearing market answer (sale
// prices and trends, comparable sales, sales counts, rehab momentum, investor activity) goes through after retrieval,
// whatever its topic. The sources end years ago in places (Sacramento's sales end in 2008), so a figure is never
// offered as today's without saying so. Rules: warehouse/docs/research.md "Old data".
//
//   age      the whole months from the month the figure's data ends (its source's date: "as of 2008-05-21", "12 months
//            to 2024-02-29", the date every market citation names) to the month of the answer's clock
//   > 12     the sentence (and a comparison's value) says when the data ends and how long ago, and that it is no
//            current figure
//   > 36     confidence at most low (the figure says little about today's market); 13-36: at most medium
import { minConf, type Confidence, type Fact } from './facts.ts';

/** Older than this many months, a figure's age is said. */
export const STALE_MONTHS = 12;
/** Older than this many months, a figure's confidence is at most low (else, once stale, at most medium). */
export const VERY_STALE_MONTHS = 36;

/** The date (YYYY-MM-DD or YYYY-MM) a market fact's data ends, from its source citation; null for any other fact. */
export function dataEnd(f: Fact): string | null {
  if (f.source?.category !== 'market') return null;
  return /(?:as of|months to) (\d{4}-\d{2}(?:-\d{2})?)\b/.exec(f.source.citation)?.[1] ?? null;
}

/** Whole calendar months from the month of `end` (YYYY-MM[-DD]) to the month of `now`. */
export function monthsBetween(end: string, now: Date): number {
  const [y, m] = end.split('-').map(Number) as [number, number];
  return (now.getUTCFullYear() - y) * 12 + (now.getUTCMonth() + 1 - m);
}

/** "over 18 years" (24 months or more: the whole years, "over" when months are left), else "14 months". */
export function ageWords(months: number): string {
  return months >= 24 ? `${months % 12 ? 'over ' : ''}${Math.floor(months / 12)} years` : `${months} months`;
}

/** The cap an age puts on confidence: none up to STALE_MONTHS, medium up to VERY_STALE_MONTHS, else low. */
export function ageCap(months: number): Confidence {
  return months > VERY_STALE_MONTHS ? 'low' : months > STALE_MONTHS ? 'medium' : 'high';
}

/** Says the age of every market fact whose data ends more than STALE_MONTHS before `now`, and caps its confidence. */
export function markAge(facts: Fact[], now: Date): void {
  for (const f of facts) {
    const end = dataEnd(f);
    if (!end) continue;
    const months = monthsBetween(end, now);
    if (months <= STALE_MONTHS) continue;
    const month = end.slice(0, 7);
    const what = f.source!.type === 'rehab' ? 'permits and sales' : 'sales';
    if (f.sentence) f.sentence = `${f.sentence.replace(/\.$/, '')}; the latest ${what} in this source are from ${month}, ${ageWords(months)} before ${now.toISOString().slice(0, 10)}, so this is not a current figure`;
    if (f.value) f.value = `${f.value} [data ends ${month}, ${ageWords(months)} old]`;
    f.confidence = minConf(f.confidence, ageCap(months));
  }
}
