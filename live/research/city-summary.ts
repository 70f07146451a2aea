// A zip-level topic asked about a city (POST /v1/research/query): the city's summary over every zip of it with data
// (how many, the lowest and the highest zip with their figures, the middle zip, the groups), then the highest zip's own
// fact (the lowest's when the low end is asked: "cheapest zips"); every zip's fact follows for deep answers. Wording: warehouse/docs/research.md.
import { noSalesWhy } from './county-no-sales.ts';
import type { ResearchData } from './data.ts';
import type { Intent } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, fmt, missing, money, pct, plural, type Confidence, type Fact, type ZipFigure } from './facts.ts';
import { dataEnd } from './freshness.ts';
import { mapsClause } from './flood-maps.ts';

/** What a city summary says of one topic: its noun, how a figure reads, and the source it cites. */
export interface CityTopic {
  intent: Intent;
  /** "rehab momentum scores": the missing-data sentence's noun */
  what: string;
  /** the citation's noun: "rehab momentum" */
  citation: { type: string; category: string; noun: string };
  /** the summary sentence from the zips with a figure (sorted by measure, lowest first); `few`: how many other zips have
   *  sales in their windows but too few for a figure */
  sentence: (place: string, figs: ZipFigure[], window: string, few: number) => string;
  /** a short value for comparisons */
  value: (figs: ZipFigure[]) => string;
  /** a county's zips listed with their figures after its summary (countyList), in place of one zip's own paragraph */
  show?: (n: number) => string;
  /** how a figure reads in a list of the top zips asked ("top 5 zips in Chicago by rehab score"), when not `show` */
  rank?: (n: number) => string;
  /** a change: ranked only among zips whose changes end in the same month (sameEndGroup) */
  sameEnd?: boolean;
}

/** A change is ranked only against changes over the same months (review 26: Seattle's 98119 -3% over 2014-07..10 was
 *  ranked beside 98146 +51.1% over 2015-01..04): the largest group of zips whose figures end in one month (the latest
 *  such month on a tie) is ranked; the others are said apart. */
function sameEndGroup(measured: Fact[]): { ranked: Fact[]; other: Fact[] } {
  const by = new Map<string, Fact[]>();
  for (const f of measured) by.set(f.zip!.asOf, [...(by.get(f.zip!.asOf) ?? []), f]);
  const [end] = [...by].sort((a, b) => b[1].length - a[1].length || b[0].localeCompare(a[0]))[0] ?? [''];
  return { ranked: measured.filter((f) => f.zip!.asOf === end), other: measured.filter((f) => f.zip!.asOf !== end) };
}

/** How many zips a county's list names. */
const LISTED = 6;

/** A county's zips with their figures (after its summary), the end asked first ("By zip, highest first: zip 95757 (Elk Grove) $335,750 (36
 *  sales); ..."): each zip's own figure, never a figure of the county as a whole. */
function countyList(data: ResearchData, t: Target, measured: Fact[], show: (n: number) => string, lowEnd: boolean, listed = LISTED): string {
  const order = lowEnd ? measured : [...measured].reverse();
  const item = (z: ZipFigure): string => {
    const city = data.zips.get(z.zip)?.city;
    return `zip ${z.zip}${city && city !== t.city ? ` (${city})` : ''} ${show(z.measure!)}${z.sales != null ? ` (${plural(z.sales, 'sale')})` : ''}`;
  };
  const more = order.length > listed ? `; and ${plural(order.length - listed, 'other zip')}` : '';
  return `By zip, ${lowEnd ? 'lowest' : 'highest'} first (each zip's own figure; no figure is kept for ${areaName(t)} as a whole): ${order.slice(0, listed).map((f) => item(f.zip!)).join('; ')}${more}`;
}

const CITY_ZIP_CAP = 200;

/** The middle of sorted numbers (the mean of the middle two for an even count). */
export function middle(sorted: number[]): number {
  const h = sorted.length >> 1;
  return sorted.length % 2 ? sorted[h]! : (sorted[h - 1]! + sorted[h]!) / 2;
}

/** "the 6 months to 2015-05-14" over the zips' windows and dates (every window when they differ); zips whose windows end
 *  on different days (each at its own latest sale) say so with the first and last end, never one end for all. */
