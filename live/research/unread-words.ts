// Words of a market question that name a town but were not read as one ("baldwin foreclosures": Baldwin, NY, the most
// populous Baldwin, has no data; a lower-case name with no "in" before it is read only as a city of 100,000 people or
// more, or as a town a source covers next to a topic word: live/places/question.ts uncuedTown). The answer names those
// words and says how to name the place, never "name a city" as if none had been named. Pure.
// Rules: warehouse/docs/research.md "Entity rules".
import { allEnglish } from '../places/english.ts';
import { citiesByKey } from '../places/question.ts';
import type { Intent, Understanding } from './intent.ts';
import { COMMON_WORDS, STATE_NAME_SET, tokens, UNREAD_LEAD, type Gazetteer } from './place-words.ts';
import { NOT_PLACES } from './unfound.ts';
import { isMonthWord } from './years.ts';
import { coveredTown } from './covered-town.ts';

const MARKET: ReadonlySet<Intent> = new Set(['comps', 'trends', 'rehab', 'investor', 'location']);

export { UNREAD_LEAD } from './place-words.ts';

/**
 * The unread-town note of a market question that names no place: the words (one to three, letters only) that are the
 * name of a town of the gazetteer, none a common word, month, state or topic word, and not every word a common English
 * word unless a source covers a town of that name ("green tree": Green Tree, PA's filings); null when none.
 */
export function unreadTownWords(u: Pick<Understanding, 'query' | 'targets' | 'unknown' | 'intents'>, gaz: Gazetteer): string | null {
  if (u.targets.length || u.unknown.length || !u.intents.some((i) => MARKET.has(i))) return null;
  const toks = tokens(u.query);
  const hits: { written: string; example: string }[] = [];
  for (let i = 0; i < toks.length; i++) {
    for (let n = Math.min(3, toks.length - i); n >= 1; n--) {
      const words = toks.slice(i, i + n);
      if (words.some((w) => !/^[A-Za-z][a-z'.-]*$/i.test(w.text) || NOT_PLACES.has(w.lower) || isMonthWord(w.lower))) continue;
      const phrase = words.map((w) => w.lower).join(' ');
      if (phrase.length < 4 || COMMON_WORDS.has(phrase) || STATE_NAME_SET.has(phrase)) continue;
      const cands = gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase);
      if (!cands?.length) continue;
      const covered = cands.find((c) => coveredTown(gaz, c.state, c.name));
      if (allEnglish(words.map((w) => w.lower)) && (n === 1 || !covered)) continue;
      const town = covered ?? cands[0]!;
      hits.push({ written: phrase, example: `${town.name}, ${town.state}` });
      i += n - 1;
      break;
    }
  }
  if (!hits.length) return null;
  const names = hits.map((h) => `"${h.written}"`).join(' or ');
  return `${UNREAD_LEAD}I did not read ${names} as a place: a lower-case name with no "in" before it is read only as a city of 100,000 people or more, or as a town the build has sales or filings of next to a topic word (the most populous place of the name); name the place with its state, e.g. "${hits[0]!.example}"`;
}
