// A county asked with a year, a quarter or a month span ("median sale price in King County in 2014", "Sacramento County
// in 2008"): no figure of a county as a whole is kept, so its zips are listed side by side, each with its own sales of
// those months and their monthly medians (the zips' trends shards), as the county's answer without a year lists its
// zips. Before, the first zip's year answered alone, worded as if it were the county's ("In zip 98001, in 2014 ...").
// Rules: warehouse/docs/research.md "Years" and "Counties".
import type { ResearchData } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, minConf, money, plural, type Fact } from './facts.ts';
import { hoodName } from './hoods.ts';
import type { Years } from './years.ts';
import { TYPE_WORDS } from './sales-facts.ts';
import { inYears } from './year-facts.ts';
import type { StoredTrends } from './price-level.ts';
import { monthRuns, spanWords, uncoveredMonths } from './coverage.ts';
import { periodWhen, resolveLast } from './periods.ts';
import { countyYearFigure } from './metro.ts';
import type { MetroFigure } from './metro-build.ts';

/** How many zips the list names. */
const LISTED = 6;

interface ZipYear { zip: string; n: number; lo: number | null; hi: number | null; months: string[] }

/** The county's zips' sales of the months asked; `zipFact` a zip's own answer for them (year-facts.ts), deep only. */
export async function countyYearFacts(data: ResearchData, u: Understanding, t: Target, zipFact: (zip: string) => Promise<Fact>): Promise<Fact[]> {
  // one month named ("May 2015") is a span of that month alone
  const type = u.propertyType;
  const zips = data.zipsOfCounty(t.area!.county_fips);
  // a season counted back ("last spring"): the last one before the latest sale of the county's zips (periods.ts)
  const end = u.years!.last || u.years!.lastMonth ? (await Promise.all(zips.map((zip) => data.shard<StoredTrends>('trends', { zip, property_type: type })))).reduce((a, s) => (s && s.as_of > a ? s.as_of : a), '') : '';
  const asked = end ? resolveLast(u.years!, end.slice(0, 7)) : u.years!;
  const y: Years = asked.month ? { ...asked, months: [asked.month, asked.month] } : asked;
  const noun = TYPE_WORDS[type]!;
  const place = areaName(t);
  const rows: ZipYear[] = [];
  const partOnly = new Set<string>(); // months recorded in part only (month-facts.ts): counted, with no median
  let first: string | null = null, last: string | null = null, asOf = '';
  for (const zip of zips) {
    const s = await data.shard<StoredTrends>('trends', { zip, property_type: type });
    if (!s) continue;
    const c = s.series;
    const sold = c.month.map((m, i) => ({ m, i, n: c.sales_count[i] ?? 0 })).filter((x) => x.n > 0);
    if (!sold.length) continue;
    if (first === null || sold[0]!.m < first) first = sold[0]!.m;
    if (last === null || sold.at(-1)!.m > last) last = sold.at(-1)!.m;
    if (s.as_of > asOf) asOf = s.as_of;
    const asked = sold.filter((x) => inYears(x.m, y));
    if (!asked.length) continue;
    const medians = asked.map((x) => c.median_price[x.i]).filter((v): v is number => v != null);
    for (const x of asked) if (c.covered?.[x.i] === false) partOnly.add(x.m);
    rows.push({ zip, n: asked.reduce((a, x) => a + x.n, 0), lo: medians.length ? Math.min(...medians) : null, hi: medians.length ? Math.max(...medians) : null, months: asked.map((x) => x.m) });
  }
  const when = y.month ? `in ${y.label}` : periodWhen(y.label);
  const src = { type: 'trends', category: 'market', citation: `reii warehouse: ${noun} price trends of the zips of ${place}, ${y.label}, as of ${asOf}` };
  if (!rows.length) {
    const range = first ? `the monthly ${noun} sales we keep for its zips run from ${first} to ${last}` : `we keep no monthly ${noun} sales for its zips`;
    return [{ intent: 'trends', target: t, value: `no sales ${when}`, sentence: `I don't have ${noun} ${u.asks.includes('sales_count') ? 'sales' : 'sale prices'} for ${place} ${when}: ${range}, so ${y.label.replace(/^since /, '')} ${y.months ? 'are' : 'is'} outside the data`, detail: [], source: null, confidence: 'low', primary: true, uncertain: null }];
  }
  rows.sort((a, b) => b.n - a.n || a.zip.localeCompare(b.zip));
  const total = rows.reduce((a, r) => a + r.n, 0);
  const held = [...new Set(rows.flatMap((r) => r.months))].sort();
  // months of the years asked inside no file of the source (King County's 2014-01..04): said, as a zip's answer says
  const lastYear = y.to ?? Number(last!.slice(0, 4));
  const allMonths: string[] = [];
  for (let yr = y.from; yr <= lastYear; yr++) for (let m = 1; m <= 12; m++) allMonths.push(`${yr}-${String(m).padStart(2, '0')}`);
  const empty = allMonths.filter((m) => inYears(m, { ...y, to: lastYear }) && !held.includes(m) && m <= last!);
  const uncovered = uncoveredMonths(data, { zip: rows[0]!.zip, state: t.state }, empty);
  const outside = uncovered.length ? `; ${monthRuns(uncovered)} ${uncovered.length === 1 ? 'is' : 'are'} not covered by the source (${spanWords(data, { zip: rows[0]!.zip, state: t.state })})` : '';
  const part = partOnly.size ? `; ${monthRuns([...partOnly].sort())} ${partOnly.size === 1 ? 'is' : 'are'} recorded in part only (a source file starts or ends inside the month, or holds a sliver of its sales): counted, with no median` : '';
  const item = (r: ZipYear): string => {
    const city = data.zips.get(r.zip)?.city;
    const med = r.lo === null ? '' : r.lo === r.hi ? `, monthly median ${money(r.lo)}` : `, monthly medians ${money(r.lo)} to ${money(r.hi!)}`;
    return `zip ${r.zip}${city ? ` (${city})` : ''} ${plural(r.n, 'sale')}${med}`;
  };
  const more = rows.length > LISTED ? `; and ${plural(rows.length - LISTED, 'other zip')}` : '';
  const whole = countyWholeYear(data, y, t, type);
  if (whole) {
    const median = whole[1] === null ? 'too few for a median (under 5)' : `at a median sale price of ${money(whole[1])}`;
    const sentence = `In ${place}, ${when} there were ${plural(whole[0], `arm's-length ${noun} sale`)} (months held: ${monthRuns(held)}${outside}${part}), dated ${whole[2]} to ${whole[3]}, ${median} (all of the county's sales of the year together, as its metro area's figure counts them). By zip, most sales first: ${rows.slice(0, LISTED).map(item).join('; ')}${more}`;
    const own = await Promise.all(rows.map((r) => zipFact(r.zip)));
    return [{ intent: 'trends', target: t, value: `${plural(whole[0], 'sale')} ${when}`, sentence, detail: ['The county\'s figure is its metro area\'s year figure (metro.json), all of whose sales are this county\'s; each zip\'s monthly figures are its trends series.'], source: { ...src, citation: `Arm's-length ${noun} sales of ${place}, ${y.label} (sales as of ${asOf})` }, confidence: 'medium', primary: true, uncertain: null }, ...own.map((f) => ({ ...f, primary: false }))];
  }
  const summary: Fact = {
    intent: 'trends', target: t, value: `${plural(total, 'sale')} counted in ${plural(rows.length, 'zip')} ${when}`,
    sentence: `${place} has no figure kept as a whole ${when} (no count or median over all of a county's sales is kept), so its zips are listed, each with its own figures: ${plural(rows.length, 'zip')} of its ${zips.length} had arm's-length ${noun} sales ${when} (months held: ${monthRuns(held)}${outside}${part}), ${plural(total, 'sale')} counted in all (a zip's month with fewer than 5 sales is not counted, so the county had at least that many); a median over all of those sales together is not kept. By zip, most sales first: ${rows.slice(0, LISTED).map(item).join('; ')}${more}`,
    detail: ['Each zip\'s monthly figures are its trends series (a month\'s median needs 5 or more sales); GET /v1/market/trends gives them.'],
    source: src, confidence: 'medium', primary: true, uncertain: null,
  };
  const own = await Promise.all(rows.map((r) => zipFact(r.zip)));
  return [summary, ...own.map((f) => ({ ...f, primary: false }))];
}

