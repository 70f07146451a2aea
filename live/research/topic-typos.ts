// Topic words misspelled by one letter ("evction notice in florida", "forclosures in pittsburgh", "securty deposit"):
// written as the word every rule reads, before any rule reads them (pure). Before, "evction notice in florida" answered
// "I don't have data that answers this question for Florida". Only the service's topic words, each with its first
// letter kept, a word of 6 letters or more one edit away (two for 10 or more), never a word that is itself a topic
// word's form. Rules: warehouse/docs/research.md "Intents".

import { editDistance } from '../places/names.ts';

const TOPICS = ['eviction', 'evictions', 'evicted', 'evicting', 'foreclosure', 'foreclosures', 'foreclosed', 'security', 'deposit', 'deposits',
  'landlord', 'landlords', 'tenant', 'tenants', 'superfund', 'permit', 'permits', 'mortgage', 'mortgages', 'redemption', 'possession',
  'squatters', 'squatter', 'adverse', 'investor', 'investors', 'nonpayment', 'judicial'];
/** Words read when two of their letters are swapped only (one edit from "prices" are words: priced, pricey). */
const SWAPPED = [...TOPICS, 'prices'];
/** Words one edit from a topic word that are words of their own, kept as written. */
const KNOWN = new Set([...TOPICS, 'foreclose', 'forecloses', 'foreclosing', 'securities', 'mortgagee', 'mortgagor', 'judicially', 'tenancy', 'evicts']);

/** The question with each topic word misspelled by an edit or two written right (lower case). */
export function topicTypos(q: string): string {
  return q.replace(/\b[A-Za-z]{6,}\b/g, (w) => {
    const lower = w.toLowerCase();
    if (KNOWN.has(lower)) return w;
    const max = lower.length >= 10 ? 2 : 1;
    // two letters swapped ("prcies", "evcition"): one slip, though two edits (h67ask: "seattle prcies 2015" read no topic)
    const swapped = SWAPPED.find((t) => t.length === lower.length && t[0] === lower[0] && swapOf(lower, t));
    if (swapped) return swapped;
    let hit: string | null = null, best = max + 1;
    for (const t of TOPICS) {
      if (t[0] !== lower[0]) continue;
      const d = editDistance(lower, t, max);
      if (d < best) [hit, best] = [t, d];
    }
    return hit ?? w;
  });
}

/** Whether `a` is `b` with two neighbouring letters swapped. */
function swapOf(a: string, b: string): boolean {
  const i = [...a].findIndex((c, k) => c !== b[k]);
  return i >= 0 && i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}
