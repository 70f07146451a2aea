// Composing the answer of POST /v1/research/query: the gathered facts (retrieve.ts) in plain English with a source
// for every fact. Templates and confidence rules: warehouse/docs/research.md.
//
//   quick  at most three sentences: up to two fact sentences (one per intent, places side by side in a
//          comparison) and, for legal topics, the not-legal-advice sentence; only the facts shown are cited
//   deep   every relevant record: the fact sentences, each record's own summary with its citation, effective and
//          review dates, uncertainty notes, related records found by full-text search, caveats, and a closing
//          "Sources:" list that repeats every citation
import { placeNoSalesWhy, zipNoSalesWhy } from './county-no-sales.ts';
/** A compared place's why of no sales (": no sales source ...") in brackets after its "no data". */
const noSales = (why: string): string => (why ? ` (${why.replace(/^: /, '')})` : '');
import type { ResearchData } from './data.ts';
import { LEGAL_INTENTS, type Intent, type Understanding } from './intent.ts';
import { minConf, NOT_LEGAL_ADVICE, placeName, plural, type Confidence, type Depth, type Fact, type Source } from './facts.ts';
import { TYPE_WORDS } from './sales-facts.ts';
import { FOREIGN_PLACES } from './place-words.ts';
import { UNFOUND_LEAD } from './unfound.ts';
import { REST_LEAD } from './state-rest.ts';
import { sidesMissed } from './compare-sides.ts';
import { likeForLike } from './like-for-like.ts';
import { UNREAD_LEAD } from './unread-words.ts';
import { isEnglishWord } from '../places/english.ts';
import { distressCompared, distressLabel, distressSide, noFilingsFact } from './distress-sides.ts';

const INTENT_LABEL: Record<Intent, string> = {
  eviction_notice: 'Nonpayment eviction notice', eviction_timeline: 'Uncontested eviction timeline', just_cause: 'Just-cause eviction',
  security_deposit: 'Security deposit limit', foreclosure: 'Foreclosure type', tax_sale: 'Tax sale (lien or deed, rate, redemption)',
  redemption: 'Tax sale redemption period', surplus: 'Surplus proceeds after a tax sale', rent_control: 'Rent control', adverse_possession: 'Adverse possession period',
  comps: 'Comparable sales', trends: 'Price trend', rehab: 'Rehab momentum', investor: 'Investor activity', location: 'Flood and Superfund risk',
  legal_risk: 'Market legal risk', landlord_friendliness: 'Landlord friendliness', county: 'County',
};

/** The label of an intent's figures; a price level asked of the trends is its median sale price. */
function intentLabel(intent: Intent | 'search' | 'none', u: Understanding): string {
  if (intent === 'search' || intent === 'none') return 'Closest matching rule';
  // the type counted named (h67ask: "which borough has the most sales" listed Manhattan's 74 single-family sales unlabelled)
  if (intent === 'trends' && u.asks.includes('sales_count')) return `Arm's-length ${TYPE_WORDS[u.propertyType]} sales`;
  return intent === 'trends' && u.priceLevel ? `Median ${TYPE_WORDS[u.propertyType]} sale price` : INTENT_LABEL[intent];
}

export interface Composed { answer: string; sources: Source[]; confidence: Confidence; facts: Fact[] }

function cap1(s: string): string { return s.charAt(0).toUpperCase() + s.slice(1); }
const sentenceOf = (s: string): string => { const t = cap1(s.trim()); return /[.!?]$/.test(t) ? t : `${t}.`; };

function dedupeSources(list: (Source | null)[]): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const s of list) {
    if (!s) continue;
    const k = `${s.type}|${s.category}|${s.citation}`;
    if (!seen.has(k)) { seen.add(k); out.push(s); }
  }
  return out;
}

/** The one rule for a comparison's winner (ranks.ts): the places whose facts of the topic carry a rank, the one the
 *  question asks for (its score highest) named with its figure ("so zip 98117 (Seattle, WA) is the cheaper
 *  ($554,750)"), in a superlative for three or more places, "of the 2 with a figure" when a place has none; places tied
 *  at the top are said tied ("so Ohio and Michigan are tied (77.2 out of 100 each)"); '' when fewer than two have one. */
