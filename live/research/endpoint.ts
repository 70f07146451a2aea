// POST /v1/research/query: natural-language questions answered in-process from the build's own data, with a
// source for every fact (docs: warehouse/docs/research.md).
//   understand  intent.ts: intents from the query, places.ts: places from the query and context (pure); a property
//               asked its value or its recorded sales: value-estimate.ts, sale-history.ts
//   retrieve    retrieve.ts gather(): structured regulation records of the asked places and topics (records.ts,
//               legal-facts.ts, rankings.ts), BM25 full-text search over the regulation index (<build>/live/research/,
//               live/research/build.ts), and the mart facts of the build's shards (market-facts.ts, legal-facts.ts:
//               comps, rehab, investor, location, legal) read through the build's ShardReader (data.ts)
//   age         freshness.ts markAge(): a market figure whose data ends over 12 months before the build's data date says so
//   extracts    partial.ts markPartial(): a sales figure of a market whose sales are a sample or partial extract says so
//   types       type-notes.ts markTypes(): a figure of a type that holds others says so after its value too (comparisons)
//   compose     compose.ts compose(): quick (<= 3 sentences) or deep (everything, every citation)
//   rephrase    rephrase.ts: optional, off by default (REII_LLM_URL, read from LiveBuild.settings); a reply that
//               changes a number, a citation, a caveat, a place or a key legal term is discarded (rephraseProblem)
import { countyReading } from './county-reading.ts';
import { barePlace, NRI_SAY, readKinds } from './kinds.ts';
import { nriAnswer, nriBeside, NriScores, nriTargets } from './nri.ts';
import { stateSuperfund, SuperfundSites } from './state-superfund.ts';
import { lowerTown, metroNote, nycCounty } from './place-readings.ts';
import { ziplessCities } from './zipless.ts';
import { askedNotes } from './asked-notes.ts';
import { hazardRisk } from './hazard-risk.ts';
import { populationAnswer } from './population.ts';
import { distressSales } from './sale-words.ts';
import { metroAnswer } from './metro.ts';
import { AddressBook } from './addresses.ts';
import { ParcelBook, readProperty } from './property-place.ts';
import { EstimateBook, valueEstimate } from './value-estimate.ts';
import { sizeAsked, sizeValue, takeSize } from './size-value.ts';
import { countyPair } from './county-pair.ts';
import { saleHistory } from './sale-history.ts';
import { ValuationScores, valuationReliability } from './valuation-reliability.ts';
import { NO_DEADLINE, timeBoxed, unavailable, type Deadline, type LiveBuild, type LiveInstance, type LiveModule } from '../../warehouse/live.ts';
import { acceptRephrase, llmFromSettings, rephrase, type Keep, type LlmOptions } from './rephrase.ts';
export { acceptRephrase, llmFromSettings, numbersIn, rephraseProblem, type Keep, type LlmOptions } from './rephrase.ts';
import { ResearchData } from './data.ts';
import { understand } from './intent.ts';
import type { Context } from './places.ts';
import { compose, type Composed } from './compose.ts';
import { gather } from './retrieve.ts';
import { markAge } from './freshness.ts';
import { markPartial } from './partial.ts';
import { markTypes } from './type-notes.ts';
import { definition } from './glossary.ts';
import { areaHits, asChicago, permitAreasAnswer, permitAreasAsked, permitsAnswer } from './permit-areas.ts';
import { bothReadings } from './area-towns.ts';
import { UNFOUND_LEAD, unfoundPlace } from './unfound.ts';
import { unreadTownWords } from './unread-words.ts';
import { droppedSides, namesakeSides, unreadSides } from './compare-sides.ts';
import { REST_LEAD } from './state-rest.ts';
import { stateClash } from './state-clash.ts';
import { forecastAsked, NO_FORECAST } from './forecast.ts';
import { typesCompared } from './type-words.ts';
import { typeDifference, typesOnly } from './type-diff.ts';
import { formerCountyAnswer, formerCountyNone, formerCountyScope } from './county-market.ts';
import { theBronx, type Depth } from './facts.ts';
import { sqftWords } from './sqft-words.ts';
import { topicTypos } from './topic-typos.ts';
import { rentalWords } from './rental-words.ts';
import { sfAsType } from './sf-type.ts';
import { changeWords } from './change-words.ts';
import { coopCount } from './coop-counts.ts';
import { ownerCountsAnswer } from './owner-counts.ts';
import { stateRanks } from './state-ranks.ts';
import { bestAsked, permitsBeside } from './invest-asked.ts';

