// A region named like a town: "Long Island home prices" means New York's Long Island (Nassau and Suffolk counties;
// Brooklyn and Queens lie on it too), never Long Island, KS (a town of about a hundred people) read as the most
// populous namesake (review 27: "We have no single-family sales ... in Long Island, KS"; in lower case no place was
// read). The build has no region figure (its New York sales are New York City's: the boroughs'), so the question is
// asked back, naming the counties and which of them the build has sales of. Written with Kansas ("Long Island, KS") or
// with Kansas named, it is the town; "Long Island City" is Queens' neighbourhood (hood-places.ts). Pure (places.ts).
import { UNREAD_LEAD, type Gazetteer } from './place-words.ts';

interface Region { pattern: RegExp; name: string; state: string; counties: readonly { fips: string; name: string }[]; also: string }

const REGIONS: readonly Region[] = [{
  pattern: /\blong\s+island\b(?!\s+city\b)/i, name: 'Long Island', state: 'NY',
  counties: [{ fips: '36059', name: 'Nassau County' }, { fips: '36103', name: 'Suffolk County' }],
  also: 'Brooklyn and Queens, boroughs of New York City, lie on it too',
}];

/** Whether `phrase` (lower case) names a region of REGIONS in state `code` ("long island", NY): no clash of its state. */
export const regionIn = (phrase: string, code: string): boolean => REGIONS.some((r) => r.state === code && r.name.toLowerCase() === phrase);

export interface RegionAsked { start: number; end: number; unknown: string }

/** The regions of REGIONS named in `q` outside the spans taken, with no state named but theirs (`stateAt`: the state
 *  written just after, state-clash.ts, passed in as that file reads regionIn): each an `unknown` entry asking which
 *  place, saying which of its counties have sales in the build (a city of the county with sales). */
export function regionsAsked(q: string, taken: readonly { start: number; end: number }[], gaz: Pick<Gazetteer, 'citiesByName' | 'hasSales'>, namedStates: ReadonlySet<string>,
  stateAt: (rest: string) => { code: string; length: number } | null): RegionAsked[] {
  const out: RegionAsked[] = [];
  for (const r of REGIONS) {
    const m = r.pattern.exec(q);
    if (!m) continue;
    const [start, end] = [m.index, m.index + m[0].length];
    if (taken.some((t) => t.start < end && t.end > start)) continue;
    const st = stateAt(q.slice(end));
    if ((st && st.code !== r.state) || [...namedStates].some((s) => s !== r.state)) continue;
    const sold = new Set<string>();
    for (const list of gaz.citiesByName.values()) {
      for (const c of list) if (c.state === r.state && r.counties.some((k) => k.fips === c.county_fips) && (gaz.hasSales?.(c.state, c.name) ?? false)) sold.add(c.county_fips!);
    }
    const names = r.counties.map((k) => k.name).join(' and ');
    const none = r.counties.filter((k) => !sold.has(k.fips)).map((k) => k.name);
    const data = none.length ? `the build has no sales of ${none.join(' or ')}'s towns` : `the build has sales of ${names}`;
    const namesakes = (gaz.citiesByName.get(r.name.toLowerCase()) ?? []).filter((c) => c.state !== r.state).map((c) => `${c.name}, ${c.state}`);
    const written = q.slice(start, end);
    out.push({
      start, end: end + (st ? st.length : 0),
      unknown: `${UNREAD_LEAD}"${written}" is ${r.name}, ${r.state}: ${names} (${r.also}); no figure is kept for the region as a whole, and ${data}: name a borough, a county or a zip code${namesakes.length ? ` (or "${namesakes[0]}" for the town of that name)` : ''}`,
    });
  }
  return out;
}