function windowOf(figs: ZipFigure[]): string {
  const months = [...new Set(figs.map((f) => f.months).filter((m): m is number => m !== null))].sort((a, b) => a - b);
  const ends = figs.map((f) => f.asOf).sort();
  const asOf = ends.at(-1)!;
  if (ends[0] !== asOf) return months.length ? `the ${months.join(' or ')} months to each zip's own end (its latest data, ${ends[0]} to ${asOf})` : `as of ${ends[0]} to ${asOf}`;
  return months.length ? `the ${months.join(' or ')} months to ${asOf}` : `as of ${asOf}`;
}

/** The date the zips' data ends, when the window does not end at it: a trend's figures are of each zip's latest complete
 *  month ("as of 2014-06 to 2015-04"), its data runs on to the latest sale its zips' own citations name ("as of
 *  2015-05-27"), which the answer's age (freshness.ts) reads; '' when the window already ends there. */
function dataTo(facts: Fact[], figs: ZipFigure[], window: string): string {
  const end = [...facts.map((f) => dataEnd(f)).filter((d): d is string => d !== null), ...(/own end/.test(window) ? figs.map((f) => f.asOf) : [])].sort().at(-1);
  return end && !window.endsWith(end) ? `, as of ${end}` : '';
}

/** high when at least half the zips with a figure are high, medium when any is better than low, else low. */
function summaryConfidence(facts: Fact[]): Confidence {
  if (facts.every((f) => f.confidence === 'low')) return 'low';
  return facts.filter((f) => f.confidence === 'high').length * 2 >= facts.length ? 'high' : 'medium';
}

