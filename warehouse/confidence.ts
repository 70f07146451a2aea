// The confidence every answer carries (interface-v1.md: low, medium or high), and the lower of two: one definition for
// the research facts, the location rules and the age cap of old data (warehouse/data-age.ts).
export type Confidence = 'low' | 'medium' | 'high';

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** The lower of two confidences. */
export const minConfidence = (a: Confidence, b: Confidence): Confidence => (RANK[a] <= RANK[b] ? a : b);
