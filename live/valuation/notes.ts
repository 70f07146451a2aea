// What the valuation answer says about itself beyond its figures (pure, no I/O): comps of another property type than
// the subject (the estimate reads other types' prices: a note and one confidence step lower), and a city, state or zip
// typed with the address that contradicts the request's zip (a note naming both). warehouse/docs/valuation.md
// "Notes". The confidence these set is the tier whose calibrated interval the answer gives (endpoint.ts).
import type { ModelParams, Subject, Tier } from './types.ts';
import { GBM_BASE_FEATURES, STACK_FEATURES } from './estimate.ts';
import type { CompIndex } from './comps.ts';
import type { ZipMeta } from './types.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';
import { PART_SHORT_FORMS, placeKey, writtenState } from '../places/names.ts';
import type { PlaceResolver } from '../places/resolver.ts';

/** One confidence step lower. */
export const lowerTier = (t: Tier): Tier => (t === 'high' ? 'medium' : 'low');

/** The note when fewer than half the comps used are of the subject's kind: its property type (estimate.ts keeps the
 *  subject's type only when at least 5 candidates are of it), or, for a unit (its address names one: a condo, whatever
 *  type the roll gives it), a sale of a unit (CompIndex.unit); null otherwise. */
export function typeNote(ix: CompIndex, rows: readonly number[], subjectType: number, unit: string | null): string | null {
  if (rows.length === 0) return null;
  const name = (t: number): string => PROPERTY_TYPES[t] ?? 'sfr';
  const counts = new Map<string, number>();
  const kind = (i: number): string => (unit !== null ? (ix.unit[i] === 1 ? 'unit' : `${name(ix.data.type[i]!)} (not a unit)`) : name(ix.data.type[i]!));
  for (const i of rows) counts.set(kind(i), (counts.get(kind(i)) ?? 0) + 1);
  const own = unit !== null ? 'unit' : name(subjectType);
  const same = counts.get(own) ?? 0;
  if (same * 2 >= rows.length) return null;
  const others = [...counts].filter(([k]) => k !== own).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${n} ${k}`).join(', ');
  const subject = unit !== null ? `a unit (${unit}) of a building` : `a ${own}`;
  return `The subject is ${subject}, but ${same} of the ${rows.length} comps used ${same === 1 ? 'is' : 'are'} ${unit !== null ? 'units' : `${own}s`} (the others: ${others}): `
    + `the estimate reads other kinds of property's prices, so its confidence is one step lower`;
}

/** NYC boroughs by the block key's group (the DOF borough code) and the names a caller writes for them. */
const BOROUGHS: Record<string, string[]> = { '1': ['MANHATTAN'], '2': ['BRONX', 'THE BRONX'], '3': ['BROOKLYN'], '4': ['QUEENS'], '5': ['STATEN ISLAND'] };
export const BOROUGH_NAMES: Record<string, string> = { '1': 'Manhattan', '2': 'the Bronx', '3': 'Brooklyn', '4': 'Queens', '5': 'Staten Island' };

/** The city and state typed after the street line (`line`: splitPlace's), or nulls. */
export function typedPlace(address: string, line: string): { city: string | null; state: string | null } {
  const a = address.trim();
  const l = line.trim();
  if (!l || !a.toUpperCase().startsWith(l.toUpperCase())) return { city: null, state: null };
  // a country written last ("Miami, FL, USA") is not part of the state or city (review 24: it hid the state FL)
  let words = a.slice(l.length).replace(/\b\d{5}(?:-\d{4})?\b/g, ' ').replace(/[,]/g, ' ').trim()
    .replace(/(?:^|\s)(?:U\.?S\.?A?\.?|United States(?: of America)?)$/i, '').trim().split(/\s+/).filter(Boolean);
  let state: string | null = null;
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const code = writtenState(words.slice(-n).join(' '));
    if (code) { state = code; words = words.slice(0, -n); break; }
  }
  return { city: words.length ? words.join(' ') : null, state };
}

/** What a typed address says against the place it is answered in (`city`, `state`: the zip's; `borough`: the NYC
 *  borough code of the zip or property, where known): another zip than the request's, another state, or a city it is
 *  not in (NYC: a borough other than `borough`; elsewhere a city of `state` other than `city`, by the build's place
 *  resolver). Each is the phrase the notes name it by, or null. The one rule of the valuation's place note and of
 *  GET /v1/property's (live/property/place-check.ts). */
