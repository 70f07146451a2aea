// Market and location facts of one place (POST /v1/research/query, warehouse/docs/research.md), read from the build's
// shards: comparable sales, rehab momentum and flood and Superfund risk per zip (every zip of a city asked about),
// investor activity per city, a zip's or city's price trend (trends-fact.ts); an unasked window tries 6, 12, 24 months.
import type { ResearchData, ShardKeys } from './data.ts';
import type { Intent, Understanding } from './intent.ts';
import type { Target } from './places.ts';
import { areaName, fmt, inline, minConf, missing, money, MONTH_TRIES, plural, windowEnd, type Confidence, type Fact, type Source } from './facts.ts';
import { cityZipFacts, COMPS_TOPIC, LOCATION_TOPIC, REHAB_TOPIC, TRENDS_TOPIC } from './city-summary.ts';
import { bandNote, cityNoAreaFact, cityPpsfFact, listRatioFacts, countyFact, noAreaFact, NO_RATIO, ownMarket, salesCountFact, TYPE_WORDS, wholeCity, windowMonths, windowPriceFact, zipPriceFacts } from './sales-facts.ts';
import { windowGap } from './window-gaps.ts';
import { trendsFact } from './trends-fact.ts';
import { countyNoneIn, countyWholeYear, countyYearFacts, hoodYearsFact } from './county-years.ts';
import { countyCity, countyCityReading } from './county-city.ts';
import { hoodOtherType } from './hood-types.ts';
import { distressCity } from './place-prefer.ts';
import { perCityFact } from './county-market.ts';
import { countyDistressFact } from './county-distress.ts';
import { distressPeriods } from './distress-periods.ts';
import { cityOfZip, distressWords, heldKinds, FLIP_SHARE_NOT_KEPT, investorBits, type Investor, unknownShareWhy } from './investor-bits.ts';
import { filingsPeriod, windowPeriod } from './figure-period.ts';
import { zipYearFact, zipYearRanking } from './zip-years.ts';
import { demolitionFact } from './demolitions.ts';
import { cityYearFact, cityYearRanking } from './city-years.ts';
import { domFact, domFrom, type CompsDom } from './dom-facts.ts';
import { RANK, ranks } from './ranks.ts';
import { rehabFact } from './rehab-facts.ts';
import { permitsNotHere } from './permit-areas.ts';
import { hoodRankAsked, hoodRankFact } from './hood-ranks.ts';
import { noFilings } from './no-filings.ts';
import { stateMarketFact, stateNoMarket } from './state-market.ts';
import { distressKindAsked, distressKindsOf, distressOfKind } from './distress-kinds.ts';
import { NO_PERMIT_COUNTS, permitCountFacts, permitCountsKept } from './permit-counts.ts';
import { redfinLatestFact, withRedfinDom } from './redfin.ts';
import { floodGroup, floodMapOf, floodSentence, superfundUnknown } from './flood-maps.ts';
import { placedCity, withZipCity } from './zip-city.ts';
import { SPEED_RANK, topAsked } from './asked.ts';
import { noZipChange, zipChangeRanking } from './zip-changes.ts';
import { ziplessCity } from './zipless.ts';

interface Comps { zip_code: string; city: string; state: string; property_type: string; note?: string | null; sample_count: number | null; price_per_sqft: { p25: number | null; median: number | null; p75: number | null }; days_on_market: CompsDom; list_to_sale_ratio: number | null; confidence: Confidence; as_of: string; coverage?: { window_end: string } | null }
interface Location { zip_code: string; city: string; state: string; flood_zone: string; flood_risk_label: string; flood_risk_notes: string; flood_map_loaded: boolean; superfund_nearby: boolean; superfund_count_1mi: number; environmental_risk_score: number; confidence: Confidence; as_of: string }

