// A figure of a type that holds others (a Connecticut town's "single-family" figure over months of its 2022 file, which
// records no residential subtype, so all residential sales) says so in its
// sentence (sales-facts.ts mixedTypeNote); a comparison shows each side's value alone, so the same words follow the
// value too, every side's (session 26: "Hartford vs Bridgeport home prices in 2022" gave Bridgeport's 2022 figures of
// all residential sales as single-family, where "home prices in Bridgeport CT in 2022" said so). Rules:
// warehouse/docs/research.md "Answer templates".
import type { Fact } from './facts.ts';

/** Says, after the value of every fact whose figure's type holds others, what it holds ("[all of these sales come from
 *  Connecticut's 2022 sales file, ...]"), before its age and extract tags (freshness.ts, partial.ts); a note said
 *  already in the same words is said short after ("[as above: all residential sales of Connecticut's 2022 file]": a
 *  county's 16 towns compared repeated it in full), as partial.ts says its extract once. */
export function markTypes(facts: Fact[]): void {
  const told = new Set<string>();
  for (const f of facts) {
    if (!f.value || !f.typeNote) continue;
    const again = told.has(f.typeNote);
    told.add(f.typeNote);
    f.value = `${f.value} [${again ? "as above: all residential sales of Connecticut's 2022 file" : f.typeNote.trim().replace(/^\(|\)$/g, '')}]`;
  }
}
