// Chicago community areas asked about ("Austin vs Humboldt Park", "permits in Logan Square", "Pilsen rehab"): the
// Chicago building permits file names each permit's community area (77 areas), so a question naming one is answered
// from that area's permits (the research index's places.json `permit_areas`, permit-areas-build.ts), said as read;
// before, the names were read as towns elsewhere (Austin, TX; Logan, UT; Humboldt, TN). An area is read when Chicago is
// named (or the context's city), or when one name of the question is Chicago's alone: no US place of 1,000 people or
// more bears it (Humboldt Park, Logan Square, Pilsen); "Austin" alone stays Austin, TX. A few neighbourhood names are
// read as the community area that holds them (Pilsen: Lower West Side), said. Sales, trends and investor figures are
// kept per zip or city, never per community area: said when asked. Rules: warehouse/docs/research.md "Chicago community areas".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Context } from './places.ts';
import { areaName, money, plural, type Fact } from './facts.ts';
import type { Target } from './places.ts';
import { slug } from '../../warehouse/layout.ts';
import type { PermitArea } from './permit-areas-build.ts';
import { escapeRegExp } from '../../warehouse/regexp.ts';
import { LICENSING } from './intent.ts';
import { sharedTowns, townList } from './area-towns.ts';

/** Neighbourhood names read as the community area that holds them (City of Chicago community area map). */
const ALIASES: Record<string, string> = { pilsen: 'Lower West Side', 'little village': 'South Lawndale', 'wicker park': 'West Town', 'ukrainian village': 'West Town', wrigleyville: 'Lake View', 'back of the yards': 'New City' };
/** Topics a community area answer can take: none, rehab or permits, or a market figure it says is not kept per area. */
const AREA_TOPICS = new Set(['rehab', 'trends', 'comps', 'investor']);

/** A community area named: as written, whether by a neighbourhood it holds, where; `towns`: the towns elsewhere of its
 *  name, said when a permits question reads it (area-towns.ts). */
export interface Hit { area: PermitArea; written: string; alias: boolean; start: number; towns?: string }

/** Every community area a question names (by its name or a neighbourhood it holds), however it is read. */
export function areaHits(data: ResearchData, query: string): Hit[] {
  const areas = data.permitAreas;
  if (!areas.length) return [];
  const byName = new Map(areas.map((a) => [a[0].toLowerCase(), a]));
  const names = [...byName.keys(), ...Object.keys(ALIASES)].sort((a, b) => b.length - a.length);
  const hits: Hit[] = [];
  const taken: [number, number][] = [];
  for (const n of names) {
    for (const m of query.matchAll(new RegExp(`(?<![\\w'])${escapeRegExp(n).replace(/ /g, '\\s+')}(?![\\w'])`, 'gi'))) {
      const s = m.index!, e = s + m[0].length;
      if (taken.some(([a, b]) => s < b && e > a)) continue;
      const area = byName.get(n) ?? byName.get(ALIASES[n]!.toLowerCase());
      if (!area) continue;
      taken.push([s, e]);
      hits.push({ area, written: m[0], alias: !byName.has(n), start: s });
    }
  }
  return hits;
}