/** `lowEnd`: the question asks for the low end ("cheapest zips"), so the lowest zip's own fact follows the summary. */
export async function cityZipFacts(data: ResearchData, t: Target, make: (zip: string, primary: boolean) => Promise<Fact>, topic: CityTopic, comparison: boolean, lowEnd = false, top: number | null = null, noneWhy: string | null = null): Promise<Fact[]> {
  const place = areaName(t);
  // a neighbourhood: the zips its sales lie in (hoods.ts); a borough: its county's zips; a city: its own
  const zips = (t.hood ? t.hood.zips : t.area ? data.zipsOfCounty(t.area.county_fips) : data.zipsOfCity(t.city!, t.state)).slice(0, CITY_ZIP_CAP);
  const facts = (await Promise.all(zips.map((z) => make(z, false)))).filter((f) => f.source !== null);
  if (facts.length === 0) {
    const probe = await make(zips[0] ?? '00000', true);
    if (/not part of this build/.test(probe.sentence)) return [probe];
    return [missing(topic.intent, t, `We have no ${topic.what} for any zip of ${place}${topic.intent === 'trends' || topic.intent === 'comps' ? noSalesWhy(data, t, zips) : ''}`)]; // why, for a county or city (county-no-sales.ts)
  }
  const all = facts.filter((f) => f.zip && f.zip.measure !== null).sort((a, b) => a.zip!.measure! - b.zip!.measure! || a.zip!.zip.localeCompare(b.zip!.zip));
  const { ranked: measured, other } = topic.sameEnd ? sameEndGroup(all) : { ranked: all, other: [] };
  if (measured.length < 2 && other.length) {
    // every zip's change ends in its own month: each said with its end, none ranked
    const each = all.map((f) => `zip ${f.zip!.zip} ${(topic.show ?? String)(f.zip!.measure!)} (to ${f.zip!.asOf})`).join('; ');
    const sentence = `In ${place}, the ${plural(all.length, 'zip')} with ${topic.what.replace(/ \(.*\)$/, '')} each end in a different month, so none is ranked against another (a change is ranked only against changes over the same months): ${each}`;
    return [{ ...all[0]!, value: null, sentence, detail: [], primary: true, zip: undefined }, ...facts];
  }
  if (measured.length < 2) {
    // one zip (or none) has a figure: its own fact says it best
    const lead = measured[0] ?? facts[0]!;
    lead.primary = true;
    // a list of its zips asked ("top 5 zips", "which zips rose most"): one zip's figure, or none, is no list, said;
    // a county (not a borough or a neighbourhood): its one zip's figure is said as that zip's, never the county's
    if ((top || (t.area && !t.city)) && (lead.zip || (top && !measured.length)) && lead.sentence) {
      const what = topic.what.replace(/ \(.*\)$/, '');
      const lower = lead.sentence.charAt(0).toLowerCase() + lead.sentence.slice(1);
      const [all, withSales] = [plural(zips.length, 'zip'), plural(facts.length, 'zip')];
      lead.sentence = top
        ? measured.length
          ? `Of the ${all} of ${place}, only zip ${lead.zip!.zip} has ${what} (${withSales} with sales), so there is no list to rank: ${lower}`
          : `None of the ${all} of ${place} has ${what} to rank (${withSales} with sales): ${noneWhy ?? lower}`
        : measured.length
          ? `${place} has no figure as a whole: of its ${all}, only zip ${lead.zip!.zip} has ${what} (${withSales} with sales), so the figure is that zip's alone: ${lower}`
          : `${place} has no figure as a whole, and none of its ${all} has a solid one for ${what}; ${withSales} of it ${facts.length === 1 ? 'has' : 'have'} sales, zip ${lead.zip!.zip} the first of them: ${lower}`;
    }
    return [lead, ...facts.filter((f) => f !== lead)];
  }
  const figs = measured.map((f) => f.zip!);
  const window = windowOf(figs);
  const few = facts.filter((f) => f.zip && f.zip.measure === null && (f.zip.sales ?? 0) > 0).length;
  const ends = other.map((f) => f.zip!.asOf).sort();
  // the falls asked where every change is a rise, or the rises where every one is a fall: said, not left to the signs
  const none = !topic.sameEnd ? '' : lowEnd && figs[0]!.measure! > 0 ? '; none of them fell: the smallest rises come first' : !lowEnd && figs.at(-1)!.measure! < 0 ? '; none of them rose: the smallest falls come first' : '';
  const apart = other.length ? `; ${plural(other.length, 'more zip')} ${other.length === 1 ? 'has a change' : 'have changes'} ending in ${ends[0] === ends.at(-1) ? ends[0] : `other months (${ends[0]} to ${ends.at(-1)})`}, not ranked with these: a change is ranked only against changes over the same months` : '';
  const summary: Fact = {
    intent: topic.intent, target: t, value: topic.value(figs), sentence: topic.sentence(place, figs, window, few) + none + apart,
    detail: [`${plural(figs.length, 'zip')} of ${place} have a figure${facts.length > figs.length ? `; ${plural(facts.length - figs.length, 'other zip')} too few records for one` : ''}${zips.length === CITY_ZIP_CAP ? ` (the first ${CITY_ZIP_CAP} zips were read)` : ''}.`],
    // windows with different ends: the citation also names the newest, the date the data ends (freshness.ts)
    source: { type: topic.citation.type, category: topic.citation.category, citation: `reii warehouse: ${topic.citation.noun} for ${plural(figs.length, 'zip')} of ${place}, ${window}${dataTo(measured, figs, window)}` },
    confidence: summaryConfidence(measured), primary: true, uncertain: null,
  };
  // a county: its zips listed with their figures, not one zip's paragraph after the range
  // a city's or a county's top zips asked ("top 5 zips in Chicago by rehab score"): the number asked listed likewise
  const show = topic.show ?? (top ? topic.rank : undefined);
  if (((t.area && !t.city) || top) && !t.hood && show && !comparison) {
    // its figures are the summary's (cited there, dated there: freshness.ts reads a fact's source, so none here)
    const list: Fact = { intent: topic.intent, target: t, value: null, sentence: countyList(data, t, measured, show, lowEnd, top ?? LISTED), detail: [], source: null, confidence: summary.confidence, primary: true, uncertain: null };
    return [summary, list, ...facts];
  }
  const [lowest, highest] = [measured[0]!, measured.at(-1)!];
  const shown = lowEnd ? lowest : highest;
  // side by side, a city shows its summary only; when every zip has the same figure, no zip stands out
  if (!comparison && highest.zip!.measure !== lowest.zip!.measure) shown.primary = true;
  return [summary, shown, ...facts.filter((f) => f !== shown)];
}

/** "run from 9 (zip 77053) to 91 (zip 77026)", or "are 12 in every zip" when the lowest is the highest */
const range = (figs: ZipFigure[], show: (n: number) => string): string => {
  const [lo, hi] = [figs[0]!, figs.at(-1)!];
  return show(lo.measure!) === show(hi.measure!) ? `are ${show(hi.measure!)} in every zip` : `run from ${show(lo.measure!)} (zip ${lo.zip}) to ${show(hi.measure!)} (zip ${hi.zip})`;
};
/** The middle zip's figure, or with an even number of zips the mean of the two middle ones (no zip's figure: said so),
 *  rounded once, by `show` (review 30: Federal Way's 160.23 and 146.70, rounded to 153.5 and then to "$154 at the
 *  middle zip", where their mean is $153). `value`: the short form of a comparison, its figure's noun before it. */