export interface ResearchInput {
  query: string;
  context?: Context;
  depth?: Depth;
}

export interface ResearchBody {
  answer: string;
  sources: { type: string; category: string; citation: string }[];
  confidence: 'low' | 'medium' | 'high';
  depth: Depth;
  processing_ms: number;
}

/** Files of the build besides the research index, read when first needed: its address index (addresses.ts), the
 *  location index's NRI county scores (nri.ts), its NPL sites (state-superfund.ts), and the valuation engine's
 *  estimates (value-estimate.ts; `build`: the server's, else read from the build's manifest). */
export interface Lookups { addresses: AddressBook; nri: NriScores; superfund?: SuperfundSites; parcels?: ParcelBook; valuation?: ValuationScores; estimates?: EstimateBook }
export const lookupsOf = (buildDir: string, build?: LiveBuild): Lookups => ({ addresses: AddressBook.ofBuild(buildDir), nri: NriScores.ofBuild(buildDir), superfund: SuperfundSites.ofBuild(buildDir), parcels: ParcelBook.ofBuild(buildDir), valuation: ValuationScores.ofBuild(buildDir), estimates: EstimateBook.ofBuild(buildDir, build) });

export class ResearchEngine {
  /** state names (and "District of Columbia") a rephrase must keep when the draft names them */
  private readonly places: string[];
  /** today: the build's data date (its manifest's as_of, YYYY-MM-DD), against which a market figure's age is told
   *  (freshness.ts, warehouse/data-age.ts); '' tells no age; files: the build's address index and NRI scores, read
   *  on the first question that needs them (lookupsOf) */
  constructor(readonly data: ResearchData, readonly llm: LlmOptions | null = null, private readonly today = '', private readonly files: Lookups | null = null) {
    this.places = [...new Set([...data.stateNames.values(), 'District of Columbia'])];
  }

