// The price trend of a zip or a city (POST /v1/research/query), from its trends shard: the index change over the
// months asked by the rule of GET /v1/market/trends' summary, with the other windows, the latest month's median, or
// why a change is missing (a month the source files do not cover is said so, never "0 sales": month-cover.ts); every
// figure given over months of a file with no residential subtype says so (sales-facts.ts mixedTypeNote). Split from
// market-facts.ts (review 16). Wording: warehouse/docs/research.md.
import { placeNoSalesWhy } from './county-no-sales.ts';
import { cityZipsPlaced } from './zip-city.ts';
import type { ResearchData, ShardKeys } from './data.ts';
import type { Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { missing, money, pct, plural, type Fact, type Source } from './facts.ts';
import { CHANGE_MIN_SAMPLE, changePct, latestSolid, type LevelPoint } from '../../warehouse/price-index.ts';
import { seriesMix } from '../../warehouse/price-mix.ts';
import { byCount, mixedTypeNote, noChangeReason, ownMarket, salesCountFact, TYPE_WORDS, wholeCity } from './sales-facts.ts';
import { windowFigure } from './market-window.ts';
import { joinYears, yearFact } from './year-facts.ts';
import { changeMonths } from './year-ago.ts';
import { EACH_MONTH, twelveMonthsTo, type Years } from './years.ts';
import { monthFact } from './month-facts.ts';
import { periodChange } from './period-change.ts';
import { yearMedianOf } from './year-facts.ts';
import { indexName, priceLevelFact, type StoredTrends } from './price-level.ts';
import { seriesCovered } from './month-cover.ts';
import { monthRuns } from './coverage.ts';
import { RANK, ranks } from './ranks.ts';
import { redfinNoPrice } from './redfin.ts';
import { typelessSentence } from './typeless.ts';
import { typeUnrecorded } from './type-unrecorded.ts';
import { fewZippedZip } from './zipless.ts';
import { changePeriod } from './figure-period.ts';
import { changeWindows, sharedWindow, sharedWords } from './shared-change.ts';

/** The price index change of a zip or a city over the months asked (default 12), from its trends shard, by the rule of
 *  GET /v1/market/trends' summary (warehouse/price-index.ts changePct: 20 sales at both ends), with the other windows. */
export async function trendsFact(data: ResearchData, u: Understanding, named: Target): Promise<Fact> {
  const type = u.propertyType;
  // a sales count or a window's median reads the research index's windows (a borough's own where the build keeps them),
  // anything else the trends shard
  const windowed = !u.years && (u.asks.includes('sales_count') || (u.priceLevel && u.months !== null));
  const t = await ownMarket(named, (city) => (windowed
    ? windowFigure(data.market, { state: named.state, city }, type, u.months ?? 12)
    : data.shard('trends', { state: named.state, city, property_type: type })));
  const keys: ShardKeys = t.zip ? { zip: t.zip, property_type: type } : { state: t.state, city: t.city!, property_type: type };
  const where = t.zip ? `zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}` : `${t.city}, ${t.state}`;
  // a type asked of a market whose source records no property type: said so, never "no condo sales" (typeless.ts)
  const typeless = typelessSentence(data, t, type, TYPE_WORDS[type]!, where);
  if (typeless) return missing('trends', t, typeless);
  // a type the market's sources record no sale of at all (Denver's land): said so, never "too few" (type-unrecorded.ts)
  const unrecorded = await typeUnrecorded(data, keys, type, u.asks.includes('sales_count') ? 'sales count' : u.priceLevel ? 'median sale price' : 'price trend', where);
  if (unrecorded) return missing('trends', t, unrecorded);
  // sales asked month by month with no period: each of the latest 12 months (below), not one window's count
  const monthly = !u.years && /\b(sales|sold)\b/i.test(u.query) && EACH_MONTH.test(u.query);
  if (u.asks.includes('sales_count') && !u.years && !monthly) return salesCountFact(data, u, t, where);
  const s = await data.shard<StoredTrends>('trends', keys);
  const what = u.priceLevel ? 'a median sale price' : 'a price trend';
  if (!s) return missing('trends', t, await data.hasFamily('trends', keys) ? `We have no ${TYPE_WORDS[type]} sales for ${what} in ${where}${placeNoSalesWhy(data, t) || cityZipsPlaced(data, t)}${redfinNoPrice(data, t)}` : 'Price trends are not part of this build');
  const c = s.series;
  const points: LevelPoint[] = c.month.map((_, i) => ({ level: c.level[i]!, se: c.se[i]!, n: c.index_sample_count[i]! }));
  const last = latestSolid(points, c.complete);
  // months of two subtype mixes give no change (warehouse/price-mix.ts), as the trends summary
  const mix = seriesMix(s.method, c.untyped_count, c.index_sample_count);
  // the months the source files cover: a change from one they do not is said so, never "0 sales" (month-cover.ts)
  const covered = seriesCovered(data, t, c);
  const src: Source = { type: 'trends', category: 'market', citation: `reii warehouse: price trend for ${where}, ${type}, as of ${s.as_of}` };
  // calendar years asked: those years' months of the same series, or that they are outside it (year-facts.ts)
  const year = (y: Years): Fact => (y.month ? monthFact(data, { ...u, years: y }, t, where, c, src, s.as_of) : yearFact(data, { ...u, years: y }, t, where, c, src, s.as_of));
  // periods compared: each one's figure, then the change between them (period-change.ts)
  const lastSold = c.month.findLast((_, i) => (c.sales_count[i] ?? 0) > 0);
  if (monthly && lastSold) return year(twelveMonthsTo(lastSold));
  if (u.years) return u.years.also ? joinYears([u.years, ...u.years.also].map(year), periodChange(c, [u.years, ...u.years.also], yearMedianOf(data, t, u.propertyType, c))) : year(u.years);
  const method = indexName(s);
  // a span past the kept windows (25-60 months): the index change over it, or why the series gives none
  const months = u.span ?? (u.months && u.months < c.month.length ? u.months : 12);
  if (u.priceLevel) {
    // a year back asked: the 12-month change beside a window of any length (year-ago.ts)
    const months = u.span ?? changeMonths(u.query, u.months && u.months < c.month.length ? u.months : 12);
    const change = last >= 0 ? changePct(points, months, c.complete, mix) : null;
    // a span asked past the kept windows: its change, or why there is none (never silently nothing)
    const why = change === null && (u.span || u.asks.includes('change')) ? `there is no ${months}-month index change: ${last >= 0 ? noChangeReason(c.month, points, last - months, c.complete, mix, last, covered) : `no complete month has ${CHANGE_MIN_SAMPLE} or more sales`}` : null;
    const f = priceLevelFact(data, s, u, t, where, src, change, months, last, why);
    // a change asked beside the price ("lowest price but highest growth"): said (a window's median says none of
    // itself) and ranked by its own direction, side by side with the price
    if (!u.asks.includes('change') || f.value === null) return f;
    // (a window's median says no change of itself: the change, or why there is none, is said after it, review 24 D)
    const said = change === null ? (why && !f.sentence.includes(why) ? `${f.sentence}; ${why}` : f.sentence)
      : f.sentence.includes(pct(change)) ? f.sentence : `${f.sentence}; the ${method} changed ${pct(change)} over the ${months} months to ${c.month[last]}`;
    const moved = change === null ? undefined : ranks(u, change, pct(change), RANK.change).ranks;
    const value = `${f.value}, ${change !== null ? `${pct(change)} over ${months} months` : `no ${months}-month change`}`;
    return { ...f, sentence: said, value, ...(moved ? { moreRanks: [...(f.moreRanks ?? []), moved] } : {}) };
  }
  if (last < 0) {
    // months of 20 sales recorded in part only (Sacramento's 2008-05, 400 sales of a file of 5 days): that is why, not
    // too few sales (review 20)
    const inPart = (i: number): boolean => covered[i] === false || c.complete?.[i] === false;
    const part = c.month.filter((_, i) => (c.sales_count[i] ?? 0) >= CHANGE_MIN_SAMPLE && inPart(i));
    const held = c.month.filter((_, i) => (c.sales_count[i] ?? 0) > 0);
    // every month with sales recorded in part only (zip 95825's 8 sales, all of 2008-05, a month Sacramento's file ends
    // inside), or a zip of a city whose sales mostly carry no zip (Stamford's 06902): that is why, not "no month with
    // 20" (review 21; the price level said so since review 20: price-level.ts noMonthMedian, zipless.ts)
    const heldAt = c.month.flatMap((_, i) => ((c.sales_count[i] ?? 0) > 0 ? [i] : []));
    const allPart = !part.length && heldAt.length > 0 && heldAt.every(inPart);
    const zipless = !part.length && !allPart && t.zip ? fewZippedZip(data, t, type, 'price trend in') : null;
    if (zipless) return { intent: 'trends', target: t, value: 'too few sales', sentence: `We have no ${what.replace(/^an? /, '')} for ${where}: ${zipless}`, detail: [], source: src, confidence: 'low', primary: true, uncertain: null };
    const why = allPart ? `${where} has no month recorded whole to measure ${what} from: its ${plural(heldAt.reduce((n, i) => n + (c.sales_count[i] ?? 0), 0), `${TYPE_WORDS[type]} sale`)} all fall in ${heldAt.length === 1 ? `one month, ${c.month[heldAt[0]!]}` : monthRuns(heldAt.map((i) => c.month[i]!))}, recorded in part only (a source file starts or ends inside ${heldAt.length === 1 ? 'the month' : 'each'}; its latest sale is of ${s.as_of})`
      : !part.length ? `${where} has no month with ${CHANGE_MIN_SAMPLE} or more ${TYPE_WORDS[type]} sales in the 60 months to ${s.as_of}, too few for ${what}`
      : `${where} has no complete month to measure ${what} from: ${held.length === part.length ? `its ${TYPE_WORDS[type]} sales all fall in ${part.length === 1 ? `one month, ${part[0]}` : monthRuns(part)}` : `${monthRuns(part)} ${part.length === 1 ? 'holds' : 'hold'} ${CHANGE_MIN_SAMPLE} or more ${TYPE_WORDS[type]} sales`}, recorded in part only (a source file starts or ends inside ${part.length === 1 ? 'the month' : 'each'}; its latest sale is of ${s.as_of})${held.length === part.length ? '' : `, and no month recorded whole has ${CHANGE_MIN_SAMPLE}`}`;
    return { intent: 'trends', target: t, value: 'too few sales', sentence: why, detail: [], source: src, confidence: 'low', primary: true, uncertain: null };
  }
  // places compared with no window asked: the change every side has over the same months (shared-change.ts)
  const shared = await sharedWindow(data, u, changeWindows(c.month.length, (m) => changePct(points, m, c.complete, mix)));
  // a span asked (25..60 months) stays the change asked, or why there is none, even past the series' reach
  const windows = [...new Set([shared?.months ?? months, 3, 12, 24])].filter((m, i) => m < c.month.length || (i === 0 && u.span !== null));
  const changes = windows.map((m) => ({ m, v: changePct(points, m, c.complete, mix) }));
  const asked = changes[0]!;
  const others = changes.slice(1).filter((x) => x.v !== null).map((x) => `${x.m} months ${pct(x.v!)}`);
  const end = c.month[last]!;
  const price = c.median_price[last];
  const head = asked.v === null
    ? `In ${where}, ${TYPE_WORDS[type]} prices have no ${asked.m}-month change: ${noChangeReason(c.month, points, last - asked.m, c.complete, mix, last, covered)}`
    : `In ${where}, the ${TYPE_WORDS[type]} ${method} changed ${pct(asked.v)} over the ${asked.m} months to ${end}${shared ? sharedWords(shared, where, changes.some((x) => x.m === 12 && x.v === null) ? noChangeReason(c.month, points, last - 12, c.complete, mix, last, covered) : null) : ''}`;
  const tail = [price != null ? `median sale price ${money(price)} in ${end} (${plural(c.sales_count[last] ?? 0, 'sale')})` : null, others.length ? `other windows: ${others.join(', ')}` : null].filter(Boolean);
  const start = asked.v === null ? null : points[last - asked.m]!;
  // a change whose end months hold sales of no known subtype (Connecticut's 2022 file) is all residential sales' change
  const note = asked.v === null ? '' : mixedTypeNote(data, t, type, [c.month[last - asked.m]!, end], start!.n + points[last]!.n);
  // and so is every other figure given over such months, said after them when the change asked has not said it
  // (review 16: New Canaan's "no 12-month change ... median sale price $1,130,000 in 2022-09 (33 sales); other
  // windows: 3 months -40.5%" called 2022's all-residential sales single-family)
  const given = [...new Set([...(price != null ? [last] : []), ...changes.slice(1).filter((x) => x.v !== null).flatMap((x) => [last - x.m, last])])].sort((a, b) => a - b);
  const tailNote = note || given.length === 0 ? '' : mixedTypeNote(data, t, type, given.map((i) => c.month[i]!), given.reduce((a, i) => a + points[i]!.n, 0)).replace('the figure is for', given.length > 1 ? 'these figures are for' : 'the figure is for');
  // months after the change's end held in part only (Connecticut's head-of-file 2022-10..2023-09 after Bridgeport's
  // 2022 file): said, so "3 months +7%" and 2022-09's median are not read as the latest months' (review 25)
  const held = c.month.flatMap((m, i) => (i > last && (c.sales_count[i] ?? 0) > 0 ? [{ m, i }] : []));
  const after = held.every((x) => covered[x.i] === false) ? held.map((x) => x.m) : [];
  const later = after.length ? `; ${end} is the latest month recorded whole with ${CHANGE_MIN_SAMPLE} or more sales: ${monthRuns(after)}, after it, ${after.length === 1 ? 'is' : 'are'} recorded in part only, with no median or index (as in GET /v1/market/trends)` : '';
  return {
    ...(asked.v === null ? {} : ranks(u, asked.v, pct(asked.v), RANK.change)), intent: 'trends', target: t, value: asked.v === null ? 'no change figure' : `${pct(asked.v)} (${asked.m} months to ${end})`,
    sentence: `${head}${note}${tail.length ? `; ${tail.join('; ')}` : ''}${tailNote}${later}${wholeCity(t)}`,
    detail: [`A change needs ${CHANGE_MIN_SAMPLE} or more sales at both ends; the monthly series is GET /v1/market/trends.`],
    source: src, confidence: start && !note && !tailNote ? byCount(Math.min(start.n, points[last]!.n)) : 'low', primary: true, uncertain: null,
    ...(t.zip ? { zip: { zip: t.zip, measure: asked.v, group: null, months: asked.m, asOf: end } } : {}),
    ...(asked.v === null ? {} : { period: changePeriod(asked.m, end) }), ...(note ? { typeNote: note } : {}),
  };
}