function mid(figs: ZipFigure[], show: (n: number) => string, value?: string): string {
  const m = show(middle(figs.map((f) => f.measure!)));
  if (figs.length % 2) return value !== undefined ? `middle zip ${value}${m}` : `${m} at the middle zip`;
  return value !== undefined ? `two middle zips' mean ${value}${m}` : `${m} midway between the two middle zips (their mean)`;
}
/** A score to 1 decimal. */
const one = (n: number): string => fmt(Math.round(n * 10) / 10);
const groups = (figs: ZipFigure[], word: (g: string) => string): string => {
  const n = new Map<string, number>();
  for (const f of figs) if (f.group) n.set(f.group, (n.get(f.group) ?? 0) + 1);
  if (n.size === 1 && [...n.values()][0] === figs.length) return `all ${figs.length} ${word([...n.keys()][0]!)}`;
  return [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([g, k]) => `${k} ${word(g)}`).join(', ');
};

export const COMPS_TOPIC = (typeWord: string): CityTopic => ({
  intent: 'comps', what: `${typeWord} comparable sales`,
  citation: { type: 'comps', category: 'market', noun: `${typeWord} comps` },
  sentence: (place, figs, window) => `In ${place}, ${plural(figs.length, 'zip')} had 5 or more ${typeWord} sales in ${window} (${plural(figs.reduce((s, f) => s + (f.sales ?? 0), 0), 'sale')} in all); their median prices per sqft ${range(figs, money)}, ${mid(figs, money)}`,
  value: (figs) => `${mid(figs, money, '')}/sqft (${plural(figs.length, 'zip')})`,
});

/** A county's price trend: each zip's change over the window asked (12 months unless asked), or with `priceLevel` its
 *  latest complete month's median sale price (a month of 20 or more sales). */
/** What a county's zips' median sale prices are of (price-level.ts): a zip's latest complete month of 20 or more sales
 *  (months null), or where that month is stale or none is complete, its recent months pooled (months: the window).
 *  Before, every figure was said to be a complete month's, while Sacramento County's 13 were all pooled. */
function levelKinds(figs: ZipFigure[], typeWord: string): string {
  const pooled = figs.filter((f) => f.months !== null).length, monthly = figs.length - pooled;
  if (pooled === 0) return `had a complete month of 20 or more ${typeWord} sales; their latest such months' median sale prices`;
  if (monthly === 0) return `had 20 or more ${typeWord} sales in their last months pooled (none has a recent complete month of 20); their median sale prices`;
  return `have a median of 20 or more ${typeWord} sales, for ${monthly} of their latest complete month of 20, for ${pooled} of their last months pooled (no recent complete month of 20); the medians`;
}

export const TRENDS_TOPIC = (typeWord: string, priceLevel: boolean): CityTopic => ({
  intent: 'trends', what: priceLevel ? `${typeWord} median sale prices` : `${typeWord} price trends`,
  citation: { type: 'trends', category: 'market', noun: `${typeWord} price trends` },
  sentence: priceLevel
    ? (place, figs, window) => `In ${place}, ${plural(figs.length, 'zip')} ${levelKinds(figs, typeWord)} ${range(figs, money)}, ${mid(figs, money)} (${window})`
    : (place, figs, window) => `Across ${plural(figs.length, 'zip')} of ${place} with a ${typeWord} price change over ${window}, the changes ${range(figs, pct)}, ${mid(figs, pct)}`,
  value: (figs) => mid(figs, priceLevel ? money : pct, '') + ` (${plural(figs.length, 'zip')})`,
  show: priceLevel ? money : pct,
  sameEnd: !priceLevel,
});

/** A city's zips ranked by the median of their arm's-length sales over a window (the research index's windows, each
 *  zip's ending at its latest sale): the cheapest first when the low end is asked, else the most expensive; `both`
 *  (both ends asked: "cheapest and most expensive zips"), up to 3 named at each end, the cheapest first. */
