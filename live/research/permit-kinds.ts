// The shapes of market.json's permit and distress counts by kind (permit-counts-build.ts, distress-kinds-build.ts
// write them; permit-counts.ts, distress-kinds.ts read them): a leaf, so the server's modules load no build code.

/** The canonical permit types (pipelines' `permits.permit_type`), in the order an answer lists them. */
export const PERMIT_KINDS = ['renovation', 'addition', 'repair', 'new', 'demolition', 'other'] as const;
export type PermitKind = (typeof PERMIT_KINDS)[number];

/** `zip|<zip>` or `city|<state>|<city slug>` -> [as_of, source ids, kind -> count per window of W months at index W-1,
 *  and (builds since review 29) the same of the residential rehab permits, by the rehab score's test: renovation,
 *  addition and repair only]. */
export type PermitCounts = Record<string, [asOf: string, sources: string[], byKind: Partial<Record<PermitKind, number[]>>, residential?: Partial<Record<PermitKind, number[]>>]>;

/** The permits of each place by calendar month (permit-counts-build.ts permitMonths), for a year or months asked:
 *  `places`: `zip|<zip>`, `city|<state>|<city slug>` or (builds since session 26) `county|<fips>` (each permit in the
 *  county it is in: its file's own county where the file declares one, else its zip's) -> [first month (YYYY-MM),
 *  source ids, kind -> count per month from it, and (builds since session 25, `uses`) the same of each building use
 *  recorded];
 *  `spans`: source id -> [first, last] issue date of its records (YYYY-MM-DD), what its file covers;
 *  `sources` (builds since session 26): source id -> what its dates are and the county it declares (its staging view). */
export interface PermitMonths { places: Record<string, [first: string, sources: string[], byKind: Partial<Record<PermitKind, number[]>>, byUse?: Partial<Record<BuildingUse, Partial<Record<PermitKind, number[]>>>>]>; spans: Record<string, [first: string, last: string]>; uses?: true; sources?: Record<string, PermitSource> }

/** What a permit file's dates are (`issued`, `applied`, `filed`: Nashville's file is applications, by the day entered)
 *  and the county every permit of it is in, where the file is one county's (Nashville: Davidson County, 47037). */
export interface PermitSource { word: DateWord; county: string | null }
export type DateWord = 'issued' | 'applied' | 'filed';

/** "were issued", "were applied for", "were issued or applied for": the verb of permits counted from these sources
 *  (a build before session 26 records no word: its permits were all worded "issued"). */
export function permitVerb(sources: readonly string[], declared: Record<string, PermitSource> | undefined, n = 2): string {
  const words = [...new Set(sources.map((s) => declared?.[s]?.word ?? 'issued'))].sort();
  return `${n === 1 ? 'was' : 'were'} ${words.map((w) => (w === 'applied' ? 'applied for' : w)).join(' or ')}`;
}

/** The date a permit is counted by: "issue date", "application date", "filing date" (joined for several files). */
export function permitDateNoun(sources: readonly string[], declared: Record<string, PermitSource> | undefined): string {
  const noun: Record<DateWord, string> = { issued: 'issue date', applied: 'application date', filed: 'filing date' };
  return [...new Set(sources.map((s) => noun[declared?.[s]?.word ?? 'issued']))].sort().join(' or ');
}

/** The building use a permit records (`permits.building_use`); a permit recording none is of neither. */
export type BuildingUse = 'residential' | 'nonresidential';

/** `city|<state>|<city slug>` -> [distress_as_of, kind -> distinct properties per window of W months at index W-3]. */
export type DistressKinds = Record<string, [asOf: string, byKind: Record<string, number[]>]>;

/** distress source id -> [its latest filing, distinct open properties of every city it names per window of W months at
 *  index W-3, how many cities it names] (distress-kinds-build.ts distressSources); builds since review 29. */
export type DistressSources = Record<string, [asOf: string, properties: number[], cities: number]>;
