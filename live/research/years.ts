// The time a research question asks about (pure, no imports): calendar years or one named month (answered by
// year-facts.ts, month-facts.ts) and the window of months asked (parseMonths), read by intent.ts into the Understanding.
// Rules: warehouse/docs/research.md "Years" and "Modifiers".
import { parseQuarter } from './quarters.ts';
import { morePeriods, parsePeriod, type Season } from './periods.ts';
import { shareYear } from './period-pairs.ts';

/** `month` (YYYY-MM): one calendar month named with its year ("in March 2015", "2022-03"), answered for that month;
 *  `months` (YYYY-MM, first and last): a span of named months ("from March to June 2022") or a quarter ("Q4 2023":
 *  2023-10, 2023-12, quarters.ts), answered for those months; `since` (YYYY-MM): the first month of "since October
 *  2014" (`to` null), its months to the data's end; `lastMonth` (1-12): a month named with no year ("in may"), the latest
 *  of it in the place's data (periods.ts resolveLast); `said`: how a date was read ("february 30 2015": its month). */
export interface Years { from: number; to: number | null; label: string; month?: string; months?: [string, string]; also?: Years[]; last?: Season; since?: string; lastMonth?: number; said?: string }

/** Words asking for every month of a period ("each month", "per month", "month by month", "monthly sales"):
 *  month-by-month.ts lists them; a place's sales so asked with no period are those of its latest 12 months. */
export const EACH_MONTH = /\b(each|every|per|a) month\b|\bmonth[- ](by|over|to)[- ]month\b|\bby (the )?month\b|\bmonthly (medians?|prices?|changes?|figures?|breakdown|sales|counts?|volumes?|numbers?|totals?)\b/i;

