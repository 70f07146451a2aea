// The shapes of market.json's permit and distress counts by kind (permit-counts-build.ts, distress-kinds-build.ts
// write them; permit-counts.ts, distress-kinds.ts read them): a leaf, so the server's modules load no build code.

/** The canonical permit types (pipelines' `permits.permit_type`), in the order an answer lists them. */
export const PERMIT_KINDS = ['renovation', 'addition', 'repair', 'new', 'demolition', 'other'] as const;
export type PermitKind = (typeof PERMIT_KINDS)[number];

/** `zip|<zip>` or `city|<state>|<city slug>` -> [as_of, source ids, kind -> count per window of W months at index W-1]. */
export type PermitCounts = Record<string, [asOf: string, sources: string[], byKind: Partial<Record<PermitKind, number[]>>]>;

/** The permits of each place by calendar month (permit-counts-build.ts permitMonths), for a year or months asked:
 *  `places`: `zip|<zip>` or `city|<state>|<city slug>` -> [first month (YYYY-MM), source ids, kind -> count per month from it,
 *  and (builds since session 25, `uses`) the same of each building use recorded];
 *  `spans`: source id -> [first, last] issue date of its records (YYYY-MM-DD), what its file covers. */
export interface PermitMonths { places: Record<string, [first: string, sources: string[], byKind: Partial<Record<PermitKind, number[]>>, byUse?: Partial<Record<BuildingUse, Partial<Record<PermitKind, number[]>>>>]>; spans: Record<string, [first: string, last: string]>; uses?: true }

/** The building use a permit records (`permits.building_use`); a permit recording none is of neither. */
export type BuildingUse = 'residential' | 'nonresidential';

/** `city|<state>|<city slug>` -> [distress_as_of, kind -> distinct properties per window of W months at index W-3]. */
export type DistressKinds = Record<string, [asOf: string, byKind: Record<string, number[]>]>;