async function compsFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Promise<Fact> {
  const type = u.propertyType;
  const keys = (months: number): ShardKeys => ({ zip, property_type: type, months: String(months) });
  const tries = MONTH_TRIES(u.months, 6);
  for (const months of tries) {
    const c = await data.shard<Comps>('comps', keys(months));
    if (!c) continue;
    const end = windowEnd(c);
    const src: Source = { type: 'comps', category: 'market', citation: `reii warehouse: comps for ${zip}, ${type}, ${months} months, as of ${end}` }; // the window's end, as said (h78ask: as_of said 2022-11 of a window to 2022-12-02)
    const where = `zip ${zip}${c.city ? ` (${c.city}, ${c.state})` : ''}`;
    // the list-to-sale ratio: said when the zip has one, and said to be missing when it is asked
    const ratio = c.list_to_sale_ratio;
    const told = ratio !== null ? `its list-to-sale ratio is ${ratio.toFixed(3)}` : u.asks.includes('list_ratio') ? `it has no list-to-sale ratio: ${NO_RATIO}` : null;
    if (c.sample_count === null || c.price_per_sqft.median === null) {
      // comps are the sales with a living area: many sales with none recorded is not "fewer than 5 sales"
      // the comps answer's own note (a zip with sales but none with a living area) when the index has no window figure
      const few: Fact = noAreaFact(data, u, t, zip, where, months, primary) ?? { intent: 'comps', target: t, value: 'fewer than 5 comps', sentence: c.note ? `In ${where}, ${c.note} (the ${months} months to ${end})` : `${where} had fewer than 5 ${TYPE_WORDS[type]} sales with a recorded living area in the ${months} months to ${end}, too few to report a price per sqft`, detail: [], source: src, confidence: 'low', primary, uncertain: null, zip: { zip, measure: null, group: null, months, asOf: end } };
      const dom = c.days_on_market.median, domTold = dom !== null ? `its median days on market is ${fmt(dom)}${domFrom(c)}` : null;
      return { ...few, sentence: [few.sentence, domTold, told].filter(Boolean).join('; '), zip: { ...few.zip!, ratio, dom } };
    }
    const p = c.price_per_sqft;
    const bits = [`median ${money(p.median!)} per sqft${p.p25 !== null && p.p75 !== null ? ` (middle half ${money(p.p25)}-${money(p.p75)})` : ''}`];
    if (c.days_on_market.median !== null) bits.push(`median ${fmt(c.days_on_market.median)} days on market${domFrom(c)}`);
    else if (u.asks.includes('dom')) bits.push('but no days-on-market figure: the sales records of this zip carry no listing dates');
    if (ratio !== null) bits.push(`list-to-sale ratio ${ratio.toFixed(3)}`);
    else if (told) bits.push(`but no list-to-sale ratio: ${NO_RATIO}`);
    return {
      // days on market asked ranks by it (a zip without it has no figure to rank), else the price per sqft ranks
      ...(!u.asks.includes('dom') ? ranks(u, p.median!, `${money(p.median!)}/sqft`, RANK.ppsf) : c.days_on_market.median !== null ? ranks(u, c.days_on_market.median, `${fmt(c.days_on_market.median)} days`, RANK.dom) : {}),
      intent: 'comps', target: t, value: `${money(p.median!)}/sqft (${c.sample_count} sales)`, period: windowPeriod(data, { zip, state: t.state }, months, end, windowMonths(end, months)),
      sentence: `In ${where}, ${c.sample_count} ${TYPE_WORDS[type]} sales in the ${months} months to ${end}${windowGap(data, { zip, state: t.state }, windowMonths(end, months), end)} had a ${bits.join(', ')}`,
      detail: [`Comparable-sales confidence: ${c.confidence} (by sample count).`], source: src, confidence: c.confidence, primary, uncertain: null,
      zip: { zip, measure: p.median!, group: null, months, asOf: end, sales: c.sample_count, ratio, dom: c.days_on_market.median },
    };
  }
  // a zip asked with no sales records at all: its days on market from its latest Redfin snapshot (redfin.ts)
  const redfin = t.zip === zip && !data.market?.windows[`zip|${zip}|sfr`] ? redfinLatestFact(data.redfin.snapshots(zip), u, t, zip, `zip ${zip}`) : null;
  if (redfin) return redfin;
  return missing('comps', t, await data.hasFamily('comps', keys(tries[0]!))
    ? `We have no ${TYPE_WORDS[type]} comparable sales for zip ${zip}${u.months ? ` in the last ${u.months} months` : ''}`
    : 'Comparable-sales data is not part of this build');
}