/** The 12 months to `last` (YYYY-MM) as a period asked ("the 12 months to 2015-05"). */
export function twelveMonthsTo(last: string): Years {
  const k = Number(last.slice(0, 4)) * 12 + Number(last.slice(5, 7)) - 12;
  const start = `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
  return { from: Number(start.slice(0, 4)), to: Number(last.slice(0, 4)), months: [start, last], label: `the 12 months to ${last}` };
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** A month's name or abbreviation alone ("jan", "Sept.", "december"): never a place's name (compare-sides.ts, unfound.ts). */
export const isMonthWord = (w: string): boolean => new RegExp(`^${MONTH_WORD}\\.?$`, 'i').test(w);

/** A year then a month name ("2014 may", "2014, May"), not a year of a span, a month before a day ("2014 May 5") nor
 *  the verb ("2015 may have"). */
const YEAR_MONTH = new RegExp(`(?<![\\d$#,.\\/-])\\b((?:19|20)\\d{2}),?\\s+${MONTH_WORD}\\b\\.?(?!\\s*\\d)(?!\\s+(?:be|have|has|had|not|see|go|rise|fall)\\b)`, 'i');
/** A month name standing next to a year ("May 2014", "may of 2014", "2014 May"): a month, never a place (places.ts). */
export function monthByYear(q: string, start: number, end: number): boolean {
  if (!new RegExp(`^${MONTH_WORD}$`, 'i').test(q.slice(start, end))) return false;
  return /^\.?,?\s+(?:of\s+)?(?:19|20)\d{2}\b/.test(q.slice(end)) || /\b(?:19|20)\d{2},?\s+$/.test(q.slice(0, start));
}

/** One month named with its year: "March 2015", "mar. 2015", "march of 2015", "2015-03" (not inside a date). */
export function parseMonth(q: string): Years | null {
  // "since March 2020", "from March to June 2022": a range, read as years (below), not one month
  const named = new RegExp(`(?<!\\b(?:since|from|after|between|through|until|to|and)\\s+)\\b${MONTH_WORD}\\.?,?\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b`, 'i').exec(q);
  const iso = /(?<!\b(?:since|from|after|between|through|until|to|and)\s+)(?<![\d-])((?:19|20)\d{2})-(0[1-9]|1[0-2])(?![\d-])/.exec(q);
  // the year first ("2014 may median seattle", "2014, May"): the month too, never May, TX (YEAR_MONTH)
  const after = named || iso ? null : YEAR_MONTH.exec(q);
  if (!named && !iso && !after) return null;
  const year = Number(named ? named[2] : after ? after[1] : iso![1]);
  const word = named ? named[1]! : after ? after[2]! : null;
  const mi = word ? MONTH_NAMES.findIndex((n) => n.startsWith(word.toLowerCase().slice(0, 3))) : Number(iso![2]) - 1;
  const name = MONTH_NAMES[mi]!;
  return { from: year, to: year, label: `${name.charAt(0).toUpperCase()}${name.slice(1)} ${year}`, month: `${year}-${String(mi + 1).padStart(2, '0')}` };
}

const monthIndex = (w: string): number => MONTH_NAMES.findIndex((n) => n.startsWith(w.toLowerCase().slice(0, 3)));
const ym = (y: number, mi: number): string => `${y}-${String(mi + 1).padStart(2, '0')}`;
const cap = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** A span of named months with its year: "from March to June 2022", "March-June 2022", "between March and June 2022",
 *  "from November 2021 to February 2022" (a first month after the last with one year: the year before). Before, the
 *  year alone was read ("from March to June 2022" as all of 2022) or the last month alone ("March-June 2022" as June). */
export function parseMonthSpan(q: string): Years | null {
  const iso = isoSpan(q);
  if (iso) return iso;
  const y = '((?:19|20)\\d{2})';
  const m = new RegExp(`\\b(?:(from|between)\\s+)?${MONTH_WORD}\\.?(?:,?\\s+(?:of\\s+)?${y})?\\s*(-to-|-|\u2013|\u2014|to|through|thru|until|till|and)\\s*${MONTH_WORD}\\.?,?\\s+(?:of\\s+)?${y}\\b`, 'i').exec(q);
  // "March and June 2022" is two months, not a span: "and" only after "between"
  if (!m || (m[4]!.toLowerCase() === 'and' && m[1]?.toLowerCase() !== 'between')) return null;
  const a = monthIndex(m[2]!), b = monthIndex(m[5]!), yb = Number(m[6]);
  const ya = m[3] ? Number(m[3]) : a > b ? yb - 1 : yb;
  if (ya * 12 + a >= yb * 12 + b) return null;
  const label = ya === yb ? `${cap(MONTH_NAMES[a]!)} to ${cap(MONTH_NAMES[b]!)} ${yb}` : `${cap(MONTH_NAMES[a]!)} ${ya} to ${cap(MONTH_NAMES[b]!)} ${yb}`;
  return { from: ya, to: yb, label, months: [ym(ya, a), ym(yb, b)] };
}

/** One end of a span written with its year: "2014-07" (not inside a date) or "October 2014", "oct. of 2014". */
const END = `(?:(?:19|20)\\d{2}-(?:0[1-9]|1[0-2])(?![\\d]|-\\d)|${MONTH_WORD.replace('(', '(?:')}\\.?,?\\s+(?:of\\s+)?(?:19|20)\\d{2}\\b)`;
/** An end of a span as its month (YYYY-MM). */
function endMonth(s: string): [number, number] {
  const iso = /((?:19|20)\d{2})-(\d{2})/.exec(s);
  if (iso) return [Number(iso[1]), Number(iso[2]) - 1];
  return [Number(/(?:19|20)\d{2}/.exec(s)![0]), monthIndex(/^[a-z]+/i.exec(s)![0])];
}

/** A span of months with an ISO month at one end or both: "between 2014-07 and 2014-09", "2014-10 to 2015-03", "from
 *  2014-10 through March 2015". Before, the first was read as one month or the whole year (the second ISO month, after
 *  "and" or "to", was skipped). */
function isoSpan(q: string): Years | null {
  const m = new RegExp(`(?<![\\d-])(?:\\b(from|between)\\s+)?(${END})\\s*(-to-|-|\u2013|\u2014|\\.\\.|\\bto\\b|\\bthrough\\b|\\bthru\\b|\\buntil\\b|\\btill\\b|\\band\\b)\\s*(${END})`, 'i').exec(q);
  if (!m || !/\d-\d/.test(`${m[2]} ${m[4]}`)) return null;
  if (m[3]!.toLowerCase() === 'and' && m[1]?.toLowerCase() !== 'between') return null;
  const [ya, a] = endMonth(m[2]!), [yb, b] = endMonth(m[4]!);
  if (ya * 12 + a >= yb * 12 + b) return null;
  const label = ya === yb ? `${cap(MONTH_NAMES[a]!)} to ${cap(MONTH_NAMES[b]!)} ${yb}` : `${cap(MONTH_NAMES[a]!)} ${ya} to ${cap(MONTH_NAMES[b]!)} ${yb}`;
  return { from: ya, to: yb, label, months: [ym(ya, a), ym(yb, b)] };
}

/** "in 2022", "during 2021", "for 2014", "since 2020", "from 2019 to 2021", "between 2019 and 2021", "2019-2021", and a
 *  bare year ("nyc condo prices 2023"). */
export function parseYears(asked: string): Years | null {
  // periods compared with their year written once ("march and june 2022", "Q1 vs Q2 2022"): each with it (period-pairs.ts)
  const q = shareYear(fullYears(asked));
  const y = parseYear(q);
  // months, quarters, seasons compared ("April 2015 vs April 2014", "Q1 2022 vs Q1 2023"): each answered (`also`)
  if (y && (y.months || y.month) && !y.last && !y.lastMonth) { const more = morePeriods(q, y, parseYear); return more.length ? { ...y, also: more } : y; }
  if (!y || y.months || y.month || y.to !== y.from) return y;
  // years compared ("2021 and 2023", "2021 vs 2023", "2019, 2021 and 2023"): each answered (`also`), never the first alone
  const list = new RegExp(`\\b${y.from}((?:\\s*(?:,|&|\\band\\b|\\bvs\\.?|\\bversus\\b|\\bor\\b|\\bcompared (?:to|with)\\b)\\s*(?:(?:in|and)\\s+)?(?:19|20)\\d{2}\\b(?![\\d,.]\\d|\\s*(?:${UNIT_AFTER})\\b))+)`, 'i').exec(q);
  const more = list ? [...new Set(list[1]!.match(/(?:19|20)\d{2}/g)!.map(Number))].filter((n) => n !== y.from) : [];
  return more.length ? { ...y, also: more.map((n) => ({ from: n, to: n, label: String(n) })) } : y;
}

/** A year written with two digits after an apostrophe ("in '23", "Q1 ’22"): the year in full, 2000-2039 or 1940-1999
 *  (review 23: "permits 37206 in '23" was read with no year, the latest window given). Not a decade ("the '90s"). */
export const fullYears = (q: string): string => q.replace(/(^|[\s(])['’](\d{2})\b(?![’'s\d])/g, (_, pre: string, yy: string) => `${pre}${Number(yy) < 40 ? 20 : 19}${yy}`);

function parseYear(q: string): Years | null {
  // "the current price, now in 2026": today's figure (its data's age is said), not a past year's
  if (/\b(current(ly)?|right now|now|today)\b/i.test(q)) return null;
  const months = parseMonthSpan(q);
  if (months) return months;
  // a season or a half year ("summer 2014", "H1 2019", "last spring": periods.ts)
  const period = parsePeriod(q);
  if (period) return period;
  // a quarter ("Q4 2023", "fourth quarter of 2023"): its three months (quarters.ts)
  const quarter = parseQuarter(q);
  if (quarter) return quarter;
  const dated = parseDated(q);
  if (dated) return dated;
  const month = parseMonth(q);
  if (month) return month;
  const y = '((?:19|20)\\d{2})';
  const span = new RegExp(`\\b(?:from|between)\\s+${y}\\s*(?:to|and|through|until|-)\\s*${y}\\b|\\b${y}\\s*(?:-|to)\\s*${y}\\b`, 'i').exec(q);
  if (span) {
    const a = Number(span[1] ?? span[3]), b = Number(span[2] ?? span[4]);
    return { from: Math.min(a, b), to: Math.max(a, b), label: `${Math.min(a, b)} to ${Math.max(a, b)}` };
  }
  // "since October 2014", "since 2014-10": from that month ("after": the month after it); before, the month was dropped
  // and all of 2014 counted
  const sinceMonth = new RegExp(`\\b(since|after|from)\\s+(?:${MONTH_WORD}\\.?,?\\s+(?:of\\s+)?${y}\\b|${y}-(0[1-9]|1[0-2])(?![\\d]|-\\d))`, 'i').exec(q);
  if (sinceMonth) {
    const after = sinceMonth[1]!.toLowerCase() === 'after' ? 1 : 0;
    const n = sinceMonth[2] ? Number(sinceMonth[3]) * 12 + monthIndex(sinceMonth[2]) + after : Number(sinceMonth[4]) * 12 + Number(sinceMonth[5]) - 1 + after;
    const yr = Math.floor(n / 12), mi = n % 12;
    return { from: yr, to: null, label: `since ${cap(MONTH_NAMES[mi]!)} ${yr}`, since: ym(yr, mi) };
  }
  const since = new RegExp(`\\b(?:since|after|from)\\s+${y}\\b`, 'i').exec(q);
  if (since) return { from: Number(since[1]), to: null, label: `since ${since[1]}` };
  const one = new RegExp(`\\b(?:in|during|for|of|back in|year)\\s+${y}\\b(?!\\s*(?:sq|square|feet|ft|units?|homes|sales|\\$))`, 'i').exec(q);
  if (one) return { from: Number(one[1]), to: Number(one[1]), label: one[1]! };
  // a bare year ("median home price denver co 2018", "Denver 2018 median price"): four digits standing alone in
  // 1950-2049, not a price, a count or a figure with a unit, not a house number (a street word after it), not inside a
  // longer number, a zip or a date
  const bare = new RegExp(`(?<![\\d$#,.\\/-])\\b((?:19[5-9]|20[0-4])\\d)\\b(?![\\d,.]\\d|\\s*(?:${UNIT_AFTER})\\b|\\s+(?:[nsew]\\.?\\s+)?(?:[a-z]+\\s+)?(?:${STREET})\\b|-\\d{2}-)`, 'i').exec(q);
  if (bare) return { from: Number(bare[1]), to: Number(bare[1]), label: bare[1]! };
  // a month with no year ("what did homes sell for in may in seattle"): the latest of it in the place's data, resolved
  // per market and said (periods.ts resolveLast); full names only ("in Mar Vista" is a place)
  const lone = new RegExp(`\\b(?:in|during|for)\\s+(?:the\\s+month\\s+of\\s+)?(${MONTH_NAMES.join('|')})\\b(?!\\s*\\d)(?!\\s+(?:be|have|has|had|not|see|go|rise|fall)\\b)`, 'i').exec(q);
  if (lone) { const mi = monthIndex(lone[1]!); return { from: 0, to: 0, label: cap(MONTH_NAMES[mi]!), months: ['0000-00', '0000-00'], lastMonth: mi + 1 }; }
  // "since January" with no year: from the latest January of the place's data to its end (periods.ts resolveLast)
  const sinceLone = new RegExp(`\\bsince\\s+(${MONTH_NAMES.join('|')})\\b(?!\\s*,?\\s*(?:of\\s+)?\\d)`, 'i').exec(q);
  if (sinceLone) { const mi = monthIndex(sinceLone[1]!); return { from: 0, to: 0, label: `since ${cap(MONTH_NAMES[mi]!)}`, months: ['0000-00', '0000-00'], lastMonth: mi + 1 }; }
  return null;
}

/** A date with its day ("on february 30 2015", "March 5, 2015", "2015-02-30"): its month, as sales are kept by month,
 *  said; a day the month does not have is said so. Before, the year whole was answered ("february 30 2015": 2015). */
function parseDated(q: string): Years | null {
  const w = new RegExp(`\\b${MONTH_WORD}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+((?:19|20)\\d{2})\\b`, 'i').exec(q);
  const iso = w ? null : /(?<![\d-])((?:19|20)\d{2})-(0[1-9]|1[0-2])-(\d{2})(?![\d-])/.exec(q);
  if (!w && !iso) return null;
  const year = Number(w ? w[3] : iso![1]), mi = w ? monthIndex(w[1]!) : Number(iso![2]) - 1, day = Number(w ? w[2] : iso![3]);
  const days = new Date(Date.UTC(year, mi + 1, 0)).getUTCDate();
  const label = `${cap(MONTH_NAMES[mi]!)} ${year}`;
  const why = day < 1 || day > days ? `${label} has no day ${day} (it has ${days} days), so the date is no date; sales are counted by month` : 'sales are counted by month, not by day';
  return { from: year, to: year, label, month: ym(year, mi), said: `"${(w ?? iso)![0]}" as ${label}: ${why}` };
}

/** Words after a number that make it a quantity, not a year. */
const UNIT_AFTER = "sq|square|feet|foot|ft|sf|units?|homes?|houses?|properties|sales|beds?|bedrooms?|br|bd|baths?|dollars|usd|k\\b|%|percent|people|residents|days?|months?|acres?";
/** Street words after a number (with one name word between): a house number, not a year. */
const STREET = "st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|pkwy|parkway|hwy|highway|ter|terrace|cir|circle|trl|trail|sq";

/** The windows of months kept: a count or a median over one window, price per sqft, rehab and investor figures. */
export const WINDOW_MIN = 3, WINDOW_MAX = 24;
/** The months of the monthly price series (the trends shards, GET /v1/market/trends): a price index change reaches this far. */
export const SERIES_MONTHS = 60;
/** What the kept windows are, said when a window asked is not one of them. */
export const WINDOWS_KEPT = `sale counts, medians over a window, price per sqft, rehab and investor figures are kept for windows of ${WINDOW_MIN} to ${WINDOW_MAX} months, the monthly price series (its index change) for ${SERIES_MONTHS}`;

/** The months asked: `months` a window kept (3..24); `span` a longer one the monthly series reaches (25..60: the price
 *  index change is given over it); `text` the words asked. A window outside both is said in `readAs`. */
export interface Window { months: number | null; span: number | null; text: string | null }

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

export function parseMonths(q: string, readAs: string[] = []): Window {
  const sized = (n: number, text: string): Window => {
    if (n >= WINDOW_MIN && n <= WINDOW_MAX) return { months: n, span: null, text };
    if (n > WINDOW_MAX && n <= SERIES_MONTHS) return { months: null, span: n, text };
    readAs.push(`"${text.trim()}" without its window: ${WINDOWS_KEPT}, and each figure below names its own`);
    return { months: null, span: null, text };
  };
  const m = /\b(\d{1,3})[- ]?(?:months?|mos?\.?)\b/i.exec(q);
  if (m) {
    const n = Number(m[1]);
    // "the last -6 months": no window is negative; read as 6 months, and said (it was answered as 6 silently)
    const minus = /[-\u2212\u2013]\s*$/.exec(q.slice(0, m.index));
    if (minus && n >= WINDOW_MIN && n <= WINDOW_MAX) readAs.push(`"${minus[0].trim()}${m[0]}" as the last ${n} months (a window cannot be negative)`);
    return sized(n, m[0]);
  }
  // "in the last 90 days", "past 180 days": the windows are kept in whole months, so the nearest (said); under 3 months
  // none (review r24: "37216 rehab permits in the last 90 days" was answered over the default 6 months, unsaid)
  const days = /\b(?:last|past|previous)\s+(\d{1,4})\s*days?\b/i.exec(q);
  if (days) {
    const n = Math.round(Number(days[1]) / (365.25 / 12));
    if (n >= WINDOW_MIN && n <= WINDOW_MAX) readAs.push(`"${days[0]}" as the last ${n} months (windows are kept in whole months)`);
    return sized(n, days[0]);
  }
  // "last year", "last yr": the 12 months to each place's latest sale (its sources end years before today), said
  if (/\b(last|past) (yr|year)\b/i.test(q) && /\b(sales?|sold|prices?|median|homes?|houses?|condos?|market|values?|avg|average|comps?|investors?|flips?)\b/i.test(q) && !/\b(than|vs\.?|versus|compared? (to|with)|from|since|over|against) (the )?(last|past) (yr|year)\b/i.test(q)) readAs.push(`"${/\b(last|past) (yr|year)\b/i.exec(q)![0]}" as the 12 months to the latest sale of each place's data, not the calendar year before today (the sources end years before it)`);
  // permits likewise: the 12 months to where the place's permit records end, said (review 31: unsaid before), never a
  // calendar year, which its own year asks ("permits in Chicago in 2025", permit-periods.ts)
  else if (/\b(last|past) (yr|year)\b/i.test(q) && /\bpermits?\b/i.test(q) && !/\b(than|vs\.?|versus|compared? (to|with)|from|since|over|against) (the )?(last|past) (yr|year)\b/i.test(q)) readAs.push(`"${/\b(last|past) (yr|year)\b/i.exec(q)![0]}" as the 12 months to where each place's permit records end, not a calendar year (name the year for a calendar year's permits)`);
  // "last quarter" likewise (h67ask): the 3 months to where the place's data ends, said, never a calendar quarter
  const lastQuarter = /\b(last|past|previous) quarter\b/i.exec(q);
  if (lastQuarter && /\b(permits?|sales?|sold|prices?|median|homes?|houses?|condos?)\b/i.test(q)) readAs.push(`"${lastQuarter[0]}" as the 3 months to where each place's ${/\bpermits?\b/i.test(q) ? 'permit records end' : 'sales end'}, not a calendar quarter (name the quarter, "Q2 2015", for a calendar quarter's figures)`);
  if (/\b(last|past) (year|yr|twelve months)\b|\byear[- ]over[- ]year\b/i.test(q)) return { months: 12, span: null, text: null };
  if (/\b(last|past) (two years|24 months)\b/i.test(q)) return { months: 24, span: null, text: null };
  // "over the last 3 years", "in the past 2 years", "over 2 years", "within five years"
  const years = /\b(?:(?:last|past)|(?:over|within|across)(?: the)?(?: last| past)?) (\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten) years?\b/i.exec(q);
  if (years) return sized((WORD_NUMBERS[years[1]!.toLowerCase()] ?? Number(years[1])) * 12, years[0]);
  if (/\b(last|past) (quarter|three months)\b/i.test(q)) return { months: 3, span: null, text: null };
  return { months: null, span: null, text: null };
}
