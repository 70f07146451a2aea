// The owner counts research keeps per city and zip (market.json `owners`): written by owner-counts-build.ts, read by
// owner-counts.ts. Types only, so the data files can name them without importing the answer's modules.

export const OWNER_TYPES = ['individual', 'corporate', 'trust', 'bank', 'government', 'nonprofit'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

/** One source's owners of one place's properties (a city or a zip). */
export interface OwnerCount {
  source: string;
  /** the source's properties in the place, and those whose owner it names */
  properties: number; named: number;
  /** the named owners by owner type (warehouse/docs/property.md `owner_type`) */
  types: Record<OwnerType, number>;
  /** properties whose owner's mailing street is recorded (named or not), and of them those mailed away (absentee_owner) */
  absentee_known: number; absentee: number;
  /** named owners whose mailing state is recorded, and of them those mailed outside the property's state */
  state_known: number; out_of_state: number;
  /** the latest sale date of the properties with a named owner */
  latest_sale: string | null;
}

/** market.json `owners`: `places`: `city|<state>|<city slug>` or `zip|<zip>` -> one entry per source; `cities`: the
 *  cities counted, as "Philadelphia, PA", most named owners first. */
export interface OwnerCounts { places: Record<string, OwnerCount[]>; cities: string[] }