export function verdict(data: ResearchData, targets: Understanding['targets'], facts: Fact[]): string {
  // figures of different periods, or of months covered differently, are not ranked (like-for-like.ts says why), but
  // for the largest like group of three or more, ranked among themselves
  const like = likeForLike(data, targets, facts);
  if (!like.rank) return like.group ? verdict(data, like.group.targets, facts).replace(/^, so /, `, so of the ${like.group.targets.length} figures of ${like.group.said}, `) : '';
  // one figure compared: the kind of rank most places have (a city's legal risk is never ranked against a state's
  // landlord friendliness), each place's first of that kind
  const kinds = [...new Set(facts.flatMap((f) => (f.ranks && targets.includes(f.target!) ? [f.ranks.words[0]] : [])))];
  const all = (f: Fact): NonNullable<Fact['ranks']>[] => [...(f.ranks ? [f.ranks] : []), ...(f.moreRanks ?? [])];
  const of = (kind: string): { t: Understanding['targets'][number]; r: NonNullable<Fact['ranks']> }[] => targets.flatMap((t) => {
    const r = facts.filter((f) => f.target === t).flatMap(all).find((x) => x.words[0] === kind);
    return r ? [{ t, r }] : [];
  });
  const ranked = kinds.map(of).reduce<ReturnType<typeof of>>((a, b) => (b.length > a.length ? b : a), []);
  if (ranked.length < 2) return '';
  // the further figures ranked (the other end of a figure, a change beside a price level), each its own winner after it
  const more = [...new Set(facts.flatMap((f) => (targets.includes(f.target!) ? (f.moreRanks ?? []).map((x) => x.words[0]) : [])))]
    .filter((k) => k !== ranked[0]!.r.words[0]).map(of).filter((x) => x.length >= 2);
  // three or more ranked with one winner: the whole order of the first figure after every winner, so a ranking asked
  // ("which borough has the highest median price") places each place, not the first alone (review 20), once where both
  // ends are asked
  const top = Math.max(...ranked.map((x) => x.r.score));
  const order = ranked.length > 2 && ranked.filter((x) => x.r.score === top).length === 1
    ? `; in order: ${[...ranked].sort((a, b) => b.r.score - a.r.score).map((x, i) => `${i + 1}. ${placeName(data, x.t)} ${x.r.shown}`).join(', ')}` : '';
  return `, so ${[ranked, ...more].map((x) => winner(data, targets, x)).join(', and ')}${order}`;
}

/** The winner of one figure ranked ("zip 98117 (Seattle, WA) is the cheaper ($554,750)"), or the places tied. */
function winner(data: ResearchData, targets: Understanding['targets'], ranked: { t: Understanding['targets'][number]; r: NonNullable<Fact['ranks']> }[]): string {
  const top = Math.max(...ranked.map((x) => x.r.score));
  const first = ranked.filter((x) => x.r.score === top);
  const r = first[0]!.r;
  const names = first.map((x) => placeName(data, x.t)).join(' and ');
  const some = ranked.length < targets.length;
  if (first.length === ranked.length) return `${names} are tied (${r.shown} each)${some ? `, the only ${ranked.length} with a figure` : ''}`;
  const among = some ? ` of the ${ranked.length} with a figure` : '';
  if (first.length > 1) return `${names} are tied ${r.tie}${among} (${r.shown} each)`;
  return `${names} ${r.words[targets.length > 2 ? 1 : 0]}${among} (${r.shown})`;
}

/** The places a question names outside coverage, said: a foreign country is outside the United States (US states only),
 *  and a territory, an unknown zip or city has no data (`lead` them: `why`). */