export interface PlaceConflict { zip: string | null; state: string | null; city: string | null }
export function placeConflict(args: { address: string; line: string; typedZip: string | null; zip: string; city: string; state: string; borough: string | undefined; resolver: PlaceResolver | null; boroughOf?: string }): PlaceConflict {
  const { address, line, typedZip, zip, borough, resolver } = args;
  const out: PlaceConflict = { zip: typedZip !== null && typedZip !== zip ? `zip ${typedZip}` : null, state: null, city: null };
  const typed = typedPlace(address, line);
  if (typed.state !== null && typed.state !== args.state) out.state = `the state ${typed.state}`;
  else if (typed.city !== null) {
    // a borough's short form ("Bklyn": names.ts PART_SHORT_FORMS) is that borough, and the note says how it was read
    const short = PART_SHORT_FORMS[placeKey(typed.city)];
    const asRead = short && short.state === args.state ? short.city : typed.city;
    const typedBorough = Object.entries(BOROUGHS).find(([, names]) => names.includes(asRead.toUpperCase().replace(/\s+/g, ' ')))?.[0];
    if (borough !== undefined) {
      const where = `${args.boroughOf ?? `zip ${zip}`} is in ${BOROUGH_NAMES[borough]}`;
      if (typedBorough !== undefined && typedBorough !== borough) out.city = asRead !== typed.city ? `${typed.city} (read as ${asRead}; ${where})` : `${typed.city} (${where})`;
    } else if (placeKey(typed.city) !== placeKey(args.city)) {
      const r = resolver?.findCity(args.state, typed.city);
      if (r?.ok && r.city !== args.city) out.city = `the city ${r.city}`;
    }
  }
  return out;
}

/** The NYC borough code of a zip: the one most of its comps' block keys name (the DOF borough code); undefined
 *  outside NYC. */
export function zipBorough(comps: CompIndex, zip: string): string | undefined {
  let known = BOROUGHS_OF.get(comps);
  if (!known) BOROUGHS_OF.set(comps, (known = new Map()));
  if (known.has(zip)) return known.get(zip);
  const groups = new Map<string, number>();
  for (const i of comps.byZip.get(zip) ?? []) { const g = comps.blockGroups[comps.blockGroup[i]!]; if (g) groups.set(g, (groups.get(g) ?? 0) + 1); }
  const borough = [...groups].sort((a, b) => b[1] - a[1])[0]?.[0];
  known.set(zip, borough);
  return borough;
}
/** zipBorough's answers per comp index (every valuation request reads its zip's; the comps never change). */
const BOROUGHS_OF = new WeakMap<CompIndex, Map<string, string | undefined>>();

/** The note when the address names a place other than the request's zip (placeConflict, the zip's borough read from
 *  its comps' block keys); null when nothing contradicts. */
export function placeNote(args: { address: string; line: string; typedZip: string | null; zip: string; zm: ZipMeta; comps: CompIndex; resolver: PlaceResolver | null }): string | null {
  const { address, line, typedZip, zip, zm, comps, resolver } = args;
  const c = placeConflict({ address, line, typedZip, zip, city: zm.city, state: zm.state, borough: zipBorough(comps, zip), resolver });
  // another state's city is named with it ("Miami, FL" for a Seattle zip; review 24: "the state FL" alone)
  const typed = c.state !== null ? typedPlace(address, line) : null;
  const city = typed?.city && typed.state ? resolver?.findCity(typed.state, typed.city) : null;
  if (city?.ok) c.state = `${city.city}, ${typed!.state} (a city of another state)`;
  const said = [c.zip, c.state, c.city].filter((x): x is string => x !== null);
  if (said.length === 0) return null;
  return `The address names ${said.join(' and ')}, but the request's zip ${zip} is ${zm.city}, ${zm.state}: the answer is for zip ${zip}`
    + '; check the zip or the address'; // another zip: the unmatched note says no record was looked up
}

/** Why the confidence is below the tier whose interval the answer gives (the estimate's own tier: the back-test
 *  calibrated that tier's q to cover 80% of its sales; a wider interval for a lowered label would be calibrated on
 *  nothing); null when they are the same or the interval is uncalibrated (confidence low by that rule). */