export const ZIP_PRICE_TOPIC = (typeWord: string, lowEnd: boolean, both = false): CityTopic => {
  // each zip's window ends at its own latest sale: a zip named says its end when the zips' ends differ
  const zipPrice = (f: ZipFigure, own = false): string => `zip ${f.zip} ${money(f.measure!)} (${plural(f.sales ?? 0, 'sale')}${own ? ` to ${f.asOf}` : ''})`;
  const low = lowEnd || both;
  const [first, last] = low ? ['cheapest', 'most expensive'] : ['most expensive', 'cheapest'];
  const each = (figs: ZipFigure[]): number => (both ? Math.min(3, Math.floor(figs.length / 2)) : 1);
  const ends = (figs: ZipFigure[]): [ZipFigure[], ZipFigure[]] => (low ? [figs.slice(0, 3), figs.slice(-each(figs)).reverse()] : [figs.slice(-3).reverse(), figs.slice(0, 1)]);
  const list = (xs: string[]): string => (xs.length > 1 ? `are ${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : `is ${xs[0]}`);
  return {
    intent: 'trends', what: `${typeWord} median sale prices (a zip needs 5 or more sales in the window)`,
    citation: { type: 'sales', category: 'market', noun: `arm's-length ${typeWord} sales` },
    sentence: (place, figs, window, few) => {
      const [top, other] = ends(figs);
      // the zips with sales but under 5 in their windows: left out of the ranking, said (review 20: Sacramento's 9)
      const left = few ? `; ${plural(few, 'more zip')} had sales in ${few === 1 ? 'its window' : 'their windows'} but fewer than 5, too few for a median, so ${few === 1 ? 'it is' : 'they are'} left out` : '';
      const own = new Set(figs.map((f) => f.asOf)).size > 1;
      const zipPrice1 = (f: ZipFigure): string => zipPrice(f, own);
      const named = (both ? top.slice(0, each(figs)) : top).map(zipPrice1);
      const others = other.map(zipPrice1);
      return `In ${place}, ${plural(figs.length, 'zip')} had 5 or more arm's-length ${typeWord} sales in ${window}; by median sale price the ${first} ${list(named)}, the ${last} ${others.length > 1 ? list(others) : others[0]}; ${mid(figs, money)}${left}`;
    },
    value: (figs) => `${first} ${zipPrice(ends(figs)[0][0]!)} of ${plural(figs.length, 'zip')}`,
    // the number of zips asked ("top 5 zips by median price"), listed with their sales (countyList)
    rank: money,
  };
};

/** What a city's rehab scores rest on: permits and sales, rehab resales alone where no permit source covers its zips,
 *  or building permits alone where no sales record does (Chicago, Nashville). */
function rehabBasis(figs: ZipFigure[]): string {
  const only = figs.filter((f) => f.resalesOnly).length;
  const permits = figs.filter((f) => f.permitsOnly).length;
  if (permits === figs.length) return 'from building permits alone: no sales record covers its zips, so there are no rehab resales; a zip with no renovation permit in the window scores low';
  if (only === figs.length) return 'from rehab resales alone: no building permit source covers its zips, so there is no renovation permit data';
  const parts = [only ? `${only} of these zips from rehab resales alone, no building permit source covering them` : '', permits ? `${permits} from building permits alone, no sales record covering them` : ''].filter(Boolean);
  return `from its building permits and sales; ${parts.length ? parts.join('; ') : 'a zip with no renovation permit in the window scores low'}`;
}

export const REHAB_TOPIC: CityTopic = {
  intent: 'rehab', what: 'rehab momentum scores',
  citation: { type: 'rehab', category: 'market', noun: 'rehab momentum' },
  // zips no permit source covers score from rehab resales alone, said so (their shards' note: review r16b #19)
  sentence: (place, figs, window) => `Across ${plural(figs.length, 'zip')} of ${place} with a rehab momentum score (${rehabBasis(figs)}), scores ${range(figs, fmt)} (out of 100) over ${window}, ${mid(figs, one)} (${groups(figs, (g) => g)})`,
  value: (figs) => `${mid(figs, one, '')} (${plural(figs.length, 'zip')})`,
  rank: (n) => `score ${fmt(n)}`,
};

export const LOCATION_TOPIC: CityTopic = {
  intent: 'location', what: 'flood and Superfund data',
  citation: { type: 'location', category: 'location_risk', noun: 'location risk' },
  sentence: (place, figs, window) => {
    const superfund = figs.filter((f) => f.superfund).length;
    // the loaded flood maps its zips' notes name: which zips each reaches, how much (flood-maps.ts)
    return `Of ${plural(figs.length, 'zip')} of ${place}, ${groups(figs, (g) => g)}; ${superfund ? `${superfund} with` : 'none has'} a Superfund site within 1 mile; environmental risk scores ${range(figs, fmt)} (out of 100), ${window}${mapsClause(place, figs)}`;
  },
  value: (figs) => `${mid(figs, one, 'risk score ')} (${plural(figs.length, 'zip')})`,
};
