// Chicago community area names that towns elsewhere bear too (Hyde Park, Lincoln Park, Austin, Edgewater, Beverly,
// Bridgeport, ...: a US place of 1,000 people or more of the same name, the build's city list), asked with no
// "Chicago" (permit-areas.ts reads the area when Chicago is named, or is the context's city, or when the name is
// Chicago's alone). The rule an investor expects, by what the question asks:
// - Illinois named ("IL", "Illinois", or the context's state): the area, unless an Illinois town of 1,000+ bears the
//   name (Riverdale, Chatham, Bridgeport, Washington Park: that town) (permit-areas.ts);
// - another state named: the town (permit-areas.ts);
// - permits asked (a permit word, not a rental licence), or rehab with no town read: the area, and the towns are said
//   to have no building permit records (the build's permit sources are Chicago's and Nashville's) (permit-areas.ts);
// - any other market figure (a price, a trend, days on market, investors): both readings named (bothReadings, here):
//   the town read answers, and the answer says the Chicago area has building permits only, no sales records; with no
//   town read ("median price hyde park"), both are said to have no sales records, and which towns have some.
// Rules: warehouse/docs/research.md "Chicago community areas".
import type { City, ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { PermitArea } from './permit-areas-build.ts';
import { startsStreetLine } from './street-line.ts';

/** The towns of 1,000 people or more elsewhere bearing a community area's name, most populous first. */
export function sharedTowns(data: ResearchData, area: PermitArea): City[] {
  return (data.citiesByName.get(area[0].toLowerCase()) ?? []).filter((c) => c.population >= 1000 && !(c.state === area[1] && c.name === area[2])).sort((a, b) => b.population - a.population);
}

/** "Hyde Park, UT, Hyde Park, PA and Hyde Park, NY" (the first three, then how many more). */
export function townList(towns: City[]): string {
  const names = towns.slice(0, 3).map((c) => `${c.name}, ${c.state}`);
  const more = towns.length > 3 ? ` and ${towns.length - 3} more` : '';
  return names.length > 1 && !more ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : `${names.join(', ')}${more}`;
}

/** What the Chicago reading of a name has: its building permits only. */
const AREA_HAS = (name: string): string => `Chicago's ${name} community area, for which we keep building permits only, no sales records (sale prices, trends and investor figures are kept per zip or city)`;

/** A market question (not permits or rehab) naming a shared name with no state and no Chicago: the town read keeps
 *  the answer and its reading names the area too (u.readAs); with no town read, the answer naming both readings.
 *  `hits`: the areas named, with the words written. Null when the answer goes on. */
export function bothReadings(data: ResearchData, u: Understanding, hits: { area: PermitArea; written: string }[], query: string): string | null {
  const shared = hits.filter((h) => sharedTowns(data, h.area).length && (h.written.includes(' ') || /^[A-Z]/.test(h.written)));
  if (!shared.length || !u.intents.some((i) => i === 'trends' || i === 'comps' || i === 'investor')) return null;
  // a state named (outside the names themselves: "Washington Park"), or a zip: that place, no other reading
  const rest = shared.reduce((q, h) => q.replace(h.written, ' '), query);
  if ([...rest.matchAll(/\b\d{5}\b/g)].some((z) => !startsStreetLine(rest, z.index)) || [...data.stateNames].some(([code, name]) => new RegExp(`\\b${code}\\b`).test(rest) || new RegExp(`\\b${name}\\b`, 'i').test(rest))) return null;
  // a town read from part of the name only ("lincoln" of "lincoln park": Lincoln, NE) is no reading of it
  const partOf = (city: string, h: { written: string }): boolean => h.written.toLowerCase() !== city.toLowerCase() && new RegExp(`\\b${city.toLowerCase()}\\b`).test(h.written.toLowerCase());
  for (let i = u.targets.length - 1; i >= 0; i--) {
    const c = u.targets[i]!.city;
    if (c && shared.some((h) => partOf(c, h))) {
      u.targets.splice(i, 1);
      for (let j = u.readAs.length - 1; j >= 0; j--) if (u.readAs[j]!.toLowerCase().startsWith(`"${c.toLowerCase()}" as `)) u.readAs.splice(j, 1);
    }
  }
  const read = shared.filter((h) => u.targets.some((t) => t.city?.toLowerCase() === h.area[0].toLowerCase()));
  for (const h of read) {
    const at = u.readAs.findIndex((r) => r.toLowerCase().startsWith(`"${h.written.toLowerCase()}" as `));
    const t = u.targets.find((x) => x.city?.toLowerCase() === h.area[0].toLowerCase())!;
    const also = `not ${AREA_HAS(h.area[0])}: ask "permits in ${h.area[0]}, Chicago" for them`;
    if (at >= 0) u.readAs[at] = `${u.readAs[at]}, ${also}`;
    else u.readAs.push(`"${h.written}" as ${t.city}, ${t.state}, ${also}`);
  }
  if (u.targets.length) return null;
  // no town read: both readings, and which towns have sales records
  return shared.map((h) => {
    const towns = sharedTowns(data, h.area);
    const withSales = towns.filter((c) => data.hasSales(c.state, c.name));
    const townWords = withSales.length
      ? `of the towns of that name, ${townList(withSales)} ${withSales.length === 1 ? 'has' : 'have'} sales records: name the state for ${withSales.length === 1 ? 'it' : 'one'}`
      : `no sales source covers the towns of that name (${townList(towns)})`;
    return `"${h.written}" names ${AREA_HAS(h.area[0])}, and towns elsewhere: ${townWords}; ask "permits in ${h.area[0]}, Chicago" for the community area's building permits.`;
  }).join(' ');
}
