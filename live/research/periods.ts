// Periods of months a research question names besides calendar years, months and quarters (pure, no imports): a
// season ("summer 2014", "spring of 2022"), a half year ("H1 2019", "the first half of 2019"), a season counted back
// from the end of the data ("last spring", "last summer"), and further periods of a comparison ("April 2015 vs April
// 2014", "Q1 2022 vs Q1 2023"). Seasons are meteorological: spring March-May, summer June-August, fall September-
// November, winter December-February, the winter of a year the one its January and February are in ("winter 2014" =
// 2013-12 to 2014-02). Read by years.ts into a Years reading; answered by year-facts.ts over those months. Rules:
// warehouse/docs/research.md "Years".

/** A period of months: `months` its first and last month (YYYY-MM); `last` a season counted back from the data's end,
 *  resolved per market by `resolveLast` (its from/to/months are then set). */
export interface Period { from: number; to: number; label: string; months: [string, string]; last?: Season }

export type Season = 'spring' | 'summer' | 'fall' | 'winter';
/** Each season's first month (1-12; winter's December is of the year before) and its months in words. */
const SEASONS: Record<Season, { start: number; words: string }> = {
  spring: { start: 3, words: 'March to May' }, summer: { start: 6, words: 'June to August' },
  fall: { start: 9, words: 'September to November' }, winter: { start: 12, words: 'December to February' },
};
const SEASON_WORD = '(spring|summer|fall|autumn|winter)';
const seasonOf = (w: string): Season => (w.toLowerCase() === 'autumn' ? 'fall' : w.toLowerCase() as Season);
const ym = (y: number, m: number): string => `${y}-${String(m).padStart(2, '0')}`;

/** The months of a season of a year: winter's December is of the year before ("winter 2014": 2013-12 to 2014-02). */
export function seasonPeriod(s: Season, year: number): Period {
  const start = SEASONS[s].start;
  const a = s === 'winter' ? ym(year - 1, 12) : ym(year, start), b = s === 'winter' ? ym(year, 2) : ym(year, start + 2);
  const words = s === 'winter' ? `December ${year - 1} to February ${year}` : `${SEASONS[s].words} ${year}`;
  return { from: s === 'winter' ? year - 1 : year, to: year, label: `${s} ${year} (${words})`, months: [a, b] };
}

/** A season or a half year named with its year, or a season counted back ("last spring"); null when none is named. */
export function parsePeriod(q: string): Period | null {
  const y = '((?:19|20)\\d{2})';
  // "fall in <year>" is the verb ("did Denver prices fall in 2019?": review r24 read it as September to November 2019):
  // the season "fall" takes its year bare or with "of" ("fall 2019", "fall of 2019"); the other seasons also with "in"
  const season = new RegExp(`\\b(?:(spring|summer|autumn|winter)\\s+(?:of\\s+|in\\s+)?|(fall)\\s+(?:of\\s+)?)'?${y}\\b|\\b${y}\\s+${SEASON_WORD}\\b`, 'i').exec(q);
  if (season) return seasonPeriod(seasonOf(season[1] ?? season[2] ?? season[5]!), Number(season[3] ?? season[4]));
  const half = new RegExp(`\\b(?:h([12])|([12])h)\\s*(?:of\\s+|,\\s*)?'?${y}\\b|\\b${y}\\s*[- ]?h([12])\\b|\\b(first|second|1st|2nd|last)\\s+half\\s+(?:of\\s+)?(?:the\\s+year\\s+)?${y}\\b`, 'i').exec(q);
  if (half) {
    const n = Number(half[1] ?? half[2] ?? half[5] ?? (/^(first|1st)$/i.test(half[6] ?? '') ? 1 : 2));
    const year = Number(half[3] ?? half[4] ?? half[7]);
    return { from: year, to: year, label: `the ${n === 1 ? 'first' : 'second'} half of ${year} (${n === 1 ? 'January to June' : 'July to December'})`, months: [ym(year, n === 1 ? 1 : 7), ym(year, n === 1 ? 6 : 12)] };
  }
  // "this fall" too (review 28): the sources end years before today, so this year's is read as the last one they cover
  const last = new RegExp(`\\b(?:(last|this past|the past|previous)|(this))\\s+${SEASON_WORD}\\b`, 'i').exec(q);
  if (last) {
    const s = seasonOf(last[3]!);
    return { from: 0, to: 0, label: `${last[2] ? 'this' : 'last'} ${s}`, months: ['0000-00', '0000-00'], last: s };
  }
  return null;
}

