// The period of a research question's context (`context.period`: "2022", "March 2022", "Q1 2022", "March to June
// 2022": the period the earlier answer was about), read when a follow-up compares another with it ("compare to 2021",
// "how about vs 2021", "and compared with last year"): both periods, the context's first, each with its own figure and
// the change between them (period-change.ts), as periods compared in one question are. "last year", "the year before",
// "a year earlier" are the context's period a year back (2022 -> 2021, March 2022 -> March 2021). With no
// `context.period` such a follow-up gives the period named alone and says why no comparison is given; a follow-up
// naming a period with no comparison word ("what about 2021?") is that period alone. A follow-up naming no period
// ("and in 98103?", "what about Queens", or a type of the context's place: "what about the condos") is the sale prices of
// the context's period, said (`carriedPeriod`). Pure; rules:
// warehouse/docs/research.md "Years".
import type { Context } from './context-place.ts';
import { areaName } from './area-name.ts';
import type { Target } from './place-words.ts';
import { YEAR_AGO } from './year-ago.ts';
import { parseMonths, parseYears, type Years } from './years.ts';

/** Words comparing the follow-up's period with another ("compare to", "vs", "against", "than", "change since"), and
 *  common misspellings of "compare" ("cmopare", "comapre"). */
const COMPARES = /\bcompar(e[sd]?|ing|ison)\b|\b(cmopare|comapre|copmare|compaer|comprae|compre|compair|compaire)[sd]?\b|\bvs\.?(?=\s|$)|\bversus\b|\bagainst\b|\bthan\b|\bdifference\b|\bchanged?\s+(since|from)\b/;

const key = (y: Years): string => y.month ?? y.months?.join('..') ?? `${y.from}..${y.to ?? ''}`;

/** The context's period a year back: each year written in it less one (its own reading, so labels stay the parser's). */
function yearBack(period: string): Years | null {
  return parseYears(period.replace(/\b(?:19|20)\d{2}\b/g, (y) => String(Number(y) - 1)));
}

/** The periods a follow-up asks: its own (`years`, from parseYears) or, when it compares a period or a year back with
 *  the context's period, both (the context's first, the other in `also`); readings said in `readAs`. Only for a
 *  follow-up, whose place is the context's (`targets` all from it). */
export function contextPeriods(years: Years | null, context: Context, lower: string, readAs: string[], targets: readonly Target[]): Years | null {
  const back = YEAR_AGO.test(lower);
  // a follow-up: the question names no place, the context gives it (year-ago.ts periodFollowUp)
  if (!targets.length || !targets.every((t) => t.from === 'context') || (!COMPARES.test(lower) && !back)) return years;
  if (years?.also) return years;
  const raw = context.period?.trim();
  if (!raw) {
    // a period compared with an earlier answer's that the request does not carry: the period alone, said
    if (years) readAs.push(`the follow-up as ${years.label} alone: no period of the earlier answer came with the question (context.period, e.g. "2022"), so no comparison with it is given`);
    return years;
  }
  const own = parseYears(raw);
  if (!own || own.also || own.to === null || own.last || own.lastMonth) {
    readAs.push(`the follow-up${years ? ` as ${years.label} alone` : ''}: context.period "${raw}" is not one period we read (a year, a month, a quarter, a season or a span of months such as "March to June 2022"), so no comparison with it is given`);
    return years;
  }
  // "how did it change since 2021": that year against the context's ("since 2021" alone runs to the data's end)
  const asked = years && years.to === null ? { from: years.from, to: years.from, label: String(years.from) } : years;
  const other = asked ?? (back ? yearBack(raw) : null);
  if (!other || key(other) === key(own)) return years;
  readAs.push(`the follow-up as ${own.label} (the context's period) compared with ${other.label}${!years ? ' (a year before it)' : ''}${years && years.to === null ? ` ("${years.label}" as ${other.label} against it)` : ''}`);
  return { ...own, also: [other] };
}

/** A follow-up that names a period (or a year back) of the context's place and nothing else ("compare to 2021", "how
 *  about vs 2021", "what about 2021?"): the sale prices of that period only (intent.ts periodFollowUp), never a
 *  market overview, whose "compare" or "how about" opening would add investor activity nobody asked for. */
export const periodOnly = (q: string, lower: string, targets: readonly Target[]): boolean =>
  targets.length > 0 && targets.every((t) => t.from === 'context') && (parseYears(q) !== null || YEAR_AGO.test(lower));

