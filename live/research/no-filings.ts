// Foreclosures or liens asked of a place no distress source covers ("foreclosures in Chicago", "Cook County
// foreclosures"): said as no filings there, with the build's filing sources named (as permits are, permit-areas.ts
// noPermits). Before, Chicago's answer was "We have no investor activity data for Chicago, IL" and Cook County's "investor
// activity is kept per city or zip code ... name one of them", neither a word of foreclosures. Rules:
// warehouse/docs/research.md "Distress".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, missing, type Fact } from './facts.ts';

/** The build's foreclosure and lien filing sources, by their manifest titles ("Allegheny County mortgage foreclosure
 *  filings and Louisville Metro lien foreclosures"), or null in a build without them. */
function filingSources(data: ResearchData): string | null {
  const ids = Object.keys(data.market?.distress_sources ?? {});
  const names = ids.map((id) => data.titles.get(id) ?? id);
  return names.length ? names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : null;
}

/** A fact of a place's investor activity, or none, where filings were asked: a fact saying no filings cover it, the
 *  sources named (a city with sales but no filings too, h74ask: "foreclosures in philadelphia" named no filing source
 *  and gave its sales' caveats); the fact as it was otherwise (filings counted, or not asked). */
export function noFilings(data: ResearchData, u: Understanding, t: Target, f: Fact | null): Fact | null {
  if (!u.asks.includes('distress') || (f && !f.value?.startsWith('no distress source') && (f.source !== null || !/^(We have no (investor activity\b.*|foreclosure or lien filings) for|(I don't have that: )?investor activity is kept per city)/i.test(f.sentence)))) return f;
  const list = filingSources(data);
  if (!list) return f;
  return { ...missing('investor', t, `We have no foreclosure or lien filings for ${areaName(t)}: this build's filing sources are ${list}, and none covers it`), value: 'no distress source' };
}
