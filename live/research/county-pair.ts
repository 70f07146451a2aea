// Two counties named with one "County" word after the second ("King vs Pierce County", "Allegheny and Jefferson
// counties", "Orleans or Jefferson Parish"): the word written out for the first too ("King County vs Pierce County"),
// so the first is read as the county it names and never dropped (review 31: "King vs Pierce County median price"
// answered Pierce County alone, "Allegheny vs Jefferson counties foreclosures" read Jefferson, GA and no Allegheny).
// Only where both names with the word are counties the build knows. Pure: the question rewritten, or as it was.
// Rules: warehouse/docs/research.md "Entity rules".
import type { Gazetteer } from './place-words.ts';

const NAME = "[A-Za-z][A-Za-z.'-]*";
const PAIR = new RegExp(`\\b(${NAME}(?: ${NAME})?)(\\s*(?:,|vs\\.?|versus|and|or|&|compared (?:to|with))\\s+)(${NAME}(?: ${NAME})?) (count(?:y|ies)|parish(?:es)?)\\b`, 'gi');

export function countyPair(q: string, gaz: Pick<Gazetteer, 'countiesByName'>): string {
  return q.replace(PAIR, (whole, first: string, sep: string, second: string, word: string) => {
    const kind = /^count/i.test(word) ? 'County' : 'Parish';
    const known = (name: string): boolean => (gaz.countiesByName?.has(`${name.toLowerCase()} ${kind.toLowerCase()}`) ?? false);
    if (!known(second)) return whole;
    // the name may be the first's last word alone ("in King vs Pierce County"): the longest that is a county
    const words = first.split(' ');
    const name = [first, words.at(-1)!].find((n) => known(n) && !/^count(y|ies)$|^parish(es)?$/i.test(n));
    if (!name) return whole;
    const lead = first.slice(0, first.length - name.length);
    const written = /^[A-Z]/.test(word) ? kind : kind.toLowerCase(); // as the question writes it
    return `${lead}${name} ${written}${sep}${second} ${written}`;
  });
}
