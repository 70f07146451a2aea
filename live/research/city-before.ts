// Whether a state code is cued by the city written just before it ("Lancaster PA", "Portland ME", "Columbus IN", a
// close misspelling "Pittsburg PA"): the code is then its state, whatever English word it also spells. Its own module
// so places.ts (findPlaces, the code step) stays one pass over the question. Pure. Rules: warehouse/docs/research.md
// "State codes".
import { citiesByKey, cityTypoIndex } from '../places/question.ts';
import { compactKey, editDistance, placeKey } from '../places/names.ts';
import { isNamesakeWord } from './place-aliases.ts';
import { cap, COMMON_WORDS, STATE_NAME_SET, type Gazetteer, type Token } from './place-words.ts';

/** Whether the capitalised words just before token `i` (only spaces between) name a city of state `code`: exactly, or
 *  within one edit of a city of 20,000 people or more of that state (a name of five letters or more). A state name
 *  ("Texas OR California") and a common word never count. */
export function cityBefore(q: string, toks: Token[], i: number, code: string, gaz: Gazetteer): boolean {
  for (let n = Math.min(gaz.maxCityWords, i); n >= 1; n--) {
    const words = toks.slice(i - n, i);
    if (!words.every((w) => cap(w.text) || /^(of|the|de|la|del|on|upon)$/.test(w.lower))) continue;
    if (!/^[ \t]+$/.test(q.slice(words[n - 1]!.end, toks[i]!.start))) return false;
    if (words.slice(1).some((w, k) => !/^[ \t]+$/.test(q.slice(words[k]!.end, w.start)))) continue;
    const phrase = words.map((w) => w.lower).join(' ');
    // (a person's name that is a town's is one: "Franklin MA median price")
    if (STATE_NAME_SET.has(phrase) || (COMMON_WORDS.has(phrase) && !isNamesakeWord(phrase))) continue;
    const cands = gaz.citiesByName.get(phrase) ?? citiesByKey(gaz.citiesByName, phrase);
    if (cands?.some((c) => c.state === code)) return true;
    if (phrase.length < 5) continue;
    // the state's cities by key length (live/places/question.ts, keyed at the first question naming the state): lengths within one of the phrase's
    const key = compactKey(placeKey(phrase));
    const byLength = cityTypoIndex(gaz.citiesByName).pool(code);
    for (let len = key.length - 1; len <= key.length + 1; len++) {
      if ((byLength[len] ?? []).some((k) => k.city.population >= 20_000 && editDistance(k.key, key, 1) <= 1)) return true;
    }
  }
  return false;
}