/** A season counted back ("last summer"): the latest of that season whose months end on or before the month the data
 *  of the place ends (`end`, YYYY-MM): the sources end years before today, so "last summer" of today would hold no
 *  sale. Said in the label: "last summer (summer 2023, June to August 2023: the last summer before the data ends in
 *  2024-02)". Another reading is returned unchanged. */
export function resolveLast<T extends { label: string; months?: [string, string]; last?: Season; lastMonth?: number; from: number; to: number | null }>(p: T, end: string, whole?: (month: string) => boolean): T {
  const ey = Number(end.slice(0, 4)), em = Number(end.slice(5, 7));
  // a month with no year ("in may"): its latest in the data, on or before the month the place's data ends; the one
  // before it when that one is recorded in part only and the one before is whole (`whole`, from the monthly series)
  if (p.lastMonth) {
    const latest = p.lastMonth <= em ? ey : ey - 1;
    const back = whole && !whole(ym(latest, p.lastMonth)) && whole(ym(latest - 1, p.lastMonth));
    const year = back ? latest - 1 : latest, m = ym(year, p.lastMonth);
    if (p.label.startsWith('since ')) { // "since January": from the latest January to the data's end, "since" kept
      const name = p.label.slice(6), first = ym(latest, p.lastMonth);
      return { ...p, from: latest, to: null, months: undefined, since: first, lastMonth: undefined, label: `since ${name} ${latest} ("${p.label.toLowerCase()}" with no year read as from the latest ${name} in the data of the place, which ends in ${end})` };
    }
    const why = back ? `the latest ${p.label} recorded whole in the data of the place: ${p.label} ${latest} is not recorded whole` : `the latest ${p.label} in the data of the place, which ends in ${end}`;
    return { ...p, from: year, to: year, months: [m, m], lastMonth: undefined, label: `${p.label} ${year} ("${p.label.toLowerCase()}" with no year read as ${why})` };
  }
  if (!p.last) return p;
  const endsBy = (year: number): boolean => { const b = seasonPeriod(p.last!, year).months[1]; return b <= ym(ey, em); };
  const year = endsBy(ey + 1) ? ey + 1 : endsBy(ey) ? ey : ey - 1;
  const s = seasonPeriod(p.last, year);
  const words = s.label.replace(/^\w+ \d{4} \((.*)\)$/, '$1');
  return { ...p, ...s, last: undefined, label: `${p.last} ${year} (${words}: "${p.label}" read as the last ${p.last} before the data of the place ends, in ${end})` };
}

/** The word before a period in a sentence: "in 2022", "in Q4 2023", "in summer 2014 (...)", "from March to June 2022",
 *  "since 2020". */
export function periodWhen(label: string): string {
  if (label.startsWith('since')) return label;
  return /^(\d{4}( \(|$)|Q[1-4] \d{4}|(spring|summer|fall|winter) \d{4}|the (first|second) half|(last|this) (spring|summer|fall|winter)|[A-Z][a-z]+ \d{4}( \(|$)|the \d+ months to )/.test(label) ? `in ${label}` : `from ${label}`;
}

/** "are" after a span of months or years ("March to June 2022 are outside the data"), else "is". */
export function periodVerb(label: string): string {
  return /^[A-Z][a-z]+ (\d{4} )?to /.test(label) ? 'are' : 'is';
}

/** Comparison words between two periods ("April 2015 vs April 2014", "Q1 2022 compared to Q1 2023"). */
const COMPARED = /\s*(?:\bvs\.?|\bversus\b|\bto\b|\bcompared?\s+(?:to|with)\b|\bcompar(?:ed|ing)\b|\bagainst\b|\band\b|\bor\b|&|,)\s*/i;

/** The further periods of a comparison: the question split at its comparison words, each part after the first period's
 *  read by `parse` (a month, a quarter, a season, a half year: the first's kind or another), those unlike the first in
 *  order. "Sacramento home prices May 2008 vs April 2008" is May and April 2008; before, the second was dropped. */
export function morePeriods<T extends { label: string; month?: string; months?: [string, string] }>(q: string, first: T, parse: (part: string) => T | null): T[] {
  if (!COMPARED.test(q)) return [];
  const key = (p: T): string => p.month ?? p.months?.join('..') ?? p.label;
  const parts = q.split(new RegExp(COMPARED.source, 'gi'));
  const found = parts.map((p) => parse(p)).filter((p): p is T => p !== null && (p.month !== undefined || p.months !== undefined));
  const i = found.findIndex((p) => key(p) === key(first));
  if (i < 0) return [];
  const seen = new Set([key(first)]);
  return found.slice(i + 1).filter((p) => !seen.has(key(p)) && seen.add(key(p)) !== undefined);
}