  /** The answer without the rephrase step. */
  async draft(input: ResearchInput, deadline: Deadline = NO_DEADLINE): Promise<Composed & { depth: Depth }> {
    const depth: Depth = input.depth === 'deep' ? 'deep' : 'quick';
    // a question that only asks what a term means, with no place in its context (else it asks the place's figure)
    const ctx = input.context ?? {};
    const defined = ctx.zip || ctx.city || ctx.state ? null : definition(topicTypos(String(input.query ?? '').slice(0, 2000)), depth);
    if (defined) return { ...defined, depth };
    // per-sqft wordings ("sqft price", "$/sf") read as "price per sqft" (sqft-words.ts); "airbnb", "STR" as "short term rental" (rental-words.ts)
    // a home's size asked with its value ("a 2,000 sq ft house"): taken out of the words read (size-value.ts)
    const { text: unsized, size } = takeSize(sqftWords(rentalWords(topicTypos(String(input.query ?? '').slice(0, 2000))))); // topic words misspelled: topic-typos.ts
    // two counties with one "County" word ("King vs Pierce County"): the word written for both (county-pair.ts)
    const asked = countyPair(unsized, this.data);
    // "New York County" as Manhattan; a town in lower case ending a question that found no place, read capitalised
    const nyc = nycCounty(asked);
    // a zip or city written with a state it is not in ("11201 wa", "seattle tx"): said, the state's words out (state-clash.ts)
    const clash = stateClash(nyc.text, this.data);
    if (clash) nyc.text = clash.text;
    nyc.text = distressSales(nyc.text); // "sheriff sales": the foreclosure filings counted (sale-words.ts)
    const over = changeWords(nyc.text); // "qoq", "month over month": the 3 months' change, said (change-words.ts)
    if (over) nyc.text = over.text;
    let u = understand(nyc.text, ctx, this.data);
    const town = ctx.zip || ctx.city || ctx.state ? null : lowerTown(u, nyc.text, this.data);
    if (town) u = understand(town, ctx, this.data);
    const sf = sfAsType(nyc.text, u.targets); // "sf median price 98103": single-family, not San Francisco (sf-type.ts)
    if (sf) { nyc.text = sf.text; u = understand(sf.text, ctx, this.data); u.readAs.push(sf.readAs); }
    if (nyc.readAs) u.readAs.unshift(nyc.readAs);
    if (clash) u.readAs.unshift(clash.readAs);
    if (over) u.readAs.unshift(over.readAs);
    // the kind of figure asked (kinds.ts): a figure no source records said so, never another; a place named alone
    readKinds(u, asked);
    // FEMA's NRI of a place: its county score from the location index (nri.ts), else said not given apart
    const nriAt = u.notRecorded === NRI_SAY && this.files ? nriTargets(u.query, u.targets, this.data).map((t) => nriAnswer(this.data, t, this.files!.nri)).filter((a) => a !== null) : []; // each place, a county named too
    const people = populationAnswer(this.data, u.query, u.targets); // a place's population: the ACS figure kept (population.ts)
    if (people) return { answer: people.answer, sources: [{ type: 'census', category: 'demographics', citation: people.citation }], confidence: 'high', facts: [], depth };
    const hazard = this.files ? hazardRisk(this.data, u.query, u.targets, this.files.nri) : null; // "hurricane risk": the composite, said (hazard-risk.ts)
    if (hazard) return { answer: hazard.answer, sources: [{ type: 'location', category: 'location_risk', citation: hazard.citation }], confidence: 'medium', facts: [], depth };
    const nri = nriAt.length ? { answer: nriAt.map((a) => a.answer).join(' '), citation: nriAt[0]!.citation } : null;
    if (nri) return { answer: nri.answer, sources: [{ type: 'location', category: 'location_risk', citation: nri.citation }], confidence: 'high', facts: [], depth };
    if (this.files) nriBeside(this.data, u, this.files.nri, NRI_SAY); // the NRI beside another topic: its answer, not a gap
    // Superfund sites of a state: the location index's NPL sites counted by status (state-superfund.ts)
    const npl = this.files?.superfund ? stateSuperfund(u, (code) => this.data.stateName(code), this.files.superfund) : null;
    if (npl) return { answer: depth === 'deep' ? `${npl.answer}\n\nSources: ${npl.citation}` : npl.answer, sources: [{ type: 'location', category: 'location_risk', citation: npl.citation }], confidence: 'high', facts: [], depth };
    barePlace(u);
    const avm = valuationReliability(this.data, u, asked, this.files?.valuation); if (avm) return { ...avm, depth }; // how reliable the valuations are
    const coops = coopCount(this.data, u, depth); if (coops) return { ...coops, depth }; // New York City co-op sales counted (coop-counts.ts)
    const owned = ownerCountsAnswer(this.data, u, depth); if (owned) return { ...owned, depth }; // owners counted where a source names them (owner-counts.ts)
    const ranks = stateRanks(this.data, u); if (ranks) return { ...ranks, depth }; // a state's towns ranked: not kept, said (state-ranks.ts)
    // a sale price or sales count of a metro area: over the counties of its CBSA the build has sales for (metro.ts)
    const metroArea = metroAnswer(this.data, u, asked, depth, this.today);
    if (metroArea) return { answer: metroArea.answer, sources: metroArea.citation ? [{ type: 'sales', category: 'market', citation: metroArea.citation }] : [], confidence: metroArea.confidence, facts: [], depth };
    const metro = metroNote(u, asked, this.data);
    if (metro) u.readAs.push(metro);
    // a street address or a parcel id: its zip from the address index or the property record, or said not found;
    // asked its value, the valuation engine's estimate of the property it matches (value-estimate.ts); asked its
    // recorded sales, the property record's own (sale-history.ts)
    const worth = readProperty(u, asked, this.files, ctx.state);
    const book = this.files?.estimates;
    const own = worth && book ? (worth.history ? saleHistory(u, worth, book, depth, this.data.titles) : await valueEstimate(u, worth, book, depth)) : null;
    const alsoWorth = worth?.also && book ? await valueEstimate(u, worth.also, book, depth) : null; // both asked
    // a Chicago community area named ("Austin vs Humboldt Park", "Pilsen rehab"): its permits, said as read (permit-areas.ts)
    const areas = permitAreasAsked(this.data, u, ctx, u.query);
    // an area name towns elsewhere bear too, asked a market figure with no state: both readings named (area-towns.ts)
    const both = areas || ctx.state || ctx.zip ? null : bothReadings(this.data, u, areaHits(this.data, u.query), u.query);
    if (both) return { answer: both, sources: [], confidence: 'low', facts: [], depth };
    if (areas && !permitsAnswer(u)) asChicago(u, areas);
    else if (areas) {
      const a = permitAreasAnswer(u, areas);
      return { answer: depth === 'deep' ? `${a.answer}\n\nSources: ${a.citation}` : a.answer, sources: [{ type: 'permits', category: 'market', citation: a.citation }], confidence: 'medium', facts: [], depth };
    }
    // a former Connecticut county read as its towns, in a question of no market topic: the state's rules (county-market.ts)
    formerCountyScope(this.data, u);
    // a county named with no state, read as the most populous of its name: said as read (county-reading.ts)
    const county = countyReading(u, input.context ?? {}, this.data);
    if (county) u.readAs.push(county);
    // a former Connecticut county (Fairfield County) in a build without its towns: said plainly (county-market.ts)
    const former = formerCountyAnswer(this.data, u);
    if (former) return { answer: former, sources: [], confidence: 'low', facts: [], depth };
    // a place the build does not know, in a market question: said as not found, never another question's answer
    const future = forecastAsked(u, this.today);
    const unfound = unfoundPlace(u);
    if (unfound) u.unknown.push(`${UNFOUND_LEAD}"${unfound}"`);
    // a town's name written but not read as a place ("baldwin foreclosures"): those words named (unread-words.ts)
    const unread = unfound ? null : unreadTownWords(u, this.data);
    if (unread) u.unknown.push(unread);
    // a side of a comparison no place was read in: said as not found, never dropped silently (compare-sides.ts)
    namesakeSides(u, this.data); // "Kansas City, Kansas vs Kansas City": both sides, the bare one by the namesake rule
    const sides = unfound ? [] : unreadSides(u, this.data);
    for (const s of sides) u.unknown.push(`${UNFOUND_LEAD}"${s}"`);
    for (const s of droppedSides(u, this.data)) u.unknown.push(`${REST_LEAD}${s} in this comparison: ${/ County, /.test(s) ? 'one county is answered per question' : 'it is read alone but not beside the other places'}, so ask it alone`);
    // property types compared ("denver condos vs single family median"): each type's own facts, never the first alone,
    // and their difference (type-diff.ts)
    const types = u.targets.length === 1 ? typesCompared(asked) : [];
    if (types.length) typesOnly(u);
    const sized = !!size && sizeAsked(u, size, [own, alsoWorth].some((f) => f?.source?.type === 'valuation')); // the zip's price per sqft times the size
    permitsBeside(this.data, u); // an investment or overview question of a place with permits: its permit count too
    const best = bestAsked(u); // "best zips for investors": no place is ranked best, said (invest-asked.ts)
    if (best) return { answer: `${best}.`, sources: [], confidence: 'low', facts: [], depth };
    deadline.check(); // before retrieval: the question is read
    const facts = unfound || (sides.length && !u.targets.length) ? [] : await gather(this.data, u, depth);
    if (sized && facts.length) await sizeValue(this.data, u, facts, size);
    const typed = [{ type: u.propertyType as string, fact: facts.find((f) => f.intent === 'trends' || f.intent === 'comps') }];
    for (const type of facts.length ? types.filter((x) => x !== u.propertyType) : []) {
      deadline.check();
      const more = await gather(this.data, { ...u, propertyType: type, intents: u.intents.filter((i) => i === 'trends' || i === 'comps') }, depth);
      facts.splice(facts.findLastIndex((f) => f.intent === 'trends' || f.intent === 'comps') + 1, 0, ...more);
      typed.push({ type, fact: more.find((f) => f.intent === 'trends' || f.intent === 'comps') });
    }
    typeDifference(typed);
    // a former Connecticut county whose towns all lack the figure asked: one answer for the county (county-market.ts)
    formerCountyNone(this.data, u, facts);
    // a zip of a city whose sales carry no zip (Denver): said so, the city's figure offered (zipless.ts)
    ziplessCities(this.data, u, facts);
    markTypes(facts);
    markAge(facts, this.today, u.gaps);
    markPartial(facts, this.data);
    if (alsoWorth) facts.unshift(alsoWorth);
    if (own) {
      // a property's own answer: a regulation found by its words ("sell": a seller's disclosure) is no related record
      for (let i = facts.length - 1; i >= 0; i--) if (facts[i]!.intent === 'search' && !facts[i]!.primary) facts.splice(i, 1);
      facts.unshift(own);
    }
    deadline.check(); // before composing
    const composed = compose(this.data, u, facts, depth);
    // a future price asked: no forecast, said first, then the past trend (forecast.ts)
    if (future && composed.sources.length) composed.answer = `${NO_FORECAST} ${composed.answer}`;
    const notes = await askedNotes(this.data, u, asked, composed.sources, composed.answer); // what a figure is not, said (asked-notes.ts)
    if (notes.length) composed.answer = `${composed.answer} ${notes.map((n) => `${n}.`).join(' ')}`;
    return { ...composed, depth };
  }

