// Towns the market's records name that are no Census place of the build's city list (Fairfield, Milford and most of
// Connecticut's 169 towns, whose sales file names the town; a few Sacramento-area places): research reads them as
// cities, as /v1/market/trends?city=Fairfield&state=CT answers for them (README "market-only towns"). Found from the
// research index's own market windows (`market.json`, keys `city|<state>|<slug>|<type>`), named from the slug.
import type { MarketWindows } from './market-window.ts';
import { marketKey } from './market-window.ts';
import { plainTownKey } from '../places/names.ts';

/** A city as data.ts keeps it (its City, structurally: data.ts imports this file). */
interface City { name: string; state: string; population: number; zips: string[]; county_fips: string | null }

/** A slug's name: each hyphen-joined word capitalised ("beacon-falls" -> "Beacon Falls"). */
const nameOf = (slug: string): string => slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/** The market's towns no city of `cities` (by lower-case name) answers to, as cities of no known population, zips or
 *  county (the zips whose primary city they are answer for them: data.ts zipsOfCity). */
export function marketTowns(market: MarketWindows | null, cities: ReadonlyMap<string, readonly City[]>): City[] {
  if (!market) return [];
  const known = new Set<string>();
  for (const list of cities.values()) for (const c of list) known.add(marketKey({ state: c.state, city: c.name }));
  const out = new Map<string, City>();
  for (const k of Object.keys(market.windows)) {
    const m = /^city\|([A-Z]{2})\|([a-z0-9-]+)\|/.exec(k);
    if (!m || known.has(`city|${m[1]}|${m[2]}`) || out.has(`${m[1]}|${m[2]}`)) continue;
    out.set(`${m[1]}|${m[2]}`, { name: nameOf(m[2]!), state: m[1]!, population: 0, zips: [], county_fips: null });
  }
  return [...out.values()];
}

/** A Massachusetts "Weymouth Town" by its plain name too, where no Massachusetts city has that name (names.ts
 *  plainTownKey): added to the name index in place. */
export function plainTownNames(cities: Map<string, City[]>): void {
  for (const [key, list] of [...cities]) {
    const plain = plainTownKey('MA', key);
    const towns = list.filter((c) => c.state === 'MA');
    if (plain && towns.length && !cities.get(plain)?.some((c) => c.state === 'MA')) cities.set(plain, [...(cities.get(plain) ?? []), ...towns]);
  }
}