/** A follow-up's opening words: "and in 98103?", "what about Queens", "how about Brooklyn", "same for 98117", "compare
 *  with Kirkland" (the context's place beside it: context-place.ts contextCompared). */
const FOLLOW_UP = /^\s*(and|what about|how about|what of|same (for|in)|now (for|in)|compared? (it |this |that )?(with|to|against)|vs\.?(?=\s)|versus)\b/;
/** What only a comps answer has (price per sqft, days on market, list-to-sale): kept for the latest months only. */
const LATEST_ONLY = /\bcomps?\b|comparable|per (sq|square)|\$ ?\/ ?sq|ppsf|days on market|\bdom\b|list[- ]to[- ]sale|sale[- ]to[- ]list/;
/** What else a follow-up may say: small words, sale-price and property-type words, punctuation. */
const FILLER = /\b(in|for|of|the|about|there|it|then|a|an|and|or|zip|code|city|what|how|is|are|was|were|did|do|does|median|average|avg|typical|sale|sales|price|prices|value|values|home|homes|house|houses|sold|single|family|condos?|townho(use|me)s?)\b|[-\s?.!,'’]+/g;
/** A property type a follow-up names ("the condos", "single family", "houses"). */
const TYPE_FOLLOW_UP = /\bcondos?\b|\bsingle[- ]?family\b|\bhouses\b|\btownho(use|me)s?\b/;
/** A ranking within the context's place ("top 5 zips by sales", "cheapest zip"): the ranking paths read its period. */
const RANKING = /\b(top|rank(ed|ing)?|which|highest|lowest|cheapest|priciest|most|least|best|worst)\b/;
const asksWindow = (q: string): boolean => { const w = parseMonths(q); return w.months !== null || w.span !== null || w.text !== null; };

/** The context's period carried to a follow-up (opening words, sale-price words, the place and nothing else) that names a place and no period,
 *  window or topic of its own but sale prices ("and in 98103?", "what about Queens", "Brooklyn?" after `"period":
 *  "2022"`): that period, said ("for 2022, as in your previous question"); null otherwise ("median price in Brooklyn"
 *  is a new question: its latest figures). A period not read as one is said, and not carried. */
export function carriedPeriod(q: string, lower: string, topicText: string, context: Context, targets: readonly Target[], intents: readonly string[], readAs: string[]): Years | null {
  const raw = context.period?.trim();
  const named = targets.filter((t) => t.from !== 'context');
  // a follow-up naming a property type and no place ("what about the condos" after {zip, period}): the context's place
  // and period (review 19: before, the latest figures and an investor sentence)
  const type = TYPE_FOLLOW_UP.exec(lower)?.[0];
  // a question naming no place at all ("median price", "how many sales?" after {place, period}) is about the context's
  // place, and so about its period too (review 19: before, the latest 12 months)
  const placeless = named.length === 0 && targets.length > 0 && !RANKING.test(lower);
  // a place compared with the context's ("compare with Kirkland": context-place.ts contextCompared): both, the period theirs
  const places = named.length ? (targets.length > named.length ? [...targets] : named) : type || placeless ? targets.filter((t) => t.from === 'context') : [];
  if (!raw || !places.some((t) => t.zip || t.city || t.area) || parseYears(q) || YEAR_AGO.test(lower) || asksWindow(q)) return null;
  // a follow-up: the place alone ("Brooklyn?"), or opening words, the place and sale-price words only ("and the median
  // price in 98103?"); "median price in Brooklyn" is a question of its own
  const rest = topicText.toLowerCase();
  if (!placeless && rest.replace(/[-\s?.!,'’]+/g, '') !== '' && (!FOLLOW_UP.test(lower) || rest.replace(FOLLOW_UP, ' ').replace(FILLER, ' ').trim() !== '')) return null;
  if (!intents.every((i) => i === 'trends' || i === 'comps') || LATEST_ONLY.test(lower)) return null;
  const where = places.map((t) => t.zip ? `zip ${t.zip}` : t.city || t.area ? areaName(t) : t.state).join(' and ');
  const period = parseYears(raw);
  if (!period || period.also || period.to === null || period.last) {
    readAs.push(`the follow-up as the latest sale prices of ${where}: context.period "${raw}" is not one period we read (a year, a month, a quarter, a season or a span of months such as "March to June 2022")`);
    return null;
  }
  const kind = type ? `${/condo/.test(type) ? 'condo' : /town/.test(type) ? 'townhouse' : 'single-family'} ` : '';
  readAs.push(`the follow-up as the ${kind}sale prices of ${where} for ${period.label}, as in your previous question (context.period)`);
  return period;
}
