// A future price asked ("what will prices be in 98103 next year", "will prices in brooklyn go up", "how much will Denver
// prices rise in 2027", a year after today's asked of prices): no forecast is made, said plainly first, then the past
// trend (the trend answer, not the latest month's price alone; before review 20 a future year was "outside the data",
// as if it were a past year no file covers). Pure. Rules:
// warehouse/docs/research.md "Forecasts".
import type { Understanding } from './intent.ts';

/** The words of a future price or value asked. */
const FUTURE = /\bwill (?:the )?(?:[a-z.'-]+ ){0,3}?(?:home |house |sale )?(?:prices?|values?|market|it|they|homes?)\b[^?.!]{0,40}\b(?:be|go|rise|fall|drop|increase|decrease|grow|climb|crash|appreciate|keep)\b|\bwhat will (?:the )?(?:home |house |sale )?(?:prices?|values?)\b|\b(?:forecast|predict(?:ion|ed)?|projection|projected|outlook)\b|\b(?:prices?|values?) (?:next|in (?:\d+|one|two|three|five|ten) years?)\b|\bnext year'?s? (?:prices?|values?)\b|\bgoing to (?:go up|go down|rise|fall|drop|increase|decrease|crash)\b/i;

/** What the answer says first when a future price is asked. */
export const NO_FORECAST = 'No forecast is made: the service reports recorded sales and their past trend only, never a future price. The past trend follows.';

/** Whether the question asks a future price of a market (a trends or comps question): future words, or a period of a
 *  year after `today`'s (YYYY-MM-DD, the build's data date; none when ''). The price asked is then read as its trend,
 *  over no period, so the answer gives the past change, not the latest month's median alone. */
export function forecastAsked(u: Understanding, today = ''): boolean {
  if (!u.intents.some((i) => i === 'trends' || i === 'comps')) return false;
  const later = today !== '' && u.years !== null && u.years.from > Number(today.slice(0, 4));
  if (!later && !FUTURE.test(u.query)) return false;
  if (later) u.years = null;
  u.priceLevel = false;
  // the future time asked ("next year") is what the no-forecast sentence answers, not a period left unread
  u.gaps = u.gaps.filter((g) => !/^I could not read "[^"]*" as a period/.test(g));
  return true;
}