  async answer(input: ResearchInput, deadline: Deadline = NO_DEADLINE): Promise<ResearchBody> {
    const started = performance.now();
    const d = await this.draft(input, deadline);
    deadline.check(); // before the rewording
    let text = d.answer = theBronx(d.answer);
    if (this.llm && d.sources.length > 0) {
      const facts = d.facts.map((f) => [f.sentence, ...f.detail].join(' ')).join('\n') + '\n' + d.sources.map((s) => s.citation).join('\n');
      const r = await rephrase(this.llm, d.answer, facts, d.depth);
      const keep: Keep = { citations: d.sources.map((s) => s.citation), places: this.places };
      if (r !== null && acceptRephrase(d.answer, facts, r, d.depth, keep)) text = r.trim();
    }
    return { answer: text, sources: d.sources, confidence: d.confidence, depth: d.depth, processing_ms: Number((performance.now() - started).toFixed(2)) };
  }
}

const research: LiveModule<ResearchInput> = {
  name: 'research',
  async load(build: LiveBuild): Promise<LiveInstance<ResearchInput>> {
    let data: ResearchData | null = null;
    try {
      data = ResearchData.fromBuild(build.dir, build.shards);
    } catch {
      data = null;
    }
    if (!data) {
      return unavailable(`research data is not available in build ${build.buildId}`);
    }
    const engine = new ResearchEngine(data, llmFromSettings(build.settings), build.asOf, lookupsOf(build.dir, build));
    // time-boxed (liveTimeoutMs): past it, at a check between stages, a 504 upstream_timeout (warehouse/live.ts)
    return { handle: (input) => timeBoxed(build.settings.liveTimeoutMs, async (deadline) => ({ ok: true, body: await engine.answer(input, deadline) })) };
  },
};

export default research;
