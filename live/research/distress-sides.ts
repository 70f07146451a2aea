// Foreclosures of two or more places compared ("philly vs pittsburgh foreclosures"): each place's figure with what it
// counts, over which months and from which filing records, and a place no filing source covers said so with the
// build's filing sources named. Before (h72ask) the quick answer read "Investor activity ...: Philadelphia, PA no
// distress source [data ends 2022-12, over 3 years old] [partial extract]; Pittsburgh, PA 201 distressed properties":
// no period, no source, and the age of Philadelphia's sales put on a figure it does not have. Rules:
// warehouse/docs/research.md "Distress".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { periodSaid } from './figure-period.ts';
import { placeName, type Fact } from './facts.ts';
import { slug } from '../../warehouse/layout.ts';

/** The label of a comparison of filings, in place of "Investor activity": a year's filings made, or the properties
 *  with an open filing over a window. */
export const distressLabel = (u: Understanding): string => (u.years ? 'Foreclosure and lien filings made' : 'Distressed properties (open foreclosure and lien filings)');

/** A side's fact with no filings (its "data as of" is its sales', no date of filings). */
export const noFilingsFact = (f: Fact): boolean => f.value === null || f.value.startsWith('no distress source');

/** Whether a comparison's investor facts are the filings asked ("foreclosures", "tax liens"). */
export const distressCompared = (u: Understanding, intent: string): boolean => intent === 'investor' && u.asks.includes('distress');

/** The titles of a list of source ids, joined ("A and B"). */
function titles(data: ResearchData, ids: readonly string[]): string {
  const names = ids.map((id) => data.titles.get(id) ?? id);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0] ?? '';
}

/** The filing records of a city (market.json distress_months), by title; '' where none is known. */
function cityRecords(data: ResearchData, t: Target): string {
  const e = t.city ? data.market?.distress_months?.places[`city|${t.state}|${slug(t.city)}`] : undefined;
  return e ? titles(data, e[1]) : '';
}

/** One side of a filings comparison: its figure, what it counts, its months and its records; a side without filings
 *  said to have none, the build's filing sources named. `fs` are the side's facts of the topic. */
export function distressSide(data: ResearchData, t: Target, fs: readonly Fact[]): string {
  const name = placeName(data, t);
  const shown = fs.filter((f) => !noFilingsFact(f));
  if (!shown.length) {
    const all = titles(data, Object.keys(data.market?.distress_sources ?? {}));
    return `${name}: none held, as no foreclosure or lien filing records of this build cover it${all ? ` (the build's filing records are ${all})` : ''}`;
  }
  const records = cityRecords(data, t);
  return `${name}: ${shown.map((f) => {
    const p = f.period;
    const what = p?.kind === 'window' ? ` (${p.counts ? `${p.counts}, ` : ''}open over ${periodSaid(p)})` : '';
    return `${f.value}${what}`;
  }).join(', ')}${records ? `, from ${records}` : ''}`;
}