/** One whole year of a county that holds every sale of its metro's figure: that exact count and median (metro.ts);
 *  null for a month, a span, several years or a county no metro figure is all of. */
export function countyWholeYear(data: ResearchData, y: Years, t: Target, type: string): MetroFigure | null {
  return !y.month && !y.months && !y.also && !y.last && (y.to ?? y.from) === y.from ? countyYearFigure(data, t.area!.county_fips, type, y.from) : null;
}

/** A year asked of a neighbourhood its sales source names ("Harlem multi-family median price in 2021", "Park Slope
 *  2023"): its own sales are kept over windows of its latest 3 to 24 months only, never by calendar year, so the year is
 *  said not answered and the window shown is named, before the window's figure. Before, the trailing 12 months were
 *  answered as if they were the year asked. */
export function hoodYearsFact(t: Target, y: Years, f: Fact): Fact {
  const labels = [y, ...y.also ?? []].map((x) => x.label);
  const asked = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0]!;
  const name = hoodName(t.hood!);
  const lower = f.sentence.startsWith('In ') ? `in ${f.sentence.slice(3)}` : f.sentence;
  return {
    ...f, confidence: minConf(f.confidence, 'medium'),
    sentence: `${asked} ${labels.length > 1 || y.months ? 'are' : 'is'} not answered for ${name}: a neighbourhood's own sales are kept over its latest 3 to 24 months only, not by calendar year, so the figure shown is of its latest months instead (${t.hood!.part}'s own sales by year are answered when ${t.hood!.part} is asked); ${lower}`,
  };
}

/** Whether a county's zips hold sales, none of them in the years asked ("how many houses sold in king county since
 *  2020": every sale is of 2014-2015): then its count is answered as its years' (countyYearFacts: outside the data,
 *  with the months its zips' sales run), never "kept per city or zip; name one of them" (h68ask3). */
export async function countyNoneIn(data: ResearchData, y: Years, t: Target, type: string): Promise<boolean> {
  if (y.last || y.lastMonth) return false;
  const months = y.month ? { ...y, months: [y.month, y.month] as [string, string] } : y;
  let any = false;
  for (const zip of data.zipsOfCounty(t.area!.county_fips)) {
    const c = (await data.shard<StoredTrends>('trends', { zip, property_type: type }))?.series;
    const sold = c ? c.month.filter((_, i) => (c.sales_count[i] ?? 0) > 0) : [];
    if (sold.some((m) => inYears(m, months))) return false;
    any ||= sold.length > 0;
  }
  return any;
}
