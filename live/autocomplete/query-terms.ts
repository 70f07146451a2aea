// The words of an autocomplete query as sets of vocabulary tokens, each token with its match class (exact, prefix,
// typo): what the search tiers (live/autocomplete/street-prefix.ts, live/autocomplete/any-order.ts) match records
// against. Text rules: live/autocomplete/text.ts; matching and typo rule: warehouse/docs/address.md.
import { LONG_FORMS, UNIT_DESIGNATORS, canonical, splitHouseNumber, typoVariants, words } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Match classes of a token for a query word, best first; a record's score is the sum over the words. */
export const EXACT = 2;
export const PREFIX = 1;
export const TYPO = 0;
export const NONE = -1;

export interface Term {
  word: string;           // the query word, upper case
  required: boolean;      // false for a trailing partial unit designator ("AP" of APT)
  numeric: boolean;
  exact: number[];        // the canonical token: class EXACT
  prefLo: number;         // [prefLo, prefHi): tokens starting with the word: class PREFIX
  prefHi: number;
  prefIds: number[];      // canonical forms of long forms the word is a prefix of ("BOUL" -> BLVD): class PREFIX
  typo: number[];         // flat [lo, hi, lo, hi, ...] token id ranges within one edit: class TYPO
}

/** The terms of a query, without typo ranges (addTypos fills them when the typo tier runs). */
export function parseTerms(q: string, vocab: Vocabulary): Term[] {
  // a house number typed without its space ("3526HIGH") is two words, unless the index knows the word as one
  const ws = words(q).flatMap((w, i, all) => {
    const sp = splitHouseNumber(w);
    if (!sp || vocab.idOf(w) >= 0) return [w];
    if (i === all.length - 1) { const [lo, hi] = vocab.prefixRange(w); if (hi > lo) return [w]; }
    return sp;
  });
  const terms: Term[] = [];
  ws.forEach((w, i) => {
    const last = i === ws.length - 1;
    if (UNIT_DESIGNATORS.has(w)) return;
    let required = true;
    if (last) for (const d of UNIT_DESIGNATORS) if (d.length > w.length && d.startsWith(w)) required = false;
    const c = canonical(w);
    const exact: number[] = [];
    const id = vocab.idOf(c);
    if (id >= 0) exact.push(id);
    // only the last word may be incomplete: the words before it are matched whole (after canonical mapping)
    const [prefLo, prefHi] = last ? vocab.prefixRange(w) : [0, 0];
    const prefIds: number[] = [];
    if (last) {
      for (const [long, short] of LONG_FORMS) {
        if (long.length > w.length && long.startsWith(w)) {
          const sid = vocab.idOf(short);
          if (sid >= 0 && !exact.includes(sid) && !prefIds.includes(sid) && !(sid >= prefLo && sid < prefHi)) prefIds.push(sid);
        }
      }
    }
    terms.push({ word: w, required, numeric: /^[0-9]+$/.test(w), exact, prefLo, prefHi, prefIds, typo: [] });
  });
  return terms;
}

/** Fills term.typo: the tokens within one edit of the word (the last word: tokens starting with such a variant). */
export function addTypos(t: Term, asPrefix: boolean, vocab: Vocabulary): void {
  const ranges: [number, number][] = [];
  const w = t.word;
  const typedIsWord = t.exact.length > 0 || t.prefHi > t.prefLo;
  for (const v of typoVariants(w)) {
    // the word with a character added at its end: its tokens already match the last word as a prefix
    if (asPrefix && v.length === w.length + 1 && v.startsWith(w)) continue;
    if (asPrefix) {
      const [lo, hi] = vocab.prefixRange(v);
      if (hi > lo) ranges.push([lo, hi]);
    }
    const c = canonical(v);
    // the last word: the short form of every long form the variant begins ("BOULZE" -> BOULE -> BLVD), unless the
    // word as typed is a token or begins one: "123 MAIN" is a street named MAIN, not a misspelt SAINT (SAIN -> ST),
    // which had answered every "123 ... ST" in the index
    if (asPrefix && !typedIsWord) for (const [long, short] of LONG_FORMS) if (long.length > v.length && long.startsWith(v)) { const id = vocab.idOf(short); if (id >= 0) ranges.push([id, id + 1]); }
    for (const form of c === v ? [v] : [v, c]) {
      const id = vocab.idOf(form);
      if (id >= 0) ranges.push([id, id + 1]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of ranges) {
    const n = merged.length;
    if (n && lo <= merged[n - 1]!) merged[n - 1] = Math.max(merged[n - 1]!, hi);
    else merged.push(lo, hi);
  }
  t.typo = merged;
}
