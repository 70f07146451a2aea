// What the valuation answer says about itself beyond its figures (pure, no I/O): comps of another property type than
// the subject (the estimate reads other types' prices: a note and one confidence step lower), and a city, state or zip
// typed with the address that contradicts the request's zip (a note naming both). warehouse/docs/valuation.md
// "Notes". The confidence these set is the tier whose calibrated interval the answer gives (endpoint.ts).
import type { Tier } from './types.ts';
import type { CompIndex } from './comps.ts';
import type { ZipMeta } from './types.ts';
import { PROPERTY_TYPES } from '../../warehouse/property-types.ts';
import { placeKey, writtenState } from '../places/names.ts';
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
const BOROUGH_NAMES: Record<string, string> = { '1': 'Manhattan', '2': 'the Bronx', '3': 'Brooklyn', '4': 'Queens', '5': 'Staten Island' };

/** The city and state typed after the street line (`line`: splitPlace's), or nulls. */
export function typedPlace(address: string, line: string): { city: string | null; state: string | null } {
  const a = address.trim();
  const l = line.trim();
  if (!l || !a.toUpperCase().startsWith(l.toUpperCase())) return { city: null, state: null };
  let words = a.slice(l.length).replace(/\b\d{5}(?:-\d{4})?\b/g, ' ').replace(/[,]/g, ' ').trim().split(/\s+/).filter(Boolean);
  let state: string | null = null;
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const code = writtenState(words.slice(-n).join(' '));
    if (code) { state = code; words = words.slice(0, -n); break; }
  }
  return { city: words.length ? words.join(' ') : null, state };
}

/** The note when the address names a place other than the request's zip: another zip, another state, or a city the
 *  zip is not in (NYC: a borough other than the zip's, read from its comps' block keys; elsewhere a city of the zip's
 *  state other than the zip's own, by the build's place resolver); null when nothing contradicts. */
export function placeNote(args: { address: string; line: string; typedZip: string | null; zip: string; zm: ZipMeta; comps: CompIndex; resolver: PlaceResolver | null }): string | null {
  const { address, line, typedZip, zip, zm, comps, resolver } = args;
  const said: string[] = [];
  if (typedZip !== null && typedZip !== zip) said.push(`zip ${typedZip}`);
  const { city, state } = typedPlace(address, line);
  if (state !== null && state !== zm.state) said.push(`the state ${state}`);
  else if (city !== null) {
    const groups = new Map<string, number>();
    for (const i of comps.byZip.get(zip) ?? []) { const g = comps.blockGroups[comps.blockGroup[i]!]; if (g) groups.set(g, (groups.get(g) ?? 0) + 1); }
    const borough = [...groups].sort((a, b) => b[1] - a[1])[0]?.[0];
    const typedBorough = Object.entries(BOROUGHS).find(([, names]) => names.includes(city.toUpperCase().replace(/\s+/g, ' ')))?.[0];
    if (borough !== undefined) {
      if (typedBorough !== undefined && typedBorough !== borough) said.push(`${city} (zip ${zip} is in ${BOROUGH_NAMES[borough]})`);
    } else if (placeKey(city) !== placeKey(zm.city)) {
      const r = resolver?.findCity(zm.state, city);
      if (r?.ok && r.city !== zm.city) said.push(`the city ${r.city}`);
    }
  }
  if (said.length === 0) return null;
  return `The address names ${said.join(' and ')}, but the request's zip ${zip} is ${zm.city}, ${zm.state}: the answer is for zip ${zip}`
    + `${typedZip !== null && typedZip !== zip ? ' (no record of another zip is read at this address)' : ''}; check the zip or the address`;
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
 *  the notes as well as by subject.matched (review 15d #5: "x" and "123456789 Nowhere Blvd" answered with no note). */
export const unmatchedNote = (address: string, zip: string, sqftSent: boolean, unit: boolean): string =>
  `"${address}" matches no recorded property in zip ${zip}: valued as the zip's typical ${unit ? 'unit' : 'property'} (the median facts of its sales`
  + `${sqftSent ? ', with the sqft sent' : ', its median sqft too'}), so the estimate describes the zip more than this address; subject.facts give the facts used`;
