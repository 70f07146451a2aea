// Places compared on a topic the question names only by full-text search ("texas vs florida for landlords"): the
// record the search found first is one place's; every other place is given its own record of the same kind, so a
// place whose record says "no cap" is said to have none, not "no data". Rules: warehouse/docs/research.md "Retrieval".
import type { ResearchData, RegulationDoc } from './data.ts';
import type { Target } from './places.ts';
import { regFact } from './records.ts';
import type { Fact } from './facts.ts';

/** The facts of the same record kind as `first` for each target of another state that has none yet (primary). */
export function pairedRecords(data: ResearchData, targets: readonly Target[], first: RegulationDoc, facts: readonly Fact[]): Fact[] {
  const out: Fact[] = [];
  for (const t of targets) {
    if (t.state === first.state || facts.some((f) => f.primary && f.target === t)) continue;
    const doc = data.docs.find((d) => d.state === t.state && d.level === 'state' && d.status === 'active' && d.category === first.category && d.subcategory === first.subcategory);
    if (doc) out.push({ ...regFact('search', t, doc, data.stateName(doc.state), true), confidence: 'medium' });
  }
  return out;
}