function uncovered(unknown: readonly string[], lead: string, why: string): string {
  const abroad = unknown.filter((x) => FOREIGN_PLACES.test(x));
  const unfound = unknown.filter((x) => x.startsWith(UNFOUND_LEAD));
  const rest = unknown.filter((x) => x.startsWith(REST_LEAD));
  const unread = unknown.filter((x) => x.startsWith(UNREAD_LEAD));
  const other = unknown.filter((x) => !abroad.includes(x) && !unfound.includes(x) && !rest.includes(x) && !unread.includes(x));
  return [
    ...unread.map((x) => x.slice(UNREAD_LEAD.length)),
    ...rest.map((x) => `We have no data for ${x.slice(REST_LEAD.length)}`),
    unfound.length ? `I could not find ${unfound.join(' or ')} among the build's cities, zip codes, counties and states (nicknames and regions such as "So Cal" are not read); name a city, a zip code or a county` : '',
    abroad.length ? `We don't have data for ${abroad.join(' or ')}: ${abroad.length > 1 ? 'they are' : 'it is'} outside the United States, and we cover US states only (the 50 states and DC, their cities and zip codes)` : '',
    other.length ? `${lead} ${other.join(', ')}: ${why}` : '',
  ].filter(Boolean).join('; ');
}

/** A sentence put after a lead ("I don't have that: ..."), its first letter in lower case unless it starts with a name
 *  (review 30: "shelton, CT has no month ..."): a place said with its state ("Federal Way, WA"), a state's name, or any
 *  word that is no common English one (records.ts reads a rule's terms likewise). */
