// Period phrases written out as the periods years.ts reads (pure, no imports): a window ending with a named month ("the
// six months ending September 2024", "the 6 months to June 2016", "12 months ending March 2015", "the year before June
// 2016": those months, the named one included), "late 2014" / "early 2015" / "mid 2014" (October to December, January to
// March, May to August) and
// a half year counted back ("over the last half year", "past half-year": the last 6 months). Each reading said. Before
// (session 27 review), the window's last month alone was counted ("0 permits in September 2024"), a half year read as
// 12 months and "from late 2014 to spring 2015" as spring 2015 alone. Rules: warehouse/docs/research.md "Years".

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, eighteen: 18, 'twenty-four': 24 };
const COUNT = `(\\d{1,2}|${Object.keys(NUMBERS).join('|')})`;
/** A window's length then the word naming its last month: "six months ending", "the year before", "half a year to". */
const ENDING = new RegExp(`\\b(?:the\\s+)?(?:(?:last|past|previous)\\s+)?(?:${COUNT}[- ]months?|(?:a\\s+|one\\s+|full\\s+)?(year|twelve[- ]month period)|(half[- ]?year|half\\s+a\\s+year))\\s+(?:ending|ended|that\\s+ended|to|through|thru|up\\s+to|until|till|before)\\s+(?:in\\s+|with\\s+)?${MONTH_WORD}\\.?,?\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b`, 'i');
/** Part of a year: late (October to December), early (January to March), mid or the middle of (May to August: the
 *  four months around the year's middle, review 27 "mid 2014", "mid-2014", "middle of 2015"). */
const PART = /\b(late|early|mid|(?:the\s+)?middle)(?:[- ]|\s+)(?:in\s+|of\s+)?((?:19|20)\d{2})\b/i;
const PART_MONTHS: Record<string, [number, number, string]> = { late: [10, 12, 'October to December'], early: [1, 3, 'January to March'], mid: [5, 8, 'May to August'] };
/** A half year counted back from the data's end. */
const HALF = /\b(last|past|previous)\s+(?:half[- ]?year|half\s+a\s+year)\b|\bhalf\s+a\s+year\b(?!\s+(?:ago|back|earlier))/i;

const cap = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
const monthText = (n: number): string => `${cap(MONTHS[n % 12]!)} ${Math.floor(n / 12)}`;
const iso = (y: number, m: number): string => `${y}-${String(m).padStart(2, '0')}`;

/** The question with those phrases written out (see the head), each reading said in `readAs`. */
export function writeWindows(q: string, readAs: string[]): string {
  let out = q;
  for (let m = ENDING.exec(out); m; m = ENDING.exec(out)) {
    const n = m[1] ? NUMBERS[m[1].toLowerCase()] ?? Number(m[1]) : m[2] ? 12 : 6;
    const end = Number(m[5]) * 12 + MONTHS.findIndex((w) => w.startsWith(m![4]!.toLowerCase().slice(0, 3)));
    if (n < 1 || n > 24) break;
    const text = n === 1 ? monthText(end) : `from ${monthText(end - n + 1)} to ${monthText(end)}`;
    readAs.push(`"${m[0].trim()}" as ${text.replace(/^from /, '')} (the ${n === 1 ? 'month' : `${n} months`} ending with ${monthText(end)}, that month included)`);
    out = out.slice(0, m.index) + text + out.slice(m.index + m[0].length);
  }
  for (let m = PART.exec(out); m; m = PART.exec(out)) {
    const [a, b, words] = PART_MONTHS[m[1]!.toLowerCase().replace(/^(the\s+)?middle$/, 'mid')]!, y = Number(m[2]);
    readAs.push(`"${m[0]}" as ${words} ${y}`);
    // ISO months joined by "..": one span years.ts reads, never split at a comparison's "to" (periods.ts morePeriods)
    out = out.slice(0, m.index) + `${iso(y, a)}..${iso(y, b)}` + out.slice(m.index + m[0].length);
  }
  const half = HALF.exec(out);
  if (half) {
    readAs.push(`"${half[0]}" as the last 6 months`);
    out = out.slice(0, half.index) + `${half[1] ?? 'last'} 6 months` + out.slice(half.index + half[0].length);
  }
  return out;
}