async function investorFact(data: ResearchData, u: Understanding, named: Target): Promise<Fact> {
  if (!named.city) return missing('investor', named, u.asks.includes('distress') ? `Distressed properties (pre-foreclosure, tax-delinquent or lien filings) are counted per city; name a city in ${data.stateName(named.state)}` : `Investor activity is reported per city; name a city in ${data.stateName(named.state)}`);
  const tries = MONTH_TRIES(u.months, 12);
  const t = await ownMarket(named, (city) => data.shard('investor', { state: named.state, city, months: String(tries[0]) }));
  const keys = (months: number): ShardKeys => ({ state: t.state, city: t.city!, months: String(months) });
  for (const months of tries) {
    const r = await data.shard<Investor>('investor', keys(months));
    if (!r) continue;
    // The rate is null where the sources carry no buyer names: say so rather than print a number.
    const pipeline = `are in the pipeline over the ${months} months to ${r.distress_as_of ?? r.as_of}`;
    const distress = typeof r.distressed_pipeline_count === 'number' ? `${distressWords(r.distressed_pipeline_count, r.distressed_without_parcel, distressKindsOf(data, [{ state: t.state, city: t.city! }]))} ${pipeline}` : null;
    // filings whose records give no case outcome (a distress.csv without closed_date): counted open (review 22)
    const noOutcome = distress ? (r.note ?? '').split('; ').find((c) => c.includes('give no case outcome')) : undefined;
    // a count of foreclosures or liens asked: the pipeline leads, or is said to be missing
    if (u.asks.includes('distress')) {
      // a kind asked (tax-delinquent): that kind's count where the filings record it, else said to be every kind (distress-kinds.ts)
      const asked = distress ? distressKindAsked(u.query) : null;
      const kind = asked ? distressOfKind(data, t.state, t.city!, months, r.distress_as_of ?? r.as_of, asked) : null;
      const n = kind && 'count' in kind ? kind.count : r.distressed_pipeline_count!;
      const lead = kind && 'count' in kind
        ? `${kind.words} ${pipeline}, of ${distressWords(r.distressed_pipeline_count!, r.distressed_without_parcel, distressKindsOf(data, [{ state: t.state, city: t.city! }]))} of every kind`
        : `${distress}${kind && 'note' in kind ? ` (${kind.note})` : ''}`;
      return {
        ...(distress ? ranks(u, n, fmt(n), RANK.distress) : {}),
        intent: 'investor', target: t, value: distress ? `${fmt(n)} distressed properties${kind && 'count' in kind ? ` (${asked!.words})` : ''}` : 'no distress source', ...(distress ? { period: filingsPeriod(months, r.distress_as_of ?? r.as_of, kind && 'count' in kind ? asked!.words : heldKinds(distressKindsOf(data, [{ state: t.state, city: t.city! }]))) } : {}),
        sentence: distress ? `In ${t.city}, ${t.state}, ${lead}${wholeCity(t)}${noOutcome ? `; ${noOutcome}` : ''}` : `We have no foreclosure or lien filings for ${t.city}, ${t.state}: no distress source covers the city`,
        detail: ['Open filings are counted (distinct properties): a case closed by the window end (discontinued, dismissed, satisfied, terminated or sold at sheriff or commissioner sale) is not.'],
        source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview for ${t.city}, ${t.state}, ${months} months, as of ${r.distress_as_of ?? r.as_of}` }, // the filings' own end (review 15)
        confidence: distress ? r.confidence : 'low', primary: true, uncertain: null,
      };
    }
    const bits = investorBits(r, u, months, windowGap(data, { state: t.state, city: t.city! }, windowMonths(windowEnd(r), months), windowEnd(r))); // the city's sales files
    return {
      // side by side, every place shows the same measure: the share, or that it is unknown
      ...(r.investor_purchase_rate_pct === null ? {} : ranks(u, r.investor_purchase_rate_pct, `${fmt(r.investor_purchase_rate_pct)}%`, RANK.investor)),
      intent: 'investor', target: t, value: r.investor_purchase_rate_pct === null ? `investor share unknown (${unknownShareWhy(r)})` : `${fmt(r.investor_purchase_rate_pct)}% investor purchases`, period: windowPeriod(data, { state: t.state, city: t.city! }, months, windowEnd(r), windowMonths(windowEnd(r), months)),
      // the distressed count may be null (no source for it): then it is not stated
      sentence: `In ${t.city}, ${t.state}, ${u.asks.includes('flip_share') ? FLIP_SHARE_NOT_KEPT : ''}${bits.join(', ')}${distress ? `; ${fmt(r.distressed_pipeline_count!)} distressed properties are in the pipeline` : ''}${wholeCity(t)}${noOutcome ? `; ${noOutcome}` : ''}`,
      detail: [`Market tier: ${r.market_tier}; the investor overview's confidence by sample count: ${r.confidence} (this answer's also weighs the data's age: at most medium past 12 months, low past 36).`],
      source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview for ${t.city}, ${t.state}, ${months} months, as of ${r.as_of}` },
      // the main figure (the investor share) unknown: never high, whatever the sample count says
      confidence: r.investor_purchase_rate_pct === null || u.asks.includes('flip_share') ? minConf(r.confidence, 'medium') : r.confidence, primary: true, uncertain: null,
    };
  }
  return missing('investor', t, await data.hasFamily('investor', keys(tries[0]!)) ? `We have no investor activity data for ${t.city}, ${t.state}` : 'Investor activity data is not part of this build');
}

async function locationFact(data: ResearchData, u: Understanding, t: Target, zip: string, primary: boolean): Promise<Fact> {
  const r = await data.shard<Location>('location-zip', { zip });
  if (!r) return missing('location', t, await data.hasFamily('location-zip', { zip }) ? `We have no location risk data for zip ${zip}` : 'Location risk data is not part of this build');
  if (superfundUnknown(r, zip)) return missing('location', t, superfundUnknown(r, zip)!); // no EPA file read: no count, no score
  const sf = r.superfund_count_1mi > 0 ? `${plural(r.superfund_count_1mi, 'Superfund site')} within 1 mile` : 'no Superfund site within 1 mile';
  // no loaded FEMA map determines the zone (review 18: "is in flood zone D" read as a mapped zone): say it is undetermined
  const where = `Zip ${zip}${r.city ? ` (${r.city}, ${r.state})` : ''}`;
  const rest = `${sf} and an environmental risk score of ${fmt(r.environmental_risk_score)} out of 100 (as of ${r.as_of})`;
  const sentence = floodSentence(r, where, rest); // and a loaded map beside an undetermined zip: flood-maps.ts
  return {
    ...ranks(u, r.environmental_risk_score, `score ${fmt(r.environmental_risk_score)}`, RANK.envRisk), intent: 'location', target: t, value: `zone ${r.flood_zone}, ${r.superfund_count_1mi} Superfund within 1 mi, score ${fmt(r.environmental_risk_score)}`,
    sentence,
    detail: [inline(r.flood_risk_notes) + '.', `Location confidence: ${r.confidence} (by spatial coverage).`],
    source: { type: 'location', category: 'location_risk', citation: `reii warehouse: location risk for ${zip}, as of ${r.as_of}` },
    confidence: r.confidence, primary, uncertain: null,
    zip: { zip, measure: r.environmental_risk_score, group: floodGroup(r), months: null, asOf: r.as_of, superfund: r.superfund_count_1mi > 0, flood: floodMapOf(r.flood_risk_notes) },
  };
}

/** A county's price trend over its zips. With no window asked, the 12-month change, or the 3-month one when fewer
 *  than half the zips with sales have a 12-month change (a source of 13 months: King County's) and more have a
 *  3-month one. */
async function countyTrends(data: ResearchData, u: Understanding, t: Target, top: number | null = null): Promise<Fact[]> {
  const noneWhy = top !== null ? await noZipChange(data, u, t) : null;
  const over = (w: Understanding): Promise<Fact[]> => cityZipFacts(data, t, (z, p) => trendsFact(data, w, { state: t.state, zip: z, from: t.from }).then((f) => ({ ...f, primary: p })), TRENDS_TOPIC(TYPE_WORDS[w.propertyType]!, w.priceLevel), w.targets.length > 1, w.lowEnd, top, noneWhy);
  const measured = (fs: Fact[]): number => fs.filter((f) => f.zip && f.zip.measure !== null).length;
  const facts = await over(u);
  if (u.priceLevel || u.months || measured(facts) * 2 >= facts.filter((f) => f.zip).length) return facts;
  const shorter = await over({ ...u, months: 3 });
  return measured(shorter) > measured(facts) ? shorter : facts;
}

export async function marketFacts(data: ResearchData, u: Understanding, intent: Intent, t: Target): Promise<Fact[]> {
  // a county that is one place with its city (Denver County): the city's sales figures, said (county-city.ts)
  const city = intent === 'trends' || intent === 'comps' ? countyCity(data, t) : null;
  if (city) {
    const reading = countyCityReading(t, city);
    if (!u.readAs.includes(reading)) u.readAs.push(reading);
    return (await marketFacts(data, u, intent, { state: t.state, city: city.name, from: t.from })).map((f) => ({ ...f, target: t }));
  }
  // days on market asked of a zip past its sales: Redfin's figure of the month asked, said (redfin.ts)
  const out = withRedfinDom(data.redfin, u, t, intent, await factsOf(data, u, intent, t));
  return intent === 'trends' && u.asks.includes('price_band') ? out.map(bandNote) : out; // a count above a price: bandNote
}

async function factsOf(data: ResearchData, u: Understanding, intent: Intent, t: Target): Promise<Fact[]> {
  const needZip = (what: string): Fact => missing(intent, t, `${what} is reported per zip code; name a zip or a city in ${data.stateName(t.state)}`);
  switch (intent) {
    case 'comps':
      if (t.zip) return [withZipCity(data, await compsFact(data, u, t, t.zip, true), t.zip)];
      if (t.city || t.area) {
        // each zip's ratio is kept (ZipFigure.ratio), its missing one said once for the city (listRatioFacts)
        const each = { ...u, asks: u.asks.filter((a) => a !== 'list_ratio') };
        const facts = await cityZipFacts(data, t, (z, p) => compsFact(data, each, t, z, p), COMPS_TOPIC(TYPE_WORDS[u.propertyType]!), u.targets.length > 1, u.lowEnd);
        // no zip has comps: the city's monthly price per sqft, else why none (no living area: CT, h74ask "west hartford")
        const ppsf = !t.area && facts.filter((f) => f.primary).every((f) => f.source === null) ? (await cityPpsfFact(data, u, t)) ?? cityNoAreaFact(data, u, t, u.months ?? 6) : facts.every((f) => !f.zip || f.zip.measure === null) ? cityNoAreaFact(data, u, t, u.months ?? 6) : null;
        // the list-to-sale ratio asked: the zips that have one lead, or it is said to be missing there
        const out = u.asks.includes('list_ratio') ? listRatioFacts(t, ppsf ? [ppsf] : facts) : ppsf ? [ppsf] : facts;
        // days on market asked: which zips have it, or that none does and the pace of sales instead (dom-facts.ts)
        const dom = await domFact(data, u, t, facts);
        // which zip sells fastest: days on market alone, or that none is kept; never the zips ranked by price per sqft
        if (dom && SPEED_RANK.test(u.query.toLowerCase()) && !/per (sq|square)|ppsf|\bcomps?\b|comparable|\bprices?\b/.test(u.query.toLowerCase())) return [dom];
        // the zips' Redfin snapshots answer a place without comps (redfin-city.ts): no "no comparable sales" after them
        if (dom?.source?.type === 'redfin' && out.every((f) => f.source === null)) return [dom];
        return dom ? [dom, ...out] : out;
      }
      return [needZip('Comparable-sales data')];
    case 'county':
      return [await countyFact(data, t)];
    case 'trends':
      // a city's (or county's) zips ranked by a year's or a month's count or median: the trends' monthly figures (zip-years.ts);
      // by price: each zip's median sale price over the window (12 months unless asked)
      if (hoodRankAsked(data, u, t)) return [hoodRankFact(data, u, t)]; // a borough's neighbourhoods by sales (hood-ranks.ts)
      if (zipYearRanking(u, t)) return [await zipYearFact(data, u, t, zipYearRanking(u, t)!)];
      // a county's cities ranked likewise, each by its own monthly figures (city-years.ts)
      if (cityYearRanking(u, t)) return [await cityYearFact(data, u, t, cityYearRanking(u, t)!)];
      if (!t.zip && (t.city || t.area) && u.asks.includes('zip_price')) return zipPriceFacts(data, u, t);
      // a neighbourhood its sales source names (hoods.ts): its own sales' count or median, else its zips' changes
      if (t.hood && (u.asks.includes('sales_count') || u.priceLevel || u.years)) {
        const where = areaName(t);
        // none of the type asked by default (Tribeca: condos only): its other type's, said (hood-types.ts)
        const f = hoodOtherType(data, u, t, where, u.asks.includes('sales_count') ? salesCountFact(data, u, t, where)
          : windowPriceFact(data, { ...u, months: u.months ?? 12 }, t, where, null) ?? missing(intent, t, `We have no ${TYPE_WORDS[u.propertyType]} sales of ${where}`));
        // a year asked: a neighbourhood's own sales are kept over its latest months only, said first (county-years.ts)
        return [u.years ? hoodYearsFact(t, u.years, f) : f];
      }
      if (t.hood) return countyTrends(data, u, t);
      // a city's or county's zips ranked by their change ("which zips in Denver rose most"): listed, the end asked first
      const byChange = u.targets.length === 1 ? zipChangeRanking(u, t) : null;
      if (byChange) {
        // a city whose sales carry no zip (Denver's deeds): that said, then the city's own change
        const zipless = t.city && !t.area ? ziplessCity(data, t.state, t.city, u.propertyType) : null;
        if (zipless) return [missing(intent, t, `I don't have the zips of ${t.city}, ${t.state} ranked by price change: ${zipless}`), { ...await trendsFact(data, u, t), target: t }];
        // the change, not the level its "prices" word may also have read
        return countyTrends(data, { ...u, lowEnd: byChange.lowEnd, priceLevel: false }, t, topAsked(u.query) ?? 6);
      }
      // a borough's own market is read through a target of its own (ownMarket): the fact stays the asked place's, so a comparison finds it by that place
      // a zip whose USPS city's figures leave its sales out (98168, mailed as Seattle: Tukwila): said (zip-city.ts)
      if (t.zip) {
        const f = withZipCity(data, { ...await trendsFact(data, u, t), target: t }, t.zip);
        // a price asked of a zip with too few single-family sales: its condo and multi-family sales, said (hood-types.ts)
        return [u.priceLevel && !u.years && !u.asks.includes('sales_count') ? hoodOtherType(data, u, t, `zip ${t.zip}${t.city ? ` (${t.city}, ${t.state})` : ''}`, f) : f];
      }
      if (t.city) return [{ ...await trendsFact(data, u, t), target: t }];
      // a county with a year: its zips' sales of those months listed, never one zip's as the county's (county-years.ts);
      // a count asked of it is its whole year's where its metro's year figure is all its sales, else kept per city or
      // zip, not summed (below)
      if (t.area && u.years && (!u.asks.includes('sales_count') || countyWholeYear(data, u.years, t, u.propertyType) || await countyNoneIn(data, u.years, t, u.propertyType))) {
        const each = await Promise.all([u.years, ...u.years.also ?? []].map((y) => ({ ...u, years: y })).map((w) => countyYearFacts(data, w, t, (z) => trendsFact(data, w, { state: t.state, zip: z, from: t.from }))));
        return each.flat().sort((a, b) => Number(b.primary) - Number(a.primary));
      }
      // a county: its zips' changes (or median prices) side by side, as a city's comps are; a count kept per city
      if (t.area) return u.asks.includes('sales_count') ? [perCityFact(data, intent, t, 'A sales count')] : countyTrends(data, u, t);
      // a whole state's price or sales count: its own market, where the build keeps one (state-market.ts)
      return [stateMarketFact(data, u, t) ?? stateNoMarket(data, u, t)];
    case 'rehab': {
      // demolitions asked of Chicago: kept per community area only, said with their counts (demolitions.ts)
      // a count of permits asked of a zip or city: counted by kind from the permit records (permit-counts.ts)
      const counted = permitCountFacts(data, u, t);
      if (counted) return counted;
      if (u.asks.includes('permit_count') && !permitCountsKept(data) && !u.gaps.includes(NO_PERMIT_COUNTS)) u.gaps.push(NO_PERMIT_COUNTS);
      const demolished = demolitionFact(data, u, t);
      if (demolished) return [demolished];
      if (t.zip) return [await rehabFact(data, u, t, t.zip, true)];
      if (t.city || t.area) {
        const facts = await cityZipFacts(data, t, (z, p) => rehabFact(data, u, t, z, p), REHAB_TOPIC, u.targets.length > 1, u.lowEnd, topAsked(u.query));
        // permits asked of a city no permit source covers nor any score: said so, the permit sources named (permit-areas.ts)
        permitsNotHere(data, u.query, t, facts);
        return facts;
      }
      return [needZip('Rehab momentum')];
    }
    case 'investor': {
        // a county's filings of a year or months asked: its municipalities' of those months (distress-periods.ts)
        const countyPeriods = u.asks.includes('distress') && t.area && !t.city ? distressPeriods(data, u, t) : null;
        if (countyPeriods) return countyPeriods;
        // a county's filings: its municipalities' summed (county-distress.ts)
        const county = u.asks.includes('distress') ? await countyDistressFact(data, u, t) : null;
        if (county) return [county];
        if (t.area && !t.city) return [noFilings(data, u, t, perCityFact(data, intent, t, 'Investor activity'))!];
        // a distress question reads the city as the filings name it (place-prefer.ts), said in the answer
        const d = await distressCity(data, u, t);
        if (d) {
          // the place reader's reading of the words is replaced, however they were cased ("bethel park foreclosures" had
          // "bethel" read as Bethel, CT: review r24)
          const replaced = [d.written, t.city ?? d.written].map((w) => `"${w.toLowerCase()}" as`);
          for (let i = u.readAs.length - 1; i >= 0; i--) if (replaced.some((w) => u.readAs[i]!.toLowerCase().startsWith(w))) u.readAs.splice(i, 1);
          u.readAs.push(d.readAs);
        }
        const periods = u.asks.includes('distress') ? distressPeriods(data, u, d?.target ?? t) : null;
        if (periods) return periods;
        // a zip whose sales all count in another city than its USPS one (98168: Tukwila's): that city's investor figures,
        // said (zip-city.ts); filings name their own municipalities, so a distress count keeps the zip's city
        const placed = t.zip && !d && !u.asks.includes('distress') ? placedCity(data, t.zip) : null;
        const of = placed ? { ...t, city: placed } : t;
        // the fact is of the place counted: the filings' municipality when read as one (its sources, not the first reading's,
        // say whether the figure is of a partial extract: Bethel Park, PA was told of Connecticut's files)
        const f = cityOfZip({ ...await investorFact(data, u, d?.target ?? of), target: d?.target ?? t }, of);
        return [placed ? withZipCity(data, f, t.zip!) : noFilings(data, u, t, f)!]; // none of a place no filings cover: said (no-filings.ts)
      }
    case 'location':
      if (t.zip) return [await locationFact(data, u, t, t.zip, true)];
      if (t.city || t.area) return cityZipFacts(data, t, (z, p) => locationFact(data, u, t, z, p), LOCATION_TOPIC, u.targets.length > 1, u.lowEnd);
      return [needZip('Flood and Superfund risk')];
    default:
      return [];
  }
}