export function tierNote(own: Tier, said: Tier, aged: boolean, typed: boolean, calibrated: boolean): string | null {
  if (own === said || !calibrated) return null;
  const why = [aged ? "the comps' source is old (data_age_note)" : null, typed ? 'the comps are mostly of another kind than the subject' : null].filter(Boolean).join(' and ');
  return `Confidence is ${said}, below the comps' own ${own} tier, because ${why}; value_low and value_high are the ${own} tier's 80% interval, `
    + `as calibrated on the back-test's ${own}-tier sales, which does not widen for that reason`;
}

/** An address that matches no recorded property: the estimate is the zip's typical property's (or unit's), said in
 *  the notes as well as by subject.matched (review 15d #5: "x" and "123456789 Nowhere Blvd" answered with no note).
 *  `typedZip`: another zip the address names, whose records are not looked up at all (review 23 #3: "23 Prospect Pl
 *  11238" sent with zip 11217 was said to match no recorded property, while 23 Prospect Pl is on record in 11217). */
export const unmatchedNote = (address: string, zip: string, sqftSent: boolean, unit: boolean, typedZip: string | null = null): string =>
  (typedZip !== null && typedZip !== zip
    ? `"${address}" is not looked up in the records: the address names zip ${typedZip}, not the request's zip ${zip} (send it without the other zip, or with that zip, to match a record)`
    : `"${address}" matches no recorded property in zip ${zip}`)
  + `: valued as the zip's typical ${unit ? 'unit' : 'property'} (the median facts of its sales`
  + `${sqftSent ? ', with the sqft sent' : ', its median sqft too'}), so the estimate describes the zip more than this address; subject.facts give the facts used`;

/** An address the property record finds (property_id) whose record has no living area, so no comp or parcel row of
 *  the valuation holds it: it is valued as an address not recorded is, the zip's typical property with the sqft sent
 *  (`request` mode) or the zip's median sqft (`typical`), and the note says which, with the confidence that mode gives
 *  (warehouse/docs/valuation.md "Subject", "Confidence"). Before, such an address was said to match no recorded property. */
export function noAreaNote(address: string, zip: string, propertyId: string, recordSqft: number | null, sqft: number, sqftSent: boolean, confidence: string): string {
  const why = recordSqft === null ? 'its record has no living area (sqft), which the valuation compares sales by'
    : 'the valuation has no sale or parcel row of it with a price or living area it can use';
  const size = sqftSent ? `with the sqft sent (${sqft.toLocaleString('en-US')})` : `with the zip's median sqft too (${sqft.toLocaleString('en-US')})`;
  const mode = sqftSent
    ? `the request subject mode: its interval as calibrated on the back-test's request subjects, confidence ${confidence}`
    : `the typical subject mode: confidence ${confidence}, as for any subject whose size is not known; send its sqft for a request-mode estimate`;
  return `"${address}" is recorded in zip ${zip} (property_id ${propertyId}, GET /v1/property), but ${why}: valued as the zip's typical property `
    + `(the median facts of its sales, not the record's own) ${size}, ${mode}; subject.facts give the facts used`;
}

/** The note when the blend's trees (or its stacked trees, which read the same fields) could not value a recorded
 *  subject (estimate.ts treesRead: the record knows none of the assessor fields they read): their share went to the
 *  comps; null otherwise. */
export function treesNote(p: ModelParams, s: Subject, gbmLog: number | null, stackedLog: number | null = null): string | null {
  if (s.mode !== 'record' || !p.blend) return null;
  const trees = p.gbm && p.blend.gbm > 0 && gbmLog === null ? p.blend.gbm : 0;
  const stacked = p.stacked && (p.blend.stacked ?? 0) > 0 && stackedLog === null ? p.blend.stacked! : 0;
  if (trees === 0 && stacked === 0) return null;
  const fields = (p.gbm ?? p.stacked)!.features.slice(GBM_BASE_FEATURES.length).filter((f) => !(STACK_FEATURES as readonly string[]).includes(f));
  const who = trees && stacked ? 'The boosted trees and the stacked trees read' : trees ? 'The boosted trees read' : 'The stacked trees read';
  return `${who} this source's assessor fields (${fields.join(', ')}), none of which this record has: `
    + `their ${Math.round((trees + stacked) * 100)}% share of the blend went to the comps`;
}
