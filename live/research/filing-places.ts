// The municipalities the foreclosure and lien filings name (the cities whose 12-month investor overview has a
// distressed_pipeline_count), for a research question that names one the Census place list does not hold ("Penn Hills"
// for Penn Hills Township, "Mt. Lebanon" for Mount Lebanon Township: Allegheny County townships, Census county
// subdivisions, not places). The research build writes them to places.json (`filings`, live/research/build.ts, from
// mart_investor); the server reads that file, not the investor shards. Rules: warehouse/docs/research.md "Cities"
// (filing municipalities).
import { placeKey } from '../places/names.ts';

/** A municipality of the filings: its name as the shards carry it, its state, its county (FIPS; null unknown), and
 *  its distressed properties over 12 months. */
export interface FilingPlace { name: string; state: string; county_fips: string | null; pipeline12: number; census: boolean }

/** The filing municipalities of a build from places.json's `filings` (empty in a build without them). `countyOf`:
 *  the Census county of a city of the gazetteer by name and state (null when the gazetteer has no such city). The
 *  filings come per county (Allegheny County's name its townships): a municipality with no Census place lies in the
 *  county most of its state's filing municipalities with one lie in, and when nine in ten of those lie in it, every
 *  one does. */
export function loadFilingPlaces(filings: readonly (readonly [name: string, state: string, pipeline12: number])[],
  countyOf: (name: string, state: string) => string | null): FilingPlace[] {
  const out: FilingPlace[] = [];
  const byState = new Map<string, FilingPlace[]>();
  for (const [name, state, pipeline12] of filings) {
    const county = countyOf(name, state);
    byState.set(state, [...(byState.get(state) ?? []), { name, state, county_fips: county, pipeline12, census: county !== null }]);
  }
  for (const here of byState.values()) {
    const counts = new Map<string, number>();
    for (const p of here) if (p.county_fips) counts.set(p.county_fips, (counts.get(p.county_fips) ?? 0) + 1);
    const [main, most] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
    // one county's filings (nine in ten of the Census ones there): every municipality is that county's, the ones
    // whose Census place lies mostly in a neighbour county too (Trafford, McDonald: Allegheny County's filings name them)
    const one = main !== null && most >= 0.9 * [...counts.values()].reduce((a, b) => a + b, 0);
    for (const p of here) out.push(p.county_fips && !one ? p : { ...p, county_fips: main });
  }
  return out.sort((a, b) => b.pipeline12 - a.pipeline12 || a.name.localeCompare(b.name));
}

/** The keys a filing municipality answers to: its name, and without "Township"/"Borough" ("penn hills",
 *  "mt lebanon"); placeKey folds Mount/Mt. and case. */
export function filingKeys(name: string): string[] {
  const short = name.replace(/\s+(Township|Borough)$/i, '');
  return [...new Set([placeKey(name), placeKey(short)])];
}

/** key -> the filing municipalities of that key that no Census place of their state is named (the ones the city
 *  list cannot find). */
export function filingIndex(places: readonly FilingPlace[]): Map<string, FilingPlace[]> {
  const out = new Map<string, FilingPlace[]>();
  for (const p of places) {
    if (p.census) continue;
    for (const k of filingKeys(p.name)) out.set(k, [...(out.get(k) ?? []), p]);
  }
  return out;
}