function lowerLead(data: ResearchData, s: string): string {
  const w = /^[A-Z][a-z]*\b/.exec(s)?.[0];
  const named = /^[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*, [A-Z]{2}\b/.test(s) || [...data.stateNames.values()].some((n) => s.startsWith(n));
  return w && isEnglishWord(w) && !named ? `${s.charAt(0).toLowerCase()}${s.slice(1)}` : s;
}

export function compose(data: ResearchData, u: Understanding, facts: Fact[], depth: Depth): Composed {
  const legal = u.intents.some((i) => LEGAL_INTENTS.has(i)) || facts.some((f) => f.source?.type === 'regulation');
  const primary = facts.filter((f) => f.primary);
  const answered = primary.filter((f) => f.source !== null || f.confidence !== 'low');

  // nothing to say: an honest "don't have"
  if (answered.length === 0) {
    const why: string[] = [];
    if (u.unknown.length) why.push(uncovered(u.unknown, "We don't have data for", 'coverage is the 50 states and DC, their cities and zip codes'));
    const low = primary.filter((f) => f.confidence === 'low');
    const miss = low.map((f) => f.sentence);
    // a comparison: each side's reason, never the first side's alone (compare-sides.ts)
    const sides = depth === 'quick' && u.targets.length >= 2 ? sidesMissed(u.targets, low, (t) => placeName(data, t), 3 - why.length) : [];
    if (sides.length) why.push(...sides);
    // quick: each topic's first reason ("permits and sales in denver 2020": both, never the sales' alone), two at most
    else if (miss.length) why.push(...(depth === 'quick' ? low.filter((f, i) => low.findIndex((g) => g.intent === f.intent) === i).map((f) => f.sentence).slice(0, 2) : miss));
    if (u.intents.length === 0 && why.length === 0) why.push(u.targets.length
      ? `I don't have data that answers this question for ${u.targets.map((t) => placeName(data, t)).join(' and ')}: our research covers eviction, security deposit, foreclosure, tax lien and deed, rent control and adverse possession rules, plus comparable sales, rehab momentum, investor activity and flood and Superfund risk`
      : "I don't have data that answers this question: our research covers state and local landlord-tenant, eviction, foreclosure, tax sale, rent control and adverse possession rules, plus comparable sales, rehab momentum, investor activity and flood and Superfund risk");
    else if (why.length === 0 && u.targets.length === 0) why.push(`I don't have an answer without a place: these rules differ by state, so name a state (or a city or zip code)${u.ranking === null && u.intents.length ? '' : ''}`);
    if (why.length === 0) why.push("I don't have data that answers this question");
    const text = (depth === 'quick' ? why.slice(0, sides.length ? 3 : 2) : why).map((s) => sentenceOf(s.startsWith('We have no') || s.startsWith('We don') || s.startsWith('I don') || s.startsWith('I could not') || s.startsWith('I did not') ? s : `I don't have that: ${lowerLead(data, s)}`)).join(' ');
    // the namesake read is said here too: "no sales in Kansas City, MO" may not be the Kansas City asked about
    return { answer: u.readAs.length ? `Reading ${u.readAs.join('; ')}: ${text}` : text, sources: [], confidence: 'low', facts };
  }

  let confidence: Confidence = 'high';
  for (const f of primary) confidence = minConf(confidence, f.source === null && f.confidence === 'low' ? 'medium' : f.confidence);
  if (u.intents.length === 0) confidence = minConf(confidence, 'medium');

  const cited: Fact[] = [];
  const comparison = u.targets.length >= 2;
  const intentOrder = [...new Set(primary.map((f) => f.intent))];

  if (depth === 'quick') {
    // each sentence with the facts it uses: only the facts shown are cited
    const said: { text: string; facts: Fact[] }[] = [];
    if (comparison) {
      for (const intent of intentOrder.slice(0, 2)) {
        const used: Fact[] = [];
        const per = u.targets.map((t) => {
          const fs = primary.filter((f) => f.intent === intent && f.target === t);
          const shown = fs.filter((f) => f.value !== null);
          used.push(...fs);
          const val = shown.length ? shown.map((f) => f.value).join(', ') : `no data${noSales(intent === 'trends' || intent === 'comps' ? placeNoSalesWhy(data, t, true) || zipNoSalesWhy(data, t) : '')}`; // why, as alone (county-no-sales.ts)
          return distressCompared(u, intent) ? distressSide(data, t, fs) : `${placeName(data, t)} ${val}`;
        });
        const dated = primary.find((f) => f.intent === intent && f.source?.type === 'regulation');
        const when = dated ? dated.sentence.match(/last reviewed (\d{4}-\d{2}-\d{2})/)?.[1] : null;
        // each figure's data date: its citation's "as of", or the end of the window it pools ("3 months to 2023-09-29")
        const asOf = primary.filter((f) => f.intent === intent && !(distressCompared(u, intent) && noFilingsFact(f))).map((f) => f.source?.citation.match(/(?:as of|months? to) (\d{4}-\d{2}-\d{2})/)?.[1]).filter(Boolean);
        const label = distressCompared(u, intent) ? distressLabel(u) : intentLabel(intent, u);
        said.push({ text: `${label}${when ? ` (rules last reviewed ${when})` : asOf.length ? ` (data as of ${[...new Set(asOf)].join(', ')})` : ''}: ${per.join('; ')}${verdict(data, u.targets, primary.filter((f) => f.intent === intent))}${likeForLike(data, u.targets, primary.filter((f) => f.intent === intent)).note}`, facts: used });
      }
    } else {
      // one sentence per intent (two for a single intent with two primary facts), at most two in all
      for (const intent of intentOrder) {
        if (said.length >= 2) break;
        const fs = primary.filter((f) => f.intent === intent && f.sentence && !said.some((x) => x.text === f.sentence));
        if (fs.length === 0) continue;
        const take = intentOrder.length === 1 ? fs.slice(0, 2 - said.length) : fs.slice(0, 1);
        for (const f of take) said.push({ text: f.sentence, facts: [f] });
      }
      // rankings: the listed states' records back the first sentence
      if (u.ranking && said.length) said[0]!.facts.push(...primary.filter((f) => f.sentence === ''));
    }
    if (u.gaps.length) { said.splice(1, said.length, { text: u.gaps[0]!, facts: [] }); confidence = minConf(confidence, 'medium'); }
    if (u.unknown.length) {
      // a place we do not cover is never dropped silently: say so (in place of a second fact sentence), at most medium
      const note = uncovered(u.unknown, 'We have no data for', 'coverage is the 50 states and DC');
      if (u.gaps.length) said[1] = { text: `${said[1]!.text.replace(/\.$/, '')}; ${note.charAt(0).toLowerCase()}${note.slice(1)}`, facts: [] };
      else said.splice(1, said.length, { text: note, facts: [] });
      confidence = minConf(confidence, 'medium');
    }
    // a city read among namesakes is said before the first fact ("Reading "Portland" as Portland, OR (...): ...")
    if (u.readAs.length && said[0]) said[0] = { ...said[0], text: `Reading ${u.readAs.join('; ')}: ${said[0].text}` };
    const texts = said.map((x) => x.text);
    if (legal) texts.push(NOT_LEGAL_ADVICE);
    const answer = texts.slice(0, 3).map(sentenceOf).join(' ');
    const sources = dedupeSources(said.flatMap((x) => x.facts).map((f) => f.source));
    return { answer, sources, confidence, facts };
  }

  // deep
  const paras: string[] = [];
  const names = u.targets.map((t) => placeName(data, t));
  const topics = [...facts.flatMap((f) => f.topic ?? []), ...(u.intents.length ? u.intents.map((i) => intentLabel(i, u).toLowerCase()) : ['the closest matching rules'])];
  paras.push(`Question read as: ${topics.join(', ')}${names.length ? ` for ${names.join(' and ')}` : ' across every state'}${u.propertyType !== 'sfr' && u.intents.includes('comps') ? ` (${TYPE_WORDS[u.propertyType]})` : ''}.${u.notes.length + u.readAs.length ? ` Note: ${[...u.notes, ...u.readAs].join('; ')}.` : ''}`);
  if (comparison) {
    for (const intent of intentOrder) {
      const rows = u.targets.map((t) => {
        const fs = primary.filter((f) => f.intent === intent && f.target === t && f.value !== null);
        return distressCompared(u, intent) ? distressSide(data, t, primary.filter((f) => f.intent === intent && f.target === t)) : `${placeName(data, t)}: ${fs.length ? fs.map((f) => f.value).join(', ') : 'no data'}`;
      });
      const label = distressCompared(u, intent) ? distressLabel(u) : intentLabel(intent, u);
      paras.push(`${label} side by side: ${rows.join('; ')}${verdict(data, u.targets, primary.filter((f) => f.intent === intent))}${likeForLike(data, u.targets, primary.filter((f) => f.intent === intent)).note}.`);
    }
  }
  for (const f of facts) {
    if (f.intent === 'search' && !f.primary) continue;
    const lines = [f.sentence ? sentenceOf(f.sentence) : '', ...f.detail].filter(Boolean);
    if (lines.length) paras.push(lines.join(' '));
    cited.push(f);
  }
  const related = facts.filter((f) => f.intent === 'search' && !f.primary);
  if (related.length) paras.push(`Related records found by full-text search: ${related.map((f) => `${f.detail[0] ?? ''} (${f.source?.citation ?? ''})`).join(' ')}`);
  const caveats: string[] = [...u.gaps];
  if (u.gaps.length) confidence = minConf(confidence, 'medium');
  if (u.unknown.length) { caveats.push(uncovered(u.unknown, 'No data for', 'coverage is the 50 states and DC')); confidence = minConf(confidence, 'medium'); }
  const unc = facts.filter((f) => f.uncertain).length;
  if (unc) caveats.push(`${plural(unc, 'fact')} above ${unc === 1 ? 'is' : 'are'} marked unverified or conflicting in our sources; confirm with the statute or ordinance`);
  if (facts.some((f) => f.intent === 'eviction_timeline' || f.detail[0]?.includes('estimate'))) caveats.push('Eviction timelines are secondary-source estimates for uncontested cases, not legal deadlines');
  if (facts.some((f) => f.source && ['comps', 'trends', 'rehab', 'investor', 'location', 'sales'].includes(f.source.type))) caveats.push('Market and location figures describe the period up to their as-of date, which may be years before today');
  if (legal) caveats.push(NOT_LEGAL_ADVICE.replace(/\.$/, ''));
  if (caveats.length) paras.push(`Caveats: ${caveats.join('. ')}.`);
  const sources = dedupeSources([...cited, ...related].map((f) => f.source));
  paras.push(`Sources: ${sources.map((s) => s.citation).join(' | ')}`);
  return { answer: paras.join('\n\n'), sources, confidence, facts };
}

/** Counts sentences the way a reader would: ends at . ! ? followed by a space and a capital, not after St./U.S./v. */
export function countSentences(text: string): number {
  const cleaned = text.replace(/\b(St|Ft|Mt|U\.S|v|Ann|Stat|Code|Rev|Gen|Tex|Cal|No|Sec|Mun|Ord|Prop|Civ|Gov|Loc|Ch|et seq)\.(?=\s)/g, '$1');
  return cleaned.split(/(?<=[.!?])\s+(?=[A-Z"(])/).filter((s) => s.trim().length > 0).length;
}
