// A metro area asked a sale price or a sales count (POST /v1/research/query): "Seattle metro", "NYC metro", "Philly
// suburbs", "Sacramento MSA", "the Bay Area" (metro-words.ts) answered over the counties of the CBSA the build has
// sales for (metro.json, metro-build.ts), saying which of its counties are covered and which are not, the window and
// the property type, and never a one-county figure as the metro's. Rules: warehouse/docs/research.md "Metro areas".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import { markAge } from './freshness.ts';
import { extractWords } from './partial.ts';
import { minConf, money, plural, type Confidence, type Depth, type Fact } from './facts.ts';
import { TYPE_WORDS, windowMonths } from './sales-facts.ts';
import { monthRuns } from './coverage.ts';
import type { MetroArea, MetroFigure, MetroSales } from './metro-build.ts';
import { metrosAsked, principalIndex, principals, type MetroAsked, type PrincipalIndex } from './metro-words.ts';
import { BOROUGHS } from './place-words.ts';

export interface MetroAnswer { answer: string; citation: string | null; confidence: Confidence }

/** How many counties a list names before "and N more". */
const LISTED = 6;

/** "A, B and C" */
const and = (xs: readonly string[]): string => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : xs[0] ?? '');
/** The first LISTED names, then "and N more". */
const some = (xs: readonly string[]): string => (xs.length > LISTED ? `${xs.slice(0, LISTED).join(', ')} and ${xs.length - LISTED} more` : and(xs));

type County = MetroArea[3][number];
/** A county's name, with its state where the metro spans states ("Bergen County, NJ"). */
const countyName = (m: MetroArea, c: County): string => {
  const borough = BOROUGHS.find(([, a]) => a.county_fips === c[0])?.[1].name.replace(/^the /, '');
  return `${c[1]}${principals(m[1]).states.length > 1 ? `, ${c[2]}` : ''}${borough && borough !== c[1].replace(/ County$/, '') ? ` (${borough})` : ''}`;
};
/** "the Seattle-Tacoma-Bellevue, WA metro area" */
const metroName = (m: MetroArea): string => `the ${m[1]} ${m[2] === 'micro' ? 'micropolitan' : 'metro'} area`;

/** Which counties of the metros the build has sales for, said: "we have sales for King County only (1 of its 3 counties;
 *  Pierce County and Snohomish County not covered)". */
export function coverage(metros: readonly MetroArea[]): { text: string; covered: string[]; all: boolean } {
  const counties = metros.flatMap((m) => m[3].map((c) => ({ m, c })));
  const covered = counties.filter((x) => x.c[3] > 0).map((x) => countyName(x.m, x.c));
  const not = counties.filter((x) => x.c[3] === 0).map((x) => countyName(x.m, x.c));
  const its = metros.length > 1 ? 'their' : 'its';
  if (covered.length === 0) return { text: `we have no sales for any of ${its} ${counties.length} counties (${some(not)})`, covered, all: false };
  if (not.length === 0) return { text: `we have sales for ${counties.length === 2 ? 'both' : `all ${counties.length}`} of ${its} counties (${and(covered)})`, covered, all: true };
  return { text: `we have sales for ${and(covered)} only (${covered.length} of ${its} ${counties.length} counties; ${not.length > LISTED ? `the other ${not.length}, ${some(not)},` : and(not)} not covered)`, covered, all: false };
}

/** The sales per county of a figure, where there are several: "Sacramento County 700, Placer County 90". */
function byCounty(m: MetroArea, f: MetroFigure): string {
  const rows = m[3].filter((c) => (f[4][c[0]] ?? 0) > 0).sort((a, b) => (f[4][b[0]] ?? 0) - (f[4][a[0]] ?? 0));
  return rows.length > 1 ? `; by county: ${rows.map((c) => `${countyName(m, c)} ${(f[4][c[0]] ?? 0).toLocaleString('en-US')}`).join(', ')}` : '';
}

/** The figure of a metro's (or its suburbs') sales asked: the year asked, else the window of months asked (default 12). */
function figureOf(s: MetroSales, type: string, u: Pick<Understanding, 'months' | 'years' | 'span'>): { f: MetroFigure | null; period: string; cite: string; note: string } {
  if (u.years && (u.years.to === u.years.from || u.years.to === null && String(u.years.from) === s.as_of.slice(0, 4))) {
    const y = String(u.years.from);
    return { f: s.years[type]?.[y] ?? null, period: `in ${y}`, cite: `${y} (sales as of ${s.as_of})`, note: '' };
  }
  const months = Math.min(24, Math.max(3, u.months ?? 12));
  const note = u.years ? ` (a metro's figure is kept for one year asked at a time, or a window of 3 to 24 months: this is the window to its last sale)` : '';
  return { f: s.windows[type]?.[months - 3] ?? null, period: `in the ${months} months to ${s.as_of}`, cite: `${months} months to ${s.as_of}`, note };
}

