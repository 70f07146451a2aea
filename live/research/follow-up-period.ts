// A follow-up naming a period relative to the earlier answer's (`context.period`), with the context's place: a month
// with no year ("and in may?", "how about March?" after April 2015) is that month of the context period's year, "a year
// later" the context's period a year on, "and last year?" a year back (review 19: "I don't have data"), "compare to the prior 6 months" the 6 months before it against it. The
// question's period words are written out ("and in May 2015?", "compare to from April 2014 to September 2014") so
// years.ts and context-period.ts read them as any period named; each reading said. Before, "may" reached the full-text
// search of regulation records (the Garn-St Germain due-on-sale record), "March" and "a year later" the latest month or
// "I don't have data", and "the prior 6 months" the 6 months to the data's end. Pure; rules: warehouse/docs/research.md
// "Years".
import type { Context } from './context-place.ts';
import type { Target } from './place-words.ts';
import { parseYears, type Years } from './years.ts';
import { YEAR_AGO } from './year-ago.ts';
import { writeWindows } from './period-windows.ts';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** A month word standing as a period: after "in", "about", "and", "for"..., not a verb ("may be") nor before a day. */
const LONE_MONTH = new RegExp(`\\b((?:in|about|and|for|of|during|with|to|vs\\.?|versus|than|or)\\s+(?:in\\s+)?(?:the\\s+month\\s+of\\s+)?)${MONTH_WORD}\\b\\.?(?!\\s*\\d)(?!\\s+(?:be|have|has|had|not|see|go|rise|fall|i|we|you)\\b)`, 'i');
const LATER = /\b(?:a|one|1) (?:year|yr) (?:later|after|on)\b|\bthe (?:year|yr) after\b|\bthe following year\b|\bnext year\b/i;
/** A year back named alone, no comparison word before it ("and last year?", "what about the year before"): the
 *  context's period a year back; "vs last year", "a year ago" compare (year-ago.ts YEAR_AGO, context-period.ts). */
const EARLIER = /\b(?:last|the previous|the prior|the preceding) (?:year|yr)\b|\bthe (?:year|yr) before\b/i;
const PRIOR = /\b(?:the\s+)?(?:prior|previous|preceding|last|past)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+months?\b|\bthe\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+months?\s+(?:before|prior|earlier)\b/i;
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

const cap = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
const monthText = (n: number): string => `${cap(MONTHS[n % 12]!)} ${Math.floor(n / 12)}`;
const toN = (ym: string): number => Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7)) - 1;
/** The first and last month of a period read (a year: January to December; "since" has no last). */
function bounds(y: Years): [number, number] | null {
  if (y.month) return [toN(y.month), toN(y.month)];
  if (y.months) return [toN(y.months[0]), toN(y.months[1])];
  if (y.to === null || y.last || y.lastMonth || y.also) return null;
  return [y.from * 12, y.to * 12 + 11];
}
/** A run of months as words years.ts reads back: one month, or "from March 2014 to May 2014". */
const runText = (a: number, b: number): string => (a === b ? monthText(a) : `from ${monthText(a)} to ${monthText(b)}`);

/** The question with a period relative to the context's written out (see the head), readings said in `readAs`; the
 *  question unchanged when it is no follow-up of the context's place, names a year of its own, or the context carries
 *  no period read. Windows ending with a named month, "late 2014", "the last half year" are written out first
 *  (period-windows.ts). */
export function followUpPeriod(asked: string, context: Context, targets: readonly Target[], readAs: string[]): string {
  const q = writeWindows(asked, readAs);
  const raw = context.period?.trim();
  if (!raw || !targets.length || !targets.every((t) => t.from === 'context')) return q;
  if (/\b(?:19|20)\d{2}\b|\bq[1-4]\b/i.test(q)) return q;
  const own = parseYears(raw);
  const b = own ? bounds(own) : null;
  if (!own || !b) return q;
  const lone = LONE_MONTH.exec(q);
  if (lone) {
    const mi = MONTHS.findIndex((n) => n.startsWith(lone[2]!.toLowerCase().slice(0, 3)));
    const year = Math.floor(b[1] / 12);
    readAs.push(`"${lone[2]}" as ${monthText(year * 12 + mi)} (the year of the context's period, ${own.label})`);
    // "and december" -> "and in December 2018": a month after "and" or "to" is read as a range's end, not one month
    const joined = /\b(?:and|to|or|vs\.?|versus|than|with)\s+$/i.test(lone[1]!) ? 'in ' : '';
    return q.slice(0, lone.index) + lone[1] + joined + monthText(year * 12 + mi) + q.slice(lone.index + lone[0].length);
  }
  const later = LATER.exec(q);
  if (later) {
    const text = runText(b[0] + 12, b[1] + 12);
    readAs.push(`"${later[0]}" as ${text.replace(/^from /, '')} (a year after the context's period, ${own.label})`);
    return q.replace(later[0], text);
  }
  const earlier = YEAR_AGO.test(q.toLowerCase()) ? null : EARLIER.exec(q);
  if (earlier) {
    // a whole year back is that year ("2022"), any other period its months a year back
    const text = b[0] % 12 === 0 && b[1] === b[0] + 11 ? String(b[0] / 12 - 1) : runText(b[0] - 12, b[1] - 12);
    readAs.push(`"${earlier[0]}" as ${text.replace(/^from /, '')} (a year before the context's period, ${own.label})`);
    return q.replace(earlier[0], text);
  }
  const prior = PRIOR.exec(q);
  if (prior) {
    const w = (prior[1] ?? prior[2])!.toLowerCase(), n = NUMBERS[w] ?? Number(w);
    if (n < 1 || n > 24) return q;
    const text = runText(b[0] - n, b[0] - 1);
    readAs.push(`"${prior[0]}" as ${text.replace(/^from /, '')}, the ${n === 1 ? 'month' : `${n} months`} before the context's period, ${own.label}`);
    return q.replace(prior[0], text);
  }
  return q;
}
