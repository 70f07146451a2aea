// Retrieval for POST /v1/research/query: every fact a question needs, for each understood topic and place (records
// of the regulation index, the build's shards), rankings when no place is named, and records found by BM25
// full-text search over the question's topic words (live/research/text.ts). Rules: warehouse/docs/research.md.
import type { ResearchData, RegulationDoc } from './data.ts';
import { LEGAL_INTENTS, LICENSING, type Understanding } from './intent.ts';
import { queryTerms } from './text.ts';
import { fmt, missing, placeName, type Depth, type Fact } from './facts.ts';
import { placedSay } from './not-recorded.ts';
import { NO_REDEMPTION, regFact, regSource } from './records.ts';
import { increaseNoticeFact, legalFacts, legalRiskFacts, squatterFact } from './legal-facts.ts';
import { marketFacts } from './market-facts.ts';
import { rankingFacts } from './rankings.ts';
import { extractWords, partialOf } from './partial.ts';
import { licensingFacts } from './licensing.ts';
import { pairedRecords } from './search-pairs.ts';
import { permitsWithoutPlace } from './permit-periods.ts';
import { slug } from '../../warehouse/layout.ts';
import { taxSaleNotHeld } from './tax-sale-held.ts';

/** The market topics, as a ranking refusal names them. */
const MARKET_NOUNS: Partial<Record<string, string>> = {
  comps: 'price per sqft', trends: 'sale prices and price trends', rehab: 'rehab momentum', investor: 'investor activity', location: 'flood and Superfund risk',
};

/** A question that ranks places ("which city", "where", "highest", "top"): the investor ranking answers only it. */
const RANK_CUE = /\b(which|what|where|rank\w*|top|highest|lowest|most|least|best|worst|biggest|largest)\b/i;

/** The cities with a known investor purchase rate, highest first (lowest first when the low end is asked). */
function investorRanking(data: ResearchData, rates: NonNullable<NonNullable<ResearchData['market']>['investor_rates']>, lowEnd: boolean): Fact {
  const list = lowEnd ? [...rates].reverse() : rates;
  // a city whose sales are a sample or partial extract says so (partial.ts)
  const extract = (r: (typeof rates)[number]): string => { const p = partialOf(data, [{ state: r[0], city: r[1] }]); return p.length ? `; its sales are ${extractWords(p)}` : ''; };
  const rate = (r: (typeof rates)[number]): string => `${r[1]}, ${r[0]} ${fmt(Math.round(r[2] * 10) / 10)}% (12 months to ${r[3]}${extract(r)})`;
  const [first, ...rest] = list;
  return {
    intent: 'investor', target: null, value: rate(first!),
    sentence: `Investor purchase rates are known only for the ${rates.length} ${rates.length === 1 ? 'city' : 'cities'} whose sales records carry buyer names; of ${rates.length === 1 ? 'it' : 'these'}, the ${lowEnd ? 'lowest' : 'highest'} is ${rate(first!)}${rest.length ? `, then ${rest.slice(0, 4).map(rate).join(', ')}` : ''}; every other city's share is unknown, not low`,
    detail: ['The investor purchase rate is the share of arm\'s-length purchases with a known buyer name whose buyer is named as a company (an LLC, corporation, partnership or business trust; warehouse/docs/market.md "Investor classifier").'],
    source: { type: 'investor', category: 'market', citation: `reii warehouse: investor overview, every city with buyer names, 12 months` },
    confidence: 'medium', primary: true, uncertain: null,
  };
}

