// A place a market question names that the build does not know ("median price in la jolla", "in the hamptons", "so
// cal"): said as not found ("I could not find a place named ..."), never answered as another question (a national
// ranking, a state's rules). Pure. Rules: warehouse/docs/research.md "Entity rules".
import type { Intent, Understanding } from './intent.ts';
import { COMMON_WORDS, STATE_NAME_SET } from './place-words.ts';
import { isMonthWord } from './years.ts';

const MARKET: ReadonlySet<Intent> = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);
/** Words after "in" that name no place: time, scope, manner. */
export const NOT_PLACES = new Set(`general total practice theory effect place particular recent years year months month weeks week days day
america us usa u.s. country nation nationwide national area areas my our your this that these those it them there here mind detail
short brief order question terms cash bulk all each any every one two three value size number numbers aggregate average median
stock demand supply question contract escrow foreclosure default distress distressed preforeclosure pre-foreclosure probate
the a an and or to of per sqft square feet feet dollars`.split(/\s+/));

/** The words after the last "in", "near" or "around" that end the question, when they could be a place's name (letters,
 *  one to three words, none a topic, time, month or common word) and the question names no place and asks only market
 *  topics; else null. */
export function unfoundPlace(u: Pick<Understanding, 'query' | 'targets' | 'unknown' | 'intents' | 'ranking'>): string | null {
  if (u.targets.length || u.unknown.length || u.ranking !== null || !u.intents.length || !u.intents.every((i) => MARKET.has(i))) return null;
  const m = /\b(?:in|near|around)\s+((?:the\s+)?[a-z][a-z'.]*(?:[ -][a-z][a-z'.]*){0,2})\s*[?.!]*\s*$/i.exec(u.query);
  if (!m) return null;
  const phrase = m[1]!.replace(/\.$/, '');
  const words = phrase.toLowerCase().split(/[\s-]+/).filter((w) => w !== 'the');
  if (!words.length || words.some((w) => NOT_PLACES.has(w) || COMMON_WORDS.has(w) || isMonthWord(w)) || STATE_NAME_SET.has(words.join(' '))) return null;
  return phrase;
}

/** How an unfound place is listed among a question's unknown places (compose.ts says it as not found). */
export const UNFOUND_LEAD = 'a place named ';