/** The community areas a question names, when it is read as asking about them (above); null otherwise. */
export function permitAreasAsked(data: ResearchData, u: Understanding, context: Context, query: string): Hit[] | null {
  const hits = areaHits(data, query);
  if (!hits.length) return null;
  const chicago = /\bchicago\b/i.test(query) || context.city?.toLowerCase() === 'chicago';
  const inside = (word: string | undefined): boolean => !!word && hits.some((h) => h.written.toLowerCase().includes(word.toLowerCase()));
  // a state other than Illinois named, or read as the place (not from the area's own words: "norwood" of "Norwood
  // Park", a New York neighbourhood): the towns, not Chicago's areas
  if (u.targets.some((t) => t.from === 'query' && t.state !== 'IL' && !inside(t.city) && !inside(t.hood?.key))) return null;
  // a state written with the name ("permits in Austin, TX", "Austin Texas"): the town there, never Chicago's area (review 19)
  if (u.targets.some((t) => t.from === 'query' && t.state !== 'IL' && stateWritten(data, query, t.state, hits))) return null;
  const own = (h: Hit): boolean => (h.written.includes(' ') || /^[A-Z]/.test(h.written)) && (data.citiesByName.get(h.written.toLowerCase().replace(/\s+/g, ' ')) ?? []).every((c) => c.population < 1000);
  const sorted = (): Hit[] => hits.sort((a, b) => a.start - b.start).filter((h, i, all) => all.findIndex((x) => x.area === h.area) === i);
  if (chicago || hits.some(own)) return sorted();
  // names towns elsewhere bear too (area-towns.ts): Illinois named, with no Illinois town of the name; or permits asked
  // (or rehab, no town read), no state named: the area, the towns said to have no permit records
  const illinois = ILLINOIS.test(query) || context.state === 'IL' || u.targets.some((t) => t.from === 'query' && t.state === 'IL' && !t.city);
  if (illinois) return hits.some((h) => sharedTowns(data, h.area).some((c) => c.state === 'IL')) ? null : sorted();
  const stated = u.targets.some((t) => t.from === 'query' && !inside(t.city) && !inside(t.hood?.key));
  const permits = PERMIT_WORD.test(query) && !LICENSING.test(query) && !/\brent(?:al|als|ing)?\s+permits?\b/i.test(query);
  if (stated || !(permits || (u.intents.includes('rehab') && !u.targets.length))) return null;
  for (const h of hits) {
    const towns = sharedTowns(data, h.area);
    if (towns.length) h.towns = `${townList(towns)} ${towns.length === 1 ? 'has' : 'have'} no building permit records: this build's permit sources are Chicago's and Nashville's; name the state for a town`;
  }
  // the town read from the name is not the place asked
  u.targets.splice(0, u.targets.length);
  return sorted();
}

/** A state written in the question: its name (any case), its code in capitals, or in lower case just after an area's
 *  name ("austin tx", "austin, tx"). */
function stateWritten(data: ResearchData, query: string, code: string, hits: Hit[]): boolean {
  const name = data.stateNames.get(code);
  return new RegExp(`\\b${code}\\b`).test(query) || (!!name && new RegExp(`\\b${escapeRegExp(name)}\\b`, 'i').test(query))
    || hits.some((h) => new RegExp(`(?<![\\w'])${escapeRegExp(h.written)}[\\s,]+${code}\\b`, 'i').test(query));
}

/** A city's building permits asked where no permit source covers it ("permits in Austin, TX"): said, with the build's
 *  permit sources named (their manifest titles), in place of "no rehab momentum scores for any zip". */
export function noPermits(data: ResearchData, query: string, place: string): string | null {
  if (!PERMIT_WORD.test(query) || LICENSING.test(query) || /\brent(?:al|als|ing)?\s+permits?\b/i.test(query)) return null;
  const names = [...data.spans.values()].map((s) => s.name).filter((n) => /\bpermit/i.test(n));
  const list = names.length ? names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : "Chicago's and Nashville's";
  return `We have no building permit records for ${place}: this build's permit sources are ${list}, and no zip of ${place} has a rehab momentum score`;
}

/** Building permits asked of a city, borough or county no permit source covers (none of its zips nor the city has a
 *  permit record): said first, with the build's permit sources, before its zips' rehab scores from rehab resales alone;
 *  where no zip has a score either, that said in the scores' place. Before, "home sales and permits in Seattle last
 *  year" answered the sales and dropped the permits without a word. In place on `facts`. */
export function permitsNotHere(data: ResearchData, query: string, t: Target, facts: Fact[]): void {
  const place = areaName(t);
  const unscored = facts.length === 1 && facts[0]!.source === null && /^We have no rehab momentum scores for any zip of /.test(facts[0]!.sentence);
  const counts = data.market?.permit_counts;
  const zips = t.area ? data.zipsOfCounty(t.area.county_fips) : t.city ? data.zipsOfCity(t.city, t.state) : [];
  const covered = !counts || (t.city && counts[`city|${t.state}|${slug(t.city)}`]) || zips.some((z) => counts[`zip|${z}`]);
  const none = unscored || !covered ? noPermits(data, query, place) : null;
  if (!none) return;
  if (unscored) { facts[0]!.sentence = none; return; }
  facts.unshift({ intent: 'rehab', target: t, value: null, sentence: none.replace(/, and no zip of .*$/, ''), detail: [], source: null, confidence: 'low', primary: true, uncertain: null });
}

