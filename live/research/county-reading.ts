// How a county named with no state was read (POST /v1/research/query): the county reader (county-place.ts) takes the
// most populous county of the name when no state is named, as the city reader takes the most populous city; the
// answer says so when another state's county of that name is of some size (5% of the one read or more, as for cities:
// "Orange County" as Orange County, CA, not FL), or when the name is one of Connecticut's former counties, which are no
// Census county since 2022 ("Fairfield county" as Fairfield County, OH, not Connecticut's). Pure. Rules:
// warehouse/docs/research.md "Counties".
import { findPlaces, type Context, type Gazetteer, type Target } from './places.ts';
import { escapeRegExp } from '../../warehouse/regexp.ts';

/** Connecticut's former counties (county-market.ts says them plainly when Connecticut is named). */
const CT_FORMER = new Set(['fairfield', 'hartford', 'litchfield', 'middlesex', 'new haven', 'new london', 'tolland', 'windham']);

/** The reading to say for a county target read with no state named, or null (a state named, or no namesake of size). */
export function countyReading(u: { query: string; targets: readonly Target[] }, context: Context, gaz: Gazetteer): string | null {
  const t = u.targets.length === 1 ? u.targets[0]! : null;
  if (!t?.area || t.city || t.zip || t.from !== 'query' || !gaz.countiesByName) return null;
  const fips = t.area.county_fips;
  const entry = [...gaz.countiesByName].find(([, list]) => list.some((c) => c.fips === fips));
  if (!entry) return null;
  const [key, list] = entry;
  const pick = list.find((c) => c.fips === fips)!;
  // a state named in the question or its context: the county of that state, nothing to say
  const named = new Set(findPlaces(u.query, context, gaz).targets.map((x) => x.state));
  if (named.has(pick.state)) return null;
  const base = key.replace(/ (county|parish)$/, '');
  const ct = CT_FORMER.has(base) && pick.state !== 'CT' && !list.some((c) => c.state === 'CT');
  const rivals = list.filter((c) => c.state !== pick.state && c.population >= 0.05 * pick.population);
  if (!ct && rivals.length === 0) return null;
  const written = new RegExp(`\\b${escapeRegExp(base).replace(/ /g, '\\s+')}\\s+(?:county|parish|co\\b\\.?)`, 'i').exec(u.query)?.[0] ?? pick.name;
  const others = rivals.length ? `; ${rivals.length === 1 ? 'another is' : 'others are'} in ${rivals.map((c) => c.state).join(', ')}` : '';
  const former = ct ? `; Connecticut's ${pick.name} is a former county, no Census county since 2022, whose figures this build keeps per town` : '';
  return `"${written}" as ${pick.name}, ${pick.state} (the most populous county of that name we hold${others}${former}; name the state for another)`;
}
