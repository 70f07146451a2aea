// Periods compared with their year written once (pure, no imports): "march and june 2022", "mar & jun 2022", "march
// vs june 2023", "jan, feb and mar 2015", "Q1 vs Q2 2022", "2022 march and june", "march 2022 vs june" are each month
// (quarter, season, half) of that year, written out ("march 2022 and june 2022") so years.ts reads them as the periods
// compared it already answers (periods.ts morePeriods), never as the whole year nor the last month alone. A range
// stays a range: "between march and june 2022", "from march to june 2022", "march-june 2022" (years.ts parseMonthSpan).
// "march/june 2023", "march v june 2023", "in march and in june 2023", "3rd and 4th quarter 2014", "first and second
// half of 2014" likewise. Common misspellings of month names ("febuary 2015") are read as the month, and a year of two
// digits after a period word ("march & april '15") as its four ("june 23" is a day: not read). Rules:
// warehouse/docs/research.md "Years".

const MONTH = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
/** One period word with no year: a month, a quarter, a half year or a season. */
const UNIT = `(?:(?:${MONTH})\\.?|q[1-4]|h[12]|spring|summer|fall|autumn|winter)`;
/** The words joining periods compared (not "to", "through", "-": those make a range). */
const JOIN = '(?:\\s*,\\s*(?:and\\s+|&\\s*|vs\\.?\\s+|or\\s+)?|\\s*&\\s*|\\s+(?:and|or|vs\\.?|versus|compared\\s+(?:to|with)|against)\\s+(?:in\\s+)?)';
/** Ordinal quarters and halves ("3rd and 4th quarter 2014", "first and second half of 2014"). */
const ORDINAL = '(first|second|third|fourth|1st|2nd|3rd|4th)';
const YEAR = "'?((?:19|20)\\d{2})\\b";

/** Misspelled month names read as the month (only these: a near spelling can be a place, "Augusta"). */
const MISSPELT: Record<string, string> = {
  janurary: 'january', janaury: 'january', januray: 'january', janury: 'january', febuary: 'february', feburary: 'february',
  febrary: 'february', febraury: 'february', marhc: 'march', apirl: 'april', arpil: 'april', jnue: 'june', juen: 'june',
  jully: 'july', agust: 'august', augst: 'august', septmber: 'september', setpember: 'september', septemer: 'september',
  ocotber: 'october', octobor: 'october', novmber: 'november', novemeber: 'november', decmber: 'december', decemeber: 'december',
};

/** The question with the shared year written after each period compared, and misspelled months beside a year read. */
export function shareYear(q: string): string {
  let out = q.replace(/\b[a-z]{4,9}\b/gi, (w) => MISSPELT[w.toLowerCase()] ?? w);
  // a year of two digits after a period word ("march & april '15"): 1950-2049
  out = out.replace(new RegExp(`\\b(${UNIT}(?:${JOIN}${UNIT})*),?\\s+(?:of\\s+)?['\u2019](\\d{2})\\b`, 'gi'), (_all: string, list: string, yy: string) => `${list} ${Number(yy) < 50 ? 2000 + Number(yy) : 1900 + Number(yy)}`);
  // "march/june 2023", "march v june 2023": two months, joined as "and", "vs" are
  out = out.replace(new RegExp(`\\b(${UNIT})(?:\\s*\\/\\s*|\\s+(v)\\.?\\s+)(?=${UNIT}\\b)`, 'gi'), (_all: string, a: string, v?: string) => `${a}${v ? ' vs ' : ' and '}`);
  // "3rd and 4th quarter 2014", "first and second half of 2014": each with its noun and year
  out = out.replace(new RegExp(`\\b${ORDINAL}\\s+(and|&|or|vs\\.?|versus)\\s+${ORDINAL}\\s+(quarter|half)s?\\s+(?:of\\s+)?(?:the\\s+year\\s+)?${YEAR}`, 'gi'),
    (_all: string, a: string, join: string, b: string, noun: string, year: string) => `${a} ${noun} of ${year} ${join} ${b} ${noun} of ${year}`);
  // "march and june 2022", "jan, feb and mar 2015", "Q1 vs Q2 2022": not after "between" or "from" (a range)
  const before = new RegExp(`(?<!\\b(?:between|from|since|through|until)\\s+)\\b(${UNIT}(?:${JOIN}${UNIT})+)\\.?,?\\s+(?:of\\s+)?${YEAR}`, 'gi');
  out = out.replace(before, (_all: string, list: string, year: string) => withYear(list, year));
  // "2022 march and june": the year first
  const first = new RegExp(`\\b${YEAR.slice(2)},?\\s+(${UNIT}(?:${JOIN}${UNIT})+)\\b(?!\\s*'?(?:19|20)\\d{2})(?!\\s*\\d)`, 'gi');
  out = out.replace(first, (_all: string, year: string, list: string) => withYear(list, year));
  // "march 2022 vs june": the year of the first for a second with none (not "Dec. 2014": its dot before its own year)
  const after = new RegExp(`\\b(${UNIT}\\s+(?:of\\s+)?'?)((?:19|20)\\d{2})\\b(${JOIN})(${UNIT})(?!\\.?\\s*(?:of\\s+)?'?(?:19|20)\\d{2})(?![\\w-])(?!\\s+(?:be|have|has|had|not|see|go|rise|fall)\\b)`, 'gi');
  out = out.replace(after, (_all: string, a: string, year: string, join: string, b: string) => `${a}${year}${join}${b.replace(/\.$/, '')} ${year}`);
  return out;
}

/** "march and june" + 2022 -> "march 2022 and june 2022": each period word with the year after it. */
function withYear(list: string, year: string): string {
  return list.replace(new RegExp(`\\b${UNIT}(?![\\w])`, 'gi'), (u) => `${u.replace(/\.$/, '')} ${year}`);
}