/** Illinois named: "IL" (a word, any case, after a space or comma) or "Illinois". */
const ILLINOIS = /(?:^|[\s,])(?:il|illinois)\b/i;
/** A building permit asked ("permits in Hyde Park"). */
const PERMIT_WORD = /\bpermits?\b/i;

/** Whether the areas' permits answer the question (no topic, rehab, or a market figure said not kept per area); else
 *  the question (a legal topic: "eviction notice in Logan Square") is Chicago's, said (asChicago). */
export const permitsAnswer = (u: Understanding): boolean => u.intents.every((i) => AREA_TOPICS.has(i));

/** A question of another topic naming community areas: read as Chicago, IL, said, in place of the towns it was read as. */
export function asChicago(u: Understanding, hits: Hit[]): void {
  const words = hits.map((h) => h.written.toLowerCase());
  u.targets.splice(0, u.targets.length, { state: 'IL', city: 'Chicago', from: 'query' });
  for (let i = u.readAs.length - 1; i >= 0; i--) {
    const w = /^"([^"]+)" as /.exec(u.readAs[i]!)?.[1]?.toLowerCase();
    if (w && words.some((x) => x.includes(w))) u.readAs.splice(i, 1);
  }
  u.readAs.push(`${hits.map((h) => `"${h.written}"`).join(', ')} as Chicago, IL (${hits.length === 1 ? 'a community area' : 'community areas'} of Chicago, whose city and state rules apply there)`);
}

/** The answer of the community areas asked: each area's permits over the 12 months to the file's last permit. */
export function permitAreasAnswer(u: Understanding, hits: Hit[]): { answer: string; citation: string } {
  const read = hits.map((h) => `"${h.written}" as ${h.alias ? `${h.area[0]}, the Chicago community area that holds it` : `Chicago's ${h.area[0]} community area`}`).join(', ');
  const marketAsked = u.intents.some((i) => i !== 'rehab');
  const towns = hits.flatMap((h) => (h.towns ? [`; ${h.towns}`] : [])).join('');
  const lead = `Reading ${read} (the Chicago building permits file names each permit's community area${towns}${marketAsked ? '; sale prices, price trends and investor figures are kept per zip code or city, not per community area, so only permits are answered' : ''})`;
  const asOf = hits[0]!.area[3];
  // a window or a year asked: the areas' permits are kept for the 12 months only, said (never answered as if asked)
  const asked = u.years ? u.years.label : u.months !== null && u.months !== 12 ? `${u.months} months` : null;
  const window = asked ? `; a community area's permits are kept for the 12 months to ${asOf} only, not for ${asked}` : '';
  const clause = (a: PermitArea): string => `in ${a[0]} (Chicago, IL), ${plural(a[4], 'building permit')} were issued in the 12 months to ${a[3]}: ${plural(a[5], 'renovation/alteration permit')} (reported cost ${money(a[9])}), ${a[8].toLocaleString('en-US')} repair or addition, ${a[6].toLocaleString('en-US')} new construction and ${a[7].toLocaleString('en-US')} demolition`;
  const most = hits.length > 1 ? [...hits].sort((a, b) => b.area[5] - a.area[5])[0]! : null;
  const tie = most && hits.filter((h) => h.area[5] === most.area[5]).length > 1;
  const verdict = most && !tie ? `, so ${most.area[0]} had the most renovation/alteration permits (${most.area[5].toLocaleString('en-US')})` : '';
  return {
    answer: `${lead}${window}: ${hits.map((h) => clause(h.area)).join('; ')}${verdict}.`,
    citation: `reii warehouse: Chicago building permits by community area (City of Chicago Department of Buildings), 12 months to ${asOf}`,
  };
}