/** The months of the window or year asked (figureOf) that no file of the metro's sales sources covers, by their
 *  month-precise vintages (coverage.ts), said as a sales window's are (window-gaps.ts, review 24): the New York metro's
 *  24 months to 2024-02-29 hold 13 months of sales (NYC DOF rolling sales has no file for 2022-04 to 2023-02), its 2022
 *  three. The window's own last month is not said (it ends at the metro's last sale); '' when every month is covered or
 *  a source has no month-precise vintage (Connecticut's). */
function metroGap(data: ResearchData, s: MetroSales, u: Pick<Understanding, 'months' | 'years'>): string {
  const spans = s.sources.map((id) => data.spans.get(id));
  if (!spans.length || spans.some((x) => x === undefined)) return '';
  const y = u.years && (u.years.to === u.years.from || u.years.to === null && String(u.years.from) === s.as_of.slice(0, 4)) ? u.years.from : null;
  const win = Math.min(24, Math.max(3, u.months ?? 12));
  const touched = windowMonths(s.as_of, win);
  // the window's first month is in it when its start day (as_of's day, clamped to that month) is before the month's last
  const last = new Date(Date.UTC(Number(touched[0]!.slice(0, 4)), Number(touched[0]!.slice(5, 7)), 0)).getUTCDate();
  const months = y !== null ? Array.from({ length: 12 }, (_, i) => `${y}-${String(i + 1).padStart(2, '0')}`)
    : (Math.min(Number(s.as_of.slice(8, 10)), last) >= last ? touched.slice(1) : touched).slice(0, -1);
  const out = months.filter((m) => !spans.some((x) => x!.ranges.some(([a, b]) => m >= a && m <= b)));
  // the manifest dates a source by month: a month its files hold in part only (Denver's 2019-07, 9 days) is read from
  // the trends' flags of the markets of its sources (partMonths)
  const part = months.filter((m) => !out.includes(m) && s.sources.some((id) => partMonths(data, id).has(m)) && !s.sources.some((id) => wholeMonths(data, id).has(m)));
  if (!out.length && !part.length) return '';
  const held = (y !== null ? months : [...months, s.as_of.slice(0, 7)]).length - out.length;
  const files = spans.map((x) => `${x!.name} covers ${x!.ranges.map(([a, b]) => (a === b ? a : `${a} to ${b}`)).join(' and ')}`).join('; ');
  const inside = `inside ${y !== null ? y : 'this window'}`;
  if (!out.length) return ` (the source files cover ${monthRuns(part)} in part only, ${inside}: ${files})`;
  return ` (the source files cover none of ${monthRuns(out)}, ${inside}${part.length ? `, and ${monthRuns(part)} in part only` : ''}, so these sales fall in the ${plural(held, 'month')} of it they cover${part.length ? ` (${monthRuns(part)} in part)` : ''}: ${files})`;
}

/** The months each sales source's files hold whole (`1`) or in part only (`p`: a file starting or ending inside the
 *  month, or a month thin beside the source's busiest), by the trends' flags (market.json `covered`) of the markets
 *  whose sales are of that source alone: a month is the source's whole where any such market has it whole. Empty in a
 *  build before the flags, so nothing is said in part then. */
const flagsBySource = new WeakMap<ResearchData, Map<string, { whole: Set<string>; part: Set<string> }>>();
function sourceFlags(data: ResearchData, id: string): { whole: Set<string>; part: Set<string> } {
  let all = flagsBySource.get(data);
  if (!all) {
    all = new Map();
    const covered = data.market?.covered ?? {};
    for (const [key, ids] of Object.entries(data.market?.sources ?? {})) {
      const c = covered[key];
      if (!c || ids.length !== 1) continue;
      const f = all.get(ids[0]!) ?? { whole: new Set<string>(), part: new Set<string>() };
      const [y0, m0] = c[0].split('-').map(Number) as [number, number];
      for (let i = 0; i < c[1].length; i++) {
        const flag = c[1][i];
        if (flag !== '1' && flag !== 'p') continue;
        const d = new Date(Date.UTC(y0, m0 - 1 + i, 1)).toISOString().slice(0, 7);
        (flag === '1' ? f.whole : f.part).add(d);
      }
      all.set(ids[0]!, f);
    }
    flagsBySource.set(data, all);
  }
  return all.get(id) ?? { whole: new Set(), part: new Set() };
}
const wholeMonths = (data: ResearchData, id: string): Set<string> => sourceFlags(data, id).whole;
const partMonths = (data: ResearchData, id: string): Set<string> => sourceFlags(data, id).part;

