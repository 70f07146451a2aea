// The shapes of market.json's permit and distress counts by kind (permit-counts-build.ts, distress-kinds-build.ts
// write them; permit-counts.ts, distress-kinds.ts read them): a leaf, so the server's modules load no build code.

/** The canonical permit types (pipelines' `permits.permit_type`), in the order an answer lists them. */
export const PERMIT_KINDS = ['renovation', 'addition', 'repair', 'new', 'demolition', 'other'] as const;
export type PermitKind = (typeof PERMIT_KINDS)[number];

/** `zip|<zip>` or `city|<state>|<city slug>` -> [as_of, source ids, kind -> count per window of W months at index W-1]. */
export type PermitCounts = Record<string, [asOf: string, sources: string[], byKind: Partial<Record<PermitKind, number[]>>]>;

/** `city|<state>|<city slug>` -> [distress_as_of, kind -> distinct properties per window of W months at index W-3]. */
export type DistressKinds = Record<string, [asOf: string, byKind: Record<string, number[]>]>;