/** Regulation records of the places in question ranked by BM25 over the question's topic words. */
export function searchRecords(data: ResearchData, u: Understanding, limit: number, minCoverage: number): { doc: RegulationDoc; score: number; coverage: number }[] {
  const terms = queryTerms(u.topicText);
  if (terms.length === 0) return [];
  const states = new Set(u.targets.map((t) => t.state));
  const cities = new Set(u.targets.filter((t) => t.city).map((t) => `${t.state}|${slug(t.city!)}`));
  const allow = (i: number): boolean => {
    const d = data.docs[i]!;
    if (states.size && !states.has(d.state)) return false;
    if (d.level === 'city') return cities.has(`${d.state}|${slug(d.city ?? '')}`);
    return d.status === 'active';
  };
  return data.bm25.search(terms, allow).slice(0, limit * 4)
    .map((s) => ({ doc: data.docs[s.doc]!, score: s.score, coverage: data.bm25.coverage(terms, s.matched) }))
    .filter((s) => s.coverage >= minCoverage)
    .slice(0, limit);
}

/** Gathers every fact a question needs. */
export async function gather(data: ResearchData, u: Understanding, depth: Depth): Promise<Fact[]> {
  const facts: Fact[] = [];
  const intents = u.intents;
  // licensing or registering a rental: the records on it, or that there are none (never a record sharing a word)
  if (intents.length === 0 && LICENSING.test(u.query)) return licensingFacts(data, u);
  if (intents.length === 0) {
    // a topic no source records: said, with what we cover, rather than a record that only shares its words
    if (u.notRecorded) return [missing('search', u.targets[0] ?? null, `${placedSay(u.notRecorded, u.targets[0] ? placeName(data, u.targets[0]) : null)}; our research covers landlord-tenant, eviction, foreclosure, tax sale, rent control and adverse possession rules, plus sale prices and trends, comparable sales, rehab momentum, investor activity and flood and Superfund risk`)];
    // no known topic: full-text search over the regulations of the named places
    if (u.targets.length === 0) {
      const hit = u.unknown.length ? undefined : searchRecords(data, u, 1, 0.5)[0];
      if (hit) return [missing('search', null, `I don't have an answer without a place: the closest topic we record, ${hit.doc.category.replaceAll('_', ' ')} (${hit.doc.subcategory.replaceAll('_', ' ')}), is recorded per state, so name a state, city or zip code`)];
      return [];
    }
    const hits = searchRecords(data, u, depth === 'quick' ? 1 : 5, 0.5);
    for (const [i, h] of hits.entries()) {
      const t = u.targets.find((x) => x.state === h.doc.state) ?? u.targets[0]!;
      facts.push({ ...regFact('search', t, h.doc, data.stateName(h.doc.state), i === 0), confidence: 'medium' });
    }
    // places compared: each its own record of the kind found first (search-pairs.ts), never "no data" beside it
    if (hits[0] && u.targets.length >= 2) facts.push(...pairedRecords(data, u.targets, hits[0].doc, facts));
    return facts;
  }
  if (u.targets.length === 0) {
    for (const intent of intents) if (u.ranking) facts.push(...rankingFacts(data, intent, u.ranking, depth, u.threshold, u.category));
    // a market figure asked with no city or zip ("which city has the highest investor purchase rate?"): what is missing
    const market = intents.filter((i) => MARKET_NOUNS[i]);
    // which city has the most investor buying: the cities whose records carry buyer names, ranked (never for places
    // compared that were not read, "compare foo and bar", nor where none is ranked, "is real estate a good investment")
    const rates = data.market?.investor_rates;
    // distressed properties asked with no city: the pipeline is counted per city, never answered with the investor ranking
    // a count of permits asked with no place: a place asked for, with the permit files (permit-periods.ts)
    const permits = facts.length === 0 && u.asks.includes('permit_count') && u.unknown.length === 0 ? permitsWithoutPlace(data) : null;
    if (permits) facts.push(permits);
    if (facts.length === 0 && u.asks.includes('distress') && u.unknown.length === 0) facts.push(missing('investor', null, "I don't have a count of distressed properties (pre-foreclosure, tax-delinquent or lien filings) without a city: the pipeline is counted per city, with no ranking across the country or a state; name a city"));
    if (facts.length === 0 && intents.includes('investor') && rates?.length && u.unknown.length === 0 && !u.comparison && RANK_CUE.test(u.query)) facts.push(investorRanking(data, rates, u.lowEnd));
    if (facts.length === 0 && market.length && u.unknown.length === 0) {
      // days on market asked ("where do homes sell fastest"): that figure's ranking said missing, never price per sqft's
      const dom = u.asks.includes('dom') && !/per (sq|square)|ppsf|\bcomps?\b/i.test(u.query);
      const what = market.map((i) => (i === 'comps' && dom ? 'days on market' : MARKET_NOUNS[i]!)).join(' and ');
      const kept = dom ? 'is known per zip code only where a Redfin zip snapshot stands for its sales window (the sales records carry no listing dates)' : `${market.length > 1 ? 'are' : 'is'} kept per city or zip code`;
      facts.push(missing(market[0]!, null, `I don't have a ranking of cities or zips on ${what}: ${what} ${kept}, with no ranking across the country or a state; name a city or a county (its zips are then compared, highest and lowest) or a zip code`));
    }
    return facts;
  }
  // the notice before a rent increase: what the place's rent records say of it, or that none is recorded, first
  if (u.asks.includes('increase_notice') && intents.includes('rent_control')) for (const t of u.targets) facts.push(increaseNoticeFact(data, t));
  for (const intent of intents) {
    for (const t of u.targets) {
      if (intent === 'legal_risk' || intent === 'landlord_friendliness') facts.push(...await legalRiskFacts(data, u, intent, t));
      else if (LEGAL_INTENTS.has(intent)) {
        // the redemption period asked with the tax sale ("redemption period for tax liens"): one record, whose tax sale
        // sentence gives the period; the redemption fact is kept only to say none is recorded
        const own = legalFacts(data, intent, t);
        facts.push(...(intent === 'redemption' && intents.includes('tax_sale') ? own.filter((f) => f.primary && f.value === NO_REDEMPTION) : own));
        if (intent === 'adverse_possession') { const s = await squatterFact(data, t); if (s) facts.push(s); }
        // a tax sale asked of a place whose filing records hold other kinds: said not recorded beside the rule (h74ask)
        if (intent === 'tax_sale') { const n = taxSaleNotHeld(data, t); if (n) facts.push(n); }
      } else facts.push(...await marketFacts(data, u, intent, t));
    }
  }
  // a topic we cannot answer directly for a place, but a supporting record can help: show it (medium)
  for (const intent of intents) {
    for (const t of u.targets) {
      const group = facts.filter((f) => f.intent === intent && f.target === t);
      const prim = group.filter((f) => f.primary);
      if (prim.length === 0 || prim.some((f) => f.confidence !== 'low')) continue;
      const support = group.find((f) => !f.primary && f.source !== null && f.confidence !== 'low');
      if (!support) continue;
      support.primary = true;
      support.confidence = 'medium';
      for (const f of prim) f.confidence = 'medium';
    }
  }
  // a county asked is geography: no regulation record is related to it
  if (depth === 'deep' && !intents.every((i) => i === 'county')) {
    // related records by full-text search, not already used
    const used = new Set(facts.map((f) => f.source?.citation));
    const usedIds = new Set<string>();
    for (const f of facts) if (f.source?.type === 'regulation') usedIds.add(f.source.citation);
    for (const h of searchRecords(data, u, 4, 0.5)) {
      if (used.has(regSource(h.doc).citation) && usedIds.has(regSource(h.doc).citation)) continue;
      const t = u.targets.find((x) => x.state === h.doc.state) ?? u.targets[0]!;
      const f = regFact('search', t, h.doc, data.stateName(h.doc.state), false);
      f.confidence = 'medium';
      if (!facts.some((x) => x.detail[0] === f.detail[0])) facts.push(f);
    }
  }
  return facts;
}