/** Years compared of a metro ("Seattle metro median price 2014 vs 2015"): each further year's figure of the same
 *  covered counties' sales (metro.json keeps a count and median per year), then the change of the median from each year
 *  to the next in time; never of the count, which holds what each year's files hold (New Haven's 2021: 7 sales in a
 *  partial extract), their dates said instead. Before, the first year alone was answered. '' when none are compared. */
function yearsCompared(data: ResearchData, m: MetroArea, s: MetroSales, type: string, noun: string, u: Pick<Understanding, 'years'>): string {
  const ys = u.years?.also?.length ? [u.years, ...u.years.also] : [];
  if (!ys.length || ys.some((y) => y.to !== y.from || y.month || y.months)) return '';
  const figs = ys.map((y) => ({ y: String(y.from), f: s.years[type]?.[String(y.from)] ?? null }));
  const more = figs.slice(1).map(({ y, f }) => (f ? `; in ${y}${metroGap(data, s, { months: null, years: { from: Number(y), to: Number(y), label: y } })} there were ${plural(f[0], `arm's-length ${noun} sale`)}, dated ${f[2]} to ${f[3]}, ${f[1] === null ? 'too few for a median (under 5)' : `at a median sale price of ${money(f[1])}`}${byCounty(m, f)}` : `; in ${y} no arm's-length ${noun} sale of these counties is recorded`)).join('');
  const pct = (a: number, b: number): string => { const x = Math.round((b / a - 1) * 1000) / 10; return `${x > 0 ? '+' : ''}${x}%`; };
  const timed = [...figs].sort((a, b) => a.y.localeCompare(b.y));
  const steps = timed.slice(1).map((b, i) => {
    const a = timed[i]!;
    if (!a.f || !b.f || a.f[1] === null || b.f[1] === null) return `no change from ${a.y} to ${b.y} is given (${[a, b].filter((x) => !x.f || x.f[1] === null).map((x) => x.y).join(' and ')} without a median)`;
    return `from ${a.y} to ${b.y} the median sale price went from ${money(a.f[1])} to ${money(b.f[1])} (${pct(a.f[1], b.f[1])}) (no change of the count is given: the sales of ${[a, b].map((x) => `${x.y} run ${x.f![2]} to ${x.f![3]}`).join(' and ')})`;
  });
  return `${more}; ${steps.join('; ')}`;
}

/** One metro asked: its coverage and its figure, as a fact (its source's age and extract said as every sales fact's). */
function metroFact(data: ResearchData, a: MetroAsked, u: Understanding): Fact {
  const idx = data.metros!;
  const m = a.metros[0]!;
  const cov = coverage(a.metros);
  const core = principals(m[1]).cities[0]!;
  const name = a.region ? `${a.region} (${and(a.metros.map(metroName))}; OMB July 2023 delineation)` : `${metroName(m)}${a.suburbs && a.city === core ? ` outside the city of ${core}` : ''} (OMB July 2023 delineation)`;
  const lead = `Reading "${a.said}" as ${name}: ${cov.text}`;
  const type = u.propertyType, noun = TYPE_WORDS[type]!;
  const none = (s: string): Fact => ({ intent: 'trends', target: null, value: null, sentence: `${lead}; ${s}`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null });
  if (!cov.covered.length) return none(`so no ${noun} sale price or sales count of it is kept`);
  if (a.suburbs && a.city !== core) return none(`its suburbs are kept around its first principal city only (${core}): ask "${core} suburbs", or name a county`);
  const key = `${a.suburbs ? 'suburbs' : 'metro'}|${m[0]}`;
  const s = idx.sales[key];
  // a sale's city: its source's, or where the source names none (King County's file) its zip's city by the build's rule
  const where = a.suburbs ? `, outside the city of ${core} (a sale's city as its source names it, or where it names none, as King County's file, its zip's city: market.md "City from zip"),` : '';
  if (!s) return none(`all of its sales in this build are of the city of ${core} itself, so none is of its suburbs`);
  const { f, period, cite, note } = figureOf(s, type, u);
  const gap = metroGap(data, s, u);
  if (!f) return none(`no arm's-length ${noun} sales${where} ${period}`);
  const whose = cov.all ? '' : `: a figure of ${cov.covered.length > 1 ? `these ${cov.covered.length} counties` : cov.covered[0]} alone, not of the whole metro area`;
  const median = f[1] === null ? `too few for a median (under 5)` : `at a median sale price of ${money(f[1])}`;
  const change = u.intents.includes('trends') && !u.priceLevel && !u.asks.includes('sales_count') ? '; no price change is kept for a metro area (its counties\' zips have theirs: name a county)' : '';
  const pps = u.intents.includes('comps') ? '; price per square foot and comparable sales are kept per zip, not for a metro area' : '';
  // a type that holds others: Connecticut's 2022 file has no residential subtype
  const mixed = (type === 'sfr' && (f[5] ?? 0) > 0 ? ` (${f[5] === f[0] ? 'all of these sales' : `${f[5]!.toLocaleString('en-US')} of these sales`} come from Connecticut's 2022 sales file, which does not tell single-family homes from condos and 2-4 family houses: for those records the figure is of all residential sales)` : '');
  const sentence = `${lead}; ${period}${gap}${note}${where} there were ${plural(f[0], `arm's-length ${noun} sale`)}${mixed}, dated ${f[2]} to ${f[3]}, ${median}${byCounty(m, f)}${whose}${yearsCompared(data, m, s, type, noun, u)}${change}${pps}`;
  const names = s.sources.map((id) => data.spans.get(id)?.name ?? id);
  const citation = `Arm's-length sales (${and(names)}) of the counties of ${m[1]} (OMB July 2023 CBSA delineation), ${cite}`;
  const fact: Fact = { intent: 'trends', target: null, value: null, sentence, detail: [], source: { type: 'sales', category: 'market', citation }, confidence: cov.all ? 'high' : 'medium', primary: true, uncertain: null };
  const partial = s.sources.map((id) => data.partial.get(id)).filter((p) => p !== undefined);
  if (partial.length) {
    fact.sentence += `; these sales come from ${extractWords(partial)}, not every recorded sale, so counts and medians describe that extract only`;
    fact.confidence = minConf(fact.confidence, 'medium');
  }
  const states = [...new Set(a.metros.flatMap((x) => x[3].filter((c) => c[3] > 0).map((c) => c[2])))];
  for (const st of states) {
    const un = idx.unplaced[st];
    if (un) fact.sentence += `; ${plural(un[0], `${data.stateName(st)} sale`)} name a town this build places in no county (${some(un[1])}), so no metro figure counts them`;
  }
  return fact;
}

/** A county's sales of one year as its metro area's figure counts them (the figure "<city> metro median price <year>"
 *  gives), when the county holds every sale of that figure (the metro's other counties have none in the build: King
 *  County in the Seattle metro); else null. county-years.ts answers a county's year with it. */
export function countyYearFigure(data: ResearchData, fips: string, type: string, year: number): MetroFigure | null {
  for (const m of data.metros?.metros ?? []) {
    if (!m[3].some((c) => c[0] === fips)) continue;
    const f = data.metros!.sales[`metro|${m[0]}`]?.years[type]?.[String(year)];
    if (f && f[4][fips] === f[0]) return f;
  }
  return null;
}

/** The principal cities of a build's metros, made at its first metro question. */
const INDEXES = new WeakMap<object, PrincipalIndex>();

/** The answer to a sale price or sales count asked of a metro area; null when none is asked, the question asks no
 *  sales figure, or the build has no metro index. `today`: the build's data date (the figure's age, freshness.ts). */
export function metroAnswer(data: ResearchData, u: Understanding, q: string, depth: Depth, today: string): MetroAnswer | null {
  if (!data.metros || !u.intents.some((i) => i === 'trends' || i === 'comps')) return null;
  let idx = INDEXES.get(data.metros);
  if (!idx) INDEXES.set(data.metros, idx = principalIndex(data.metros.metros));
  const asked = metrosAsked(q, idx, (name) => data.citiesByName.get(name)?.[0]?.state ?? null);
  if (!asked.length) return null;
  // zips ranked in a metro, or another place beside it ("Seattle vs the Denver metro", "King County vs ..."): not a metro's figure alone
  const principal = (city: string): boolean => asked.some((a) => a.region !== null || principals(a.metros[0]![1]).cities.some((c) => c.toLowerCase() === city.toLowerCase()));
  if (/\bzips?\b|\bzip codes?\b/i.test(q) || u.targets.some((t) => t.zip || t.area || t.hood || (t.city && !principal(t.city)))) return null;
  const facts = asked.map((a) => metroFact(data, a, u));
  markAge(facts, today);
  // parts of the question no source records ("rents and the median price"): said, as every answer says them
  const gaps = u.gaps.slice(0, depth === 'quick' ? Math.max(0, 3 - facts.length) : u.gaps.length).map((g) => `${g.charAt(0).toUpperCase()}${g.slice(1).replace(/\.$/, '')}.`);
  const body = [...facts.map((f) => `${f.sentence.replace(/\.$/, '')}.`), ...gaps].join(' ');
  const cites = facts.flatMap((f) => (f.source ? [f.source.citation] : []));
  const answer = `${body}${depth === 'deep' && cites.length ? `\n\nSources: ${cites.join('; ')}` : ''}`;
  return { answer, citation: cites.join('; ') || null, confidence: [...facts.map((f) => f.confidence), ...(u.gaps.length ? ['medium' as const] : [])].reduce(minConf) };
}
